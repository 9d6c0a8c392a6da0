"""Rare values the fold line does not count: a request method seen 3 times among 2, an answer in a 43-line group."""

from __future__ import annotations

import pytest
from foldways import WAYS, by_block


def access(n: int, odd: dict[int, str]) -> list[str]:
    """Access-log lines, ``GET`` of several paths by one agent, the method of line ``i`` replaced by ``odd[i]``."""
    out = []
    for i in range(n):
        verb = odd.get(i, "GET")
        stamp = f"[25/Nov/2026:00:{i // 60 % 60:02d}:{i % 60:02d} +0000]"
        out.append(f'127.0.0.1 - - {stamp} "{verb} /p{i % 9}.html HTTP/1.1" 200 16 "-" "reader/1.0"')
    return [*out, "server stopping", "bye"]


@pytest.mark.parametrize("way", WAYS)
def test_a_method_seen_three_times_among_two_is_shown(way: object) -> None:
    # nginx-methods: 3 HEAD among ~400 GET; the first word of the request has 2 values (seen 3 times: not
    # "at most twice", and not one of 6+ values), and the fold line lists no method counts.
    odd = {90: "HEAD", 210: "HEAD", 330: "HEAD"}
    lines = access(400, odd)
    out = way(lines)  # type: ignore[operator]
    for i in odd:
        assert lines[i] in out
    assert sum(1 for o in out if '"GET ' in o) < 8  # the GET lines still fold


def test_a_method_the_fold_line_lists_is_not_shown_again() -> None:
    # The whole request field has 2 values (its first word too): the fold line lists both with counts.
    lines = [f'10.0.0.{i % 200} "{"HEAD" if i in (50, 90, 130) else "GET"} / HTTP/1.1" 200' for i in range(200)]
    out = by_block(["start", *lines, "stop", "bye"])
    assert lines[50] not in out
    assert any('<str>: "GET / HTTP/1.1" ×194, "HEAD / HTTP/1.1" ×3' in o for o in out)


def configure(answers: list[str]) -> list[str]:
    """``checking for hN.h... ANSWER`` lines between a first and last few lines."""
    out = [f"checking for h{i}.h... {a}" for i, a in enumerate(answers)]
    return ["configure: starting", *out, "configure: creating ./config.status", "config.status: done", "ok"]


def hello_like() -> list[str]:
    """43 answers as GNU hello's ``checking for <*> <*>`` group: ``yes`` x35, ``no`` x4, four tool names once."""
    answers = ["yes"] * 43
    for i in (0, 17, 36, 37):
        answers[i] = "no"
    for i, tool in zip((1, 5, 22, 27), ("mawk", "gcc", "ar", "ranlib"), strict=True):
        answers[i] = tool
    return answers


@pytest.mark.parametrize("way", WAYS)
def test_few_answers_beside_a_usual_one_in_a_short_group_are_shown(way: object) -> None:
    # hello-configure: 81% ``yes`` in 43 lines, each other answer seen at most 4 times: under the 100 lines
    # and the 90% of session "foldgoals"'s rule, and 4 values seen at most twice are too many for the old one.
    answers = hello_like()
    build = [f"gcc -c -o obj/u{i}.o src/u{i}.c" for i in range(300)]  # long enough to fold live too
    lines = configure(answers)
    out = way(lines[:1] + build + lines[1:])  # type: ignore[operator]
    for i, a in enumerate(answers):
        if a != "yes":
            assert lines[1 + i] in out
    assert "checking for h30.h... yes" not in out  # the yes lines fold


def test_a_second_usual_answer_keeps_the_rare_ones_folded() -> None:
    # yes x47 of 60 (78%) but ``no`` seen 9 times (more than FEW): not one usual value with exceptions.
    answers = ["no" if i % 5 == 2 and i < 45 else "yes" for i in range(60)]
    for i, tool in zip((1, 8, 21, 33), ("mawk", "gcc", "ar", "nm"), strict=True):
        answers[i] = tool
    out = by_block(configure(answers))
    assert "checking for h12.h... no" not in out
    assert "checking for h1.h... mawk" not in out


def test_an_answer_in_a_group_under_three_quarters_keeps_the_old_rule() -> None:
    answers = ["yes"] * 30
    for i in (3, 9, 14, 20):
        answers[i] = "no"
    for i, tool in zip((5, 11, 17, 23), ("mawk", "gcc", "ar", "nm"), strict=True):
        answers[i] = tool  # yes x22 of 30: 73%
    out = by_block(configure(answers))
    assert "checking for h3.h... no" not in out and "checking for h5.h... mawk" not in out


@pytest.mark.parametrize("n", [22, 23])
def test_a_group_under_twenty_lines_keeps_the_old_rule(n: int) -> None:
    # HEAD x3 among GETs of 9 paths (the fold line lists no method): rare in a group of 20 lines, not 19
    # (the group is n - 3 lines: the last 3 requests are among the last 5 lines, shown).
    lines = access(n, {4: "HEAD", 9: "HEAD", 13: "HEAD"})
    out = by_block(lines)
    assert any(f"(lines 2-{n - 3})" in o for o in out)  # a group of n - 3 lines
    assert (lines[9] in out) == (n - 3 >= 20)
