"""Rare lines a fold used to count away: a small directory of a path listing, a rare request method, a rare answer."""

from __future__ import annotations

import re

import pytest
from foldways import WAYS, by_block

from rtk.fold.listing import Listing, first_word, parent

TRAILER = ["", "sent 29,116 bytes  received 5,831 bytes", "total size is 219,749", "all done", "bye"]


def listing() -> list[str]:
    """A file list as ``rsync -v`` prints it: two big directories, a lone file, a small directory, an empty one."""
    out = ["sending incremental file list", "proj/", "proj/setup.cfg", "proj/src/"]
    out += [f"proj/src/mod_{i}.py" for i in range(140)]
    out += ["proj/tests/"] + [f"proj/tests/test_{i}.py" for i in range(90)]
    out += ["proj/vault/", "proj/conf/", "proj/conf/app.ini"]
    return out + TRAILER


@pytest.mark.parametrize("way", WAYS)
def test_a_listing_shows_its_small_directories(way: object) -> None:
    out = way(listing())  # type: ignore[operator]
    for rare in ("proj/setup.cfg", "proj/vault/", "proj/conf/", "proj/conf/app.ini"):
        assert rare in out
    assert "proj/src/mod_7.py" not in out and "proj/tests/test_3.py" not in out  # big directories folded
    assert "proj/src/" not in out and "proj/tests/" not in out  # a subdirectory with more under it: counted


def test_a_listing_counts_each_directory_exactly() -> None:
    out = by_block(listing())
    fold = next(o for o in out if "more like" in o)
    folded = int(re.search(r"… ([\d,]+) more like", fold).group(1))  # type: ignore[union-attr]
    counts = dict(re.findall(r"(\S+/) ×(\d+)", fold.split("by directory: ")[1]))
    assert counts == {"proj/": "2", "proj/src/": "140", "proj/tests/": "90"}
    assert sum(map(int, counts.values())) == folded


def test_a_listing_of_many_small_directories_shows_none_of_them() -> None:
    lines = ["start"] + [f"a/d{i}/f{j}.txt" for i in range(60) for j in range(2)] + TRAILER
    out = by_block(lines)
    assert len(out) < 12  # nothing stands out where every directory is small
    assert "… 119 more like: <path>" in out[2]


def test_listing_helpers() -> None:
    assert parent("a/b/c.txt") == "a/b/" and parent("a/b/") == "a/" and parent("top") == ""
    assert first_word('"HEAD /a HTTP/1.1"') == "HEAD" and first_word('"-"') == "" and first_word("GET") == ""
    many = Listing()
    many.add(list(range(600)), [f"d{i}/f" for i in range(600)])
    assert many.entries is None and many.rare(600) == [] and many.text(set()) == ""  # bounded: gave up


def access(n: int, odd: dict[int, str]) -> list[str]:
    """Access-log lines, ``GET`` of several paths, the method of line ``i`` replaced by ``odd[i]``."""
    out = []
    for i in range(n):
        verb = odd.get(i, "GET")
        out.append(f'127.0.0.1 - - [24/Nov/2026:21:42:{i % 60:02d} +0000] "{verb} /p{i % 9}.html HTTP/1.1" 200 16')
    return [*out, "server stopping", "bye"]


@pytest.mark.parametrize("way", WAYS)
def test_a_rare_method_inside_the_quoted_request_is_shown(way: object) -> None:
    lines = access(400, {170: "HEAD"})
    out = way(lines)  # type: ignore[operator]
    assert lines[170] in out
    assert sum(1 for o in out if '"GET ' in o) < 8  # the GET lines still fold


def configure(yes: int, no: list[int], other: dict[int, str]) -> list[str]:
    """``checking for hN.h... yes`` lines, ``no`` at the indexes ``no``, another answer at ``other``'s."""
    out = []
    for i in range(yes):
        answer = "no" if i in no else other.get(i, "yes")
        out.append(f"checking for h{i}.h... {answer}")
    return ["configure: starting", *out, "configure: creating ./config.status", "config.status: done", "ok"]


@pytest.mark.parametrize("way", WAYS)
def test_an_answer_seen_a_few_times_among_a_nearly_constant_one_is_shown(way: object) -> None:
    no = [12, 40, 41, 77, 90, 101, 130, 150]  # 8 times, with 4 others once: 12 of 300, 6 values
    lines = configure(300, no, {20: "mawk", 60: "gcc", 99: "ar", 111: "ranlib"})
    out = way(lines)  # type: ignore[operator]
    for i in [*no, 20, 60, 99, 111]:
        assert lines[1 + i] in out
    assert "checking for h250.h... yes" not in out


def test_a_field_not_nearly_constant_keeps_the_old_rule() -> None:
    no = list(range(0, 160, 7))  # 23 ``no`` (85% ``yes``): neither rare nor a constant field's exception
    lines = configure(160, no, {20: "mawk", 60: "gcc", 99: "ar"})
    out = by_block(lines)
    assert lines[1 + 7] not in out
    assert lines[1 + 20] not in out  # three values seen once: too many for the old rule


def test_a_value_the_fold_line_lists_is_not_shown_for_being_few() -> None:
    no = [12, 40, 41, 77, 90, 101]  # ``no`` x6 of 300, the only other value: the fold line lists ``no ×6``
    out = by_block(configure(300, no, {}))
    assert "checking for h12.h... no" not in out
    assert any("yes ×292, no ×6" in o for o in out)  # (the last two lines are shown)


def test_a_clock_field_is_not_listed() -> None:
    lines = [f"{1795551995 + i // 40}: Client c{i % 7} disconnected." for i in range(120)]
    out = by_block(["broker up", *lines, "broker down", "bye"])
    fold = next(o for o in out if "more like" in o)
    assert "1795551995 ×" not in fold  # which second each line fell in: the line range says it
    counts = by_block(["broker up", *[f"{n}: Client c{i % 7} gone." for i, n in enumerate([300001, 300000] * 60)]])
    assert any("<n>: 300001 ×58, 300000 ×57" in o for o in counts)  # not rising in the order first seen: listed
