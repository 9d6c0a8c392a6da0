"""Lines of a folding group held during a block, counted at once; what a live fold knows of templates shown before."""

from __future__ import annotations

from itertools import repeat
from operator import getitem, itemgetter

from rtk.fold.budget import line_cost
from rtk.fold.foldline import render_fold, shown_fields
from rtk.fold.mask import tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import deque
    from collections.abc import Sequence

    from rtk.fold.budget import Cache
    from rtk.fold.group import Group
    from rtk.fold.miner import Template

    # What a line's shape tells (Folder._fast): its template, group key, masked tokens, whether its tokens
    # are its blank-separated words, whether it may be an access-log line, and where its tokens are.
    Entry = tuple[Template, int, tuple[str, ...], bool, bool, tuple[slice, ...]]


def count_held(g: Group, block: list[str], first: int, idx: list[int], entries: list[Entry]) -> list[int]:
    """Add the lines ``block[i]`` (``i`` in ``idx``, numbered from ``first``) to ``g``; where in ``idx`` the outliers are.

    Lines of one shape have their tokens at the same places (only digits differ), so a field's
    values are the same slice of every line: cut in C, once per field.
    """
    lines = list(map(block.__getitem__, idx))
    nos = list(map(first.__add__, idx))
    width = len(g.head)
    sigs = list(map(itemgetter(2), entries))
    e = entries[0]
    cols: dict[int, list[str]] = {}
    if len(set(map(id, entries))) == 1 and len(e[5]) == width:  # one shape: its fields at the same places
        cuts = e[5]

        def column(i: int) -> list[str]:
            got = cols.get(i)
            if got is None:
                got = cols[i] = list(map(getitem, lines, repeat(cuts[i])))
            return got

        return g.add_batch(nos, lines, sigs, column)
    if set(map(len, places := list(map(itemgetter(5), entries)))) == {width}:  # each line cut by its shape

        def cut(i: int) -> list[str]:
            got = cols.get(i)
            if got is None:
                got = cols[i] = list(map(getitem, lines, map(itemgetter(i), places)))
            return got

        return g.add_batch(nos, lines, sigs, cut)
    rows: list[Sequence[str]] = [ln.split() if e[3] else tokens(ln) for ln, e in zip(lines, entries, strict=True)]
    return g.add_batch(nos, lines, sigs, rows=rows)


def put_back(pending: deque[list[object]], far: list[int], first: int, lines: list[str]) -> None:
    """Outliers among held lines (sorted indexes in ``lines``) shown at their place among the ``pending`` entries."""
    moved: list[list[object]] = []
    for i in reversed(far):
        while pending and int(pending[-1][1]) > first + i:  # type: ignore[call-overload]
            moved.append(pending.pop())
        moved.append(["show", first + i, lines[i]])
    pending.extend(reversed(moved))


KNOWN = 50_000  # keys a live fold remembers as shown before it starts again


def open_known(known: Cache[int, Known], g: Group, no: int, line: str, pending: deque[list[object]]) -> bool:
    """A new group ``g`` of a live fold: when its key was shown before, its head is held like a later line (True).

    Else the key is remembered as shown (its head, line ``no``, is printed as usual); at most ``KNOWN``
    keys and ``budget.KNOWN_BYTES`` of their tokens.
    """
    if g.key not in known:
        known.put(g.key, Known(no, g.head), line_cost(sum(map(len, g.head)), len(g.head)))
        return False
    k = known[g.key]
    if k.measure is not None and len(g.head) == len(k.raw):  # far values are far from the key's usual ones
        g.measure = {i: list(st) for i, st in k.measure.items()}
        g.measured = list(k.measured)
        if g.outlier(g.head):
            return False  # the head is far (a slow query among fast ones): shown whole
    g.shown = 0
    head: list[object] = ["tent", no, line, g]
    g.tents.append(head)
    pending.append(["fold", no, g])  # the count line takes the head's place
    pending.append(head)
    return True


def count_line(known: Known | None, g: Group, folded: int, base: int, end: int) -> str:
    """The count line of ``g`` (line numbers offset by ``base``); a known group's head was not shown: it counts too."""
    if known is None or g.shown:
        return render_fold(g, folded, g.first + 1 + base, end)
    start = g.first + base
    if known.same(g):
        return f"… {folded:,} more like line {known.no + base}  (lines {start}-{end})"
    return render_fold(g, folded, start, end)


LATER = 1000  # templates whose later counts a live fold keeps for one line at the end, at most


def defer(later: dict[int, list[object]], k: Known, g: Group, folded: int, start: int, end: int) -> bool:
    """A later window's count of ``g``, whose key ``k`` was shown in an earlier one: kept for the end (True).

    Each window of a live fold closes a group for every template it saw; a template shown whole
    before prints no line of its own then, so its count line waits and the counts of all its later
    groups are one line (``later_lines``), its range from the first of them to the last. Its value lists
    go (they would be one window's). At most ``LATER`` templates wait (False: printed now).
    """
    e = later.get(g.key)
    shown, toks = shown_fields(g)
    if e is None:
        if len(later) >= LATER:
            return False
        later[g.key] = [folded, start, end, shown, k.same(g), k.no]
        return True
    e[0] = int(e[0]) + folded  # type: ignore[call-overload]
    old = e[3]
    assert isinstance(old, list)
    # a field keeps the value it had in every group taken (one value throughout), else it is its kind
    e[2], e[3] = (
        end,
        [a if a == b else t for a, b, t in zip(old, shown, toks, strict=True)] if len(old) == len(toks) else toks,
    )
    e[4] = bool(e[4]) and k.same(g)
    return True


def later_lines(later: dict[int, list[object]], base: int) -> list[str]:
    """The count lines kept by ``defer``, in the order of their first lines; ``later`` is emptied."""
    out = []
    for n, start, end, text, same, no in sorted(later.values(), key=itemgetter(1)):
        what = f"line {int(no) + base}" if same else f": {' '.join(text)}"  # type: ignore[call-overload,arg-type]
        out.append(f"… {int(n):,} more like{' ' if same else ''}{what}  (lines {start}-{end})")  # type: ignore[call-overload]
    later.clear()
    return out


class Known:
    """A group key of a live fold shown whole before: where (``no``, its tokens ``raw``) and its lines so far.

    A later group of the key (in a later window of ``hold`` lines) prints no head of its own: its
    count line. When each of its lines is the shown one again (a gcc warning repeated for each
    source that includes the header), the count line names that line instead of repeating it.
    """

    __slots__ = ("count", "measure", "measured", "no", "raw")

    def __init__(self, no: int, raw: list[str], count: int = 0) -> None:
        self.no = no
        self.raw = tuple(raw)
        self.count = count  # lines of the key in groups already closed
        self.measure: dict[int, list[float]] | None = None  # the last closed group's measured fields (Group.measure)
        self.measured: list[int] = []

    def closed(self, g: Group) -> int:
        """``g``, a group of this key, is closed: its lines are counted; the lines counted before it."""
        before = self.count
        self.count += g.count
        if len(g.head) == len(self.raw):
            self.measure, self.measured = g.measure, g.measured
        return before

    def same(self, g: Group) -> bool:
        """Whether every line of ``g`` has the tokens of the line shown (one kind of masked line, one value a field)."""
        if tuple(g.head) != self.raw or g.sigs is None or len(g.sigs) != 1:
            return False
        return all(v is not None and len(v) == 1 for v in g.values.values())
