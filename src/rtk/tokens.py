"""The token estimator: the one place that turns text into a token count.

rtk estimates tokens as ceil(characters / 4). It is an estimate of shell-output
size, not a billed-token count; an exact tokenizer can replace this function.
"""

from __future__ import annotations

METHOD = "ceil(chars/4)"


def estimate(text: str) -> int:
    """Estimated tokens in ``text``."""
    return (len(text) + 3) // 4


def from_chars(chars: int) -> int:
    """Estimated tokens for a text of ``chars`` characters."""
    return (chars + 3) // 4


def savings_pct(raw: int, out: int) -> float:
    """Signed savings in percent; 0.0 when there was no raw output."""
    if raw <= 0:
        return 0.0
    return (raw - out) * 100.0 / raw
