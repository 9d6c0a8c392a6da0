"""The compact output as the JSON fact guard reads it: lines, indentation, blocks, and where words stand."""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from operator import sub

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

# A value naming a row alone is at least this long ("9" is in too many places to name one).
ID_MIN = 3
# A row's name and its value this many lines apart or more are not taken for one object (a cheap first test).
NEAR = 400
# ``View.places`` searches the text for this many row names before it indexes the text's words (which costs 8-30 searches).
SEARCHES = 24


class View:
    """The compact output's lines, with each line's indentation, for the ties of ``_tied``."""

    __slots__ = (
        "ends",
        "found",
        "headers",
        "indent",
        "kcache",
        "lines",
        "named",
        "open",
        "pad",
        "scanned",
        "shapes",
        "starts",
        "text",
        "uniq",
        "words",
    )

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        lens = list(map(len, self.lines))
        self.starts: list[int] = [0]
        self.starts.extend(accumulate(map((1).__add__, lens[:-1])))  # (in C)
        # each line's indentation, a blank line's -1 (``lstrip`` and ``strip`` leave nothing of the same lines)
        bare = list(map(len, map(str.lstrip, self.lines)))
        self.indent = list(map(sub, lens, bare))
        k = -1
        try:
            while True:
                k = bare.index(0, k + 1)
                self.indent[k] = -1
        except ValueError:  # no blank line after k
            pass
        self.ends: dict[int, int] = {}
        self.headers: dict[tuple[str, int, int, tuple[str, ...]], int] = {}
        self.shapes: dict[tuple[str, tuple[str, ...]], list[tuple[int, int, tuple[int, int] | None]]] = {}
        self.open: set[tuple[int, int]] = set()  # regions ``between`` found no bound for
        self.kcache: dict[int, list[int]] = {}  # per list of places (``_shapes``): their lines
        self.words: dict[bytes, list[int]] | None = None  # each word's lines, once per place (``places``)
        self.found: dict[tuple[str, int], list[int]] = {}  # ``places``' answers (rows of many values share names)
        self.scanned = 0  # characters ``places`` searched before building ``words``
        self.pad: bytes | None = None  # ASCII text as ``_spaced`` reads it (b"" for other text)
        self.uniq: dict[int, list[str]] = {}  # per list of rows: the values that name one row alone
        self.named: dict[tuple[int, int], frozenset[str]] = {}  # per list of rows and line: those it holds

    def line_of(self, pos: int) -> int:
        return bisect_right(self.starts, pos) - 1

    def places(self, t: str, most: int) -> list[int]:
        """The lines where ``t`` stands alone, once per place, up to ``most`` + 1 places.

        ASCII text and ``t``: one search in C (``_spaced``). Otherwise the first calls search the text (the
        same places: a run of ``\\w`` is a run of ``_word_at``'s word characters); once they have read the text
        ``SEARCHES`` times, a word of ASCII letters, digits
        and ``_`` is looked up in an index of the words built once (a search per row name reads the whole
        output each time: quadratic on a long list), and a longer text in the lines of its rarest word.
        """
        at = (t, most)
        got = self.found.get(at)
        if got is None:
            got = self.found[at] = self._places(t, most)
        return got

    def _places(self, t: str, most: int) -> list[int]:
        """``places``, not remembered."""
        if self._padded() and t.isascii():
            return self._spaced(t, most)
        return self._places_slow(t, most)

    def _places_slow(self, t: str, most: int) -> list[int]:
        """``_places`` for other text: searched (``SEARCHES`` times), then from the word index."""
        import re

        if self.words is None and self.scanned < SEARCHES * len(self.text):
            self.scanned += len(self.text)
            return self._search(t, most)
        if self.words is None:
            self.words = _index(self.text, self.lines)
        words = self.words
        if t.isascii() and t.replace("_", "a").isalnum() and len(t) >= ID_MIN:
            return words.get(t.encode(), [])[: most + 1]
        # A text standing alone holds each of its words as a word: only the lines of its rarest one are read.
        toks = [w.encode() for w in re.findall(r"\w+", t) if len(w) >= ID_MIN and w.isascii()] if "\n" not in t else []
        if toks:
            best = min(toks, key=lambda w: len(words.get(w, ())))
            found: list[int] = []
            for k in dict.fromkeys(words.get(best, ())):
                ln = self.lines[k]
                i = _alone(ln, t, 0)
                while i >= 0:
                    found.append(k)
                    if len(found) > most:
                        return found
                    i = _alone(ln, t, i + 1)
            return found
        return self._search(t, most)

    def _padded(self) -> bytes:
        """``pad``, made once: the ASCII text with every byte but ``[A-Za-z0-9_]`` a space, between two spaces."""
        if self.pad is None:
            self.pad = b" " + self.text.encode("ascii").translate(_SPACED) + b" " if self.text.isascii() else b""
        return self.pad

    def _spaced(self, t: str, most: int) -> list[int]:
        """``_search`` on ASCII text, in C: the text and ``t`` with every byte but ``[A-Za-z0-9_]`` a space.

        ``t`` stands alone at ``i`` exactly when the text is ``t`` there and the bytes around it are not
        word bytes: then the spaced text (``pad``, one space before and after) holds `` t `` spaced at ``i``
        (its first space is the byte before ``t``, or the leading space at the text's start). Each place
        found that way is checked against the text itself (spacing may join other texts to ``t``'s).
        """
        pad, text = self._padded(), self.text
        needle = b" " + t.encode("ascii").translate(_SPACED) + b" "
        got: list[int] = []
        i = pad.find(needle)
        while i >= 0 and len(got) <= most:
            if text.startswith(t, i):  # pad[i + 1] is text[i]
                got.append(self.line_of(i))
            i = pad.find(needle, i + 1)
        return got

    def _search(self, t: str, most: int) -> list[int]:
        """``places`` by searching the whole text."""
        text = self.text
        got: list[int] = []
        i = _alone(text, t, 0)
        while i >= 0 and len(got) <= most:
            got.append(self.line_of(i))
            i = _alone(text, t, i + 1)
        return got

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
        Read at most ``NEAR`` lines each way (a prefix no other line opens with read the whole output for
        each value: quadratic): a side without such a line within reach ends there, and a region with
        neither is *open* (``self.open``: it names no row by itself, as a region of the whole output).
        """
        lines = self.lines
        lo = k - 1
        floor = max(-1, k - NEAR)
        while lo > floor and not lines[lo].startswith(prefix):
            lo -= 1
        hi = k + 1
        top = min(len(lines), k + NEAR)
        while hi < top and not lines[hi].startswith(prefix):
            hi += 1
        if (lo < 0 or not lines[lo].startswith(prefix)) and (hi >= len(lines) or not lines[hi].startswith(prefix)):
            self.open.add((lo + 1, hi))
        return lo + 1, hi


# ASCII letters, digits, ``_`` and line breaks kept; every other byte a space (``\w`` on ASCII text).
_NON_WORD = bytes(c if chr(c).isalnum() or c in b"_\n" else 32 for c in range(128)) + b" " * 128
# The same with line breaks a space too (``View._spaced``).
_SPACED = _NON_WORD.replace(b"\n", b" ")


def _index(text: str, lines: list[str]) -> dict[bytes, list[int]]:
    """Each word of the text (a maximal run of ``\\w``, UTF-8) and its lines, once per place (those of 3+ characters
    at least: shorter ones are never asked for).

    ASCII text: ``\\w`` is ``[A-Za-z0-9_]``, so the words are what a translation of every other byte to a space
    leaves between spaces, split in C (a byte a character: line k of the bytes is line k of the text). Other
    text: ``\\w{3,}`` per line.
    """
    if text.isascii():
        return _lines_of_words(ln.split() for ln in text.encode("ascii").translate(_NON_WORD).split(b"\n"))
    import re

    find = re.compile(r"\w{" + str(ID_MIN) + ",}").findall
    return _lines_of_words([s.encode("utf-8", "surrogatepass") for s in find(line)] for line in lines)


def _lines_of_words(per_line: Iterable[list[bytes]]) -> dict[bytes, list[int]]:
    """Each word and the lines it is on (a line once per place), from each line's words in line order."""
    words: dict[bytes, list[int]] = {}
    for k, ws in enumerate(per_line):
        for w in ws:
            got = words.get(w)
            if got is None:
                words[w] = [k]
            else:
                got.append(k)
    return words


def _word_at(text: str, i: int, n: int) -> bool:
    """Does the text at ``i`` (length ``n``) stand alone (no letter, digit or ``_`` touching it)?"""
    before = text[i - 1] if i > 0 else " "
    after = text[i + n] if i + n < len(text) else " "
    return not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_")


def _alone(text: str, t: str, start: int) -> int:
    """The first offset from ``start`` where ``t`` stands alone in ``text`` (``_word_at``), or -1."""
    i = text.find(t, start)
    while i >= 0 and not _word_at(text, i, len(t)):
        i = text.find(t, i + 1)
    return i


def _holds(text: str, value: str) -> bool:
    """Is ``value`` in ``text``, standing alone?"""
    return _alone(text, value, 0) >= 0
