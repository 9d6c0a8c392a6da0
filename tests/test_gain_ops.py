"""rtk gain --reset, --watch and the per-filter re-run counts (issue 16)."""

from __future__ import annotations

import io
import json
import os
import pty
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import rtk_argv
from rtk import tracking
from rtk.commands import _gain_ops, gain
from rtk.tracking import db, queries


def rec(cmd: str, filt: str, project: str, ts: str, rtk_cmd: str | None = None, tee: str = "") -> None:
    conn = db.connect()
    conn.execute(
        "INSERT INTO commands (timestamp, original_cmd, rtk_cmd, filter, input_tokens, output_tokens, saved_tokens,"
        " savings_pct, exec_time_ms, project_path, exit_code, tee_path) VALUES (?,?,?,?,100,10,90,90.0,5,?,0,?)",
        (ts, cmd, rtk_cmd or "rtk " + cmd, filt, project, tee),
    )
    conn.close()


def count(sql: str) -> int:
    conn = db.connect()
    try:
        n: int = conn.execute(sql).fetchone()[0]
        return n
    finally:
        conn.close()


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(rtk_argv(*args), capture_output=True, text=True, timeout=60, input=stdin)


def ago(days: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - days * 86400))


def two_projects(tmp_path: Path) -> tuple[str, str]:
    """Project a: 3 runs (3, 2 and 1 days ago); project b: 2 runs (2 days ago, in a minute); one fallback."""
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    for days in (3, 2, 1):
        rec("git status", "git-status", a, ago(days))
    rec("ls", "ls", b, ago(2))
    rec("ls", "ls", b, ago(-0.001))
    tracking.record_failure(command="pytest", filter_name="pytest", error="ValueError: x")
    return a, b


# --- --reset ---------------------------------------------------------------------------------------------------


def test_reset_without_a_terminal_needs_yes_and_deletes_nothing(tmp_path: Path) -> None:
    two_projects(tmp_path)
    p = run("gain", "--reset", stdin="y\n")  # piped stdin: nobody to ask, even when it says y
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert "5 command runs, 1 filter fallback" in p.stderr and "every project" in p.stderr and "--yes" in p.stderr
    assert count("SELECT COUNT(*) FROM commands") == 5
    assert not list(Path(tracking.db_path()).parent.glob("*.bak-*"))


def test_reset_of_one_project_keeps_the_others_and_backs_up(tmp_path: Path) -> None:
    a, b = two_projects(tmp_path)
    p = run("gain", "--reset", "--project", a, "--yes")
    assert p.returncode == 0, p.stderr
    assert f"deleted 3 command runs recorded under {a}" in p.stdout
    assert "filter fallbacks are not per project and stay" in p.stdout
    assert count("SELECT COUNT(*) FROM commands") == 2
    assert count("SELECT COUNT(*) FROM commands WHERE project_path = '" + b + "'") == 2
    assert count("SELECT COUNT(*) FROM parse_failures") == 1
    backups = list(Path(tracking.db_path()).parent.glob("history.db.bak-*"))
    assert len(backups) == 1 and str(backups[0]) in p.stdout
    old = sqlite3.connect(backups[0])
    assert old.execute("SELECT COUNT(*) FROM commands").fetchone()[0] == 5  # the copy holds what was deleted


def test_reset_since_deletes_only_newer_rows(tmp_path: Path) -> None:
    two_projects(tmp_path)
    p = run("gain", "--reset", "--since", "36h", "--yes")
    assert (
        p.returncode == 0
        and f"2 command runs, 1 filter fallback recorded in every project since {ago(1.5)[:10]}" in p.stdout
    )
    assert count("SELECT COUNT(*) FROM commands") == 3  # the runs 2 and 3 days ago stay


def test_reset_with_nothing_in_scope_makes_no_backup(tmp_path: Path) -> None:
    two_projects(tmp_path)
    p = run("gain", "--reset", "--project", str(tmp_path / "none"))
    assert p.returncode == 0 and "nothing to delete" in p.stdout
    assert not list(Path(tracking.db_path()).parent.glob("*.bak-*"))


