"""The fact guard: raw lines holding facts a filter dropped come back, for whole outputs and for streams.

A filter's compact output is checked against the facts of the raw output
(``rtk.facts``); every raw line with a fact the output lost is printed again
under one header, in its original order. Lines the compact output printed as they
are, and repeats, go in set operations; the C-speed scan (``rtk.factscan``, whose
docstring argues why it is sound) names the few dropped lines that may hold a fact
the output lacks, and only those reach the extractor; a problem line the output
reprinted with its spacing changed (``reprinted``) lost nothing. A filter that kept
its facts costs a few passes over the dropped text (``bench/fact_guard_results.md``).

Streams (``StreamGuard``) are guarded from the lines a filter did not vouch for
(``LineFilter.unvouched``), or from every line when it does not say. Why vouching
is sound: a filter vouches only for lines it dropped because they matched an anchored
shape of its tool's own progress output (cargo's ``   Compiling name v1.0 (path)``),
whose variable parts name a package, version or path being worked on: data, never a
problem, location, test or count (a crate may be called ``failure``; the generic
extractor, which cannot know that, would take the line for a problem report). Every
other line it drops (by a catch-all, by counting, into a diagnostic block) is reported
and read. The tests check, on every fixture of every family and on mutations, that no
vouched line holds a fact and that the guard restores what it would reading every line.
"""

from __future__ import annotations

from rtk.facts import Fact, _counts, is_marker, line_facts, tag_of
from rtk.factscan import scan, scan_counted
from rtk.presence import Output, present

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable


# A tag opening at least this many dropped lines marks a block (npm's usage text), not a problem per line.
TAG_MIN = 8
# Facts of a listing entry: a filter that says how many entries it cut ("+35 more") accounts for them.
LISTED = frozenset(("loc", "path", "hash"))
HEADER = "[rtk] restored {} the filter dropped:"
# A counted cut whose compact output is this many times smaller than the raw one is scanned as raw text
# (``factscan.scan_counted``: nearly every line is dropped, so splitting out the printed ones saves little).
COUNTED_RAW = 4


def _jsonish(raw: str) -> bool:
    """Does ``raw`` open like a JSON document (then ``rtk.factjson`` reads it as one, if it parses)?"""
    c = raw[:64].lstrip()[:1]
    return c == "{" or c == "["


def missing(
    raw: str, compact: str, counted: bool = False, exhaustive: bool = False, moved: dict[str, str] | None = None
) -> dict[Fact, int]:
    """Facts of ``raw`` that ``compact`` lost, each with the position (a character offset) of the line that holds it.

    JSON output (``rtk.factjson``): the facts are its values, each with the index of its restore line.
    """
    if _jsonish(raw):
        from rtk import factjson

        got = factjson.missing(raw, compact, counted, exhaustive, line_missing)
        if got is not None:
            return got
    return line_missing(raw, compact, counted, exhaustive, moved=moved)


def line_missing(
    raw: str,
    compact: str,
    counted: bool = False,
    exhaustive: bool = False,
    out: Output | None = None,
    moved: dict[str, str] | None = None,
    split: tuple[list[str], set[str]] | None = None,
) -> dict[Fact, int]:
    """``missing`` for text: the facts of ``raw``'s lines (``out``: ``compact`` prepared, when already at hand).

    ``counted``: the filter reported a cut (an exact count, and the raw output kept for recovery),
    so listing entries (grep matches, log commits) it left out are accounted for; the facts of
    problem lines (errors, failures, warnings) never are. ``exhaustive``: read every dropped
    line with the extractor, not only those the C-speed scan (``rtk.factscan``) names (the
    reference the tests compare the fast path with). ``moved``: the filter's report of the lines
    it regrouped (``filterapi.Filtered.moved``), which the scan checks before it relies on it.
    ``split``: ``raw.split("\\n")`` and the set of its lines, when the caller already has them (``rtk.factjson``).
    """
    if out is None:
        out = Output(compact)
    rawlines: list[str] | None = None
    todo: list[str] | None = None
    if exhaustive:
        gone = set(compact.split("\n"))
        todo = [ln for ln in dict.fromkeys(raw.split("\n")) if ln and ln not in gone]
    elif counted and len(compact) * COUNTED_RAW < len(raw):
        todo = scan_counted(raw, compact)  # the same lines, without splitting and hashing every raw line
    if todo is None:
        rawlines, distinct = split if split is not None else (raw.split("\n"), None)
        todo = _dropped(rawlines, compact.split("\n"), compact, out, counted, moved, distinct)
    if not todo:
        return {}
    # Tags are counted over every line that may hold one (each holds a marker word, so the scan names it).
    tags = _tags([(0, ln) for ln in todo])
    if not exhaustive:
        todo = [ln for ln in todo if not reprinted(ln, compact)]
        if not todo:
            return {}
    totals = _raw_totals(raw, rawlines)  # computed only if a count is missing
    lost = judge([(0, ln) for ln in todo], out, counted, totals, tags)
    if not lost:
        return {}
    # Facts lost: judge again in the raw output's order, so each fact names the first line that holds it.
    pos = _positions(raw, set(todo))
    return judge(sorted((pos[ln], ln) for ln in todo), out, counted, totals, tags)


