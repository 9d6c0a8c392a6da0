"""The pytest filter beyond its fixtures: argv handling, streaming order, bounds, exit-code truth."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from fixturelib import FIXTURES
from rtk import config, filters
from rtk.filterapi import Unrecognized
from rtk.filters.python.pytest import PytestStream
from rtk.text import clean, decode, split_lines


def raw_lines(case: str) -> list[str]:
    return split_lines(clean(decode((FIXTURES / "pytest" / f"{case}.raw").read_bytes())))


def run_filter(lines: list[str], exit_code: int, argv: list[str] | None = None) -> tuple[list[str], str, int]:
    f = PytestStream(argv or ["pytest"])
    printed = [out for ln in lines if (out := f.feed(ln)) is not None]
    return printed, f.finish(exit_code), f.cut


@pytest.mark.parametrize(
    "argv",
    [
        ["pytest"],
        ["pytest", "-q"],
        ["pytest", "-qq"],
        ["pytest", "-vv", "--tb=short"],
        ["pytest", "--tb", "native"],
        ["pytest", "-x", "-n", "2"],
        ["pytest", "-rs", "--junitxml=out.xml"],
        ["pytest", "-k", "rA or Pp", "tests/"],  # -k values are not report flags
        ["pytest", "--some-plugin-flag", "--another=1"],  # unknown flags never break anything
        ["py.test", "tests"],
        ["python", "-m", "pytest", "-q"],
        ["python3", "-X", "dev", "-B", "-m", "pytest"],
        ["/usr/bin/python3", "-mpytest"],
        ["uv", "run", "pytest", "-q"],
        ["uv", "run", "--with", "pytest-xdist", "--frozen", "pytest"],
        ["uv", "run", "--", "pytest"],
        ["uv", "run", "-m", "pytest"],
        ["uv", "run", "python", "-m", "pytest"],
    ],
)
def test_filtered_invocations(argv: list[str]) -> None:
    spec = filters.lookup(argv)
    assert spec is not None and spec.name == "pytest" and spec.stream is not None
    assert spec.run_argv is None  # what runs is exactly what the user typed


@pytest.mark.parametrize(
    "argv",
    [
        ["pytest", "--co"],
        ["pytest", "--collect-only", "-q"],
        ["pytest", "-rA"],
        ["pytest", "-r", "fEP"],
        ["pytest", "-vrA"],
        ["pytest", "--fixtures"],
        ["pytest", "--markers"],
        ["pytest", "--version"],
        ["pytest", "-h"],
        ["pytest", "--pdb"],
        ["pytest", "--trace"],
        ["pytest", "--setup-show"],
        ["python", "-m", "pytest", "--co"],
        ["python", "script.py"],
        ["python", "-c", "import pytest"],
        ["python", "-m", "http.server"],
        ["python3", "-i"],
        ["uv", "run", "--some-new-uv-option", "pytest"],
        ["uv", "run", "python", "script.py"],
    ],
)
def test_unfiltered_invocations(argv: list[str]) -> None:
    spec = filters.lookup(argv)
    assert spec is None or spec.name != "pytest"


def test_python_m_dispatches_to_each_tool() -> None:
    assert filters.lookup(["python", "-m", "mypy", "src"]).name == "mypy"  # type: ignore[union-attr]
    assert filters.lookup(["python3", "-m", "pip", "list"]).name == "pip-list"  # type: ignore[union-attr]
    assert filters.lookup(["python", "-m", "ruff", "check"]).name == "ruff-check"  # type: ignore[union-attr]
    assert filters.lookup(["python", "-m", "venv", ".venv"]) is None


def test_progress_is_dropped_and_each_failure_is_printed_when_complete() -> None:
    lines = raw_lines("fail-default")
    f = PytestStream(["pytest"])
    seen: list[tuple[int, str]] = []
    for i, ln in enumerate(lines):
        out = f.feed(ln)
        if out is not None:
            seen.append((i, out))
    first_block = next(i for i, ln in enumerate(lines) if ln.startswith("____") and "test_simple_assert" in ln)
    second_block = next(i for i, ln in enumerate(lines) if ln.startswith("____") and "test_param_add[2-2-5]" in ln)
    # nothing for the header and progress lines; the first failure comes out when the second starts
    assert seen[0][0] == second_block > first_block
    assert seen[0][1].startswith("FAILED tests/test_fail.py::test_simple_assert")
    assert all("[100%]" not in out and "PASSED" not in out for _, out in seen)
    summary = f.finish(1)
    assert summary.splitlines()[-1].startswith("pytest: 8 failed, 32 passed, 2 skipped, 1 xfailed, 22 warnings in")
    # errors before warnings: the grouped warnings come after every failure
    assert summary.index("warnings (22, 1 kind)") < summary.index("pytest: 8 failed")


def test_failure_cap_is_stated_and_keeps_the_error_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text("[limits]\ntest_failure_lines = 8\n")
    monkeypatch.setenv("RTK_CONFIG", str(cfg))
    config.reset()
    printed, _, cut = run_filter(raw_lines("fail-default"), 1)
    deep = next(p for p in printed if "test_deep_exception" in p)
    assert "(cap 8 lines per failure)" in deep
    assert "E   ZeroDivisionError: division by zero" in deep
    assert len(deep.splitlines()) <= 9
    assert cut > 0


def test_failures_beyond_the_detail_limit_keep_their_id_and_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text("[limits]\ntest_max_failures = 2\n")
    monkeypatch.setenv("RTK_CONFIG", str(cfg))
    config.reset()
    printed, _, _ = run_filter(raw_lines("fail-default"), 1)
    text = "\n".join(printed)
    assert "FAILED tests/test_fail.py::TestGroup::test_in_class" in text
    assert "assert [1, 2, 3] == [1, 2, 4]" in text  # the short summary keeps the message
    assert "E   ZeroDivisionError" in text or "ZeroDivisionError: division" in text


def test_summary_never_contradicts_the_exit_code() -> None:
    passing = raw_lines("pass-default")
    with pytest.raises(Unrecognized):
        run_filter(raw_lines("fail-default"), 0)  # failures in the report, exit 0: do not guess
    _, summary, _ = run_filter(passing, 1)
    assert summary.splitlines()[-1].startswith("pytest: FAILED (exit 1) although the summary reports no failure")
    _, summary, _ = run_filter(passing, 137)
    assert summary.splitlines()[-1].startswith("pytest: did not finish (exit 137)")
    with pytest.raises(Unrecognized):
        run_filter(passing[:-1], 0)  # cut off before the summary line: no success without evidence
    _, summary, _ = run_filter(passing[:-1], 143)
    assert "progress before it stopped: 31 passed, 2 skipped, 1 xfailed" in summary


def test_plugin_output_is_not_guessed_at() -> None:
    with pytest.raises(Unrecognized):
        run_filter(raw_lines("sugar-unrecognized"), 1)


@pytest.mark.integration
def test_large_real_run_streams_with_flat_memory(tmp_path: Path) -> None:
    """A real 6000-test verbose run (one line per test) through the filter as it is produced."""
    tests = tmp_path / "tests"
    tests.mkdir()
    for m in range(6):
        (tests / f"test_big_{m}.py").write_text(
            "import pytest\n\n\n@pytest.mark.parametrize('n', range(1000))\n"
            f"def test_n(n):\n    assert n != {m * 100 + 7}, 'unlucky number'\n"
        )
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    argv = [sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "no:randomly", str(tests)]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.Popen(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    assert proc.stdout is not None
    f = PytestStream(["python", "-m", "pytest", "-v"])
    tracemalloc.start()
    raw_lines_seen = 0
    printed: list[str] = []
    for b in proc.stdout:
        raw_lines_seen += 1
        out = f.feed(clean(decode(b)).rstrip("\n"))
        if out is not None:
            printed.append(out)
    code = proc.wait()
    summary = f.finish(code)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert code == 1
    assert raw_lines_seen > 6000
    text = "\n".join([*printed, summary])
    for m in range(6):
        assert f"test_big_{m}.py::test_n[{m * 100 + 7}]" in text
    assert "AssertionError: unlucky number" in text
    assert summary.splitlines()[-1].startswith("pytest: 6 failed, 5994 passed in")
    assert len(text.splitlines()) < 80
    assert peak < 2 * 1024 * 1024, f"filter peak memory {peak} bytes"
