"""Every filter on mutated real output: lines dropped, repeated, cut short, foreign text and bad bytes inserted.

A filter may give up (Unrecognized: raw output), but it must never crash (the runner
would fail open, yet that is a bug), never print more than the raw output, and never
lose a line's worth of undecodable bytes silently (lesson 19: CJK, emoji, combining
marks and invalid UTF-8).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fixturelib import Fixture, all_fixtures, load, run
from rtk import config, options, tokens

# One fixture per filter id: the first failing case if there is one (failure paths parse
# the most), else the first case. RTK_FUZZ_ALL=1 takes every case (a local bug hunt).
_BY_FILTER: dict[str, Path] = {}
for _p in all_fixtures():
    _fx = load(_p)
    if os.environ.get("RTK_FUZZ_ALL"):
        _BY_FILTER[_fx.name] = _p
    elif _fx.filter not in _BY_FILTER or (_fx.exit_code != 0 and load(_BY_FILTER[_fx.filter]).exit_code == 0):
        _BY_FILTER[_fx.filter] = _p

# Text no tool here printed, in the scripts lesson 19 names.
FOREIGN = st.sampled_from(
    [
        "错误: 找不到文件 src/主.py",
        "テスト 失敗 ✗ 🚀 done",
        "e\u0301le\u0300ve \u0915\u094d\u0937 \u200d\U0001f468\u200d\U0001f469",
        "\u202eevil rtl\u202c",
        "",
        "    ",
        "FAILED",
        "error:",
        "--- a/x",
        "@@ -1 +1 @@",
        "test result: ok.",
        "=" * 80,
    ]
)
BAD_BYTES = st.sampled_from([b"\xff\xfe bad", b"\xe6\x96", b"caf\xe9", b"\x00\x01\x02", b"\xc3("])


@st.composite
def mutated(draw: st.DrawFn, lines: list[bytes]) -> tuple[bytes, int]:
    out: list[bytes] = []
    for line in lines:
        op = draw(st.integers(0, 19))
        if op == 0:
            continue  # dropped
        if op == 1:
            out += [line, line]  # repeated
        elif op == 2:
            out.append(line[: draw(st.integers(0, max(len(line) - 1, 0)))])  # cut short
        elif op == 3:
            out += [line, draw(FOREIGN).encode()]
        elif op == 4:
            out += [line, draw(BAD_BYTES)]
        else:
            out.append(line)
    if draw(st.booleans()):
        out = out[: draw(st.integers(0, len(out)))]  # the tool died midway
    data = b"\n".join(out) + (b"\n" if draw(st.booleans()) else b"")
    return data, draw(st.sampled_from([0, 1, 2, 101, 137]))


@pytest.fixture(autouse=True)
def _defaults() -> None:
    config.reset()
    options.ultra_compact = False


def _check(fx: Fixture, raw: bytes, code: int) -> None:
    out = run(dataclasses.replace(fx, raw=raw, exit_code=code))
    assert out.mode != "raw-error", f"{fx.name} crashed: {out.error}\n--- input ({code}) ---\n{raw!r}"
    if out.mode != "verbatim":  # raw modes may add the final newline the tool left out
        shown = tokens.estimate_shaped(out.text.rstrip("\n") if out.mode != "filtered" else out.text)
        assert shown <= out.raw_tokens, (fx.name, out.mode, out.text)
    for bad in (b"\xff\xfe bad", b"caf\xe9"):
        if bad in raw and out.mode != "filtered" and out.cut == 0:  # shown raw and whole
            assert bad.decode("utf-8", "replace") in out.text


def _case(path: Path) -> Callable[[], None]:
    fx = load(path)
    lines = fx.raw.split(b"\n")[:400]

    @settings(
        max_examples=int(os.environ.get("RTK_FUZZ_EXAMPLES", "25")),  # more for a local bug hunt
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
    )
    @given(mutated(lines))
    def prop(case: tuple[bytes, int]) -> None:
        _check(fx, *case)

    return prop


@pytest.mark.parametrize("filter_id", sorted(_BY_FILTER))
def test_filter_survives_mutated_output(filter_id: str) -> None:
    _case(_BY_FILTER[filter_id])()


@pytest.mark.parametrize("value", [0, 1])
def test_every_fixture_survives_the_smallest_limits(value: int) -> None:
    """Every limit at 0 or 1 (the config allows it): caps everywhere, yet no crash and never bigger."""
    cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text("[limits]\n" + "".join(f"{k} = {value}\n" for k in config.SCHEMA["limits"]))
    problems = []
    for path in all_fixtures():
        config.reset()
        fx = load(path)
        out = run(fx)
        if out.mode == "raw-error" or out.out_tokens > out.raw_tokens:
            problems.append((fx.name, out.mode, out.error))
    assert config.get("limits.build_error_lines") == value  # the file was read
    assert problems == []