def reprinted(line: str, text: str) -> bool:
    """Is ``line``, its whitespace runs made single spaces, in ``text`` between whitespace (so it lost no fact)?

    Then every token of the line is a whole word of ``text``: every value a token holds (a location,
    code, hash, path, test id) is in the text, every count is a word of it, and the line itself
    (the fact of a marker line) is in the text. A ``File "path", line N`` location, whose path may
    hold whitespace, is not vouched for this way.
    """
    if 'File "' in line:
        return False
    flat = " ".join(line.split())
    n, end = len(flat), len(text)
    i = text.find(flat)
    while i >= 0:
        if (i == 0 or text[i - 1].isspace()) and (i + n == end or text[i + n].isspace()):
            return True
        i = text.find(flat, i + 1)
    return False


def dropped(raw: str, kept: Iterable[str], words: object = None) -> list[str]:
    """The distinct lines of ``raw`` that ``kept`` (the compact output's lines) does not hold and that may carry a fact it lacks.

    (``words`` is not read: the scan works on the compact text, ``kept`` joined.)
    """
    kept = list(kept)
    compact = "\n".join(kept)
    return _dropped(raw.split("\n"), kept, compact, Output(compact))


def _dropped(
    rawlines: list[str],
    kept: list[str],
    compact: str,
    out: Output,
    counted: bool = False,
    moved: dict[str, str] | None = None,
    distinct: set[str] | None = None,
) -> list[str]:
    """Lines the compact output printed as they are, and repeats, go in C (set operations); then the scan.

    ``distinct``: ``set(rawlines)`` when the caller has it (not changed here).
    """
    lines = set(rawlines) if distinct is None else distinct.copy()
    lines.difference_update(kept)
    lines.discard("")
    return scan(lines, compact, out, counted, moved)


def _positions(raw: str, lines: set[str]) -> dict[str, int]:
    """The offset in ``raw`` of the first occurrence of each of ``lines``."""
    pos: dict[str, int] = {}
    at = 0
    for ln in raw.split("\n"):
        if ln in lines and ln not in pos:
            pos[ln] = at
        at += len(ln) + 1
    return pos


def _raw_totals(raw: str, lines: list[str] | None = None) -> Callable[[frozenset[str]], dict[str, int]]:
    """Summary counts summed over every line of ``raw`` ("2 passed" in each of 45 crates: 90), for the words asked.

    (``lines``: ``raw.split("\\n")`` when already at hand.)
    """

    def totals(wanted: frozenset[str]) -> dict[str, int]:
        times = _lines_holding(raw, wanted, lines)
        sums: dict[str, int] = {}
        for line, t in times.items():
            for _, n, word in _counts(line):
                if word in wanted:
                    sums[word] = sums.get(word, 0) + int(n) * t
        return sums

    return totals


