"""The token estimators: the one place that turns text into a token count.

``estimate_shaped`` is what rtk counts with: the never-worse guard's decision, the
figures tracking records, ``rtk gain`` and ``-v`` print, and every fixture's savings
floor. A real BPE tokenizer (o200k, cl100k) spends about one token per English word
but one per 1-3 digits, most punctuation and each line break, so ``ceil(chars/4)``
undercounts those shapes (an output that adds numbers could look smaller while it
cost more). The shaped estimate is a weighted count of character classes (letters,
digits, punctuation, spaces, line breaks, non-ASCII bytes) and of the runs of letters
and digits and of runs of fill characters (rules, column padding), computed in C with
two ``bytes.translate`` passes over the text, a few ``bytes.count`` over the maps and, for
the runs, a map as one integer ANDed with itself shifted by a character (stdlib only, no ``re``; about 0.6 ms per
100 KB on a loaded 2-core machine, see bench/tokens_calibration.md). Its weights come from
``scripts/calibrate_tokens.py --fit`` (least squares of the relative error against the
larger of the o200k and cl100k counts, over 20-line chunks of every fixture and over
each fixture's raw output and filtered candidate) scaled up by 12%, so it leans to
over-counting by about 10% on every shape. ``estimate`` (``ceil(chars/4)``) stays
for size budgets that need no precision (listing budgets). Both estimate shell-output
size, not billed tokens.
"""

from __future__ import annotations

METHOD = "character classes weighted to match o200k/cl100k"
METHOD_CHARS = "ceil(chars/4)"

FEATURES = ("letters", "digits", "punct", "spaces", "newlines", "non-ascii", "words", "numbers", "fills")


def _table(cls: dict[str, bytes], other: bytes) -> bytes:
    out = bytearray(other * 256)
    for chars, c in cls.items():
        for ch in chars.encode("latin-1"):
            out[ch] = c[0]
    return bytes(out)


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS = "0123456789"
_PUNCT = "".join(chr(c) for c in range(33, 127) if not chr(c).isalnum())
# Two maps, each one ``bytes.translate`` pass. The classes of every byte but letters (letters are
# deleted: the usual majority, they are what is left of the length), one byte value per class:
# digit, punctuation, space/tab/CR/FF/VT, newline, non-ASCII byte or ASCII control character.
_DIGIT, _PUNCT_B, _SPACE, _BREAK, _ODD = b"\x02", b"\x04", b"\x08", b"\x10", b"\x20"
_CLASSES = _table({_DIGITS: _DIGIT, _PUNCT: _PUNCT_B, " \t\r\f\v": _SPACE, "\n": _BREAK}, _ODD)
_DELETE = _LETTERS.encode()
# And every byte in place as letter, digit, fill or anything else, for the runs: letters and digits
# one bit each (see ``_runs``); fill characters (a rule ``-----``, ``*****``, column padding, dot
# leaders: a few tokens, not one a character) one byte value, for the runs of four (0x20: its low six
# bits differ from the other bytes', so ``bytes.count`` skips ahead more often).
_LETTER, _FILL = b"\x01", b"\x20"
_RUNS = _table({_LETTERS: _LETTER, _DIGITS: _DIGIT, " -=*_#~.": _FILL}, b"\x00")
_FILLS4 = _FILL * 4  # a run of four fill characters (counted non-overlapping)
_NOT_RUN = b"\x00" + _FILL  # what is left of the starts of runs once these are deleted: letter and digit ones
_CHUNK = 1 << 18  # bytes of the runs map turned into one integer at a time (bounds the memory of a large text)

# Tokens per unit of each feature (see FEATURES), fitted and scaled up by 12% (see the module docstring).
# "fills" counts four fill characters in a row (non-overlapping): its weight takes back most of what
# they cost as spaces or punctuation.
WEIGHTS = (0.12, 0.37, 0.57, 0.58, 1.02, 0.23, 0.36, 1.32, -2.11)


