"""Session "foldfacts2": a minority answer seen more than 8 times, and a small template of the other answer (issue 15)."""

from __future__ import annotations

import pytest
from foldways import WAYS, by_block

from rtk.fold.miner import Miner, Template, answers

TOOLS = {3: "mawk", 9: "gcc", 40: "ar", 41: "ranlib", 77: "inline"}


def name(i: int) -> str:
    """A function name for ``i`` in letters (``fn_mk`` for 12): configure checks names, not numbers."""
    return "fn_" + "".join("klmnopqrst"[int(d)] for d in str(i))


def configure(answers_: dict[int, str], n: int) -> list[str]:
    """``checking for NAME... ANSWER`` lines (``yes`` unless ``answers_`` says), between a first and last few lines."""
    out = [f"checking for {name(i)}... {answers_.get(i, 'yes')}" for i in range(n)]
    return ["configure: starting", *out, "configure: creating ./config.status", "config.status: done", "ok"]


def sed_like(no: int, n: int = 149) -> tuple[list[str], list[int]]:
    """sed-configure's 149-line group: five tool names once, ``no`` ``no`` times, ``yes`` the rest."""
    odd = dict(TOOLS)
    nos = [i for i in range(0, n, n // no) if i not in TOOLS][:no]
    odd |= {i: "no" for i in nos}
    return configure(odd, n), nos


@pytest.mark.parametrize("way", WAYS)
def test_a_minority_answer_seen_more_than_eight_times_is_shown(way: object) -> None:
    # sed-configure: ``no`` x14 and 5 tool names once beside ``yes`` x130 of 149 (87%). ``no`` seen more than 8
    # times was a second usual answer (FEW), so the fold line counted the 19 lines: none of the 14 was shown.
    lines, nos = sed_like(14)
    build = [f"gcc -c -o obj/u{i}.o src/u{i}.c" for i in range(300)]  # long enough to fold live too
    out = way(lines + build)  # type: ignore[operator]
    for i in nos:
        assert f"checking for {name(i)}... no" in out
    for i, tool in TOOLS.items():
        assert f"checking for {name(i)}... {tool}" in out
    assert sum(1 for o in out if o.endswith("... yes")) < 10  # the usual answer folds
    assert len(out) < 50


def test_a_minority_of_more_than_keep_lines_stays_folded() -> None:
    # ``no`` x26 (more than group.KEEP, 24, lines kept per value) beside ``yes`` x258 of 289: only counted.
    lines, nos = sed_like(26, 289)
    out = by_block(lines)
    assert not any(f"checking for {name(i)}... no" in out for i in nos[1:])  # (the first is the group's head)


def test_a_usual_answer_under_four_fifths_keeps_the_minority_folded() -> None:
    # ``no`` x20 and 5 tools beside ``yes`` x75 of 100 (75%, under rare.USUAL): two usual answers, not exceptions.
    lines, nos = sed_like(20, 100)
    out = by_block(lines)
    assert not any(f"checking for {name(i)}... no" in out for i in nos[1:])  # (the first is the group's head)


YES = ["build environment is sane", "make supports nested variables", "the C compiler works", "gcc accepts -g option"]
YES += ["stat handles trailing slashes", "fchdir is declared here", "getcwd handles long names", "mkdir is quite sane"]
YES += [
    "the compiler supports C11",
    "lstat follows trailing symlinks",
    "rmdir works on dirs",
    "realpath works as POSIX",
]
YES += ["dup2 works on fds", "fcntl handles F_DUPFD well", "link obeys POSIX rules", "mbrtowc handles incomplete chars"]
YES += [
    "nanosleep works as documented",
    "printf supports size specifiers",
    "strerror_r returns char *",
    "rename honors trailing slashes",
]
NO = ["we are cross compiling", "the compiler is clang", "_XOPEN_SOURCE should be defined", "dirfd is a macro"]
NO += ["byte ordering is bigendian", "pthread_sigmask is a macro"]


def whether(order: list[tuple[str, str]]) -> list[str]:
    """``checking whether X... ANSWER`` lines with other checks between, as configure prints them."""
    out = ["configure: starting"]
    for k, (what, ans) in enumerate(order):
        out += [f"checking whether {what}... {ans}", f"checking for header_{k}.h... yes"]
    return [*out, "configure: creating ./config.status", "config.status: done", "ok"]


def interleaved() -> list[tuple[str, str]]:
    yes = [(w, "yes") for w in YES]
    no = [(w, "no") for w in NO]
    return [*yes[:4], no[0], *yes[4:10], no[1], *yes[10:16], no[2], no[3], *yes[16:], no[4], no[5]]


@pytest.mark.parametrize("way", WAYS)
def test_a_small_template_of_the_other_answer_is_shown(way: object) -> None:
    # sed-configure: 6 ``checking whether A B C D... no`` lines, a template of their own beside the 20 ``... yes``
    # lines of the same shape (Drain keeps them apart: the answer is a third of a short line's constant words).
    # 6 lines is one more than a rare template: they were folded to the first and a count.
    lines = whether(interleaved())
    out = way(lines + [f"gcc -c -o obj/u{i}.o src/u{i}.c" for i in range(300)])  # type: ignore[operator]
    for what in NO:
        assert f"checking whether {what}... no" in out
    assert not any("more like: checking whether" in o and o.endswith(" no") for o in out)


def test_the_bigger_template_of_two_answers_stays_folded() -> None:
    # the ``yes`` template (more lines than the ``no`` one) is the usual answer: its lines fold as before
    out = by_block(whether(interleaved()))
    assert sum(1 for o in out if o.startswith("checking whether") and o.endswith("yes")) < 8


def test_answers_is_a_last_word_beside_a_bigger_template() -> None:
    m = Miner()
    t_yes = [m.add(f"checking whether {w}... yes".split()) for w in YES][-1]
    t_no = [m.add(f"checking whether {w}... no".split()) for w in NO][-1]
    assert t_yes is not t_no and t_yes.toks[:-1] == t_no.toks[:-1]
    assert answers(t_no) and not answers(t_yes)  # only the smaller of the two is another answer
    # two frame templates differing in a word that is not the last (valgrind's ``by <hex>: f (a.c:1)`` beside
    # ``by <hex>: main (a.c:9)``) are not two answers; nor are two last tokens that are not words
    kin: list[Template] = []
    for toks, n in [("== by <hex>: f <*>", 5), ("== by <hex>: main <*>", 1), ("took <n> ms", 5), ("took <n> s", 1)]:
        t = Template(len(kin), toks.split())
        t.count, t.kin = n, kin
        kin.append(t)
    assert not answers(kin[1])
    assert answers(kin[3])  # (a unit word is a word: 'ms' and 's' differ in the last word only)
    kin[3].toks[-1] = "s2"
    assert not answers(kin[3])
