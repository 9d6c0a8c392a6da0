"""Is a fact still in a compact output? The fact guard's presence checks, and the views of the output they read."""

from __future__ import annotations

from rtk.facts import MARKERS, Fact, details

# facts._words' punctuation as a bytes table: the same split, in C (no multi-byte UTF-8 sequence holds them).
_PUNCT_BYTES = bytes(32 if chr(c) in "!\"#$%&'()*+,.:;<=>?@[\\]^`{|}~" else c for c in range(256))
# Every byte but the ASCII digits as a space.
_DIGITS_ONLY = bytes(c if 48 <= c <= 57 else 32 for c in range(256))


class Words:
    """``w in Words(text)``: is ``w`` one of the whitespace-separated words of ``text``?

    The first few questions are answered by searching the text (a compact output is often
    large, and most guard runs ask nothing or a handful); past ``SEARCHES`` of them, or on a
    word found often inside other words, or for a short text, the set of words is built once and used.
    """

    SEARCHES = 16
    SMALL = 16384  # a text this short gets its set at once (cheaper than a few searches)
    __slots__ = ("asked", "text", "words")

    def __init__(self, text: str) -> None:
        self.text = text
        self.words: set[str] | None = set(text.split()) if len(text) < self.SMALL else None
        self.asked = 0

    def __contains__(self, w: object) -> bool:
        if self.words is None:
            if not isinstance(w, str):
                return False
            self.asked += 1
            if self.asked <= self.SEARCHES:
                found = self._search(w)
                if found is not None:
                    return found
            self.words = set(self.text.split())
        return w in self.words

    def _search(self, w: str, phrase: bool = False) -> bool | None:
        """Whether ``w`` stands alone in the text; None after a few occurrences inside other words.

        ``phrase``: ``w`` is words joined by single spaces (each of them then stands alone too).
        """
        if not w or (w.split() != [w] and not phrase):
            return False  # no word holds whitespace
        text, n = self.text, len(w)
        i = text.find(w)
        for _ in range(8):
            if i < 0:
                return False
            if (i == 0 or text[i - 1].isspace()) and (i + n == len(text) or text[i + n].isspace()):
                return True
            i = text.find(w, i + 1)
        return None

    def issuperset(self, ws: list[str]) -> bool:
        """Is every word of ``ws`` a word of the text? (First asked as a whole: a line reprinted with its spacing changed.)"""
        if self.words is None and len(ws) > 1:
            if self._search(" ".join(ws), True):
                return True  # the words, each standing alone in the text
            self.asked += 1  # a search that found nothing read the whole text
        return all(w in self for w in ws)


