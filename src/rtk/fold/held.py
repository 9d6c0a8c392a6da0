"""Lines of a folding group held during a block, counted at once: fields cut in C at their shape's token places."""

from __future__ import annotations

from itertools import repeat
from operator import getitem, itemgetter

from rtk.fold.mask import tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import deque
    from collections.abc import Sequence

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
