"""The block loop of :meth:`rtk.fold.folder.Folder.feed_lines`: lines of a known shape in a folding group cost a look-up."""

from __future__ import annotations

from rtk import recache
from rtk.fold.markers import _ACCESS as ACCESS
from rtk.fold.markers import Hints, access, access_hint, is_location
from rtk.fold.mask import tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtk.fold.folder import Folder
    from rtk.fold.held import Entry

# Lines whose first character is one of these may open a block or carry a marker without a hint word.
ROUTE = (  # every character str.isspace() (and the regex \s) takes for a blank, then the letters
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000.CgsWEF<"
)
_STARTS = recache.pattern(r"\s*$|\s+at |\s*\.\.\. |Caused by: |goroutine \d|stack backtrace:|[WEF<]")
ZEROS = bytes.maketrans(b"123456789", b"000000000")


def take_many(f: Folder, first: int, lines: list[str]) -> None:
    """Lines ``first``... of a block, as ``Folder._take`` one by one would take them (the same state and output).

    Each line's shape (its bytes, digits made 0) is looked up for the whole block at once, in C.
    A line of a known shape, outside any block, header or marker's aftermath, not a request,
    whose group is folding, is only noted for its group (counted at the end of the block,
    ``Folder._end_block``); every other line goes the whole way. What a line taken the whole way
    may change (a block or section opened, a marker shown, the shape cache started again) is
    read again after it.
    """
    shapes = "\n".join(lines).encode("utf-8", "surrogatepass").translate(ZEROS).split(b"\n")
    if len(shapes) != len(lines):  # a newline inside a line
        for no, line in enumerate(lines, first):
            f._take(no, line)
        return
    fastd = f._fast
    fast = fastd.get
    seen = f._seen
    entries: list[Entry | None] = list(map(fast, shapes))
    groups = f.groups.get
    blocks = f.blocks
    hint = Hints(lines).has
    batches = f._batches
    batch = batches.get
    search = ACCESS.search
    reqs = f.reqs.pending  # (a new list only once the block's requests are counted, after the loop)
    f._block, f._first = lines, first
    f._slow = [] if f.dropped is not None else None
    quiet = not f._marked and f._sect is None and not blocks.kind
    stale = False  # the shape cache started again during the block: each line looked up as it comes
    nfast, nseen = len(fastd), len(seen)
    for i, entry in enumerate(entries):
        if stale or entry is None:  # (a shape first seen earlier in this block is known now)
            entry = fast(shapes[i])
        line = lines[i]
        if quiet and entry is not None:
            key = entry[1]
            g = groups(key)
            if g is not None and g.cancelled and line[-1:] not in ":^~":
                hit: tuple[str, str] | None = None
                if entry[4]:  # a request? (``access``, its first pattern in line)
                    m = search(line)
                    hit = m.group(1, 2) if m is not None else access(line) if line[-1:] == '"' else None  # type: ignore[assignment]
                if hit is None or hit[1][0] not in "45":  # (a failed request is a marker: the whole way)
                    if hit is not None:
                        reqs.append(hit)
                    b = batch(key)
                    if b is None:
                        batches[key] = ([i], [entry])
                    else:
                        b[0].append(i)
                        b[1].append(entry)
                    continue
        # The whole way, as Folder._take_many took each line.
        _one(f, first + i, i, line, shapes[i], entry, hint)
        quiet = not f._marked and f._sect is None and not blocks.kind
        if len(fastd) < nfast or len(seen) < nseen:
            stale = True
        nfast, nseen = len(fastd), len(seen)
    f._end_block()


def _one(
    f: Folder, no: int, i: int, line: str, shape: bytes, entry: Entry | None, hint: Callable[[int, str], bool]
) -> None:
    """One line of the block the whole way (the body of the block loop before the fast path)."""
    take = f._take
    if f._marked:  # the line after a marker: shown when it only says where (`` --> src/a.rs:4``)
        if is_location(line):
            take(no, line)
            return
        f._marked = False
    if f._sect is not None:  # under a header: the whole way
        take(no, line)
        return
    blocks = f.blocks
    if entry is None or blocks.kind:
        if blocks.kind or (line[:1] in ROUTE and _STARTS.match(line) is not None) or "/" in line[:3] or hint(i, line):
            take(no, line)
            return
        if access_hint(line) and (hit := access(line)) is not None:
            if hit[1][0] in "45":
                take(no, line)  # a failed request: a marker
                return
            f.reqs.pending.append(hit)
        if entry is None:
            take(no, line, shape, True)
            return
    elif entry[4] and (hit := access(line)) is not None:
        if hit[1][0] in "45":
            take(no, line)
            return
        f.reqs.pending.append(hit)
    g = f.groups.get(entry[1])
    if g is None or not g.cancelled or line[-1:] in ":^~":  # (a context or caret line: context.py)
        f._grouped(no, line, line.split() if entry[3] else tokens(line), *entry[:3])
    elif (b := f._batches.get(entry[1])) is None:  # a folding group: counted at the end of the block
        f._batches[entry[1]] = ([i], [entry])
    else:
        b[0].append(i)
        b[1].append(entry)
