"""A traceback or stack trace the same inside as one shown before: one line names both ranges."""

from __future__ import annotations

from rtk.fold.foldline import size_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.state import FoldState as Folder

BODY_CHARS = 1 << 20  # characters of block insides remembered, to name a repeated one by its range


def close_block(f: Folder) -> None:
    """A traceback or stack trace ended: its inside, the same as a block's shown before, becomes one line.

    Its last line (the message) stays whole; its first stays too unless it is the same as
    that block's first (``Traceback (most recent call last):``, not a Java exception line).
    """
    blk, f._blk = f._blk, []
    mid = blk[1:-1]
    if len(mid) < 3 or blk[0][0] != "show":  # short, or already printed (live output)
        return
    body = tuple(str(e[2]) for e in mid)
    head = str(blk[0][2])
    seen = f._bodies.get(body)
    if seen is None:
        size = sum(map(len, body))
        if f._body_chars + size <= BODY_CHARS:
            f._bodies[body] = (int(blk[0][1]), int(mid[-1][1]), head)  # type: ignore[call-overload]
            f._body_chars += size
        return
    if head == seen[2]:
        mid = blk[:-1]
        body = (head, *body)
        start = seen[0]
    else:
        start = seen[0] + 1
    first, last = int(mid[0][1]), int(mid[-1][1])  # type: ignore[call-overload]
    b = f.base
    text = f"… lines {first + b}-{last + b}: the same {len(mid)} lines as lines {start + b}-{seen[1] + b}"
    if len(text) >= size_of(body):
        return
    mid[0][0] = "ref"
    mid[0].append(text)
    for e in mid[1:]:
        e[0] = "dead"
    f.folded += len(mid)
