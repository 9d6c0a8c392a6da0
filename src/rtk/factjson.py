"""The fact guard on JSON output: a problem is a JSON value with its key path and row, not a physical line.

An output that is a JSON document, or several (NDJSON), possibly followed by text
(``gh api``'s error body then ``gh: Not Found (HTTP 404)``), is read as JSON. A minified
document is one physical line; no compact view holds it, so the line guard would always
restore it whole. Here the units are the document's values:

- *Problem units*: a string that reports a problem (``facts.is_marker``: ``"failure"``,
  ``"Error: boom"``), or any non-empty scalar under a key that does (``"errors": 3``,
  ``"error": {"message": ...}``). Each is a fact ``("json", path, value)``, present when the
  compact output ties the value to its key and to its row (``_tied``): the value stands
  alone in a line, after its key (``conclusion: failure``, ``conclusion failure``,
  ``"conclusion": "failure"``, ``conclusion = failure``) or in a column (``|`` or tab
  separated) whose header cell names the key; and each array element it lies in (a *row*)
  is named near it by a value that only that row holds among its siblings (``id 9017``):
  on the same line, or, going up the indentation (one level per key between the row and the
  value, and one for the row's own header line), in the block of a line above it. A view
  that drops the failing row, its key or its value, or prints the value in another row, loses it.
- Every string value is also a line for the ordinary extractor (``facts.line_facts``):
  locations, hashes, codes, counts inside messages are checked as in a text output.

Only the values are read (keys are checked through their values), so the text between
them (``","run_number":221,"``) is never taken for a fact. Lost units come back as
``.path = value (row ids)`` lines under the guard's header. The text after the documents goes
through the line guard. Output that does not parse falls back to the line guard (``None``).
"""

from __future__ import annotations

from rtk.facts import Fact, is_marker
from rtk.presence import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# A marker string longer than this (a log, a paragraph) is read for the facts of its lines only.
UNIT_MAX = 300
# A value naming a row alone is at least this long ("9" is in too many places to name one).
ID_MIN = 3
# A document this large is left to the line guard (its walk would cost more than the budget allows).
DOC_MAX = 8 << 20
_SEPS = ("|", "\t")


class _Num(str):
    """A JSON float as written (``1.10`` stays ``1.10``)."""


def parse(raw: str) -> tuple[list[Any], int] | None:
    """The JSON documents that open ``raw`` (at least one object or array) and where the text after them starts."""
    import json

    dec = json.JSONDecoder(parse_float=_Num)
    docs: list[Any] = []
    n = len(raw)
    i = 0
    while True:
        while i < n and raw[i] in " \t\r\n":
            i += 1
        if i >= n or raw[i] not in "{[":
            break
        try:
            doc, i = dec.raw_decode(raw, i)
        except ValueError:
            if not docs:
                return None
            break
        docs.append(doc)
    if not docs:
        return None
    if type(docs[0]) is not dict and raw[i:].lstrip(" \t\r")[:1] not in ("\n", ""):
        return None  # a list and then text on its line: a text line opened by brackets ("[    0.000000] kvm...")
    return docs, i


def _text(v: Any) -> str | None:
    """A scalar as a compact output prints it (a string's text, a number as written); None for others."""
    t = type(v)
    if t is str or t is _Num:
        return str(v)
    if t is int:
        return str(v)
    if t is bool:
        return "true" if v else "false"
    return None


