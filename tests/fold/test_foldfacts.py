"""Session "foldfacts": a ``-`` where the others log a number, and the miner's key choice (issue 15)."""

from __future__ import annotations

import pytest
from foldways import WAYS, by_block

from rtk.fold.mask import masked
from rtk.fold.miner import Miner, group_key


def access(n: int, bodiless: dict[int, str]) -> list[str]:
    """Access-log lines ``GET`` with a size, the request of line ``i`` replaced by ``bodiless[i]`` with size ``-``."""
    out = []
    for i in range(n):
        stamp = f"[25/Nov/2026:00:{i // 60 % 60:02d}:{i % 60:02d} +0000]"
        req, size = (bodiless[i], "-") if i in bodiless else (f"GET /p{i % 9}.html HTTP/1.1", str(15 + i % 3))
        out.append(f'127.0.0.1 - - {stamp} "{req}" 200 {size} "-" "reader/1.0"')
    return [*out, "server stopping", "bye"]


@pytest.mark.parametrize("way", WAYS)
def test_a_dash_for_a_number_is_the_same_kind_of_line(way: object) -> None:
    # apache-dav: HEAD, 204 PUT and DELETE log ``-`` for the size where the GETs log a number. They were a
    # group of their own (7 lines: too many for a rare template), folded to one line showing only the first.
    # Now they are lines of the GETs' group, where their method is a rare value of the request field: shown.
    odd = {100: "HEAD / HTTP/1.1", 110: "HEAD / HTTP/1.1", 150: "DELETE /up/a.txt HTTP/1.1"}
    odd |= {200: "HEAD / HTTP/1.1", 220: "PUT /up/b.txt HTTP/1.1", 260: "DELETE /up/b.txt HTTP/1.1"}
    odd |= {300: "HEAD / HTTP/1.1"}
    lines = access(400, odd)
    out = way(lines)  # type: ignore[operator]
    for i in odd:
        assert lines[i] in out, lines[i]
    assert sum(1 for o in out if '"GET ' in o) < 8  # the GET lines still fold


def test_a_dash_joins_a_number_only_where_the_template_had_numbers() -> None:
    m = Miner()
    keys = []
    for ln in ["job done: a in 15 ms", "job done: b in 16 ms", "job done: c in - ms", "job done: d in - ms"]:
        t = m.add(masked(ln)[1])
        keys.append(group_key(t, masked(ln)[1]))
    assert keys[0] == keys[1] == keys[2] == keys[3]
    m = Miner()  # a field of words: a ``-`` there is one more word, not a number
    words = ["state now: a is up", "state now: b is down", "state now: c is -", "state now: d is up"]
    keys = [group_key(m.add(masked(ln)[1]), masked(ln)[1]) for ln in words]
    assert len(set(keys)) == 1
    assert all(len(k) == 1 for k in keys)  # the template only: no field is of a kind


def ids(lines: list[str]) -> list[int]:
    m = Miner()
    return [m.add(masked(ln)[1]).id for ln in lines]


def test_a_file_name_ending_a_short_line_is_no_key_of_the_tree() -> None:
    # gzip's quiet make: ``  CC       gzip.o`` x64 were 63 templates (both tokens keyed), all shown; drain3 and
    # ours now make one ``CC <*>`` (tests/fold/test_drain3_agreement.py).
    got = ids([f"  CC       {n}.o" for n in ("gzip", "bits", "crypt", "deflate", "inflate", "lzw", "trees")])
    assert len(set(got)) == 1
    # a word after another form (a file name) was seen there is a value too: ``GEN version.c`` then ``GEN zcat``
    assert len(set(ids(["  GEN      version.c", "  GEN      alloca.h", "  GEN      zcat", "  GEN      zless"]))) == 1


def test_a_word_ending_a_short_line_seen_in_few_forms_is_a_kind_of_line() -> None:
    # pip's setuptools steps: each ``running <step>`` is a fact (a rare line); Drain's rule merged them.
    steps = ["egg_info", "dist_info", "bdist_wheel", "build", "build_py", "install", "install_lib"]
    got = ids([f"  running {s}" for s in steps])
    assert len(set(got)) == len(steps)
    # ...up to LAST_KEYS words after the same first token: then the rest are one template
    many = ids([f"  running step{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(40)])
    assert len(set(many)) == 17


def checks(answers: list[str], what: str = "h{}.h...") -> list[str]:
    """``checking for WHAT ANSWER`` lines (``{}`` the check's number) between a few other lines, and a long build."""
    out = [f"checking for {what.format(i)} {a}" for i, a in enumerate(answers)]
    build = [f"gcc -c -o obj/u{i}.o src/u{i}.c" for i in range(300)]  # long enough to fold live too
    return ["configure: starting", *build, *out, "configure: creating ./config.status", "config.status: done", "ok"]


@pytest.mark.parametrize("way", WAYS)
def test_a_rare_answer_in_a_group_of_nine_is_shown(way: object) -> None:
    # gzip-configure: ``checking for sys/stat.h... yes`` and 8 more header paths (a group of its own: a path is
    # another kind of field than a word), 2 of them ``no``. 9 lines: more than a rare template (5), fewer than
    # the 10 the once rule asked for: the fold line listed ``yes ×7, no ×2`` and showed neither ``no`` line.
    answers = ["yes", "yes", "no", "yes", "yes", "yes", "yes", "yes", "no"]
    lines = checks(answers, "sys/h{}.h...")
    out = way(lines)  # type: ignore[operator]
    assert "checking for sys/h2.h... no" in out
    assert "checking for sys/h8.h... no" in out
    assert "checking for sys/h5.h... yes" not in out  # the yes lines fold


@pytest.mark.parametrize("way", WAYS)
def test_an_answer_seen_three_times_in_a_listed_field_of_words_is_shown(way: object) -> None:
    # gzip-configure: 25 ``checking for X Y... ANSWER`` lines, ``yes`` x21, ``no`` x3, another once. The fold line
    # lists the counts (3 values), so only values seen at most twice were shown: not which three said no.
    answers = ["yes"] * 25
    for i in (19, 20, 21):
        answers[i] = "no"
    answers[3] = "(cached)"
    lines = checks(answers, "struct s{}.st_x...")
    out = way(lines)  # type: ignore[operator]
    for i in (19, 20, 21):
        assert f"checking for struct s{i}.st_x... no" in out
    assert "checking for struct s10.st_x... yes" not in out


def test_a_listed_value_seen_six_times_stays_counted() -> None:
    # apt-get install -s: ``[all])`` x6 beside ``[amd64])`` x168 is counted by the fold line, not shown (6 > 5).
    answers = ["yes"] * 60
    for i in (5, 15, 25, 35, 45, 55):
        answers[i] = "no"
    got = by_block(checks(answers, "struct s{}.st_x..."))
    assert "checking for struct s15.st_x... no" not in got
    assert any("no ×6" in o for o in got)