def _lines_holding(raw: str, wanted: frozenset[str], lines: list[str] | None = None, most: int = 64) -> dict[str, int]:
    """Each line of ``raw`` holding one of ``wanted`` (lowercased) and how often it comes.

    Found from each occurrence of a word (in C) while they are few and lowercasing keeps the
    offsets (``str.lower`` may lengthen a non-ASCII text); else every line is counted once.
    """
    low = raw.lower()
    # (Both ways give the same lines and times; the occurrences, counted in C, say which is cheaper.)
    if len(low) == len(raw) and sum(low.count(w) for w in wanted) <= most:
        starts: set[int] = set()
        for w in wanted:
            i = low.find(w)
            while i >= 0 and len(starts) <= most:
                starts.add(raw.rfind("\n", 0, i) + 1)
                end = raw.find("\n", i)
                i = low.find(w, end) if end >= 0 else -1
        if len(starts) <= most:
            times: dict[str, int] = {}
            for s in starts:
                end = raw.find("\n", s)
                line = raw[s:end] if end >= 0 else raw[s:]
                times[line] = times.get(line, 0) + 1
            return times
    from collections import Counter

    counted = Counter(raw.split("\n") if lines is None else lines)  # each distinct line and how often it came
    if len(wanted) == 1:
        (w,) = wanted
        return {ln: t for ln, t in counted.items() if w in ln.lower()}
    return {ln: t for ln, t in counted.items() if any(w in ln.lower() for w in wanted)}


def judge(
    todo: list[tuple[int, str]],
    out: Output,
    counted: bool,
    totals: Callable[[frozenset[str]], dict[str, int]],
    tags: frozenset[str] | None = None,
) -> dict[Fact, int]:
    """The facts of the dropped lines ``todo`` (position, line) that ``out`` does not hold.

    ``totals``: the count words asked, each summed over the whole output; a count the filter summed over
    parts ("2 passed" in each of 45 crates: "90 passed") is present when the sum is. ``tags``: the
    frequent line tags (``_tags``), when counted over more lines than ``todo``.
    """
    if tags is None:
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
        sums = totals(frozenset(f[2] for f in counts))
        for f in counts:
            if out.word(str(sums.get(f[2], -1))):
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


def restore(raw: str, compact: str, counted: bool = False, moved: dict[str, str] | None = None) -> tuple[str, int]:
    """``compact`` with the raw lines holding lost facts appended under one header; and their count."""
    if _jsonish(raw):
        from rtk import factjson

        done = factjson.restore(raw, compact, counted, line_missing, block)
        if done is not None:
            return done
    lost = line_missing(raw, compact, counted, moved=moved)
    if not lost:
        return compact, 0
    lines = []
    for s in sorted(set(lost.values())):
        end = raw.find("\n", s)
        lines.append(raw[s:end] if end >= 0 else raw[s:])
    if compact and not compact.endswith("\n"):
        compact += "\n"
    return compact + block(lines), len(lines)


# Lowercased substrings of problem lines: a streamed block with none of them holds no problem line.
STREAM_HINTS = ("error", "fail", "warn", "panic", "exception", "traceback", "fatal", "not ok", "crash", "✗", "✘")
# The hints as bytes, and those an ASCII output can hold.
_HINT_BYTES = tuple(h.encode() for h in STREAM_HINTS)
_HINT_ASCII = tuple(h for h in _HINT_BYTES if h.isascii())


