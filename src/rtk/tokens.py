"""The token estimators: the one place that turns text into a token count.

``estimate`` is ``ceil(chars/4)``: what the never-worse guard, tracking and every
fixture's savings floor use today. A real BPE tokenizer (o200k, cl100k) spends about
one token per English word but one per 1-3 digits, most punctuation and each line
break, so ``ceil(chars/4)`` undercounts those shapes (an output that adds numbers can
look smaller while it costs more). ``estimate_shaped`` is the calibrated replacement:
a weighted count of character classes (letters, digits, punctuation, spaces, line
breaks, non-ASCII bytes) and of the runs of letters and digits, computed with a few
``bytes.translate``/``bytes.count`` passes (stdlib only, no ``re``). Its weights come
from ``scripts/calibrate_tokens.py`` (least squares against the larger of the o200k
and cl100k counts over the fixtures) and are rounded up, so it leans to over-counting,
most on digits, punctuation and short lines. Both estimate shell-output size, not
billed tokens.
"""

from __future__ import annotations

METHOD = "ceil(chars/4)"
METHOD_SHAPED = "class-weighted estimate"

FEATURES = ("letters", "digits", "punct", "spaces", "newlines", "non-ascii", "words", "numbers")


def _table(cls: dict[str, bytes], other: bytes) -> bytes:
    out = bytearray(other * 256)
    for chars, c in cls.items():
        for ch in chars.encode("latin-1"):
            out[ch] = c[0]
    return bytes(out)


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS = "0123456789"
_PUNCT = "".join(chr(c) for c in range(33, 127) if not chr(c).isalnum())
# Every byte as its class: a letter, d digit, p punctuation, s space/tab/CR, n newline, h non-ASCII or control.
_CLASSES = _table({_LETTERS: b"a", _DIGITS: b"d", _PUNCT: b"p", " \t\r\f\v": b"s", "\n": b"n"}, b"h")
_WORDS = _table({_LETTERS: b"a"}, b".")  # ".a" marks where a run of letters starts
_NUMBERS = _table({_DIGITS: b"d"}, b".")

# Tokens per unit of each feature (see FEATURES), fitted and rounded up (see the module docstring).
WEIGHTS = (0.10, 0.50, 0.25, 0.13, 1.15, 0.34, 0.85, 1.30)


def features(text: str) -> tuple[int, ...]:
    """The class counts the estimate weighs, in the order of :data:`FEATURES`."""
    data = text.encode("utf-8", "surrogatepass")
    c = data.translate(_CLASSES)
    words = b"." + data.translate(_WORDS)
    numbers = b"." + data.translate(_NUMBERS)
    breaks = c.count(b"n") - (c[-1:] == b"n")  # the final line break: printing adds one where it was missing
    return (c.count(b"a"), c.count(b"d"), c.count(b"p"), c.count(b"s"), breaks, c.count(b"h"),
            words.count(b".a"), numbers.count(b".d"))  # fmt: skip


def estimate(text: str) -> int:
    """Estimated tokens in ``text``: ``ceil(chars/4)``."""
    return (len(text) + 3) // 4


def estimate_shaped(text: str) -> int:
    """Estimated tokens in ``text`` from its character classes (closer to real tokenizers; see the module doc)."""
    if not text:
        return 0
    total = 0.0
    for w, n in zip(WEIGHTS, features(text), strict=True):
        total += w * n
    return int(total) + 1


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
