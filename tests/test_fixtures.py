"""Every filter fixture (tests/fixtures/<filter>/<case>.{raw,toml,expected}) becomes these tests.

Adding a case means adding files: the raw output captured from the real tool
(scripts/capture.py), its argv and exit code, the facts the filtered output must
keep, and the golden output (``--update-goldens`` writes it).
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from fixturelib import RUNNERS, TEE_DIR, Fixture, all_fixtures, load, missing_facts, run, savings

PATHS = all_fixtures()
IDS = [f"{p.parent.name}/{p.stem}" for p in PATHS]


@pytest.fixture(params=PATHS, ids=IDS)
def fx(request: pytest.FixtureRequest) -> Fixture:
    return load(request.param)


def test_fixture_is_documented(fx: Fixture) -> None:
    assert fx.captured, f"{fx.name}: say how the output was captured (command, tool version, date)"
    assert fx.raw, f"{fx.name}: empty raw output"


def test_facts_kept(fx: Fixture) -> None:
    out = run(fx)
    assert not missing_facts(fx, out.text), f"{fx.name}: facts lost {missing_facts(fx, out.text)}\n---\n{out.text}"
    for noise in fx.absent:
        assert noise not in out.text, f"{fx.name}: {noise!r} should have been removed\n---\n{out.text}"
    if fx.mode is not None:
        assert out.mode == fx.mode, f"{fx.name}: pipeline mode {out.mode}, expected {fx.mode}"


def test_savings_floor_and_never_worse(fx: Fixture) -> None:
    out = run(fx)
    assert out.out_tokens <= out.raw_tokens, f"{fx.name}: output larger than raw ({out.out_tokens} > {out.raw_tokens})"
    if out.mode == "filtered":
        assert out.out_tokens < out.raw_tokens
    assert savings(out) >= fx.min_savings, f"{fx.name}: saved {savings(out):.1f}% < floor {fx.min_savings}%"


def test_golden(fx: Fixture, update_goldens: bool) -> None:
    out = run(fx)
    if update_goldens or not fx.expected_path.exists():
        fx.expected_path.write_text(out.text, encoding="utf-8")
        if not update_goldens:
            pytest.fail(f"{fx.name}: wrote missing golden {fx.expected_path.name}; review and commit it")
    expected = fx.expected_path.read_text(encoding="utf-8")
    assert out.text == expected, f"{fx.name}: output differs from {fx.expected_path.name} (--update-goldens to accept)"


def test_replay_end_to_end(
    fx: Fixture, tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run `rtk <argv>` against a stand-in tool that replays the capture: same text, same exit code."""
    from rtk import run as runmod

    bindir = tmp_path / "bin"
    bindir.mkdir()
    raw = tmp_path / "raw"
    raw.write_bytes(fx.raw)
    runner = fx.argv[1] if fx.argv[0] == "rtk" and fx.argv[1:2] and fx.argv[1] in RUNNERS else None
    argv = fx.argv[2:] if runner else fx.argv
    tool = bindir / os.path.basename(argv[0])
    tool.write_text(f"#!/bin/sh\ncat '{raw}'\nexit {fx.exit_code}\n")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    tee_dir = Path(tempfile.mkdtemp(prefix="t", dir="/tmp"))
    padded = tee_dir / ("x" * (len(TEE_DIR) - len(str(tee_dir)) - 1))
    assert len(str(padded)) == len(TEE_DIR)
    monkeypatch.setenv("RTK_TEE_DIR", str(padded))
    from rtk import options

    options.ultra_compact = fx.ultra_compact
    try:
        if runner:
            from rtk.commands import _generic

            code = _generic.main(runner, [os.path.basename(argv[0]), *argv[1:]])
        else:
            code = runmod.run_tool([os.path.basename(argv[0]), *argv[1:]])
        captured = capfd.readouterr()
        assert code == fx.exit_code, f"{fx.name}: exit code {code}, the tool exited {fx.exit_code}"
        expected = run(fx).text
        got = captured.out
        if "[rtk] full output: rtk recall " in expected:
            logs = sorted(padded.glob("*.log"))
            assert logs, f"{fx.name}: output names a recovery file but none was written"
            assert logs[-1].read_bytes() == fx.raw or len(fx.raw) > 1_000_000
            assert stat.S_IMODE(logs[-1].stat().st_mode) == 0o600
        assert got == expected
    finally:
        shutil.rmtree(tee_dir, ignore_errors=True)
