"""Fold an output too long to hold (``rtk run`` of a 1 GB log) as it streams: bounded memory, printed as it comes."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

BLOCK = 1 << 18  # bytes of lines folded at a time
AFTER = 4 << 20  # an unrecognised output longer than this is folded as it streams instead of held whole
KEEP = 5  # rows of a long CSV/TSV shown at each end


class Streamed:
    """What a streamed fold did: characters read and printed, lines left out, lines the fact guard restored."""

    __slots__ = ("folded", "out_chars", "raw_chars", "restored")

    def __init__(self) -> None:
        self.raw_chars = 0
        self.out_chars = 0
        self.folded = 0
        self.restored = 0


class _Reader:
    """The rest of the output in blocks of whole lines (about :data:`BLOCK` bytes each)."""

    __slots__ = ("carry", "done", "read", "res")

    def __init__(self, carry: bytes, read: Callable[[], bytes], res: Streamed) -> None:
        self.carry = carry
        self.read = read
        self.res = res
        self.done = False

    def next(self) -> list[str] | None:
        """The next block's lines; None at the end."""
        if self.done:
            return None
        got = [self.carry]
        size = len(self.carry)
        while size < BLOCK:
            b = self.read()
            if not b:
                self.done = True
                break
            got.append(b)
            size += len(b)
        data = b"".join(got)
        end = len(data) if self.done else data.rfind(b"\n") + 1
        if not end:
            end = len(data)  # a line longer than a block: taken as it is
        self.carry = data[end:]
        text = _text(data[:end])
        if not text:
            return None if self.done else []
        self.res.raw_chars += len(text) + (not text.endswith("\n"))
        return text.removesuffix("\n").split("\n")


def _text(data: bytes) -> str:
    from rtk.text import clean, decode

    return clean(decode(data))


def fold(first: bytes, read: Callable[[], bytes], write: Callable[[str], None]) -> Streamed | None:
    """Fold ``first`` and what ``read`` returns after it (b"" at the end), writing as it goes.

    None when ``first`` is JSON or YAML (data is never folded: the caller passes it through)
    and nothing was read or written. A CSV/TSV shows its header, first and last rows and the
    exact range of rows left out; anything else goes through the :class:`~rtk.fold.Folder`
    and the streaming fact guard, block by block.
    """
    from rtk.fold.detect import data_kind

    cut = first.rfind(b"\n") + 1
    head = _text(first[:cut]).split("\n")[:-1] if cut else []
    kind = data_kind(head[:400])
    if kind in ("json", "yaml"):
        return None
    res = Streamed()
    reader = _Reader(first[cut:], read, res)

    def put(lines: list[str]) -> None:
        if lines:
            text = "\n".join(lines) + "\n"
            res.out_chars += len(text)
            write(text)

    res.raw_chars = sum(map(len, head)) + len(head)
    nxt = reader.next
    if kind is not None:
        _table(head, nxt, put, res)
        return res
    _fold(head, nxt, put, res)
    return res


def _fold(
    head: list[str], nxt: Callable[[], list[str] | None], put: Callable[[list[str]], None], res: Streamed
) -> None:
    from rtk.factguard import StreamGuard
    from rtk.fold import Folder

    class _Guard(StreamGuard):
        KEEP = 2 << 20  # printed text kept for the presence checks (as rtk read's fold)

    folder = Folder()
    folder.dropped = []
    guard = _Guard()
    step = 4096  # the first part, already read, goes in slices too: the fold holds what a block holds
    for i in range(0, len(head), step):
        shown = folder.feed_lines(head[i : i + step])
        guard.feed(folder.dropped, ["\n".join(shown) + "\n"] if shown else [])
        folder.dropped.clear()
        put(shown)
    head.clear()
    lines = nxt()
    while lines is not None:
        shown = folder.feed_lines(lines)
        guard.feed(folder.dropped, ["\n".join(shown) + "\n"] if shown else [])
        folder.dropped.clear()
        put(shown)
        lines = nxt()
    shown = folder.finish()
    guard.feed(folder.dropped, ["\n".join(shown) + "\n"] if shown else [])
    put(shown)
    lost, n = guard.finish("", True)
    if n:
        put(lost.removesuffix("\n").split("\n"))
    res.folded = folder.folded
    res.restored = n


def _table(
    head: list[str], nxt: Callable[[], list[str] | None], put: Callable[[list[str]], None], res: Streamed
) -> None:
    from collections import deque

    first = head[: KEEP + 1]
    last: deque[str] = deque(maxlen=KEEP)
    put(first)
    count = len(first)
    lines: list[str] | None = head[len(first) :]
    while lines is not None:
        count += len(lines)
        last.extend(lines)
        lines = nxt()
    left = count - len(first) - len(last)
    if left > 0:
        start = len(first) + 1
        put([f"… {left:,} rows left out (lines {start}-{start + left - 1}); every row is in the lines named"])
        res.folded = left
    put(list(last))
