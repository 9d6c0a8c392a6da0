"""The fact guard: raw lines holding facts a filter dropped come back, for whole outputs and for streams.

A filter's compact output is checked against the facts of the raw output
(``rtk.facts``); every raw line with a fact the output lost is printed again
under one header, in its original order. Lines the compact output already holds,
or whose every word it holds, are never looked at, so a filter that kept its
facts costs a few set operations.
"""

from __future__ import annotations

from rtk.facts import MARKERS, Fact, _counts, _words, details, is_marker, line_facts, tag_of


class Output:
    """A compact output prepared for presence checks."""

    __slots__ = ("_numbers", "flat", "low", "text", "words")

    def __init__(self, text: str) -> None:
        self.text = text
        self.flat = " ".join(text.split())
        self.low = text.lower()
        self.words = frozenset(_words(self.low))
        self._numbers: frozenset[str] | None = None

    def numbers(self) -> frozenset[str]:
        """Every run of digits in the text (``29/29`` holds 29)."""
        if self._numbers is None:
            self._numbers = frozenset("".join(c if c.isdigit() else " " for c in self.text).split())
        return self._numbers


def present(f: Fact, out: Output) -> bool:
    """Does the compact output still hold fact ``f`` (in any presentation)?"""
    kind, value, detail = f
    text = out.text
    if kind == "word":
        return value in text
    if kind == "hash":
        return value[:7] in text
    if kind == "loc":
        if f"{value}:{detail}" in text or f"{value}({detail}" in text or f'{value}", line {detail}' in text:
            return True
        # Regrouped: the file once as a header, its line numbers under it ("a.py (3 errors):  7, 11: ...").
        base = value.replace("\\", "/").rsplit("/", 1)[-1]
        return base in text and detail in out.words
    if kind == "path":
        v = value[2:] if value.startswith("./") else value
        if v in text:
            return True
        parent, _, base = v.rstrip("/").rpartition("/")
        return base in text and (not parent or parent.rsplit("/", 1)[-1] in text)
    if kind == "count":
        return value in out.words
    if value in out.flat:  # a marker line: whole, or what sets it apart
        return True
    named, numbers, content = details(value)
    if named or numbers:
        return all(n in out.low for n in named) and all(n in out.numbers() for n in numbers)
    if content:
        return any(w in out.words for w in content)
    return not MARKERS.isdisjoint(out.words)  # a status line: the output must still say something failed


# A tag opening at least this many dropped lines marks a block (npm's usage text), not a problem per line.
TAG_MIN = 8
# Facts of a listing entry: a filter that says how many entries it cut ("+35 more") accounts for them.
LISTED = frozenset(("loc", "path", "hash"))
HEADER = "[rtk] restored {} the filter dropped:"


def missing(raw: str, compact: str, counted: bool = False, exhaustive: bool = False) -> dict[Fact, int]:
    """Facts of ``raw`` that ``compact`` lost, each with the offset (in UTF-8 bytes) of the line that holds it.

    ``counted``: the filter reported a cut (an exact count, and the raw output kept for recovery),
    so listing entries (grep matches, log commits) it left out are accounted for; the facts of
    problem lines (errors, failures, warnings) never are. ``exhaustive``: look at every line, not
    only those the C-speed search names (the reference the tests compare the fast path with).
    """
    data = raw.encode("utf-8", "surrogatepass")
    kept = set(compact.split("\n"))
    words = set(compact.split())
    every = [0] + [i + 1 for i, c in enumerate(data) if c == 10] if exhaustive else None
    starts = every if every is not None else candidates(data, words)
    todo: list[tuple[int, str]] = []
    seen: set[str] = set()
    looked: dict[str, int] = {}  # every line looked at, and how often (per-part counts add up)
    for s in starts:
        line = _line_at(data, s)
        looked[line] = looked.get(line, 0) + 1
        if not line or line in kept or line in seen:
            continue
        seen.add(line)
        if not words.issuperset(line.split()):  # else every word of the line is still there: nothing to restore
            todo.append((s, line))
    if not todo:
        return {}
    return judge(todo, Output(compact), counted, looked)


def _table(groups: dict[str, bytes], rest: int | None = None) -> bytes:
    """A ``bytes.translate`` table: each byte of a group's key maps to the group's byte; others to ``rest``."""
    t = bytearray(range(256)) if rest is None else bytearray([rest] * 256)
    for chars, to in groups.items():
        for c in chars.encode():
            t[c] = to[0]
    return bytes(t)


