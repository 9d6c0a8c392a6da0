"""A filter's report of the lines it regrouped (Filtered.moved): the fact guard checks it, and restores alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from fixturelib import load, run
from rtk import factguard, factscan
from rtk.filterapi import Filtered, Unrecognized
from rtk.filters.ruby import rubocop
from rtk.text import clean, decode
from test_factscan import EXAMPLES, mutated

RUBOCOP = sorted((Path(__file__).parent / "fixtures" / "rubocop").glob("*.toml"))


def _filtered(raw: str) -> Filtered:
    res = rubocop.rubocop(["rubocop"], raw, 1)
    assert isinstance(res, Filtered)
    return res


def same(
    raw: str, compact: str, moved: dict[str, str] | None, counted: bool = False
) -> dict[tuple[str, str, str], int]:
    fast = factguard.missing(raw, compact, counted, moved=moved)
    full = factguard.missing(raw, compact, counted, exhaustive=True)
    assert fast == full, f"with the report {sorted(fast)[:5]} != reading every line {sorted(full)[:5]}"
    return fast


def _vouched(raw: str, compact: str, moved: dict[str, str]) -> set[str]:
    lines = set(raw.split("\n")) - set(compact.split("\n"))
    return factscan._moved_lines(moved, lines, factscan._Pieces(compact))


@pytest.mark.parametrize("path", RUBOCOP, ids=[p.stem for p in RUBOCOP])
def test_the_report_restores_what_reading_every_line_restores(path: Path) -> None:
    raw = clean(decode(load(path).raw))
    res = _filtered(raw)
    assert not same(raw, res.text, res.moved)
    if res.moved:  # the real report holds: every line it names is vouched for
        assert _vouched(raw, res.text, res.moved) == set(res.moved)
    out = run(load(path))  # the pipeline passes the report on: nothing restored
    assert out.restored == 0


def test_the_rails_report_is_used() -> None:
    """The 100 KB bench case's fixture: its regrouped lines skip the location search (the point of the report)."""
    raw = clean(decode(load(RUBOCOP[-2]).raw))
    assert RUBOCOP[-2].stem == "shared-rubocop-default_rails-app"
    res = _filtered(raw)
    assert res.moved and len(_vouched(raw, res.text, res.moved)) == len(res.moved) > 100


def test_a_broken_filter_that_drops_a_location_gets_it_back() -> None:
    """The filter reports the line as regrouped but its text lost the place: the report fails, the line returns."""
    raw = clean(decode(load(RUBOCOP[-2]).raw))
    res = _filtered(raw)
    assert res.moved
    pieces = res.text.replace(":", " ").replace("(", " ").split()
    # A regrouped line whose line number the text holds once (its place "N:C" under its file).
    line, head = next((ln, h) for ln, h in res.moved.items() if pieces.count(h.split(":")[1]) == 1)
    path, num, col = head.split(":")[:3]
    broken = res.text.replace(f" {num}:{col}", "", 1)
    assert broken != res.text and _vouched(raw, broken, res.moved) == set()
    assert ("loc", path, num) in same(raw, broken, res.moved)
    text, n = factguard.restore(raw, broken, False, res.moved)
    assert n == 1 and text.endswith(f"{factguard.HEADER.format('1 line')}\n{line}\n")


def test_a_wrong_report_is_not_trusted() -> None:
    """Reports that do not hold: the guard searches those lines itself, and restores what reading every line does."""
    raw = "app/a.rb:3:5: C: Use x.\napp/b.rb:7:1: C: Use x.\nlib/c.rb:9:2: W: see d.rb:4 for more\n"
    compact = "C: Use x. (2 offenses)\n  app/a.rb: 3:5\n  app/b.rb: 7:1\n"
    good = {"app/a.rb:3:5: C: Use x.": "app/a.rb:3:5:", "app/b.rb:7:1: C: Use x.": "app/b.rb:7:1:"}
    assert _vouched(raw, compact, good) == set(good)
    lies = [
        {**good, "lib/c.rb:9:2: W: see d.rb:4 for more": "lib/c.rb:9:2:"},  # its rest holds a location
        {"app/a.rb:3:5: C: Use x.": "app/a.rb:3:6:"},  # not the line's prefix
        {"app/a.rb:3:5: C: Use x.": "app/a.rb:3"},  # no space after the prefix
        {"app/a.rb:3:5: C: Use x.": "app/a.rb:3:5:", "kept line": "kept"},  # a line that is no dropped line
    ]
    for moved in lies:
        assert not _vouched(raw, compact, moved) >= set(moved)
        for c in (compact, compact.replace("7:1", "7:2"), compact + "lib/c.rb: 9:2\n", ""):
            same(raw, c, moved)
    # Its prefix in the text too: the other lines are vouched for, the line with a location in its rest is searched.
    assert _vouched(raw, compact + "  lib/c.rb: 9:2\n", lies[0]) == set(good)
    text, n = factguard.restore(raw, compact + "  lib/c.rb: 9:2\n", False, lies[0])
    assert n == 1 and text.endswith("lib/c.rb:9:2: W: see d.rb:4 for more\n")


def test_a_prefix_whose_base_may_hold_a_colon_is_not_vouched_for() -> None:
    raw = "a:b.rb:3:1: C: m.\nx.rb:4:1: C: m.\n"
    compact = "C: m. (2 offenses)\n  a:b.rb: 3:1\n  x.rb: 4:1\n"
    moved = {"a:b.rb:3:1: C: m.": "a:b.rb:3:1:", "x.rb:4:1: C: m.": "x.rb:4:1:"}
    assert _vouched(raw, compact, moved) == set()
    same(raw, compact, moved)


@pytest.mark.parametrize("name", ["shared-rubocop-default_rails-app", "project", "autocorrect"])
def test_mutations_with_the_filters_report_restore_alike(name: str) -> None:
    """Hypothesis: mutated rubocop outputs; the report is the real filter's on the mutated output, against other texts too."""
    lines = clean(decode(load(Path(__file__).parent / "fixtures" / "rubocop" / f"{name}.toml").raw)).split("\n")

    @settings(max_examples=max(EXAMPLES, 10), deadline=None, derandomize=True, database=None)
    @given(mutated(lines))
    def prop(case: tuple[str, str]) -> None:
        raw, other = case
        try:
            res = _filtered(raw)
        except Unrecognized:
            return
        same(raw, res.text, res.moved)
        same(raw, other, res.moved)  # a report against a text that may not hold what it says
        same(raw, res.text[: len(res.text) // 2], res.moved)

    prop()


def test_the_report_is_checked_with_the_pieces_argument() -> None:
    """The compact output's pieces: searched while few are asked, a set once many are."""
    p = factscan._Pieces("C: m. (2 offenses)\n  app/a.rb: 3:5 12:1\n")
    assert p.lacking({b"app/a.rb", b"12", b"4"}) == {b"4"}
    assert p.lacking({b"app/a", b"2"}) == {b"app/a"}  # "(2 offenses)": "2" is a piece
    many = {str(i).encode() for i in range(40)}
    assert p.lacking(many) == many - {b"2", b"3", b"5", b"1", b"12"}
    assert p.holds([b"app/a.rb", b"12", b"12"]) and not p.holds([b"app/a.rb", b"4"])
    assert p.holds([str(i).encode() for i in (1, 2, 3, 5, 12) * 4]) and not p.holds([b"0"] * 20)
