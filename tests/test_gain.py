"""rtk gain: the figures, the formats, the scopes."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
from pathlib import Path

import pytest

from helpers import rtk_argv
from rtk import tracking
from rtk.tracking import db


def rec(
    cmd: str, filt: str, tin: int, tout: int, code: int = 0, project: str | None = None, ts: str | None = None
) -> None:
    conn = db.connect()
    conn.execute(
        "INSERT INTO commands (timestamp, original_cmd, rtk_cmd, filter, input_tokens, output_tokens, saved_tokens,"
        " savings_pct, exec_time_ms, project_path, exit_code) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        (ts or tracking.now_iso(), cmd, "rtk " + cmd, filt, tin, tout, tin - tout,
         (tin - tout) * 100.0 / tin if tin else 0.0, 10, project or os.getcwd(), code),
    )  # fmt: skip
    conn.close()


def gain(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(rtk_argv("gain", *args), capture_output=True, text=True, timeout=60)


def test_empty_database_says_so() -> None:
    p = gain()
    assert p.returncode == 0
    assert "no commands recorded yet" in p.stdout
    assert "ceil(chars/4)" in p.stdout


def test_summary_is_weighted_and_signed() -> None:
    rec("git status", "git-status", 1000, 200)
    rec("ls -la", "ls", 100, 130)  # negative
    rec("echo hi", "", 0, 0)
    data = json.loads(gain("--format", "json").stdout)
    s = data["summary"]
    assert (s["total_commands"], s["total_input"], s["total_output"], s["total_saved"]) == (3, 1100, 330, 770)
    assert s["savings_pct"] == 70.0  # 770 / 1100, not the mean of per-command rates
    assert s["passthrough_commands"] == 1
    by = {c["command"]: c for c in data["by_command"]}
    assert by["ls"]["saved"] == -30 and by["ls"]["savings_pct"] == -30.0
    assert by["raw: echo"]["saved"] == 0
    text = gain().stdout
    assert "770" in text and "70.0%" in text and "-30" in text


def test_pending_journal_rows_are_counted() -> None:
    tracking.record_command(original="git status", rtk_cmd="rtk git status", filter_name="git-status",
                           input_tokens=40, output_tokens=10, exec_ms=5, exit_code=0)  # fmt: skip
    assert json.loads(gain("-f", "json").stdout)["summary"]["total_saved"] == 30


def test_project_scope(tmp_path: Path) -> None:
    here = os.getcwd()
    rec("a", "x", 10, 5, project=here)
    rec("b", "x", 10, 5, project=here + "/sub")
    rec("c", "x", 10, 5, project=here + "_sibling")
    rec("d", "x", 10, 5, project="/elsewhere")
    data = json.loads(gain("--project", "-f", "json").stdout)
    assert data["summary"]["total_commands"] == 2


def test_since_and_periods() -> None:
    rec("old", "x", 10, 5, ts="2026-11-01T10:00:00Z")  # a Sunday
    rec("old2", "x", 10, 5, ts="2026-11-07T10:00:00Z")  # the Saturday of the same week
    rec("ancient", "x", 10, 5, ts="2026-01-04T10:00:00Z")  # beyond the 90-day retention
    rec("new", "x", 30, 5)
    data = json.loads(gain("--all-breakdowns", "-f", "json").stdout)  # was --all, now the every-project flag
    weeks = [w["period"] for w in data["weekly"]]
    assert weeks[0] == "2026-11-01" and data["weekly"][0]["commands"] == 2
    assert next(m["period"] for m in data["monthly"]) == "2026-11"
    assert data["summary"]["total_commands"] == 3  # the ancient row was dropped by retention
    recent = json.loads(gain("--since", "7d", "-f", "json").stdout)
    assert recent["summary"]["total_commands"] == 1
    assert json.loads(gain("--since", "2026-11-02", "-f", "json").stdout)["summary"]["total_commands"] == 2


def test_bad_since_is_one_line_error() -> None:
    p = gain("--since", "yesterday-ish")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_csv_and_graph_and_history() -> None:
    rec("git status", "git-status", 1000, 200)
    rec("ls", "ls", 100, 50, code=2)
    rows = list(csv.reader(io.StringIO(gain("-f", "csv").stdout)))
    assert rows[0][0] == "command" and rows[1][0] == "git-status" and rows[1][4] == "800"
    rows = list(csv.reader(io.StringIO(gain("--daily", "-f", "csv").stdout)))
    assert rows[0][:2] == ["granularity", "period"] and rows[1][0] == "daily"
    graph = gain("--graph").stdout
    assert "daily tokens saved" in graph and "#" in graph
    hist = gain("--history", "5").stdout
    assert "rtk git status" in hist and "rtk ls" in hist


def test_failures_report() -> None:
    tracking.record_failure(command="pytest", filter_name="pytest", error="ValueError: x")
    p = gain("--failures")
    assert "pytest" in p.stdout and "ValueError: x" in p.stdout


def test_failures_report_lists_fact_guard_restorations_per_filter() -> None:
    for n in (3, 2):  # through the journal, as a run records them
        tracking.record_command(original="make", rtk_cmd="rtk make", filter_name="make", input_tokens=400,
                               output_tokens=100, exec_ms=5, exit_code=2, restored=n)  # fmt: skip
    tracking.record_command(original="ls", rtk_cmd="rtk ls", filter_name="ls", input_tokens=40,
                           output_tokens=10, exec_ms=5, exit_code=0)  # fmt: skip
    p = gain("--failures")
    section = p.stdout.split("fact guard restorations", 1)[1].splitlines()
    row = next(ln for ln in section if ln.strip().startswith("make"))
    assert row.split()[1:3] == ["2", "5"]  # runs, lines restored
    assert not any(ln.strip().startswith("ls ") for ln in section)
    data = json.loads(gain("--failures", "-f", "json").stdout)
    assert [(r["filter"], r["runs"], r["lines"]) for r in data["restorations"]] == [("make", 2, 5)]


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help(flag: str) -> None:
    p = gain(flag)
    assert p.returncode == 0 and "--graph" in p.stdout and "ceil(chars/4)" in p.stdout


def test_scope_flags_are_the_same_as_the_history_commands() -> None:
    """--project DIR, --all (every project) and --since all, as in discover, session, learn and cc-economics."""
    rec("a", "x", 10, 5, project="/work/one")
    rec("b", "x", 10, 5, project="/work/one/sub")
    rec("c", "x", 10, 5, project="/work/two")
    total = lambda *a: json.loads(gain(*a, "-f", "json").stdout)["summary"]["total_commands"]  # noqa: E731
    assert total("--project", "/work/one") == 2
    assert total("--all") == 3 and total("--since", "all") == 3 and total("--all", "--since", "all") == 3
    p = gain("--all", "--project", "/work/one")
    assert p.returncode == 2 and "not allowed with argument" in p.stderr
    assert "YYYY-MM-DD or all" in gain("--since", "yesterday").stderr
