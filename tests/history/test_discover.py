"""rtk discover: on the real transcripts, on larger ones built from them, with the tracking DB, re-runs, masking."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from histlib import claude_session, homes, install_real, iso, rtk, rtk_json, track

REAL_MISSED = {  # command -> (runs, output tokens) over the six real transcripts
    "rg": (16, 51721),
    "grep": (6, 1885),
    "ls": (14, 2132),
    "cat": (1, 1148),
    "git diff": (2, 629),
    "npm run": (1, 236),
    "find": (7, 291),
    "tail": (1, 39),
    "npm test": (3, 767),  # reachable since the rewrite rules reach the npm filter (issue 16)
    "jq": (3, 38),  # jq at the end of a pipeline, served since the jq family (issue 16)
}  # also `git status` (3 runs, 80 tokens): a passthrough form, no estimated saving, so not listed as missed


@pytest.fixture
def real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    return install_real(tmp_path, monkeypatch)


def discover(*args: str) -> Any:
    return rtk_json("discover", *args)


def test_real_transcripts_figures(real: tuple[Path, Path]) -> None:
    d = discover("--all", "--since", "all")
    assert d["sessions"] == 6
    assert d["sources"] == {"claude": {"files": 3, "subagent_files": 1}, "codex": {"files": 2, "subagent_files": 0}}
    assert d["shell_commands"] == 98 and d["shell_by_agent"] == {"claude": 52, "codex": 46}
    assert d["failed"] == 6 and d["cancelled"] == 1
    a = d["adoption"]
    assert (a["rewritable"], a["via_rtk"], a["rate_pct"]) == (57, 0, 0.0)
    got = {m["command"]: (m["runs"], m["output_tokens"]) for m in d["missed"]}
    assert got == REAL_MISSED
    by = {m["command"]: m for m in d["missed"]}
    # rule estimates: rg 75% of 51,721 tokens; git status --short is a passthrough form: 0
    assert by["rg"]["est_saved_tokens"] == round(51721 * 0.75) and by["rg"]["source"] == "rule"
    assert "git status" not in by and d["missed_no_saving"] == {"commands": 1, "runs": 3}  # a passthrough form: 0
    assert d["missed"][0]["command"] == "rg"  # ranked by estimated savings
    cands = [(c["command"], c["runs"]) for c in d["candidates"]]
    # jq (10 runs, all pipeline consumers: its input is data, never rewritten) and npm test (now
    # reached by the rewrite rules) are no longer candidates for a new filter.
    assert cands[:4] == [("strings", 2), ("nl", 3), ("stat", 2), ("mix", 1)]
    assert d["not_shell"]["TodoWrite"] == 9 and d["file_reads"] == 18
    assert d["reruns"] == [] and d["problems"] == []


def test_text_report(real: tuple[Path, Path]) -> None:
    p = rtk("discover", "--all", "--since", "all")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "6 sessions, 98 shell commands (2025-12-10 .. 2026-05-11)" in out
    assert "adoption: 0 of 57 commands rtk serves went through rtk (0.0%)" in out
    assert "  rg          16      51,721      38,791   75%  rule" in out  # (`git status`, saving 0, is not listed)
    assert "(1 more command ran raw with no estimated saving: a passthrough form" in out
    assert "strings" in out and "nl" in out
    assert "not visible to rtk (the agent's own tools, not the shell): Read 18, TodoWrite 9" in out
    assert "ceil(characters / 4)" in out and "nothing is sent anywhere" in out


def test_default_scope_is_this_project(real: tuple[Path, Path], tmp_path: Path) -> None:
    here = tmp_path / "elsewhere"
    here.mkdir()
    p = rtk("discover", "--since", "all", cwd=here)
    assert p.returncode == 0 and "no agent sessions found in this scope" in p.stdout
    d = discover("--project", "/Users/Sample_User/repos/codemie-ai/codemie-code", "--since", "all")
    assert d["sessions"] == 1 and d["shell_commands"] == 43
    d = discover("--all", "--since", "all", "--agent", "codex")
    assert d["shell_commands"] == 46
    d = discover("--all", "--since", "2026-02-01")
    assert (
        d["shell_commands"] == 2 + 11 + 43 - 1
    )  # the tool-heavy and subagent sessions, and Codex TUI; minus one cancelled


@pytest.mark.parametrize("cmd", ["discover", "learn", "session", "cc-economics"])
def test_bad_flags_are_one_line_errors(real: tuple[Path, Path], cmd: str) -> None:
    for bad in (["--since", "yesterday"], ["--format", "xml"], ["--no-such-flag"]):
        p = rtk(cmd, *bad)
        assert p.returncode == 2 and p.stderr.count("\n") == 1 and p.stderr.startswith("rtk: "), (bad, p.stderr)
        assert p.stdout == ""
    p = rtk(cmd, "--help")
    assert p.returncode == 0 and "--since" in p.stdout and "--format" in p.stdout


def test_bigger_history_built_by_repetition(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copies = 25  # ~43 MB
    install_real(tmp_path, monkeypatch, copies=copies)
    probe = (
        "import resource, subprocess, sys\n"
        "p = subprocess.run([sys.executable, '-m', 'rtk', 'discover', '--all', '--since', 'all', '-f', 'json'],"
        " capture_output=True)\n"
        "sys.stdout.buffer.write(p.stdout)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
    )
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    d = json.loads(p.stdout)
    rss_mib = int(p.stderr.strip().splitlines()[-1]) / 1024
    assert d["sessions"] == 6  # copies carry their sessions' ids: the same six sessions
    assert d["shell_commands"] == 98 * copies
    got = {m["command"]: (m["runs"], m["output_tokens"]) for m in d["missed"]}
    assert got == {k: (r * copies, t * copies) for k, (r, t) in REAL_MISSED.items()}
    assert rss_mib < 60, rss_mib


# -- with rtk runs: hook rewrites, measured rates, re-runs --------------------------------------


def test_hook_rewrites_and_measured_rates_come_from_the_tracking_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claude, _ = homes(tmp_path, monkeypatch)
    start = time.time() - 3600
    claude_session(
        claude,
        [
            {"command": "git status", "output": "On branch main\n" * 20},
            {"command": "ls -la", "output": "x" * 4000},
            {"command": "cd sub && git status", "output": "On branch main\n" * 20},
        ],
        start=start,
        cwd="/work/demo",
    )
    # the hook sent the first `git status` through rtk: its run was tracked between the call and its result
    track("git status", "git-status", 75, 20, iso(start + 21)[:19] + "Z", "/work/demo")
    # earlier rtk runs of `ls` measured 40% savings (weighted: 2,000 of 5,000)
    for _ in range(5):
        track("ls -l", "ls", 1000, 600, iso(start - 86400)[:19] + "Z", "/work/demo")
    d = discover("--all", "--since", "all")
    a = d["adoption"]
    assert (a["via_hook"], a["explicit"], a["missed"], a["rewritable"]) == (1, 0, 2, 3)
    assert a["rate_pct"] == 33.3
    by = {m["command"]: m for m in d["missed"]}
    assert by["ls"]["source"] == "measured" and by["ls"]["rate_pct"] == 40.0
    assert by["ls"]["est_saved_tokens"] == 400  # 1,000 tokens of output x 40%
    assert by["git status"]["runs"] == 1 and by["git status"]["source"] == "rule"
    assert d["reruns"][0]["filter"] == "git-status" and d["reruns"][0]["rtk_runs"] == 1


def rerun_steps() -> list[dict[str, Any]]:
    return [
        {"command": "rtk git log -5", "output": "abc123 fix\n"},
        {"command": "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 git log -5", "output": "abc123 fix\n" * 5},
        {
            "command": "rtk ls -la",
            "output": "src/ tests/\n[rtk] full output: /home/u/.local/share/rtk/tee/1763800000_ls.log",
        },
        {"read": "/home/u/.local/share/rtk/tee/1763800000_ls.log", "output": "total 8\n" * 50},
        {"command": "rtk git status", "output": "on main\n"},
        *({"command": f"echo step {i}", "output": f"step {i}\n"} for i in range(6)),
        {"command": "git status", "output": "On branch main\n"},  # 7 commands later: not a re-run
        {"command": "rtk git diff", "output": "diff\n"},
        {"command": "git diff", "output": "diff --git\n", "parallel": True},  # issued before rtk's result: not one
    ]


def test_reruns_per_filter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude, _ = homes(tmp_path, monkeypatch)
    claude_session(claude, rerun_steps(), cwd="/work/demo")
    d = discover("--all", "--since", "all")
    rr = {r["filter"]: (r["rtk_runs"], r["raw_reruns"], r["recovery_reads"]) for r in d["reruns"]}
    assert rr == {"git-log": (1, 1, 0), "ls": (1, 0, 1), "git-status": (1, 0, 0), "git-diff": (1, 0, 0)}
    top = d["reruns"][0]
    assert top["signal_pct"] == 100.0
    assert top["filter"] == "git-log" and top["examples"] == ["GITHUB_TOKEN=**** git log -5"]
    assert "ghp_" not in json.dumps(d)
    assert d["adoption"]["explicit"] == 4
    assert {x["day"] for x in d["rerun_daily"]} and sum(x["count"] for x in d["rerun_daily"]) == 2
    # the re-run example is shown masked
    p = rtk("discover", "--all", "--since", "all")
    assert "git-log: re-run as `GITHUB_TOKEN=**** git log -5`" in p.stdout
    assert "ghp_" not in p.stdout


def test_recovery_read_attributed_through_the_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude, _ = homes(tmp_path, monkeypatch)
    tee = "/home/u/.local/share/rtk/tee/1763800123_pytest.log"
    start = time.time() - 3600
    claude_session(
        claude,
        [
            {"command": "uv run pytest -x", "output": "1 failed\n"},  # hook-rewritten (tracked below)
            {"command": f"cat {tee}", "output": "FAILED tests/test_a.py::test_x\n" * 40},
        ],
        start=start,
    )
    track("pytest -x", "pytest", 5000, 300, iso(start + 21)[:19] + "Z", "/work/demo", tee=tee)
    d = discover("--all", "--since", "all")
    rr = {r["filter"]: (r["rtk_runs"], r["raw_reruns"], r["recovery_reads"]) for r in d["reruns"]}
    assert rr == {"pytest": (1, 0, 1)}


def test_missed_lists_only_commands_with_a_positive_saving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past rtk runs of `ls` made the output bigger (-20%): a raw `ls` missed nothing, so it is not listed."""
    claude, _ = homes(tmp_path, monkeypatch)
    start = time.time() - 3600
    claude_session(
        claude,
        [{"command": "ls -la", "output": "x" * 4000}, {"command": "git status", "output": "On branch main\n" * 20}],
        start=start,
    )
    for _ in range(5):
        track("ls -l", "ls", 1000, 1200, iso(start - 86400)[:19] + "Z", "/work/demo")
    d = discover("--all", "--since", "all")
    assert [m["command"] for m in d["missed"]] == ["git status"]
    assert all(m["est_saved_tokens"] > 0 for m in d["missed"])
    assert d["missed_total"]["commands"] == 1 and d["missed_total"]["est_saved_tokens"] > 0
    assert d["missed_no_saving"] == {"commands": 1, "runs": 1}
    text = rtk("discover", "--all", "--since", "all").stdout
    missed = text.split("missed:")[1].split("\n\n")[0]
    assert "ls" not in missed.split("basis")[1].split("est. saved =")[0]
    assert "1 more command ran raw with no estimated saving" in text
    # rtk session: a negative estimate is no "missed" saving either
    s = rtk_json("session", "--all")["sessions"][0]
    assert s["missed_est_saved_tokens"] >= 0
    table = rtk("session", "--all").stdout
    assert "-" not in table.splitlines()[2].split()[-1]


def test_session_never_says_0_most_recent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    homes(tmp_path, monkeypatch)
    out = rtk("session", "--all").stdout
    assert "0 most recent" not in out and "no agent sessions found in this scope" in out


def test_recovery_read_of_a_file_named_by_program_and_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Recovery files are named <epoch>_<program>_<id>.log: the read goes to the ls run, not the later git status."""
    claude, _ = homes(tmp_path, monkeypatch)
    tee = "/home/u/.local/share/rtk/tee/1763800000_ls_0a1b2c.log"
    claude_session(
        claude,
        [
            {"command": "rtk ls -la", "output": f"src/ tests/\n[rtk] full output: {tee}"},
            {"command": "rtk git status", "output": "on main\n"},
            {"read": tee, "output": "total 8\n" * 50},
        ],
        cwd="/work/demo",
    )
    d = discover("--all", "--since", "all")
    rr = {r["filter"]: (r["rtk_runs"], r["raw_reruns"], r["recovery_reads"]) for r in d["reruns"]}
    assert rr == {"ls": (1, 0, 1), "git-status": (1, 0, 0)}