@pytest.mark.parametrize(("answer", "code", "left"), [(b"n\n", 1, 5), (b"\n", 1, 5), (b"y\n", 0, 0)])
def test_reset_asks_on_a_terminal(tmp_path: Path, answer: bytes, code: int, left: int) -> None:
    two_projects(tmp_path)
    master, slave = pty.openpty()
    p = subprocess.Popen(rtk_argv("gain", "--reset"), stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(slave)
    os.write(master, answer)
    out, err = p.communicate(timeout=60)
    os.close(master)
    assert p.returncode == code
    assert b"[y/N]" in err and b"5 command runs" in err
    assert count("SELECT COUNT(*) FROM commands") == left
    assert (b"cancelled; nothing deleted" in out) == (code == 1)


def test_reset_conflicts_are_one_line_errors() -> None:
    for args in (["--reset", "--watch"], ["--yes"], ["--watch", "--interval", "0"], ["--watch", "--interval", "x"]):
        p = run("gain", *args)
        assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, args


# --- --watch ---------------------------------------------------------------------------------------------------


class FakeClock:
    def __init__(self, render_cost: float) -> None:
        self.t = 100.0
        self.cost = render_cost
        self.slept: list[float] = []

    def now(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.slept.append(round(s, 6))
        self.t += s

    def render(self) -> str:
        self.t += self.cost
        return f"view at {self.t:.1f}\n"


def test_watch_keeps_to_its_schedule_and_clears_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    clock = FakeClock(0.5)
    code = _gain_ops.watch(clock.render, 2.0, tty=True, sleep=clock.sleep, clock=clock.now, ticks=3)
    assert code == 0
    assert clock.slept == [1.5, 1.5]  # 2 s apart although each view takes 0.5 s
    views = out.getvalue().split(_gain_ops.CLEAR)
    assert views[0] == "" and len(views) == 4
    assert all("every 2s, Ctrl-C to stop" in v for v in views[1:])
    assert [v.splitlines()[-1] for v in views[1:]] == ["view at 100.5", "view at 102.5", "view at 104.5"]


def test_watch_skips_views_it_is_late_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    clock = FakeClock(5.0)  # a view takes longer than the interval
    _gain_ops.watch(clock.render, 2.0, tty=False, sleep=clock.sleep, clock=clock.now, ticks=3)
    assert clock.slept == [1.0, 1.0]  # to the next slot, never negative, never a burst


def test_watch_ctrl_c_ends_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", io.StringIO())

    def interrupted(_s: float) -> None:
        raise KeyboardInterrupt

    assert _gain_ops.watch(lambda: "x\n", 1.0, tty=True, sleep=interrupted) == 0


def test_watch_without_a_terminal_prints_each_view_plainly(tmp_path: Path) -> None:
    two_projects(tmp_path)
    env = {**os.environ, _gain_ops.TICKS_ENV: "3"}
    p = subprocess.run(rtk_argv("gain", "--watch", "--interval", "0.05"), capture_output=True, text=True,
                       timeout=60, env=env)  # fmt: skip
    assert p.returncode == 0 and "\x1b" not in p.stdout
    assert p.stdout.count("--- rtk gain at ") == 3 and p.stdout.count("commands      5") == 3
    j = subprocess.run(rtk_argv("gain", "--watch", "--interval", "0.05", "-f", "json"), capture_output=True,
                       text=True, timeout=60, env={**env, _gain_ops.TICKS_ENV: "2"})  # fmt: skip
    docs = [json.loads(ln) for ln in j.stdout.splitlines() if ln.startswith("{")]
    assert [d["summary"]["total_commands"] for d in docs] == [5, 5]


def test_watch_sigint_exits_zero_without_traceback(tmp_path: Path) -> None:
    two_projects(tmp_path)
    p = subprocess.Popen(rtk_argv("gain", "--watch", "--interval", "0.2"), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)  # fmt: skip
    assert p.stdout is not None
    first = p.stdout.readline()  # the first view has started
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    _rest, err = p.communicate(timeout=60)
    assert first.startswith(b"--- rtk gain at ")
    assert p.returncode == 0 and b"Traceback" not in err and err == b""


# --- re-runs and recalls per filter ----------------------------------------------------------------------------


def test_reruns_count_proxy_runs_of_the_same_command_soon_after(tmp_path: Path) -> None:
    a, b = str(tmp_path / "a"), str(tmp_path / "b")
    rec("cargo test", "cargo-test", a, "2026-03-01T10:00:00Z")
    rec("cargo test", "", a, "2026-03-01T10:04:00Z", rtk_cmd="rtk proxy cargo test")  # re-run: counted
    rec("cargo test", "cargo-test", a, "2026-03-01T11:00:00Z")
    rec("cargo test", "", a, "2026-03-01T11:10:01Z", rtk_cmd="rtk proxy cargo test")  # too late
    rec("cargo test", "cargo-test", a, "2026-03-01T12:00:00Z")
    rec("cargo test", "", b, "2026-03-01T12:01:00Z", rtk_cmd="rtk proxy cargo test")  # another project
    rec("cargo test", "cargo-test", a, "2026-03-01T13:00:00Z")
    rec("cargo test", "cargo-test", a, "2026-03-01T13:01:00Z")  # through the filter again: no sign of loss
    rec("cargo test --lib", "", a, "2026-03-01T13:02:00Z", rtk_cmd="rtk proxy cargo test --lib")  # not the same
    rec("git status", "git-status", a, "2026-03-01T10:00:00Z")
    conn = db.connect()
    got = queries.reruns(conn, queries.Scope())
    assert got == [{"filter": "cargo-test", "runs": 5, "reruns": 1, "recalls": 0, "last": "2026-03-01T10:00:00Z"}]
    assert queries.reruns(conn, queries.Scope(project=str(tmp_path / "b"))) == []


def test_reruns_end_to_end_through_proxy_recall_and_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTK_TEE_DIR", str(tmp_path / "tee"))
    p = run("run", "seq", "1", "3000")
    rid = p.stdout.splitlines()[-1].rsplit(" ", 1)[1]
    assert run("proxy", "seq", "1", "3000").returncode == 0
    assert run("recall", rid, "--lines", "1-2").stdout == "1\n2\n"
    kept = next((tmp_path / "tee").iterdir())
    assert run("read", str(kept)).returncode == 0
    data = json.loads(run("gain", "--failures", "-f", "json").stdout)
    assert [(r["filter"], r["runs"], r["reruns"], r["recalls"]) for r in data["reruns"]] == [("run", 1, 1, 1)]
    assert count("SELECT COUNT(*) FROM recalls") == 2
    assert count("SELECT COUNT(*) FROM recalls WHERE how = 'read'") == 1
    text = run("gain", "--failures").stdout
    section = text.split("fact guard restorations and re-runs per filter", 1)[1].splitlines()
    row = next(ln for ln in section if ln.strip().startswith("run "))
    assert row.split()[1:5] == ["0", "0", "1", "1"]  # restored, lines, re-run, recalled


def test_recall_listing_is_not_a_recall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTK_TEE_DIR", str(tmp_path / "tee"))
    run("run", "seq", "1", "3000")
    assert run("recall").returncode == 0
    run("gain")  # ingests the journal
    assert count("SELECT COUNT(*) FROM recalls") == 0


def test_reset_also_deletes_recalls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTK_TEE_DIR", str(tmp_path / "tee"))
    rid = run("run", "seq", "1", "3000").stdout.splitlines()[-1].rsplit(" ", 1)[1]
    run("recall", rid, "--full")
    p = run("gain", "--reset", "--yes")
    assert p.returncode == 0 and "1 recall " in p.stdout
    assert count("SELECT COUNT(*) FROM recalls") == 0


def test_gain_main_renders_the_same_without_watch(capsys: pytest.CaptureFixture[str]) -> None:
    assert gain.main([]) == 0
    assert "no commands recorded yet" in capsys.readouterr().out


def test_gain_with_the_database_path_a_directory_says_so_in_one_line(tmp_path: Path) -> None:
    """Not 'internal error: OperationalError': one line naming the path; a command run is not stopped."""
    d = tmp_path / "db-is-a-dir"
    d.mkdir()
    env = dict(os.environ, RTK_DB_PATH=str(d))
    p = subprocess.run(rtk_argv("gain"), env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    assert p.stderr.splitlines() == [
        f"rtk: tracking database {d} is a directory, not a database file (RTK_DB_PATH, tracking.database_path)"
    ]
    parent_file = tmp_path / "plain"
    parent_file.write_text("x")
    env = dict(os.environ, RTK_DB_PATH=str(parent_file / "history.db"))
    p = subprocess.run(rtk_argv("gain"), env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1 and len(p.stderr.splitlines()) == 1, p.stderr
    assert f"rtk: tracking database {parent_file / 'history.db'}: " in p.stderr and "internal error" not in p.stderr
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for special in (fifo,):
        env = dict(os.environ, RTK_DB_PATH=str(special))
        p = subprocess.run(rtk_argv("gain"), env=env, capture_output=True, text=True, timeout=60)
        assert p.returncode == 1 and p.stderr.splitlines() == [
            f"rtk: tracking database {special} is not a regular file (RTK_DB_PATH, tracking.database_path)"
        ]
    env = dict(os.environ, RTK_DB_PATH=str(d))
    p = subprocess.run(rtk_argv("echo", "hi"), env=env, capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stdout) == (0, "hi\n")