def _walk(docs: list[Any], strings: set[str]) -> list[tuple[tuple[Any, ...], Any]]:
    """Collect every string value into ``strings``; return the problem units as (path, value).

    Units come in document order, but an object's scalars before the values inside its containers.

    A path holds keys (str) and indexes (int); NDJSON documents are the rows of a virtual array (``-1, k``).
    """
    units: list[tuple[tuple[Any, ...], Any]] = []
    kcache: dict[str, bool] = {}
    many = len(docs) > 1
    for k, doc in enumerate(docs):
        stack: list[tuple[Any, tuple[Any, ...], bool]] = [(doc, (-1, k) if many else (), False)]
        while stack:
            x, path, hot = stack.pop()
            pushes: list[tuple[Any, tuple[Any, ...], bool]] = []
            if type(x) is dict:
                for key, v in x.items():
                    mk = kcache.get(key)
                    if mk is None:
                        mk = kcache[key] = is_marker(key)
                    h = hot or mk
                    tv = type(v)
                    if tv is str:
                        strings.add(v)
                        if "\n" not in v and len(v) <= UNIT_MAX and ((h and v) or _marks(v)):
                            units.append(((*path, key), v))
                    elif tv is dict or tv is list:
                        if v:
                            pushes.append((v, (*path, key), h))
                    elif h and v is not None and v is not False and v != 0:
                        units.append(((*path, key), v))
            elif type(x) is list:
                for i, v in enumerate(x):
                    tv = type(v)
                    if tv is str:
                        strings.add(v)
                        if "\n" not in v and len(v) <= UNIT_MAX and ((hot and v) or _marks(v)):
                            units.append(((*path, i), v))
                    elif tv is dict or tv is list:
                        if v:
                            pushes.append((v, (*path, i), hot))
                    elif hot and v is not None and v is not False and v != 0:
                        units.append(((*path, i), v))
            if pushes:
                pushes.reverse()  # the first child is popped first: units come in document order
                stack.extend(pushes)
    return units


# Lowercased substrings of every marker word and glyph (``factscan.NEEDLES``): a string without one is no problem.
_NEEDLES = ("error", "fail", "warning", "panic", "exception", "traceback", "fatal", "crashed", "not ok ", "✗", "✘")


def _marks(s: str) -> bool:
    low = s.lower()
    for n in _NEEDLES:
        if n in low:
            return is_marker(s)
    return False


def _resolve(docs: list[Any], path: tuple[Any, ...]) -> list[tuple[Any, list[Any], Any]]:
    """The chain (container, siblings list or None, key) from the outside in, for each step of ``path``."""
    chain: list[tuple[Any, list[Any], Any]] = []
    node: Any = docs if path[:1] == (-1,) else docs[0]
    steps = path[1:] if path[:1] == (-1,) else path
    for step in steps:
        chain.append((node, node if type(node) is list else [], step))
        node = node[step]
    return chain


def _distinct(row: Any, siblings: list[Any], skip: str) -> tuple[list[tuple[str, str]], bool]:
    """What names a row among its siblings: (key, text) pairs, and whether all of them are needed.

    A scalar of the row (but key ``skip``, the one leading to the value) at least ``ID_MIN`` long that
    no sibling holds as a scalar of its own names it alone (``id 9017``); without one, the row is named
    by all its scalars together.
    """
    if type(row) is not dict:
        t = _text(row)
        return ([("", t)] if t else []), False
    others: set[str] = set()
    for s in siblings:
        if s is row:
            continue
        if type(s) is dict:
            others.update(t for t in map(_text, s.values()) if t is not None)
        else:
            t = _text(s)
            if t is not None:
                others.add(t)
    mine = [(k, t) for k, v in row.items() if k != skip and (t := _text(v)) is not None and t.strip()]
    alone = [kt for kt in mine if len(kt[1]) >= ID_MIN and kt[1] not in others]
    return (alone, False) if alone else (mine, True)


class _Unit:
    """A problem value: its key path, text, the keys naming it, and the rows holding it (innermost first)."""

    __slots__ = ("keys", "path", "rows", "value")

    def __init__(self, docs: list[Any], path: tuple[Any, ...], value: Any) -> None:
        self.path = path
        self.value = _text(value) or str(value)
        chain = _resolve(docs, path)
        # rows: (distinguishing values, keys between this row and the next inner row or the value)
        rows: list[tuple[list[tuple[str, str]], bool, list[str]]] = []
        keys: list[str] = []
        for node, sibs, step in reversed(chain):
            if type(node) is list:
                if type(step) is int and sibs and len(sibs) > 1:
                    ids, every = _distinct(node[step], sibs, keys[0] if keys else "")
                    rows.append((ids, every, keys))
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