_WS = " \t\r\v\f"
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Bytes by class, for searches over a whole output in C: letters "a", digits "0"; hex digits "h".
_CLASS = _table({_LETTERS: b"a", "0123456789": b"0", _WS: b" "})
_HEXCLASS = _table({"0123456789abcdef": b"h", _WS: b" ", "\n": b"\n"}, ord("n"))
# Lowercase, digits as "0": for problem hints, and for "3 passed", "2 skipped" (count lines no hint finds).
_NORM = _table({**{c: c.lower().encode() for c in _LETTERS}, "0123456789": b"0"})
_COUNT_NEEDLES = (b"0 passed", b"0 skipped", b"0 xpassed")


def candidates(data: bytes, words: set[str]) -> list[int]:
    """Offsets of the lines of ``data`` (a raw output in UTF-8) that may hold a fact the compact output lost.

    A fact sits on a problem line (found by its hint), on a traceback's ``File "..."`` line,
    on a count line, or in a word shaped as a location (``name.py:12``, ``file.ts(3``) or a
    hash that is not among the compact output's ``words``. Each search runs over the whole
    output in C (``bytes.translate``, ``bytes.find``); Python only handles the hits.
    """
    starts: set[int] = set()
    norm = data.translate(_NORM)
    for h in _HINT_ASCII if data.isascii() else _HINT_BYTES:
        _lines_with(h, norm, starts)
    _lines_with(b'File "', data, starts)
    if b"pass" in norm or b"skipped" in norm:
        for needle in _COUNT_NEEDLES:
            _lines_with(needle, norm, starts)
    cls = data.translate(_CLASS)
    for sig in (b"a:0", b"a(0"):
        i = cls.find(sig)
        while i >= 0:
            i = _word_hit(data, i, words, starts, False)
            i = cls.find(sig, i)
    hexed = data.translate(_HEXCLASS)
    for sig in (b" hhhhhhh", b"\nhhhhhhh"):
        i = hexed.find(sig)
        while i >= 0:
            i = _word_hit(data, i + 1, words, starts, True)
            i = hexed.find(sig, i)
    if hexed.startswith(b"hhhhhhh"):
        _word_hit(data, 0, words, starts, True)
    return sorted(starts)


def _word_hit(data: bytes, i: int, words: set[str], starts: set[int], hexish: bool) -> int:
    """Note the line of the word at ``i`` unless the compact output has that word; return the word's end."""
    ls = data.rfind(b"\n", 0, i) + 1
    le = data.find(b"\n", i)
    if le < 0:
        le = len(data)
    ws = max(ls, data.rfind(b" ", ls, i) + 1, data.rfind(b"\t", ls, i) + 1)
    end = le
    for sep in (b" ", b"\t"):
        e = data.find(sep, i, le)
        if 0 <= e < end:
            end = e
    word = data[ws:end].decode("utf-8", "replace")
    if word in words or (hexish and not any(c.isalpha() for c in word)):  # kept, or a plain number
        return end
    starts.add(ls)
    return end


def _lines_with(needle: bytes, hay: bytes, starts: set[int]) -> None:
    """Add the start offset of every line of ``hay`` that contains ``needle``."""
    i = hay.find(needle)
    while i >= 0:
        starts.add(hay.rfind(b"\n", 0, i) + 1)
        end = hay.find(b"\n", i)
        if end < 0:
            return
        i = hay.find(needle, end)


def _line_at(data: bytes, start: int) -> str:
    end = data.find(b"\n", start)
    return (data[start:end] if end >= 0 else data[start:]).decode("utf-8", "surrogatepass")


def judge(todo: list[tuple[int, str]], out: Output, counted: bool, looked: dict[str, int]) -> dict[Fact, int]:
    """The facts of the dropped lines ``todo`` that ``out`` does not hold.

    ``looked``: every candidate line and how often it came; a count the filter summed over parts
    ("2 passed" in each of 45 crates: "90 passed") is present when the sum is.
    """
    tags = _tags(todo)
    lost: dict[Fact, int] = {}
    for i, line in todo:
        facts = line_facts(line, tags)
        if counted and facts and not is_marker(line):
            facts = [f for f in facts if f[0] not in LISTED]
        for f in facts:
            if f not in lost and not present(f, out):
                lost[f] = i
    counts = [f for f in lost if f[0] == "count"]
    if counts:
        totals: dict[str, int] = {}
        for line, times in looked.items():
            for _, n, word in _counts(line):
                totals[word] = totals.get(word, 0) + int(n) * times
        for f in counts:
            if str(totals.get(f[2], -1)) in out.words:
                del lost[f]
    return lost


