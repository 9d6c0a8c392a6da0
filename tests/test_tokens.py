"""The token estimators: ceil(chars/4) and the class-weighted estimate calibrated on real tokenizers."""

from __future__ import annotations

from rtk import tokens


def test_features_count_each_class_and_run() -> None:
    f = dict(zip(tokens.FEATURES, tokens.features("ab 12,\n  xyz 7é\n"), strict=True))
    assert f == {"letters": 5, "digits": 3, "punct": 1, "spaces": 4, "newlines": 1, "non-ascii": 2,
                 "words": 2, "numbers": 2, "fills": 0}  # fmt: skip


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


def test_rules_and_padding_cost_a_few_tokens_not_one_per_character() -> None:
    # a BPE tokenizer spends a token or two on a run of "-" or of spaces; the estimate must not charge each one
    assert tokens.features("x" + "-" * 40 + " " * 8 + "\n")[8] == 12
    ruled = "PLAY [web] " + "*" * 69 + "\n"
    assert tokens.estimate_shaped(ruled) < tokens.estimate_shaped("PLAY [web]\n") + 8


# An output whose filter "saved" characters by turning words into numbers and punctuation: fewer
# characters, more tokens (o200k: 120 raw, 280 filtered; tests/test_tokens_real.py checks the counts).
DIGIT_RAW = "".join(
    f"Compiling package number {w} of the workspace now\n"
    for w in ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
)
DIGIT_OUT = "".join(f"[{i:02d}/12] pkg-{i:02d}: 0.{i * 7 % 10}s ok; {i * 131}/{i * 977} B\n" for i in range(1, 13))


def test_shaped_estimate_sees_that_numbers_cost_more_than_words() -> None:
    assert tokens.estimate(DIGIT_OUT) < tokens.estimate(DIGIT_RAW)  # ceil(chars/4) is fooled
    assert tokens.estimate_shaped(DIGIT_OUT) > tokens.estimate_shaped(DIGIT_RAW)


def test_tally_of_a_stream_matches_the_whole_text() -> None:
    block = "error[E0425]: cannot find value `x` in this scope --> src/main.rs:12:5\n" * 800
    small = tokens.Tally()
    for _ in range(10):
        small.add(block)
    assert small.total() == int(10 * tokens._weighted(block) + 10 * tokens.WEIGHTS[4]) + 1  # all measured

    class Sampled(tokens.Tally):
        EXACT = 0  # sample from the start: one block in EVERY is measured, the rest scaled by characters

    big = Sampled()
    for _ in range(64):
        big.add_lines(block.split("\n")[:-1])
    exact = tokens.estimate_shaped(block * 64)
    assert abs(big.total() - exact) <= exact / 100
    assert big.measured == len(block) * 64 // big.EVERY
    assert tokens.Tally().total() == 0
