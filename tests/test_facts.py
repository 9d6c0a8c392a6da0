"""The fact guard: extraction, restoration, and the invariant over every fixture."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixturelib import all_fixtures, load, run
from rtk import facts, pipeline
from rtk.text import clean, decode


def test_extracts_locations_codes_failing_ids_hashes() -> None:
    got = set(
        facts.extract("src/a.py:12:5: F401 unused import\nFAILED tests/t.py::test_x - boom\nok main 166c2d7..74867d3")
    )
    assert ("loc", "src/a.py", "12") in got
    assert ("word", "F401", "") not in got  # a code is a fact on problem lines; here the location holds it
    assert ("word", "tests/t.py::test_x", "") in got
    assert {("hash", "166c2d7", ""), ("hash", "74867d3", "")} <= got
    assert ("loc", "src/index.ts", "2") in set(facts.extract("src/index.ts(2,25): error TS2307: Cannot find module"))
    assert ("word", "TS2307", "") in set(facts.extract("src/index.ts(2,25): error TS2307: Cannot find module"))


def test_passing_lines_and_section_titles_hold_no_fact() -> None:
    assert facts.extract("tests/t.py::test_ok PASSED  [ 50%]") == {}
    assert facts.extract("=================== FAILURES ===================") == {}
    assert facts.extract("Found 0 errors") == {}


def test_restore_puts_lost_lines_back_in_order_under_one_header() -> None:
    raw = "building\nsrc/b.c:9:1: error: x undeclared\nlinking\nsrc/a.c:3:2: warning: unused y\ndone\n"
    text, n = facts.restore(raw, "build: 1 error\n")
    assert n == 2
    assert text == (
        "build: 1 error\n[rtk] restored 2 lines the filter dropped:\n"
        "src/b.c:9:1: error: x undeclared\nsrc/a.c:3:2: warning: unused y\n"
    )
    assert facts.restore(raw, "src/b.c:9 x undeclared\nsrc/a.c:3 unused y\n") == (
        "src/b.c:9 x undeclared\nsrc/a.c:3 unused y\n",
        0,
    )


def test_stream_guard_appends_what_the_stream_lost() -> None:
    g = facts.StreamGuard()
    g.feed(["compiling a", "src/x.rs:4:9: error: boom", "compiling b"], ["a\n"])
    block, n = g.finish("summary: 1 error\n")
    assert n == 1 and block.endswith("src/x.rs:4:9: error: boom\n")
    g2 = facts.StreamGuard()
    g2.feed(["src/x.rs:4:9: error: boom"], ["src/x.rs:4:9: error: boom\n"])
    assert g2.finish("") == ("", 0)


def test_pipeline_hints_match_the_extractor() -> None:
    assert pipeline.FACT_HINTS == facts._STREAM_HINTS
    assert not pipeline.may_lose_facts("On branch main\nnothing to commit, working tree clean\n", "main: clean\n")
    assert pipeline.may_lose_facts("a.py:3: error: x\n", "1 error\n")


PATHS = all_fixtures()


@pytest.mark.parametrize("path", PATHS, ids=[f"{p.parent.name}/{p.stem}" for p in PATHS])
def test_every_raw_fact_survives(path: Path) -> None:
    """The guard's invariant: no fact of the raw output is missing from what is printed."""
    fx = load(path)
    out = run(fx)
    if out.mode == "verbatim":
        return
    lost = facts.missing(clean(decode(fx.raw)), out.text)
    assert not lost, f"{fx.name}: lost {list(lost)[:5]}"
