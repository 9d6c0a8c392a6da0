"""The fact guard on JSON output: a problem is a JSON value with its key path and row, not a physical line.

An output that is a JSON document, or several (NDJSON), possibly followed by text
(``gh api``'s error body then ``gh: Not Found (HTTP 404)``), is read as JSON. A minified
document is one physical line; no compact view holds it, so the line guard would always
restore it whole. Here the units are the document's values:

- *Problem units*: a string that reports a problem (``facts.is_marker``: ``"failure"``,
  ``"Error: boom"``), or any non-empty scalar under a key that does (``"errors": 3``,
  ``"error": {"message": ...}``). Each is a fact ``("json", path, value)``, present when the
  compact output ties the value to its key and to its row (``rtk.factjsontie.tied``): the value stands
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
``.path.to[row] key: value (row ids)`` lines under the guard's header. The text after the documents goes
through the line guard. Output that does not parse falls back to the line guard (``None``).
"""

from __future__ import annotations

from rtk.factjsontie import Num, Unit, tied
from rtk.factjsonview import View
from rtk.facts import Fact, is_marker
from rtk.presence import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Container
    from typing import Any, Protocol

    # A text's lines and the set of them (``factguard.line_missing``'s ``split``).
    Split = tuple[list[str], set[str]]

    class LineMissing(Protocol):
        """factguard.line_missing (passed in: the guard imports this module, not the other way round)."""

        def __call__(
            self, raw: str, compact: str, counted: bool, exhaustive: bool, out: Output, *, split: Split | None = None
        ) -> dict[Fact, int]: ...


# A marker string longer than this (a log, a paragraph) is read for the facts of its lines only.
UNIT_MAX = 300
# A document this large is left to the line guard (its walk would cost more than the budget allows).
DOC_MAX = 8 << 20


def parse(raw: str) -> tuple[list[Any], int] | None:
    """The JSON documents that open ``raw`` (at least one object or array) and where the text after them starts."""
    import json

    dec = json.JSONDecoder(parse_float=Num)
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
        except (ValueError, RecursionError):  # nested deeper than the decoder goes: read as text
            if not docs:
                return None
            break
        docs.append(doc)
    if not docs:
        return None
    if type(docs[0]) is not dict and raw[i:].lstrip(" \t\r")[:1] not in ("\n", ""):
        return None  # a list and then text on its line: a text line opened by brackets ("[    0.000000] kvm...")
    return docs, i


def _walk(docs: list[Any], marked: set[str] | None) -> list[tuple[tuple[Any, ...], Any]]:
    """The problem units as (path, value): units come in document order, but an object's scalars first.

    ``marked``: every key and string of the documents that reports a problem (``_marked``), or None
    to test each one (``_Marks``: the same ``in`` test, computed once per string). A path holds keys (str)
    and indexes (int); NDJSON documents are the rows of a virtual array (``-1, k``). One walk for both: the
    test is ``in marked`` (a set lookup in C when ``marked`` is a set, no call per key and string).
    """
    marks: Container[str] = _Marks() if marked is None else marked
    units: list[tuple[tuple[Any, ...], Any]] = []
    many = len(docs) > 1
    for k, doc in enumerate(docs):
        stack: list[tuple[Any, tuple[Any, ...], bool]] = [(doc, (-1, k) if many else (), False)]
        while stack:
            x, path, hot = stack.pop()
            pushes: list[tuple[Any, tuple[Any, ...], bool]] = []
            if type(x) is dict:
                for key, v in x.items():
                    h = hot or key in marks
                    tv = type(v)
                    if tv is str:
                        if ((h and v) or v in marks) and "\n" not in v and len(v) <= UNIT_MAX:
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
                        if ((hot and v) or v in marks) and "\n" not in v and len(v) <= UNIT_MAX:
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


class _Marks(dict[str, bool]):
    """``s in _Marks()``: does ``s`` report a problem (``_marks``), remembered per string."""

    def __missing__(self, s: str) -> bool:
        got = self[s] = _marks(s)
        return got

    def __contains__(self, s: object) -> bool:
        return self[s]  # type: ignore[index]


# Lowercased substrings of every marker word and glyph (``factscan.NEEDLES``): a string without one is no problem.
_NEEDLES = ("error", "fail", "warning", "panic", "exception", "traceback", "fatal", "crashed", "not ok ", "✗", "✘")


def _marks(s: str) -> bool:
    low = s.lower()
    for n in _NEEDLES:
        if n in low:
            return is_marker(s)
    return False


def _marked(text: str, pieces: bool = False) -> set[str] | None:
    """Every JSON string of ``text`` (key or value) that reports a problem, found from the needles' places (in C).

    None when that cannot be sure (``\\u`` escapes may spell a needle; non-ASCII text may lower to another length).
    ``pieces``: ``text`` is not the document but its distinct pieces between quotes joined by line breaks
    (``_marked_pieces``): a needle's string as written is then its piece, quoted.
    """
    import json

    if "\\" in text and "\\u" in text:  # (a backslash first: one memchr, where a two-character search is ~100x slower)
        return None
    needles: tuple[str, ...] = _NEEDLES
    if text.isascii():  # only the needles the text holds: each searched in C over the text reduced to their letters
        from rtk.factscan import _NEEDLES_ASCII, _NEEDLES_REDUCED, _REDUCE, _REDUCE_DELETE

        red = text.encode("ascii").translate(_REDUCE, _REDUCE_DELETE)
        needles = tuple(n.decode() for n, r in zip(_NEEDLES_ASCII, _NEEDLES_REDUCED, strict=True) if r in red)
        if not needles:
            return set()
    low = text.lower()
    if len(low) != len(text):
        return None
    found: set[str] = set()
    seen: set[str] = set()  # the strings as written already decoded (a failing value repeats in every row)
    for n in needles:
        i = low.find(n)
        while i >= 0:
            if pieces:
                start = text.rfind("\n", 0, i) + 1
                end = text.find("\n", i)
                end = len(text) if end < 0 else end
                written = f'"{text[start:end]}"'
            else:
                start = _quote(text, i, -1)
                end = _quote(text, i, 1)
                if start < 0 or end < 0:
                    return None
                written = text[start : end + 1]
            if written not in seen:
                seen.add(written)
                try:
                    v = json.loads(written)
                except ValueError:
                    return None
                if type(v) is str:
                    found.add(v)
            i = low.find(n, end + 1)
    return {v for v in found if is_marker(v)}


