"""A tracking database that rtk did not create (upstream RTK's history.db) is imported, the original kept."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from helpers import rtk_argv
from rtk import tracking
from rtk.tracking import db

UPSTREAM_DB = Path(__file__).parent / "data" / "upstream-rtk" / "history.db"  # scripts/fixtures/upstream_history_db.sh


def _upstream_rows(path: Path) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return conn.execute(
            "SELECT original_cmd, rtk_cmd, input_tokens, output_tokens, project_path FROM commands ORDER BY id"
        ).fetchall()


def _backups(d: Path) -> list[Path]:
    return [p for p in d.glob("history.db.upstream-*") if not p.name.endswith(("-wal", "-shm"))]


def _home_db(home: Path) -> Path:
    target = home / ".local" / "share" / "rtk" / "history.db"
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(UPSTREAM_DB, target)
    return target


def test_upstream_database_rows_are_imported_and_original_kept(isolated_home: Path) -> None:
    target = _home_db(isolated_home)
    want = _upstream_rows(UPSTREAM_DB)
    assert len(want) == 7 and ("git status", "rtk git status", 51, 9, "/tmp/misc-up/scratch") in want
    conn = db.connect(str(target))
    try:
        got = conn.execute(
            "SELECT original_cmd, rtk_cmd, input_tokens, output_tokens, project_path, timestamp, filter"
            " FROM commands ORDER BY id"
        ).fetchall()
        failures = conn.execute("SELECT raw_command, error_message FROM parse_failures").fetchall()
    finally:
        conn.close()
    assert [g[:5] for g in got] == want
    assert got[0][5] == "2026-11-24T06:59:36Z"  # upstream's nanosecond RFC 3339 in rtk's UTC form
    assert {g[6] for g in got} == {"upstream"}
    assert failures and failures[0][0] == "cat nonexist" and "unrecognized subcommand" in str(failures[0][1])
    backups = _backups(target.parent)
    assert len(backups) == 1 and _upstream_rows(backups[0]) == want  # the original's rows, untouched
    with contextlib.closing(sqlite3.connect(backups[0])) as conn:
        assert "hook_decisions" in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    db.connect(str(target)).close()  # a second open finds rtk's own file: no second import or backup
    assert len(_backups(target.parent)) == 1


def test_rtk_gain_works_on_upstream_database_and_says_so_once(isolated_home: Path) -> None:
    _home_db(isolated_home)
    env = dict(os.environ)
    first = subprocess.run(rtk_argv("gain"), capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    assert "internal error" not in first.stderr and "already exists" not in first.stderr
    assert "imported 7 commands and 1 parse failures" in first.stderr
    assert "commands      7" in first.stdout
    again = subprocess.run(rtk_argv("gain"), capture_output=True, text=True, env=env)
    assert again.returncode == 0 and "imported" not in again.stderr and "commands      7" in again.stdout


def test_foreign_database_that_cannot_be_imported_is_kept_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "history.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE commands (what TEXT)")
        conn.execute("INSERT INTO commands VALUES ('kept')")
    conn.close()
    c = db.connect(str(path))
    try:
        assert c.execute("SELECT count(*) FROM commands").fetchone() == (0,)
        assert "_rtk_migrations" in {r[0] for r in c.execute("SELECT name FROM sqlite_master")}
    finally:
        c.close()
    err = capsys.readouterr().err
    assert "cannot be imported" in err and "a new file of its own" in err
    (backup,) = _backups(tmp_path)
    with contextlib.closing(sqlite3.connect(backup)) as conn:
        assert conn.execute("SELECT what FROM commands").fetchall() == [("kept",)]
    db.connect(str(path)).close()
    assert capsys.readouterr().err == ""  # said once


def test_journal_rows_land_after_import(isolated_home: Path) -> None:
    _home_db(isolated_home)
    tracking.record_command(
        original="git log", rtk_cmd="rtk git log", filter_name="git-log", input_tokens=40, output_tokens=10,
        exec_ms=3, exit_code=0,
    )  # fmt: skip
    conn = db.open_for_reading()
    try:
        assert conn.execute("SELECT count(*) FROM commands").fetchone() == (8,)
        assert conn.execute("SELECT filter FROM commands WHERE original_cmd = 'git log'").fetchone() == ("git-log",)
    finally:
        conn.close()


UPSTREAM_BIN = os.environ.get("RTK_UPSTREAM_BIN", "")


@pytest.mark.skipif(not (UPSTREAM_BIN and os.access(UPSTREAM_BIN, os.X_OK)), reason="RTK_UPSTREAM_BIN not set")
def test_database_written_by_upstream_binary_is_imported(isolated_home: Path, tmp_path: Path) -> None:
    work = tmp_path / "w"
    work.mkdir()
    subprocess.run(["git", "init", "-q", "."], cwd=work, check=True)
    (work / "a.txt").write_text("hi\n")
    for _ in range(3):
        subprocess.run([UPSTREAM_BIN, "git", "status"], cwd=work, capture_output=True, check=False)
    target = isolated_home / ".local" / "share" / "rtk" / "history.db"
    want = _upstream_rows(target)
    assert len(want) == 3
    conn = db.connect(str(target))
    try:
        got = conn.execute("SELECT original_cmd, input_tokens FROM commands ORDER BY id").fetchall()
    finally:
        conn.close()
    assert got == [(r[0], r[2]) for r in want]


@pytest.mark.parametrize("command", [["session"], ["discover"], ["cc-economics"]])
def test_analytics_use_the_imported_database(isolated_home: Path, command: list[str]) -> None:
    _home_db(isolated_home)
    p = subprocess.run(rtk_argv(*command), capture_output=True, text=True, env=dict(os.environ))
    assert "tracking database not used" not in p.stderr and "internal error" not in p.stderr
    assert "imported 7 commands" in p.stderr
