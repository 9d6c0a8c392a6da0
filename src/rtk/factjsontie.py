"""The JSON fact guard's presence check: is a value printed for its key, in its row, in a compact output?

``tied`` reads the compact output as generic key/value shapes: a value after its key on a line
(``key: value``, ``key value``, ``"key": "value"``, ``key = value``, a list after its key), a cell of a
``|`` or tab separated table whose header cell names the key, or a template of another key of the row
(``key = {other}/suffix``, Python format syntax). A row (an array element holding the value) is named by
a value only it holds among its siblings (or by all its values, when none does): on the line of a table
row; for a key line, in the object around it (the lines up the indentation, read no deeper than the key
line, between the lines above and below that open the same way); an outer row in no enclosing block, by
the nearest row name above the value (not another row's). See ``rtk.factjson``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import compress

from rtk.factjsonview import ID_MIN, NEAR, View, _holds, _word_at

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.facts import Fact

# The names of a row searched for the cheap first test (fewer only make it stricter).
ID_SEARCH = 3
_SEPS = ("|", "\t")
# The places of a value on each side of a line naming its row tried before all of them (``_tied_at``).
FIRST = 3


class Num(str):
    """A JSON float as written (``1.10`` stays ``1.10``)."""


def scalar_text(v: Any) -> str | None:
    """A scalar as a compact output prints it (a string's text, a number as written); None for others."""
    t = type(v)
    if t is str or t is Num:
        return str(v)
    if t is int:
        return str(v)
    if t is bool:
        return "true" if v else "false"
    return None


def row_counts(rows: list[Any]) -> dict[str, int]:
    """In how many of ``rows`` each scalar text is (a row's own scalars, or the row if a scalar; once per row)."""
    from collections import Counter
    from itertools import chain

    # Each row's set of texts, all counted in one call (in C). ``scalar_text`` of a ``str`` is the string, of
    # an ``int`` its ``str``: called for the other values only.
    counts: Counter[str | None] = Counter(
        chain.from_iterable(
            {
                v if type(v) is str else str(v) if type(v) is int else scalar_text(v)
                for v in (s.values() if type(s) is dict else (s,))
            }
            for s in rows
        )
    )
    counts.pop(None, None)
    return counts  # type: ignore[return-value]


def _resolve(docs: list[Any], path: tuple[Any, ...]) -> list[tuple[Any, list[Any], Any]]:
    """The chain (container, siblings list or None, key) from the outside in, for each step of ``path``."""
    chain: list[tuple[Any, list[Any], Any]] = []
    node: Any = docs if path[:1] == (-1,) else docs[0]
    steps = path[1:] if path[:1] == (-1,) else path
    for step in steps:
        chain.append((node, node if type(node) is list else [], step))
        node = node[step]
    return chain


def _distinct(
    row: Any, siblings: list[Any], skip: str, memo: dict[int, dict[str, int]]
) -> tuple[list[tuple[str, str]], bool]:
    """What names a row among its siblings: (key, text) pairs, and whether all of them are needed.

    A scalar of the row (but key ``skip``, the one leading to the value) at least ``ID_MIN`` long that
    no sibling holds as a scalar of its own names it alone (``id 9017``); without one, the row is named
    by all its scalars together. ``memo``: for each list of siblings, in how many rows each text is.
    """
    if type(row) is not dict:
        t = scalar_text(row)
        return ([("", t)] if t else []), False
    counts = memo.get(id(siblings))
    if counts is None:
        counts = memo[id(siblings)] = row_counts(siblings)
    mine = [
        (k, t)
        for k, v in row.items()
        if k != skip
        and (t := v if type(v) is str else str(v) if type(v) is int else scalar_text(v)) is not None
        and t.strip()
    ]  # (``scalar_text`` of a ``str`` is the string, of an ``int`` its ``str``: not called for those)
    alone = [kt for kt in mine if len(kt[1]) >= ID_MIN and counts.get(kt[1], 0) <= 1]
    return (alone, False) if alone else (mine, True)


class Unit:
    """A problem value: its key path, text, the keys naming it, and the rows holding it (innermost first)."""

    __slots__ = ("keys", "lists", "memo", "path", "rows", "value")

    def __init__(self, docs: list[Any], path: tuple[Any, ...], value: Any, memo: dict[int, dict[str, int]]) -> None:
        self.path = path
        self.value = scalar_text(value) or str(value)
        chain = _resolve(docs, path)
        # rows: (distinguishing values, keys between this row and the next inner row or the value)
        rows: list[tuple[list[tuple[str, str]], bool, list[str]]] = []
        self.lists: list[tuple[list[Any], Any]] = []  # each row's siblings and the row, as ``rows``
        self.memo = memo
        keys: list[str] = []
        for node, sibs, step in reversed(chain):
            if type(node) is list:
                if type(step) is int and sibs and len(sibs) > 1:
                    ids, every = _distinct(node[step], sibs, keys[0] if keys else "", memo)
                    rows.append((ids, every, keys))
                    self.lists.append((sibs, node[step]))
                    keys = []
            elif type(step) is str:
                keys.insert(0, step)
        self.keys = rows[0][2] if rows else keys
        self.rows = rows

    def fact(self) -> Fact:
        return ("json", _jq(self.path), self.value)

    def line(self) -> str:
        """The restore line: ``.path.to[row] key: value (row ids)``, a form ``_tied`` finds (a test checks)."""
        ids = [
            ", ".join(f"{k or 'value'} {t}" for k, t in (ds if every else ds[:1])) for ds, every, _ in self.rows if ds
        ]
        n = len(self.keys)
        head = _jq(self.path[: len(self.path) - n]) if n else _jq(self.path)
        key = ".".join(self.keys) if n else "value"
        return f"{head} {key}: {self.value}" + (f" ({', '.join(reversed(ids))})" if ids else "")


def _jq(path: tuple[Any, ...]) -> str:
    """A path as jq writes it (``.workflow_runs[4].conclusion``); NDJSON documents as ``[line k]``."""
    out = []
    steps = path
    if path[:1] == (-1,):
        out.append(f"[document {path[1] + 1}]")
        steps = path[2:]
    for s in steps:
        if type(s) is int:
            out.append(f"[{s}]")
        elif s and all(c.isalnum() or c == "_" for c in s):
            out.append(f".{s}")
        else:
            out.append(f'["{s}"]')
    text = "".join(out)
    return "." + text if text[:1] == "[" and path[:1] != (-1,) else text or "."


def _names_key(label: str, keys: list[str]) -> bool:
    """Does ``label`` (the text before a value, or a header cell) end with the value's key, or a dotted run of its keys?"""
    label = label.rstrip().rstrip("\"'").rstrip().rstrip(":=").rstrip().rstrip("\"'").rstrip()
    for n in range(1, len(keys) + 1):
        name = ".".join(keys[-n:])
        if label.endswith(name) and (len(label) == len(name) or not _keychar(label[-len(name) - 1])):
            return True
    return False


def _keychar(c: str) -> bool:
    return c.isalnum() or c in "_.-"


def _cell(line: str, col: int, n: int) -> tuple[str, int] | None:
    """The separator of the table cell holding exactly ``line[col:col+n]`` (stripped), and the cell's index."""
    for sep in _SEPS:
        if sep not in line:
            continue
        left = line.rfind(sep, 0, col) + 1
        right = line.find(sep, col + n)
        right = len(line) if right < 0 else right
        if line[left:col].strip(' "') == "" and line[col + n : right].strip(' "') == "":
            return sep, line.count(sep, 0, col)
    return None


def _header(view: View, k: int, sep: str, idx: int, keys: list[str]) -> bool:
    """Is there a line above ``k``, with as many ``sep`` cells, whose cell ``idx`` names the key?"""
    count = view.lines[k].count(sep)
    at = (sep, count, idx, tuple(keys))
    first = view.headers.get(at)
    if first is None:  # the first such line, found once per table shape and key
        first = len(view.lines)
        for j, ln in enumerate(view.lines):
            if ln.count(sep) == count:
                words = ln.split(sep)[idx].split()
                if words and _names_key(words[-1], keys):
                    first = j
                    break
        view.headers[at] = first
    return first < k


def tied(unit: Unit, view: View, derive: bool = True) -> bool:
    """Does the compact output print ``unit``'s value for its key, in its row (see the module docstring)?"""
    if not unit.value:
        return True  # an empty value holds nothing to lose
    if _tied_at(unit, view) is not None:
        return True
    return derive and _derived(unit, view)


def _tied_at(unit: Unit, view: View, within: tuple[int, int] | None = None) -> int | None:
    """A line where the value stands for its key in its row (``within``: a range of lines), or None.

    First the ``FIRST`` places nearest each line naming the row on either side, nearest first (usually
    the answer: a value and its row's name share a line or a block); then every place, nearest first (``_tied_all``). The
    first places are among those the full pass tries (within ``NEAR`` lines of a name, in ``within``)
    and ``_rows_near`` depends only on the place (its caches remember), so the answer is None exactly
    when the full pass finds nothing.
    """
    near = _id_lines(unit, view)
    shapes = _shapes(unit.value, unit.keys, view)
    if near and len(shapes) > 1:
        ks = view.kcache.get(id(shapes))
        if ks is None:
            ks = view.kcache[id(shapes)] = [sh[0] for sh in shapes]
        for n in near:
            j = bisect_left(ks, n)
            for c in sorted(range(max(0, j - FIRST), min(len(ks), j + FIRST)), key=lambda c: abs(ks[c] - n)):
                k, levels, region = shapes[c]
                if abs(k - n) > NEAR:
                    break
                if (within is None or within[0] <= k < within[1]) and _rows_near(unit, view, k, levels, region):
                    return k
    return _tied_all(unit, view, near, shapes, within)


def _tied_all(
    unit: Unit,
    view: View,
    near: list[int] | None,
    shapes: list[tuple[int, int, tuple[int, int] | None]],
    within: tuple[int, int] | None,
) -> int | None:
    """``_tied_at`` trying every place of the value near a line naming the row (``near``), nearest first."""
    todo: list[tuple[int, int, int, tuple[int, int] | None]] = []
    if near is not None and len(shapes) > 8:  # only the places near a line naming the row (in line order)
        ks = view.kcache.get(id(shapes))
        if ks is None:
            ks = view.kcache[id(shapes)] = [sh[0] for sh in shapes]
        pick: set[int] = set()
        for n in near:
            pick.update(range(bisect_left(ks, n - NEAR), bisect_right(ks, n + NEAR)))
        shapes = [shapes[i] for i in sorted(pick)]
    for k, levels, region in shapes:
        if within is not None and not within[0] <= k < within[1]:
            continue
        gap = 0
        if near is not None:  # no line naming the row nearby: the row is not here
            j = bisect_left(near, k - NEAR)
            if j == len(near) or near[j] > k + NEAR:
                continue
            gap = abs(near[j] - k)  # the nearer of near[j] and near[j + 1]
            if j + 1 < len(near) and abs(near[j + 1] - k) < gap:
                gap = abs(near[j + 1] - k)
        todo.append((gap, k, levels, region))
    todo.sort(key=lambda c: c[0])  # the places nearest the row's name first: the first is usually it
    for _, k, levels, region in todo:
        if _rows_near(unit, view, k, levels, region):
            return k
    return None


def _shapes(value: str, keys: list[str], view: View) -> list[tuple[int, int, tuple[int, int] | None]]:
    """Where ``value`` stands for its key: (line, levels up to its object, the object's region), once per value and key."""
    at = (value, tuple(keys))
    got = view.shapes.get(at)
    if got is not None:
        return got
    got = []
    text = view.text
    n = len(value)
    i = text.find(value)
    while i >= 0:
        if _word_at(text, i, n):
            k = view.line_of(i)
            line = view.lines[k]
            col = i - view.starts[k]
            cell = _cell(line, col, n)
            if cell is not None and _header(view, k, cell[0], cell[1], keys):
                got.append((k, 0, None))  # a table row: the row is this line
            elif _names_key(line[:col], keys) or _in_list(line, col, keys):
                # the object holding the key may start lines above, one per key
                got.append((k, len(keys), view.between(k, line[:col])))
        i = text.find(value, i + 1)
    view.shapes[at] = got
    return got


def _id_lines(unit: Unit, view: View) -> list[int] | None:
    """The lines naming one of the value's rows (the innermost one named in a few places), or None.

    Every row of the value lies around it, so a place of the value far from all of them is not its place.
    """
    for ids, every, _ in unit.rows:
        if not ids or every:
            continue
        found: set[int] = set()
        for _, t in ids[:ID_SEARCH]:
            at = view.places(t, 16)
            if len(at) > 16:
                break  # a name printed often: try the next row out
            found.update(at)
        else:
            return sorted(found)
    return None


def _derived(unit: Unit, view: View) -> bool:
    """Is the value printed as a template of another key of its row (``key = {src}/suffix``, Python format syntax)?

    The template's one field names the source key; the value, matched against the template, gives the
    source's value, which must then be tied to that key in the row, among the lines the template's
    line is part of (its parent's block).
    """
    from string import Formatter

    text = view.text
    for n in range(1, len(unit.keys) + 1):
        name = ".".join(unit.keys[-n:])
        needle = name + " = "
        i = text.find(needle)
        while i >= 0:
            if i == 0 or not _keychar(text[i - 1]):
                start = i + len(needle)
                end = text.find("\n", start)
                end = len(text) if end < 0 else end
                stop = text.find(", ", start, end)
                tmpl = text[start : stop if stop >= 0 else end]
                try:
                    parts = list(Formatter().parse(tmpl))
                except ValueError:
                    parts = []
                fields = [p for p in parts if p[1] is not None]
                if len(fields) == 1 and fields[0][1] and not fields[0][2] and not fields[0][3]:
                    idx = parts.index(fields[0])
                    prefix = "".join(p[0] for p in parts[: idx + 1])
                    suffix = "".join(p[0] for p in parts[idx + 1 :])
                    v = unit.value
                    if len(v) > len(prefix) + len(suffix) and v.startswith(prefix) and v.endswith(suffix):
                        src = Unit.__new__(Unit)
                        src.path, src.rows, src.lists, src.memo = unit.path, unit.rows, unit.lists, unit.memo
                        src.keys = [*unit.keys[:-n], *str(fields[0][1]).split(".")]
                        src.value = v[len(prefix) : len(v) - len(suffix)]
                        p = view.parent(view.line_of(i))
                        if _tied_at(src, view, view.span(p)) is not None:
                            return True
            i = text.find(needle, i + 1)
    return False


def _in_list(line: str, col: int, keys: list[str]) -> bool:
    """The value is an element of a list printed after its key (``labels: [bug, failure]``)."""
    b = line.rfind("[", 0, col)
    return b > 0 and "]" not in line[b:col] and _names_key(line[:b], keys)


def _rows_near(unit: Unit, view: View, anchor: int, levels: int, region: tuple[int, int] | None = None) -> bool:
    """Is each row of ``unit`` named on ``anchor`` or in a block above it, rows further out further up?

    Going up from a line, only the lines of the block indented no deeper than it are read: a row's
    name is a sibling of its key or opens the row, never inside a nested value (a job's block holds
    its steps' names). ``region``: the lines the innermost row's object may span (``View.between``);
    with no enclosing line, the innermost row is named on the anchor line or in a bounded region.
    """
    k = anchor
    lines, indent = view.lines, view.indent
    for r, (ids, every, keys) in enumerate(unit.rows):
        if not ids:
            continue
        texts = [t for _, t in ids]
        # the innermost row may be ``levels`` up; an outer one one more per key between it and the inner row
        reach = levels if r == 0 else len(keys) + 1
        cap = indent[k] if k >= 0 else 0
        found = False
        node = k
        for step in range(reach + 1):
            if step > 0:
                node = view.parent(node)
            if r > 0 and node < 0 and not every:
                # an outer row in no enclosing block: the nearest row named above must be this one
                found = _named_above(unit, r, view, k, cap, texts)
                k = node
                break
            if step == 0 and node >= 0:
                body = lines[node]
            else:
                lo, hi = view.span(node)
                if r == 0 and region is not None:
                    if node < 0 and region in view.open:
                        break  # an unbounded region: the whole output names every row
                    lo, hi = max(lo, region[0]), min(hi, region[1])
                # the lines indented 0 to ``cap`` (``range.__contains__`` and ``compress``: in C)
                body = "\n".join(compress(lines[lo:hi], map(range(cap + 1).__contains__, indent[lo:hi])))
            if (all if every else any)(_holds(body, t) for t in texts):
                found = True
                k = node
                break
            if node < 0:
                break
        if not found:
            return False
        if k < 0:
            return True  # the whole output: rows further out cannot be placed any better
    return True


def _named_above(unit: Unit, r: int, view: View, k: int, cap: int, texts: list[str]) -> bool:
    """Going up from line ``k`` (lines indented no deeper than ``cap``), is row ``r`` named before any sibling is?

    A sibling is named by a value only it holds among the rows (as ``_distinct``): in an output
    without blocks, the rows' names are headers, and the value belongs to the nearest one above.
    """
    sibs, row = unit.lists[r]
    uniq = view.uniq.get(id(sibs))
    if uniq is None:
        counts = unit.memo.get(id(sibs))
        if counts is None:
            counts = row_counts(sibs)
        uniq = view.uniq[id(sibs)] = [t for t, c in counts.items() if c == 1 and len(t) >= ID_MIN and t.strip()]
    mine = {t for t in map(scalar_text, row.values() if type(row) is dict else (row,)) if t is not None}
    lines, indent = view.lines, view.indent
    for j in range(k, -1, -1):
        if not 0 <= indent[j] <= cap:
            continue
        ln = lines[j]
        if any(_holds(ln, t) for t in texts):
            return True
        held = view.named.get((id(sibs), j))
        if held is None:
            held = view.named[(id(sibs), j)] = frozenset(t for t in uniq if t in ln and _holds(ln, t))
        if not held.issubset(mine):
            return False
    return False
