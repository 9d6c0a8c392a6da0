"""The stream fact guard reads only what a filter did not vouch for, and loses nothing by it.

A streaming filter may report the lines it did not vouch for (``LineFilter.unvouched``):
every line except the benign shapes it recognised positively (cargo's own progress lines,
pytest's progress lines).
The guard then reads those only. Checked here: the runner hands over exactly those lines; a
guard reading only them restores what a guard reading every line restores (fixtures and
Hypothesis mutations with other tools' problem lines inserted); a vouched line holds no fact,
on every fixture of every family fed to the filter; summed counts stay exact across blocks.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fixturelib import all_fixtures, load
from helpers import path_with, stub_tool
from mutations import mutate
from rtk import config, facts, filters, run
from rtk.factguard import StreamGuard
from rtk.filterapi import Unrecognized
from rtk.filters.python.pytest import PytestStream
from rtk.filters.rust.build import CargoBuild
from rtk.filters.rust.diagnostics import NOISE
from rtk.text import clean, decode

FIXTURES = [load(p) for p in all_fixtures()]
FOREIGN = sorted(
    {ln for fx in FIXTURES for ln in clean(decode(fx.raw)).split("\n") if facts.is_marker(ln) and ln.strip()}
)[:400]


@pytest.fixture(autouse=True)
def _defaults() -> None:
    config.reset()


def lines_of(raw: bytes) -> list[str]:
    return clean(decode(raw)).split("\n")


REPORTING = {"cargo-build": (["cargo", "build"], CargoBuild), "pytest": (["pytest"], PytestStream)}
FAMILY = {
    "cargo-build": [
        fx
        for fx in FIXTURES
        if fx.filter in ("cargo-build", "cargo-check", "cargo-clippy", "cargo-doc", "cargo-install")
    ],
    "pytest": [fx for fx in FIXTURES if fx.filter == "pytest"],
}
OWN = [(k, fx) for k, fxs in FAMILY.items() for fx in fxs]


def both_guards(
    lines: list[str], size: int, which: str = "cargo-build"
) -> tuple[tuple[str, int], tuple[str, int], list[str]]:
    """A reporting filter over ``lines`` in blocks of ``size``: the guard of what it reported, one of every line; vouched lines."""
    argv, factory = REPORTING[which]
    filt = factory(argv)
    assert filt.reports
    filt.unvouched = []  # as the runner enables it
    reported, everything = StreamGuard(), StreamGuard()
    vouched: list[str] = []
    for i in range(0, len(lines), size):
        block = lines[i : i + size]
        try:
            parts = [r + "\n" for r in map(filt.feed, block) if r is not None]
        except Unrecognized:
            return ("", 0), ("", 0), vouched  # not this tool's output: the runner shows it raw
        got = run._for_guard(filt, block)
        left = list(got)
        for ln in block:  # the block's lines, less what was reported (a multiset difference, in order)
            if ln in left:
                left.remove(ln)
            else:
                vouched.append(ln)
        reported.feed(got, parts)
        everything.feed(block, parts)
    try:
        summary = filt.finish(1)
    except Unrecognized:
        return ("", 0), ("", 0), vouched
    return reported.finish(summary, filt.cut > 0), everything.finish(summary, filt.cut > 0), vouched


def test_cargo_build_reports_every_line_but_its_progress_lines() -> None:
    assert FAMILY["cargo-build"]
    for fx in FAMILY["cargo-build"]:
        lines = lines_of(fx.raw)
        _, _, vouched = both_guards(lines, 5)
        assert all(ln.startswith(NOISE) for ln in vouched), fx.name
        if fx.name.endswith("clean-workspace"):  # no diagnostic: every progress line is vouched for, nothing else
            assert vouched == [ln for ln in lines if ln.startswith(NOISE)] and len(vouched) < len(lines)


def test_a_subclass_with_its_own_feed_is_read_whole() -> None:
    spec = filters.lookup(["cargo", "test"])
    assert spec is not None and spec.stream is not None
    assert not spec.stream(["cargo", "test"]).reports  # cargo test: every line goes to the guard
    assert CargoBuild(["cargo", "build"]).reports and PytestStream(["pytest"]).reports


def test_only_the_runner_enables_reporting_so_a_wrapped_filter_never_collects() -> None:
    """``uv run pytest`` wraps the pytest filter: the wrapper reads every line, the inner one keeps nothing."""
    spec = filters.lookup(["uv", "run", "pytest"])
    assert spec is not None and spec.stream is not None
    outer = spec.stream(["uv", "run", "pytest"])
    assert not outer.reports and outer.unvouched is None
    inner = outer.inner  # type: ignore[attr-defined]
    for ln in lines_of(FAMILY["pytest"][0].raw) * 3:
        outer.feed(ln)
    assert isinstance(inner, PytestStream) and inner.unvouched is None
    filt = CargoBuild(["cargo", "build"])
    filt.feed("warning: unused")
    assert filt.unvouched is None  # not enabled: nothing is kept


def test_pytest_reports_every_line_but_its_progress_lines() -> None:
    assert FAMILY["pytest"]
    shapes = 0
    for fx in FAMILY["pytest"]:
        lines = lines_of(fx.raw)
        _, _, vouched = both_guards(lines, 5, "pytest")
        for ln in vouched:  # status letters, a bare percentage, or a passing test's id
            assert ln.rstrip().endswith(("%]", ".", "s", "x", "F", "E", "PASSED")) or "PASSED" in ln, (fx.name, ln)
            assert "FAILED" not in ln and "ERROR" not in ln and "SKIPPED" not in ln
        shapes += len(vouched)
    assert shapes > 50
    assert both_guards(["tests/a.py::test_x[fail] PASSED  [ 50%]", "tests/a.py::t PASSED [ 9%]"], 2, "pytest")[2] == [
        "tests/a.py::t PASSED [ 9%]"  # a parameter in brackets is free text: reported
    ]


@pytest.mark.parametrize("which", sorted(REPORTING))
@pytest.mark.parametrize("fx", FIXTURES, ids=[fx.name for fx in FIXTURES])
def test_a_vouched_line_holds_no_fact(fx: object, which: str) -> None:
    """Any real output (every family's fixtures) through a reporting filter: what it vouched for holds no fact."""
    _, _, vouched = both_guards(lines_of(fx.raw), 7, which)  # type: ignore[attr-defined]
    assert [ln for ln in vouched if facts.line_facts(ln)] == []


@pytest.mark.parametrize(("which", "fx"), OWN, ids=[fx.name for _, fx in OWN])
def test_reading_what_was_reported_restores_what_reading_everything_restores(which: str, fx: object) -> None:
    lines = lines_of(fx.raw)  # type: ignore[attr-defined]
    for size in (1, 4, 64):
        reported, everything, _ = both_guards(lines, size, which)
        assert reported == everything


@st.composite
def mutated(draw: st.DrawFn, lines: list[str]) -> list[str]:
    return mutate(draw, lines, FOREIGN)


@pytest.mark.parametrize(("which", "fx"), OWN, ids=[fx.name for _, fx in OWN])
def test_mutated_outputs_restore_alike(which: str, fx: object) -> None:
    lines = lines_of(fx.raw)  # type: ignore[attr-defined]

    @settings(
        max_examples=int(os.environ.get("RTK_FUZZ_EXAMPLES", "4")) * 2,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(mutated(lines), st.sampled_from([1, 3, 16]))
    def prop(case: list[str], size: int) -> None:
        reported, everything, _ = both_guards(case, size, which)
        assert reported == everything

    prop()


def test_summed_counts_stay_exact_across_blocks_and_repeats() -> None:
    line = "test result: ok. 2 passed; 0 failed"
    for summary, restored in (("cargo test: 12 passed\n", 0), ("cargo test: 4 passed\n", 1)):
        g = StreamGuard()
        for _ in range(3):  # twice per block, three blocks: 12 passed in all
            g.feed(["compiling", line, "pad", line], [])
        assert g.finish(summary)[1] == restored


def test_a_streamed_run_restores_a_reported_line_and_not_a_vouched_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(filters.FAMILIES, "rtktest", "testfilters")
    body = (
        "i=0; while [ $i -lt 400 ]; do echo progress $i; i=$((i+1)); done; "
        "echo 'src/a.c:3:1: warning: unused x'; echo 'progress src/b.c:9:2: warning: vouched for'; exit 0"
    )
    monkeypatch.setenv("PATH", path_with(stub_tool(tmp_path, "rtktest", body)))
    assert run.run_tool(["rtktest", "stream-vouch"]) == 0
    out, _ = capfd.readouterr()
    assert out.splitlines()[-3:] == [
        "[rtk] restored 1 line the filter dropped:",
        "src/a.c:3:1: warning: unused x",
        "402 other lines, exit 0",
    ]


def test_lines_remembered_as_plain_are_short_so_memory_stays_flat() -> None:
    # 300 distinct 1 MiB lines without a hint were all kept in the "plain" set (315 MiB peak).
    g = StreamGuard()
    for i in range(300):
        g.feed([f"{i:06d}" + "x" * (1 << 20)], [])
    g.feed(["short plain line"], [])
    assert sum(map(len, g.plain)) <= 4096 * 512  # a bound that does not grow with the lines fed
    assert "short plain line" in g.plain


def test_a_progress_line_holding_a_location_is_reported() -> None:
    # `\S+\.\w+ [.F]+` also reads `src/app.py:12:x.py F` (a test's own print under -s): its location is a fact.
    f = PytestStream(["pytest"])
    f.unvouched = []
    for line in ("tests/test_a.py ..F.", "src/app.py:12:x.py F"):
        f.feed(line)
    assert f.unvouched == ["src/app.py:12:x.py F"]
