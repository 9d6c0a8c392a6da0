"""The token estimators: ceil(chars/4) and the class-weighted estimate calibrated on real tokenizers."""

from __future__ import annotations

from rtk import tokens


def test_features_count_each_class_and_run() -> None:
    f = dict(zip(tokens.FEATURES, tokens.features("ab 12,\n  xyz 7é\n"), strict=True))
    assert f == {"letters": 5, "digits": 3, "punct": 1, "spaces": 4, "newlines": 1, "non-ascii": 2,
                 "words": 2, "numbers": 2}  # fmt: skip


def test_shaped_estimate_weighs_digits_punctuation_and_short_lines_more() -> None:
    prose = "the quick brown fox jumps over the lazy dog and keeps running far away\n" * 20
    numbers = "1795327332 12.5% 0x7fe6 4096/8192 [3/17]\n" * 20
    short = "a.py\nb.py\n" * 40
    assert tokens.estimate_shaped("") == 0 and tokens.estimate("") == 0
    # prose: close to chars/4 (within a quarter); numbers and short lines: clearly above it
    assert abs(tokens.estimate_shaped(prose) - tokens.estimate(prose)) < tokens.estimate(prose) / 4
    assert tokens.estimate_shaped(numbers) > 1.3 * tokens.estimate(numbers)
    assert tokens.estimate_shaped(short) > 1.3 * tokens.estimate(short)


def test_shaped_estimate_takes_any_text() -> None:
    for text in ("\udcff lone surrogate", "错误 ✓ ✗", "\x00\x1b[31m", "x" * 10000):
        assert tokens.estimate_shaped(text) > 0