class Output:
    """A compact output prepared for presence checks (each view computed on first use).

    ``word`` and ``in_flat`` answer the first questions by searching the text, which costs
    less than building a view of a large output; a view is built when the searches turn
    out many (a word found often inside other words, a phrase's first word often).
    """

    SMALL = 4096  # a text this short gets its word set at once
    HITS = 8  # occurrences inside other words searched before the view is built
    __slots__ = ("_flat", "_has", "_low", "_numbers", "_words", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._has: dict[str, bool] = {}
        self._flat: str | None = None
        self._low: str | None = None
        self._words: frozenset[str] | None = None
        self._numbers: frozenset[str] | None = None

    @property
    def flat(self) -> str:
        """The text with every run of whitespace as one space."""
        if self._flat is None:
            self._flat = " ".join(self.text.split())
        return self._flat

    @property
    def low(self) -> str:
        if self._low is None:
            self._low = self.text.lower()
        return self._low

    @property
    def words(self) -> frozenset[str]:
        """The lowercased words of the text, split at punctuation but ``/``, ``_`` and ``-`` (as ``facts._words``)."""
        if self._words is None:
            data = self.low.encode("utf-8", "surrogatepass").translate(_PUNCT_BYTES)
            self._words = frozenset(data.decode("utf-8", "surrogatepass").split())
        return self._words

    def has(self, s: str) -> bool:
        """``s in self.text``, remembered (the lines of one traceback name the same file)."""
        found = self._has.get(s)
        if found is None:
            found = self._has[s] = s in self.text
        return found

    def word(self, w: str) -> bool:
        """``w in self.words``, by a search of the lowercased text while that is cheaper."""
        if self._words is None and len(self.text) >= self.SMALL:
            if not w or any(c in _PUNCT_SET for c in w) or w.split() != [w]:
                return False  # no word holds punctuation or whitespace
            low, n = self.low, len(w)
            end = len(low)
            i = low.find(w)
            for _ in range(self.HITS):
                if i < 0:
                    return False
                if (i == 0 or _boundary(low[i - 1])) and (i + n == end or _boundary(low[i + n])):
                    return True
                i = low.find(w, i + 1)
        return w in self.words

    def in_flat(self, value: str) -> bool:
        """``value`` (words joined by single spaces) in ``self.flat``, by a search of the text while that is cheaper."""
        if self._flat is None:
            parts = value.split(" ")
            if len(parts) == 1 or "" in parts or value.split() != parts:
                return value in self.flat
            text, first = self.text, parts[0]
            end = len(text)
            i = text.find(first)
            for _ in range(self.HITS):
                if i < 0:
                    return False
                if _phrase_at(text, i + len(first), parts, end):
                    return True
                i = text.find(first, i + 1)
        return value in self.flat

    def numbers(self) -> frozenset[str]:
        """Every run of digits in the text (``29/29`` holds 29)."""
        if self._numbers is None:
            text = self.text
            if text.isascii() or not any(c.isdigit() for c in set(text) if not c.isascii()):
                # Only ASCII digits: the same split, in C (a multi-byte character's bytes all become spaces).
                data = text.encode("utf-8", "surrogatepass").translate(_DIGITS_ONLY)
                self._numbers = frozenset(data.decode().split())
            else:
                self._numbers = frozenset("".join(c if c.isdigit() else " " for c in text).split())
        return self._numbers


_PUNCT_SET = frozenset("!\"#$%&'()*+,.:;<=>?@[\\]^`{|}~")


def _boundary(c: str) -> bool:
    return c.isspace() or c in _PUNCT_SET


def _phrase_at(text: str, j: int, parts: list[str], end: int) -> bool:
    """Do ``parts[1:]`` follow at ``j``, each after a run of whitespace, the last one possibly inside a longer word?"""
    last = len(parts) - 1
    for k in range(1, last + 1):
        if j >= end or not text[j].isspace():
            return False
        while j < end and text[j].isspace():
            j += 1
        p = parts[k]
        if not text.startswith(p, j):
            return False
        j += len(p)
        if k == last:
            return True
    return False


def present(f: Fact, out: Output) -> bool:
    """Does the compact output still hold fact ``f`` (in any presentation)?"""
    kind, value, detail = f
    text = out.text
    if kind == "word":
        return value in text
    if kind == "hash":
        return value[:7] in text
    if kind == "loc":
        if out.has(value) and (
            f"{value}:{detail}" in text or f"{value}({detail}" in text or f'{value}", line {detail}' in text
        ):
            return True
        # Regrouped: the file once as a header, its line numbers under it ("a.py (3 errors):  7, 11: ...").
        base = value.replace("\\", "/").rsplit("/", 1)[-1]
        return out.has(base) and out.word(detail)
    if kind == "path":
        v = value[2:] if value.startswith("./") else value
        if v in text:
            return True
        parent, _, base = v.rstrip("/").rpartition("/")
        return base in text and (not parent or parent.rsplit("/", 1)[-1] in text)
    if kind == "count":
        return out.word(value)
    if value in text or out.in_flat(value):  # a marker line: whole (as printed, or spaced anew), or what sets it apart
        return True
    named, numbers, content = details(value)
    if named or numbers:
        return all(n in out.low for n in named) and all(n in out.numbers() for n in numbers)
    if content:
        return any(out.word(w) for w in content)
    return any(out.word(m) for m in MARKERS)  # a status line: the output must still say something failed