def _tags(todo: list[tuple[int, str]]) -> frozenset[str]:
    """Tags (``npm error``) that open at least ``TAG_MIN`` of the dropped lines."""
    n: dict[str, int] = {}
    for _, line in todo:
        t = tag_of(line)
        if t is not None:
            n[t[0]] = n.get(t[0], 0) + 1
    return frozenset(k for k, c in n.items() if c >= TAG_MIN)


def block(lines: list[str]) -> str:
    """Restored lines under their header."""
    n = len(lines)
    return "\n".join([HEADER.format(f"{n} line" if n == 1 else f"{n} lines"), *lines]) + "\n"


def restore(raw: str, compact: str, counted: bool = False) -> tuple[str, int]:
    """``compact`` with the raw lines holding lost facts appended under one header; and their count."""
    lost = missing(raw, compact, counted)
    if not lost:
        return compact, 0
    data = raw.encode("utf-8", "surrogatepass")
    lines = [_line_at(data, s) for s in sorted(set(lost.values()))]
    if compact and not compact.endswith("\n"):
        compact += "\n"
    return compact + block(lines), len(lines)


# Lowercased substrings of problem lines: a streamed block with none of them holds no problem line.
STREAM_HINTS = ("error", "fail", "warn", "panic", "exception", "traceback", "fatal", "not ok", "crash", "✗", "✘")
# The hints as bytes, and those an ASCII output can hold.
_HINT_BYTES = tuple(h.encode() for h in STREAM_HINTS)
_HINT_ASCII = tuple(h for h in _HINT_BYTES if h.isascii())
_STREAM_ASCII = tuple(h for h in STREAM_HINTS if h.isascii())


class StreamGuard:
    """The fact guard for a streamed output: what was printed is already out, so lost lines come at the end.

    Only problem lines (error, failure, warning, panic...) are tracked while streaming:
    a block with none of the hint substrings costs one ``lower()`` and a few substring
    searches. Memory stays flat: at most ``LIMIT`` lines and ``KEEP`` characters of
    printed output are kept.
    """

    LIMIT = 5000
    KEEP = 8 << 20

    __slots__ = ("kept", "looked", "n", "printed", "todo")

    def __init__(self) -> None:
        self.todo: list[tuple[int, str]] = []  # (position in the stream, line): dropped lines with a hint
        self.looked: dict[str, int] = {}  # each such line and how often it came
        self.printed: list[str] = []
        self.kept = 0
        self.n = 0  # characters seen: the position of a block's first line

    def feed(self, lines: list[str], parts: list[str]) -> None:
        """One block of raw lines and what the filter printed for it."""
        base = self.n
        text = "\n".join(lines)
        self.n += len(text) + 1
        if self.kept < self.KEEP:
            for p in parts:
                self.printed.append(p)
                self.kept += len(p)
        if len(self.todo) >= self.LIMIT:
            return
        low = text.lower()
        starts: set[int] = set()
        for h in _STREAM_ASCII if low.isascii() else STREAM_HINTS:
            i = low.find(h)
            while i >= 0:  # the start of each line with a hint, found in C
                starts.add(low.rfind("\n", 0, i) + 1)
                end = low.find("\n", i)
                i = low.find(h, end) if end >= 0 else -1
        if not starts:
            return
        shown = set("".join(parts).split("\n"))
        for s in starts:
            end = text.find("\n", s)
            line = text[s:end] if end >= 0 else text[s:]
            if line and line not in shown:
                n = self.looked.get(line, 0)
                self.looked[line] = n + 1
                if not n:
                    self.todo.append((base + s, line))

    def finish(self, summary: str, counted: bool = False) -> tuple[str, int]:
        """The block of restored lines to print before ``summary``, and how many lines it has."""
        if not self.todo:
            return "", 0
        out = Output("".join(self.printed) + summary)
        lost = judge(self.todo, out, counted, self.looked)
        if not lost:
            return "", 0
        at = dict(self.todo)
        lines = list(dict.fromkeys(at[i] for i in sorted(set(lost.values()))))
        return block(lines), len(lines)
