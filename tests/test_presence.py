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
