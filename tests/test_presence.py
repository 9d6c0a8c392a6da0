"""The presence checks' fast views agree with their plain definitions (whitespace words, digit runs)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.presence import Output, Words

# Text made of pieces that collide: words inside other words, every kind of whitespace split() knows.
PIECES = st.sampled_from(["a.py:1", "a.py:12", "x", "xa", "ax", "1", "12", "é", "ünï", "--", "a", "b c"])
SPACES = st.sampled_from([" ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u2003", ""])
TEXT = st.lists(st.tuples(PIECES, SPACES), max_size=40).map(lambda ps: "".join(a + b for a, b in ps))
ASKED = st.one_of(PIECES, st.sampled_from(["", " ", "a.py", "y", "x x", "a.py:1 x", "\xa0"]))


def searched(text: str) -> Words:
    """``Words`` that answers by searching first, as for a long text (short ones get their set at once)."""
    w = Words(text)
    w.words = None
    return w


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(TEXT, st.lists(ASKED, max_size=60))
def test_words_answers_as_the_set_of_split_words(text: str, asked: list[str]) -> None:
    plain = set(text.split())
    for words in (searched(text), Words(text)):
        assert [w in words for w in asked] == [w in plain for w in asked]  # searched first, then the set


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(TEXT, st.lists(PIECES, min_size=1, max_size=5))
def test_a_line_is_held_when_every_word_of_it_is(text: str, line: list[str]) -> None:
    tokens = " ".join(line).split()
    assert searched(text).issuperset(tokens) == set(text.split()).issuperset(tokens)


def test_a_word_found_only_inside_others_is_not_held() -> None:
    text = "xa " * 50 + "a.py:12"
    words = searched(text)
    assert "a" not in words and "a.py:1" not in words and "a.py:12" in words
    assert searched("a.py:12 x").issuperset(["a.py:12", "x"])
    assert not searched("a.py:123 x").issuperset(["a.py:12", "x"])
    assert Words("x " * 10000).words is None and Words("x").words == {"x"}  # long: searched; short: a set


@given(TEXT)
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
def test_numbers_are_the_digit_runs(text: str) -> None:
    assert Output(text).numbers() == frozenset("".join(c if c.isdigit() else " " for c in text).split())
    assert Output("7/29 passed, v1.2").numbers() == {"7", "29", "1", "2"}


class Searching(Output):
    """An ``Output`` that answers ``word`` by searching even for a short text (long ones do)."""

    SMALL = 0


# Pieces with punctuation, case and non-ASCII letters whose lowercase differs (words split at punctuation).
PUNCT_PIECES = st.sampled_from(
    ["Error:", "error", "errors.py", "(error)", "x-error", "e_rror", "ERROR", "İx", "\u212aey", "12", "1", ":12", "a/b"]
)
PTEXT = st.lists(st.tuples(st.one_of(PIECES, PUNCT_PIECES), SPACES), max_size=40).map(
    lambda ps: "".join(a + b for a, b in ps)
)
PASKED = st.one_of(PUNCT_PIECES, ASKED, st.sampled_from(["error", "errors", "12", "kEy", "key", "i̇x", "-1", "a/b"]))


def _punct_words(text: str) -> set[str]:
    return set(text.lower().translate(str.maketrans({c: " " for c in "!\"#$%&'()*+,.:;<=>?@[\\]^`{|}~"})).split())


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(PTEXT, st.lists(PASKED, max_size=40))
def test_output_word_answers_as_the_set_of_punctuation_split_words(text: str, asked: list[str]) -> None:
    plain = _punct_words(text)
    for out in (Searching(text), Output(text)):
        assert [out.word(w) for w in asked] == [w in plain for w in asked]
    assert Searching(text).words == plain


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(PTEXT, st.lists(st.one_of(PIECES, PUNCT_PIECES), min_size=1, max_size=4), st.integers(0, 3))
def test_output_in_flat_answers_as_the_flattened_text(text: str, line: list[str], cut: int) -> None:
    value = " ".join(" ".join(line).split())
    value = value[cut:] if cut < len(value) else value  # a phrase may start inside a word
    assert Output(text).in_flat(value) == (value in " ".join(text.split()))
    text = text + " " + " \t ".join(line) + "z"  # held, its words spaced anew, the last inside a longer word
    assert Output(text).in_flat(" ".join(" ".join(line).split()))


def test_searches_find_a_word_past_many_occurrences_inside_others() -> None:
    text = "errors.py xerror " * 50 + "the error"
    out = Output(text)
    assert out.word("error") and not Output("errors.py xerror " * 50).word("error")
    assert out.in_flat("xerror the error") and not out.in_flat("the errors")


@given(st.lists(st.tuples(st.sampled_from(["1", "²", "٣4", "é", "x", "12"]), SPACES), max_size=30))
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
def test_numbers_with_other_scripts_are_the_digit_runs(pieces: list[tuple[str, str]]) -> None:
    text = "".join(a + b for a, b in pieces)
    assert Output(text).numbers() == frozenset("".join(c if c.isdigit() else " " for c in text).split())