class _View:
    """The compact output's lines, with each line's indentation, for the ties of ``_tied``."""

    __slots__ = ("ends", "indent", "lines", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.starts: list[int] = []
        at = 0
        for ln in self.lines:
            self.starts.append(at)
            at += len(ln) + 1
        self.indent = [len(ln) - len(ln.lstrip()) if ln.strip() else -1 for ln in self.lines]
        self.ends: dict[int, int] = {}

    def line_of(self, pos: int) -> int:
        from bisect import bisect_right

        return bisect_right(self.starts, pos) - 1

    def parent(self, k: int) -> int:
        """The nearest line above ``k`` indented less (``-1``: none, the whole output)."""
        ind = self.indent[k]
        j = k - 1
        while j >= 0 and not (0 <= self.indent[j] < ind):
            j -= 1
        return j

    def span(self, k: int) -> tuple[int, int]:
        """Line ``k`` and the lines after it indented more, as a range (every line for ``-1``)."""
        if k < 0:
            return 0, len(self.lines)
        end = self.ends.get(k)
        if end is None:
            ind = self.indent[k]
            end = k + 1
            n = len(self.lines)
            while end < n and (self.indent[end] < 0 or self.indent[end] > ind):
                end += 1
            self.ends[k] = end
        return k, end

    def block(self, k: int, within: tuple[int, int] | None = None) -> str:
        """The lines of ``span(k)`` (those in range ``within`` too, when given)."""
        lo, hi = self.span(k)
        if within is not None:
            lo, hi = max(lo, within[0]), min(hi, within[1])
        return "\n".join(self.lines[lo:hi])

    def between(self, k: int, prefix: str) -> tuple[int, int]:
        """The lines after the last line above ``k`` and before the first line below it that open with ``prefix``.

        Two lines opening alike (``    "severity": "``) belong to two objects: the object of line ``k`` lies between.
        """
        lines = self.lines
        lo = k - 1
        while lo >= 0 and not lines[lo].startswith(prefix):
            lo -= 1
        hi = k + 1
        while hi < len(lines) and not lines[hi].startswith(prefix):
            hi += 1
        return lo + 1, hi


def _word_at(text: str, i: int, n: int) -> bool:
    """Does the text at ``i`` (length ``n``) stand alone (no letter, digit or ``_`` touching it)?"""
    before = text[i - 1] if i > 0 else " "
    after = text[i + n] if i + n < len(text) else " "
    return not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_")


def _holds(text: str, value: str) -> bool:
    """Is ``value`` in ``text``, standing alone?"""
    i = text.find(value)
    while i >= 0:
        if _word_at(text, i, len(value)):
            return True
        i = text.find(value, i + 1)
    return False


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


def _header(view: _View, k: int, sep: str, idx: int, keys: list[str]) -> bool:
    """Is there a line above ``k``, with as many ``sep`` cells, whose cell ``idx`` names the key?"""
    count = view.lines[k].count(sep)
    for j in range(k - 1, -1, -1):
        ln = view.lines[j]
        if ln.count(sep) == count:
            cells = ln.split(sep)
            words = cells[idx].split()
            if words and _names_key(words[-1], keys):
                return True
    return False


def _tied(unit: _Unit, view: _View, derive: bool = True) -> bool:
    """Does the compact output print ``unit``'s value for its key, in its row (see the module docstring)?"""
    if not unit.value:
        return True  # an empty value holds nothing to lose
    if _tied_at(unit, view) is not None:
        return True
    return derive and _derived(unit, view)


def _tied_at(unit: _Unit, view: _View, within: tuple[int, int] | None = None) -> int | None:
    """The line where the value stands for its key in its row (``within``: a range of lines), or None."""
    text, value = view.text, unit.value
    n = len(value)
    i = text.find(value)
    while i >= 0:
        if _word_at(text, i, n):
            k = view.line_of(i)
            if within is not None and not within[0] <= k < within[1]:
                i = text.find(value, i + 1)
                continue
            line = view.lines[k]
            col = i - view.starts[k]
            anchor: int | None = None
            levels = 0
            region: tuple[int, int] | None = None
            cell = _cell(line, col, n)
            if cell is not None and _header(view, k, cell[0], cell[1], unit.keys):
                anchor = k  # a table row: the row is this line
            elif _names_key(line[:col], unit.keys) or _in_list(line, col, unit.keys):
                anchor = k
                levels = len(unit.keys)  # the object holding the key may start lines above
                region = view.between(k, line[:col])
            if anchor is not None and _rows_near(unit, view, anchor, levels, region):
                return k
        i = text.find(value, i + 1)
    return None


def _derived(unit: _Unit, view: _View) -> bool:
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
                        src = _Unit.__new__(_Unit)
                        src.path, src.rows = unit.path, unit.rows
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


def _rows_near(unit: _Unit, view: _View, anchor: int, levels: int, region: tuple[int, int] | None = None) -> bool:
    """Is each row of ``unit`` named on ``anchor`` or in a block above it, rows further out further up?

    Going up from a line, only the lines of the block indented no deeper than it are read: a row's
    name is a sibling of its key or opens the row, never inside a nested value (a job's block holds
    its steps' names). ``region``: the lines the innermost row's object may span (``_View.between``);
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
            if step == 0 and node >= 0:
                body = lines[node]
            else:
                lo, hi = view.span(node)
                if r == 0 and region is not None:
                    if node < 0 and region == (0, len(lines)):
                        break  # an unbounded region: the whole output names every row
                    lo, hi = max(lo, region[0]), min(hi, region[1])
                body = "\n".join(ln for ln, d in zip(lines[lo:hi], indent[lo:hi], strict=True) if 0 <= d <= cap)
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


def analyse(raw: str, compact: str, counted: bool, exhaustive: bool) -> tuple[dict[Fact, int], list[str]] | None:
    """The facts of JSON ``raw`` that ``compact`` lost (each with the index of its restore line) and those lines.

    None when ``raw`` is not JSON. The text after the documents goes through the line guard.
    """
    if len(raw) > DOC_MAX:
        return None
    parsed = parse(raw)
    if parsed is None:
        return None
    docs, end = parsed
    from rtk import factguard

    strings: set[str] = set()
    units = _walk(docs, strings)
    out = Output(compact)
    lost: dict[Fact, int] = {}
    lines: list[str] = []
    if units:
        view = _View(compact)
        for path, value in units:
            u = _Unit(docs, path, value)
            f = u.fact()
            if f not in lost and not _tied(u, view):
                lost[f] = len(lines)
                lines.append(u.line())
    # The values' own facts (a location in a message), each value read as a line of text.
    texts = [ln for s in strings for ln in s.split("\n")] if any("\n" in s for s in strings) else list(strings)
    inner = factguard.line_missing("\n".join(texts), compact, counted, exhaustive, out)
    if inner:
        for f, pos in sorted(inner.items(), key=lambda fp: fp[1]):
            if f in lost:
                continue
            ln = _line_at(texts, pos)
            lost[f] = len(lines)
            lines.append(ln)
    rest = raw[end:]
    if rest.strip():
        tail = factguard.line_missing(rest, compact, counted, exhaustive, out)
        for f, pos in sorted(tail.items(), key=lambda fp: fp[1]):
            if f in lost:
                continue
            e = rest.find("\n", pos)
            lost[f] = len(lines)
            lines.append(rest[pos:e] if e >= 0 else rest[pos:])
    return lost, lines


def _line_at(texts: list[str], pos: int) -> str:
    at = 0
    for t in texts:
        if at + len(t) >= pos:
            return t
        at += len(t) + 1
    return texts[-1] if texts else ""


def missing(raw: str, compact: str, counted: bool = False, exhaustive: bool = False) -> dict[Fact, int] | None:
    """``factguard.missing`` for JSON output (positions are the order of the restore lines); None when not JSON."""
    got = analyse(raw, compact, counted, exhaustive)
    return None if got is None else got[0]


def restore(raw: str, compact: str, counted: bool = False) -> tuple[str, int] | None:
    """``factguard.restore`` for JSON output: lost values come back as ``path = value`` lines; None when not JSON."""
    got = analyse(raw, compact, counted, False)
    if got is None:
        return None
    lost, lines = got
    if not lost:
        return compact, 0
    from rtk.factguard import block

    keep = list(dict.fromkeys(lines[i] for i in sorted(set(lost.values()))))
    if compact and not compact.endswith("\n"):
        compact += "\n"
    return compact + block(keep), len(keep)