def _runs(r: bytes) -> tuple[int, int]:
    """The runs of letters and of digits in the runs map ``r``: those bytes whose left neighbour is of another kind.

    The map as an integer ``x`` (byte i = kind of character i): ``x & (x << 8)`` keeps a letter or
    digit bit where the previous character is of the same kind, so ``x ^`` that keeps it only where
    a run starts; ``to_bytes``, one ``bytes.translate`` deleting the rest and a count count those.
    """
    words = runs = 0  # letter runs, and letter and digit runs
    for i in range(0, len(r), _CHUNK):
        part = r[i : i + _CHUNK]
        x = int.from_bytes(part, "little")
        starts = (x ^ (x & (x << 8))).to_bytes(len(part), "little").translate(None, _NOT_RUN)
        words += starts.count(_LETTER)  # (a count of the few run starts, not of every byte)
        runs += len(starts)
        if i and r[i - 1] == part[0] and part[0] in _LETTER + _DIGIT:  # a run going on across the boundary
            words -= part[0] == _LETTER[0]
            runs -= 1
    return words, runs - words


def features(text: str) -> tuple[int, ...]:
    """The class counts the estimate weighs, in the order of :data:`FEATURES`."""
    data = text.encode("utf-8", "surrogatepass")
    c = data.translate(_CLASSES, _DELETE)  # every byte but the letters, as its class
    punct, spaces, breaks = c.count(_PUNCT_B), c.count(_SPACE), c.count(_BREAK)
    odd = c.count(_ODD) if _ODD in c else 0  # (``in``: one memchr, where a count reads every byte)
    digits = len(c) - punct - spaces - breaks - odd
    other = 0 if text.isascii() else odd  # (so ASCII control characters count as letters)
    letters = len(data) - digits - punct - spaces - breaks - other
    r = data.translate(_RUNS)
    words, numbers = _runs(r)
    fills = r.count(_FILLS4)
    breaks -= data[-1:] == b"\n"  # the final line break: printing adds one where it was missing
    return (letters, digits, punct, spaces, breaks, other, words, numbers, fills)


def estimate(text: str) -> int:
    """Estimated tokens in ``text``: ``ceil(chars/4)``."""
    return (len(text) + 3) // 4


def _weighted(text: str) -> float:
    total = 0.0
    for w, n in zip(WEIGHTS, features(text), strict=True):
        total += w * n
    return total


def estimate_shaped(text: str) -> int:
    """Estimated tokens in ``text`` from its character classes (closer to real tokenizers; see the module doc)."""
    return int(_weighted(text)) + 1 if text else 0


class Tally:
    """The shaped estimate of a stream fed in blocks, at a bounded cost.

    The first ``EXACT`` characters are all measured; after that one block in ``EVERY``
    is, and the total is scaled by characters (a 1 GB stream costs what 64 MB would).
    """

    EXACT = 4 << 20
    EVERY = 16

    __slots__ = ("blocks", "chars", "measured", "weighted")

    def __init__(self) -> None:
        self.chars = 0  # every character fed
        self.measured = 0  # the characters that were measured
        self.weighted = 0.0
        self.blocks = 0

    def add(self, text: str) -> None:
        """One block of the stream (``text``, whole lines with their line breaks)."""
        self.chars += len(text)
        self.blocks += 1
        if self.chars <= self.EXACT or self.blocks % self.EVERY == 0:
            self.weighted += _weighted(text) + WEIGHTS[4] * (text[-1:] == "\n")  # the block's last break counts
            self.measured += len(text)

    def add_lines(self, lines: list[str]) -> None:
        """A block given as its lines (a line break after each); joined only when measured."""
        n = sum(map(len, lines)) + len(lines)
        if self.chars + n <= self.EXACT or (self.blocks + 1) % self.EVERY == 0:
            self.add("".join(ln + "\n" for ln in lines))
        else:
            self.chars += n
            self.blocks += 1

    def total(self) -> int:
        """The stream's estimated tokens."""
        if not self.chars:
            return 0
        if not self.measured:
            return from_chars(self.chars)
        return int(self.weighted * self.chars / self.measured) + 1


def from_chars(chars: int) -> int:
    """Estimated tokens for a text of ``chars`` characters whose content is not at hand (streams)."""
    return (chars + 3) // 4


def fits(texts: list[str], budget_tokens: int) -> bool:
    """True when a listing fits the token budget (characters / 4, 3 characters of indent and
    newline per entry): the budget test of ``limits.git_list_tokens``, here so that a listing under
    the budget imports nothing more (the grouping in ``rtk.filters.git.listing`` comes only above it)."""
    return sum(len(t) + 3 for t in texts) <= budget_tokens * 4


def savings_pct(raw: int, out: int) -> float:
    """Signed savings in percent; 0.0 when there was no raw output."""
    if raw <= 0:
        return 0.0
    return (raw - out) * 100.0 / raw
