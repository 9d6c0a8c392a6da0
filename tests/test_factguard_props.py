"""The fact guard's invariant beyond the fixtures: on mutated real outputs, and on other tools' outputs.

Every fact of the raw output (``rtk.facts``) must be in what rtk prints, whatever the
filter did with it. Mutations: lines dropped, repeated, cut short, problem lines from
other tools inserted. Differential: each filter is fed the real outputs of other tool
families; where it accepts them (prints a filtered result), the invariant must hold too.
Examples per filter: ``RTK_FUZZ_EXAMPLES`` (a few by default, to keep CI in seconds);
``RTK_FUZZ_ALL=1`` feeds every fixture to every filter.
"""

from __future__ import annotations

import dataclasses
import os
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fixturelib import Fixture, all_fixtures, load, run
from mutations import mutate, mutation_settings
from rtk import config, factguard, facts, options
from rtk.text import clean, decode

FIXTURES = [load(p) for p in all_fixtures()]
# One fixture per filter id: a failing case when there is one (they hold the most facts).
BY_FILTER: dict[str, Fixture] = {}
for _fx in FIXTURES:
    if _fx.filter not in BY_FILTER or (_fx.exit_code != 0 and BY_FILTER[_fx.filter].exit_code == 0):
        BY_FILTER[_fx.filter] = _fx
# Problem lines other tools printed, to insert into an output whose filter has never seen them.
FOREIGN = sorted(
    {ln for fx in FIXTURES for ln in clean(decode(fx.raw)).split("\n") if facts.is_marker(ln) and ln.strip()}
)[:400]
EXAMPLES = int(os.environ.get("RTK_FUZZ_EXAMPLES", "4"))


@pytest.fixture(autouse=True)
def _defaults() -> None:
    config.reset()
    options.ultra_compact = False


def check(fx: Fixture, raw: bytes, code: int) -> None:
    """rtk's output for ``raw`` (as ``fx``'s command) holds every fact of its baseline.

    The baseline is ``raw``, or what the user's command prints without the flags rtk added
    (``grep -n``), secrets masked (``env``): the guard restores from it, never from the raw.
    """
    out = run(dataclasses.replace(fx, raw=raw, exit_code=code))
    if out.mode == "verbatim" or (out.mode.startswith("raw") and out.cut):
        return  # data shown as written; or a raw output cut by head and tail with a recovery file
    if out.mode.startswith("raw") and out.mode != "raw-guard":
        assert out.raw_text == clean(decode(raw))  # only a filter's own result names another baseline
    lost = factguard.missing(out.raw_text, out.text, out.cut > 0)
    assert not lost, f"{fx.name} (exit {code}, mode {out.mode}) lost {sorted(lost)[:5]}\n---\n{out.text}"


@st.composite
def mutated(draw: st.DrawFn, lines: list[bytes]) -> tuple[bytes, int]:
    out = mutate(draw, lines, [f.encode() for f in FOREIGN])
    return b"\n".join(out) + b"\n", draw(st.sampled_from([0, 1, 2, 101]))


@pytest.mark.parametrize("filter_id", sorted(BY_FILTER))
def test_mutated_outputs_keep_their_facts(filter_id: str) -> None:
    fx = BY_FILTER[filter_id]
    lines = fx.raw.split(b"\n")[:200]

    @mutation_settings(EXAMPLES)
    @given(mutated(lines))
    def prop(case: tuple[bytes, int]) -> None:
        check(fx, *case)

    prop()


def others(fx: Fixture) -> list[Fixture]:
    """Real outputs of other tool families for ``fx``'s filter: all with RTK_FUZZ_ALL, else a stable sample."""
    family = fx.filter.split("-")[0]
    pool = [o for o in FIXTURES if o.filter.split("-")[0] != family]
    if os.environ.get("RTK_FUZZ_ALL"):
        return pool
    return sorted(pool, key=lambda o: zlib.crc32(f"{fx.filter}|{o.name}".encode()))[: EXAMPLES * 2]


@pytest.mark.parametrize("filter_id", sorted(BY_FILTER))
def test_other_tools_outputs_keep_their_facts(filter_id: str) -> None:
    fx = BY_FILTER[filter_id]
    for other in others(fx):
        check(fx, other.raw, other.exit_code)


def test_the_sample_is_stable_and_foreign() -> None:
    fx = BY_FILTER["pytest"]
    assert others(fx) == others(fx)
    assert all(o.filter.split("-")[0] != "pytest" for o in others(fx))
    assert Path(fx.expected_path).exists()
