"""ruff check's JSON report (issue 14): known by its content, every diagnostic kept, on one line each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fixturelib import FIXTURES, load, run
from helpers import path_with, stub_tool
from rtk import factguard
from rtk import run as rtk_run
from rtk.filterapi import Unrecognized
from rtk.filters.python import ruff

CASES = ("json-flag", "json-config", "json-config-unrecognized", "json-config-warning")


def diagnostics(case: str) -> list[dict[str, object]]:
    text = (FIXTURES / f"ruff-check/{case}.raw").read_text()
    items = json.loads(text[text.index("\n[") + 1 :] if not text.startswith("[") else text)
    assert items  # a real report with diagnostics
    return list(items)


@pytest.mark.parametrize("case", CASES)
def test_every_diagnostic_keeps_code_location_and_message(case: str) -> None:
    out = run(load(FIXTURES / f"ruff-check/{case}.toml"))
    assert out.mode == "filtered" and out.restored == 0
    assert factguard.missing(out.raw_text, out.text, out.cut > 0) == {}
    lines = out.text.splitlines()
    for d in diagnostics(case):
        loc = d["location"]
        assert isinstance(loc, dict)
        head = f"{d['filename']}:{loc['row']}:{loc['column']}: {d['code']} "
        fix = d["fix"]
        safe = isinstance(fix, dict) and fix["applicability"] == "safe"
        want = head + ("[*] " if safe else "") + str(d["message"])
        assert any(ln.startswith(want) for ln in lines), want
    n = len(diagnostics(case))
    assert sum(1 for ln in lines if ln.endswith("\terror")) == n  # one line each, no more
    assert '"end_location"' not in out.text and '"edits"' not in out.text
    assert out.out_tokens * 100 <= out.raw_tokens * 25  # at least 75% saved


def test_ruffs_own_warning_before_the_report_is_kept_whole() -> None:
    out = run(load(FIXTURES / "ruff-check/json-config-warning.toml"))
    lines = out.text.splitlines()
    assert lines[0].startswith("warning: The top-level linter settings are deprecated")
    assert lines[1] == "  - 'select' -> 'lint.select'"
    assert lines[-2] == "ruff check: 10 diagnostics in 1 file, 3 fixable with --fix ([*])"


def test_summary_counts_what_ruffs_text_report_counts() -> None:
    out = run(load(FIXTURES / "ruff-check/json-flag.toml"))
    # ruff's own text report of the same project: "Found 28 errors." / "[*] 10 fixable with `--fix`"
    assert "ruff check: 28 diagnostics in 3 files, 10 fixable with --fix ([*])\n" in out.text
    assert sum(" [*] " in ln for ln in out.text.splitlines() if ln.endswith("\terror")) == 10
    assert "broken.py:1:11: invalid-syntax Expected a parameter or the end of the parameter list\terror" in out.text


def test_a_report_from_the_config_keeps_exit_code_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    report = FIXTURES / "ruff-check/json-config.raw"
    monkeypatch.setenv("PATH", path_with(stub_tool(tmp_path, "ruff", f"cat '{report}'; exit 1")))
    monkeypatch.setenv("RTK_TEE_DIR", str(tmp_path / "tee"))
    assert rtk_run.run_tool(["ruff", "check"]) == 1
    out, _ = capfd.readouterr()
    assert "app/orders.py:12:32: E711 Comparison to `None` should be `cond is None`" in out
    assert "ruff check: 28 diagnostics in 3 files" in out and '"fix":' not in out


def test_what_is_not_a_report_is_not_taken_for_one() -> None:
    with pytest.raises(Unrecognized):  # exit 1 with an empty report
        ruff.check(["ruff", "check"], "[]\n", 1)
    with pytest.raises(Unrecognized):  # diagnostics with exit 0 (no --exit-zero)
        ruff.check(["ruff", "check"], (FIXTURES / "ruff-check/json-flag.raw").read_text(), 0)
    with pytest.raises(Unrecognized):  # a JSON array of something else
        ruff.check(["ruff", "check"], '[{"code": "E1", "message": "m"}]\n', 1)
    clean = ruff.check(["ruff", "check", "--output-format", "json"], "[]\n", 0)
    assert (
        clean is not None and not isinstance(clean, str) and clean.text == "ruff check: 0 diagnostics (JSON report)\n"
    )


def test_many_leading_message_lines_are_read_in_linear_time() -> None:
    """ruff's own warning lines before the report were sliced off one by one (the rest copied per line)."""
    import time

    from rtk.filters.python import ruff_json

    notes = "warning: a deprecated setting\n" * 200_000
    report = '[{"code": "F401", "filename": "a.py", "location": {"row": 1, "column": 8}, "message": "unused"}]'
    start = time.process_time()
    got = ruff_json.read(notes + report)
    took = time.process_time() - start
    assert got is not None and len(got[1]) == 200_000 and got[0][0]["code"] == "F401"
    assert took < 2.0, took
