"""A value seen twice in a field of few values, in a long folded group, has both its lines shown (Group.once)."""

from __future__ import annotations

import pytest
from tests.fold.test_once import WAYS, topics


def checks(n: int, odd: dict[int, str], answers: tuple[str, ...] = ("yes",)) -> list[str]:
    """``n`` configure-like check lines answering ``answers`` in turn, line ``i`` answering ``odd[i]``."""
    out = [f"checking for header{i}.h... {odd.get(i, answers[i % len(answers)])}" for i in range(n)]
    return ["configure starting", *out, *[f"done step {w}" for w in ("alpha", "beta", "gamma", "delta")]]


@pytest.mark.parametrize("way", WAYS)
def test_a_value_seen_twice_shows_both_lines(way: object) -> None:
    lines = checks(200, {60: "no", 150: "no"})
    out = way(lines)  # type: ignore[operator]
    assert lines[61] in out and lines[151] in out
    assert len(out) < 20


@pytest.mark.parametrize("way", WAYS)
def test_a_topic_seen_twice_shows_both_lines(way: object) -> None:
    lines = topics(300, {100: "plant/sensor-will/status", 200: "plant/sensor-will/status"})
    out = way(lines)  # type: ignore[operator]
    assert lines[101] in out and lines[201] in out
    counted = sum(int(o.split()[1].replace(",", "")) for o in out if o.startswith("… "))
    shown = [o for o in out if "Sending" in o and not o.startswith("… ")]
    assert counted + len(shown) == 300


@pytest.mark.parametrize("way", WAYS)
def test_a_value_seen_six_times_is_only_counted(way: object) -> None:
    # (was: seen three times. Since session "foldfacts" a value seen at most 5 times in a field of words beside
    # one filling 3/4 of the group is shown, its count in the fold line not saying which lines: rare.SEEN)
    odd = {40: "no", 60: "no", 90: "no", 120: "no", 150: "no", 170: "no"}
    lines = checks(200, odd)
    out = way(lines)  # type: ignore[operator]
    assert not any(lines[i + 1] in out for i in odd)


@pytest.mark.parametrize("way", WAYS)
def test_a_rare_answer_among_six_word_values(way: object) -> None:
    # six answers (more than the 5 a fold line lists): a field of words counts up to 16, the rare one is shown
    lines = checks(240, {90: "missing"}, ("yes", "no", "maybe", "cached", "later"))
    out = way(lines)  # type: ignore[operator]
    assert lines[91] in out
    assert not any("missing ×" in o for o in out)  # the fold line lists no values past 5


@pytest.mark.parametrize("way", WAYS)
def test_values_seen_twice_do_not_hide_one_seen_once(way: object) -> None:
    # three values seen at most twice are too many; the one seen once is still shown, as before
    odd = {30: "partial", 60: "partial", 90: "cached", 120: "cached", 150: "failed"}
    lines = checks(200, odd)
    out = way(lines)  # type: ignore[operator]
    assert lines[151] in out


@pytest.mark.parametrize("way", WAYS)
def test_a_line_seen_twice_as_it_was_is_shown_once(way: object) -> None:
    lines = ["start", *(f"job {'abc'[i % 3]} state ok" for i in range(200)), "stop"]
    lines[51] = lines[151] = "job a state lost"
    out = way(lines)  # type: ignore[operator]
    assert out.count("job a state lost") == 1