def _marked_pieces(body: str, pieces: set[str]) -> set[str] | None:
    """``_marked(body)`` read from ``pieces``, the distinct pieces of ``body`` split at its quotes (strings repeat).

    The same strings: with no ``\\"`` in ``body`` every quote delimits a string, so each string as written is a
    piece between quotes (a JSON string holds no raw line break: the decoder is strict); the other pieces are
    the text between strings (``:221,``, ``},{``, whitespace, ``true``...), where no needle can stand. A needle
    holds no quote or line break, so it is in ``body`` exactly when it is in a piece, and each needle the text
    holds passes the reduced-text test (a piece's reduction is a part of the joined pieces'). ``"\\u"`` and
    non-ASCII characters that lower to another length are in a piece exactly when in ``body``.
    """
    if "\\" in body and '\\"' in body:
        return _marked(body)
    return _marked("\n".join(pieces), True)


def _quote(text: str, i: int, step: int) -> int:
    """The unescaped ``"`` before (``step`` -1) or after (1) offset ``i``, or -1."""
    while True:
        j = text.rfind('"', 0, i) if step < 0 else text.find('"', i)
        if j < 0:
            return -1
        k = j
        while k > 0 and text[k - 1] == "\\":
            k -= 1
        if (j - k) % 2 == 0:
            return j
        i = j if step < 0 else j + 1


def analyse(
    raw: str, compact: str, counted: bool, exhaustive: bool, lines_lost: LineMissing
) -> tuple[dict[Fact, int], list[str]] | None:
    """The facts of JSON ``raw`` that ``compact`` lost (each with the index of its restore line) and those lines.

    None when ``raw`` is not JSON. The text after the documents goes through the line guard.
    """
    if len(raw) > DOC_MAX:
        return None
    parsed = parse(raw)
    if parsed is None:
        return None
    docs, end = parsed
    body = raw[:end]
    # The values' own facts (a location in a message): each string a line of text (its quotes made line
    # breaks, in C; the text between strings, ``:221,`` or ``},{``, holds no fact), its ``\\n`` escapes too.
    texts = body.replace('"', "\n")
    split: Split | None = None
    if "\\" in texts and "\\n" in texts:
        texts = texts.replace("\\n", "\n")
        marked = _marked(body)
    elif counted or exhaustive:  # (the line guard may then read the text without splitting it: a counted cut)
        marked = _marked(body)
    else:  # the pieces split and set once, for the marked strings and the line guard
        pieces = texts.split("\n")
        split = (pieces, set(pieces))
        marked = _marked_pieces(body, split[1])
    units = _walk(docs, marked) if marked is None or marked else []
    out = Output(compact)
    lost: dict[Fact, int] = {}
    lines: list[str] = []
    if units:
        view = View(compact)
        memo: dict[int, dict[str, int]] = {}  # per list of rows: in how many rows each value is
        for path, value in units:
            u = Unit(docs, path, value, memo)
            f = u.fact()
            if f not in lost and not tied(u, view):
                lost[f] = len(lines)
                lines.append(u.line())
    inner = lines_lost(texts, compact, counted, exhaustive, out, split=split)
    if inner:
        for f, pos in sorted(inner.items(), key=lambda fp: fp[1]):
            if f in lost:
                continue
            e = texts.find("\n", pos)
            lost[f] = len(lines)
            lines.append(texts[pos:e] if e >= 0 else texts[pos:])
    rest = raw[end:]
    if rest.strip():
        tail = lines_lost(rest, compact, counted, exhaustive, out)
        for f, pos in sorted(tail.items(), key=lambda fp: fp[1]):
            if f in lost:
                continue
            e = rest.find("\n", pos)
            lost[f] = len(lines)
            lines.append(rest[pos:e] if e >= 0 else rest[pos:])
    return lost, lines


def missing(raw: str, compact: str, counted: bool, exhaustive: bool, lines_lost: LineMissing) -> dict[Fact, int] | None:
    """``factguard.missing`` for JSON output (positions are the order of the restore lines); None when not JSON."""
    got = analyse(raw, compact, counted, exhaustive, lines_lost)
    return None if got is None else got[0]


def restore(
    raw: str, compact: str, counted: bool, lines_lost: LineMissing, block: Callable[[list[str]], str]
) -> tuple[str, int] | None:
    """``factguard.restore`` for JSON output: lost values come back as ``path = value`` lines; None when not JSON."""
    got = analyse(raw, compact, counted, False, lines_lost)
    if got is None:
        return None
    lost, lines = got
    if not lost:
        return compact, 0
    keep = list(dict.fromkeys(lines[i] for i in sorted(set(lost.values()))))
    if compact and not compact.endswith("\n"):
        compact += "\n"
    return compact + block(keep), len(keep)