class StreamGuard:
    """The fact guard for a streamed output: what was printed is already out, so lost lines come at the end.

    Only problem lines (error, failure, warning, panic...) are tracked while streaming,
    among the lines ``feed`` is given: every line of a block, or only those the filter did
    not vouch for (see the module docstring; a block of cargo progress lines then costs
    nothing). Each distinct line is searched once (a set operation drops repeats of lines
    judged in earlier blocks; a repeat is counted only when its line holds a summary count,
    which the final check sums); the search is one ``lower()`` and a few substring searches
    (on bytes when it is ASCII). Memory stays flat: at most ``LIMIT`` lines and ``KEEP``
    characters of printed output are kept.
    """

    LIMIT = 5000
    PLAIN = 4096  # distinct lines without a hint remembered (repeats are then not searched again)
    PLAIN_CHARS = 512  # ...when no longer than this: the set stays within about 2 MiB
    KEEP = 1 << 20  # printed text the final check reads (its views cost several times this, transiently)

    __slots__ = ("counting", "kept", "looked", "n", "plain", "printed", "seen", "todo")

    def __init__(self) -> None:
        self.todo: list[tuple[int, str]] = []  # (position in the stream, line): dropped lines with a hint
        self.looked: dict[str, int] = {}  # each such line and how often it came
        self.seen: set[str] = set()  # the keys of ``looked`` (a set, for set operations in C)
        self.counting: set[str] = set()  # those holding a summary count ("2 passed"): their times are counted
        self.plain: set[str] = set()
        self.printed: list[str] = []
        self.kept = 0
        self.n = 0  # blocks seen

    def feed(self, lines: list[str], parts: list[str]) -> None:
        """One block of raw lines (all, or those the filter did not vouch for) and what the filter printed for it."""
        self.n += 1
        base = self.n << 40  # positions order blocks, then lines within a block
        if self.kept < self.KEEP:
            for p in parts:
                self.printed.append(p)
                self.kept += len(p)
        if not lines or len(self.todo) >= self.LIMIT:
            return
        fresh = set(lines)
        shown: set[str] | None = None
        again = fresh & self.seen  # problem lines judged in an earlier block: not searched again
        if again:
            fresh -= again
            again &= self.counting  # only a summary count needs how often its line came
            if again and parts:
                shown = set("".join(parts).split("\n"))
                again -= shown
            looked = self.looked
            if len(again) * 8 < len(lines):  # a few such lines: counted in C
                for ln in again:
                    looked[ln] += lines.count(ln)
            elif again:
                for ln in lines:
                    if ln in again:
                        looked[ln] += 1
        fresh -= self.plain
        if not fresh:
            return
        text = "\n".join(fresh)
        starts: set[int] = set()
        if text.isascii():  # bytes: lower() and find() are faster, and offsets are the same
            data = text.encode().lower()
            for hb in _HINT_ASCII:
                i = data.find(hb)
                while i >= 0:  # the start of each line with a hint, found in C
                    starts.add(data.rfind(b"\n", 0, i) + 1)
                    end = data.find(b"\n", i)
                    i = data.find(hb, end) if end >= 0 else -1
        else:
            low = text.lower()
            for h in STREAM_HINTS:
                i = low.find(h)
                while i >= 0:
                    starts.add(low.rfind("\n", 0, i) + 1)
                    end = low.find("\n", i)
                    i = low.find(h, end) if end >= 0 else -1
        hinted: set[str] = set()
        for s in starts:
            end = text.find("\n", s)
            hinted.add(text[s:end] if end >= 0 else text[s:])
        if len(self.plain) < self.PLAIN:  # lines without a hint, not searched again while the set has room
            self.plain.update(ln for ln in fresh - hinted if len(ln) <= self.PLAIN_CHARS)
        if not hinted:
            return
        if shown is None:
            shown = set("".join(parts).split("\n")) if parts else set()
        new = [(lines.index(line), line) for line in hinted if line and line not in shown]
        for at, line in sorted(new):  # each distinct line once, at its first place in the block
            self.seen.add(line)
            if _counts(line):
                self.counting.add(line)
                self.looked[line] = lines.count(line)
            else:
                self.looked[line] = 1
            self.todo.append((base + at, line))

    def finish(self, summary: str, counted: bool = False) -> tuple[str, int]:
        """The block of restored lines to print before ``summary``, and how many lines it has."""
        if not self.todo:
            return "", 0
        out = Output("".join(self.printed) + summary)
        looked, counting = self.looked, self.counting

        def totals(wanted: frozenset[str]) -> dict[str, int]:
            sums: dict[str, int] = {}
            for line in counting:
                times = looked[line]
                for _, n, word in _counts(line):
                    if word in wanted:
                        sums[word] = sums.get(word, 0) + int(n) * times
            return sums

        lost = judge(self.todo, out, counted, totals)
        if not lost:
            return "", 0
        at = dict(self.todo)
        lines = list(dict.fromkeys(at[i] for i in sorted(set(lost.values()))))
        return block(lines), len(lines)
