"""Tracking: journal rows reach SQLite, migrations, secrets masked, and faults never break a command."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import path_with, rtk_argv, stub_tool
from rtk import tracking
from rtk.tracking import db, migrations
from rtk.tracking.mask import mask


def record(cmd: str = "git status", tin: int = 100, tout: int = 20, code: int = 0) -> None:
    tracking.record_command(
        original=cmd, rtk_cmd="rtk " + cmd, filter_name="git-status", input_tokens=tin, output_tokens=tout,
        exec_ms=12, exit_code=code,
    )  # fmt: skip


def rows() -> list[tuple[object, ...]]:
    conn = db.open_for_reading()
    try:
        return conn.execute(
            "SELECT original_cmd, rtk_cmd, filter, input_tokens, output_tokens, saved_tokens, savings_pct,"
            " exec_time_ms, project_path, exit_code FROM commands ORDER BY id"
        ).fetchall()
    finally:
        conn.close()


def test_record_reaches_database_with_every_field() -> None:
    record("git status", 100, 20, 0)
    record("git status --short", 10, 13, 1)
    got = rows()
    assert got[0] == ("git status", "rtk git status", "git-status", 100, 20, 80, 80.0, 12, os.getcwd(), 0)
    assert got[1][5:7] == (-3, -30.0)  # negative savings kept as they are
    assert Path(tracking.pending_path()).stat().st_size == 0  # ingested: the journal stays, empty


def test_database_settings(tmp_path: Path) -> None:
    record()
    conn = db.open_for_reading()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] == db.BUSY_TIMEOUT_MS
    assert oct(os.stat(tracking.db_path()).st_mode & 0o777) == "0o600"


def test_migrations_on_blank_database(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    ran = migrations.migrate(conn)
    assert ran == [m.__name__ for m in migrations.MIGRATIONS]
    assert migrations.migrate(conn) == []  # idempotent
    cols = {r[1] for r in conn.execute("PRAGMA table_info(commands)")}
    assert {"timestamp", "original_cmd", "rtk_cmd", "input_tokens", "output_tokens", "saved_tokens", "savings_pct",
            "exec_time_ms", "project_path", "exit_code", "cut_items", "tee_path"} <= cols  # fmt: skip


def test_migration_from_first_schema_keeps_rows(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    migrations.migrate(conn, upto="m001_commands")
    conn.execute(
        "INSERT INTO commands (timestamp, original_cmd, rtk_cmd, input_tokens, output_tokens, saved_tokens, savings_pct)"
        " VALUES ('2026-01-01T00:00:00Z', 'ls', 'rtk ls', 10, 5, 5, 50.0)"
    )
    assert migrations.migrate(conn)[:2] == ["m002_parse_failures", "m003_recovery_columns"]
    assert conn.execute("SELECT original_cmd, cut_items, tee_path FROM commands").fetchall() == [("ls", 0, "")]


def test_corrupt_database_is_moved_aside_and_recreated(capfd: pytest.CaptureFixture[str]) -> None:
    path = Path(tracking.db_path())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not a database" * 100)
    record()
    assert len(rows()) == 1
    _, err = capfd.readouterr()
    assert err.count("\n") == 1 and "corrupt" in err
    assert list(path.parent.glob("history.db.corrupt-*"))


def test_unwritable_data_dir_never_breaks_the_command(tmp_path: Path) -> None:
    # The data dir path is a regular file: nothing can be created under it (works as root too).
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    stub_tool(tmp_path, "git", "echo 'On branch main'; echo 'nothing to commit, working tree clean'; exit 0")
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"), RTK_DATA_DIR=str(blocker / "rtk"))
    p = subprocess.run(rtk_argv("git", "status"), env=env, capture_output=True, timeout=60)
    assert p.returncode == 0
    assert p.stdout == b"on main\nworking tree clean\n"  # filtered as usual
    assert p.stderr.count(b"\n") <= 1


def test_locked_database_keeps_rows_for_later(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    record("first")
    assert len(rows()) == 1
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 200)
    holder = sqlite3.connect(tracking.db_path(), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    record("second")
    assert db.ingest(quiet=True) == 0  # locked: nothing lost, nothing raised
    holder.execute("ROLLBACK")
    holder.close()
    assert not list(Path(tracking.db_path()).parent.glob("*.ingest"))  # rows went back to the journal
    assert Path(tracking.pending_path()).stat().st_size > 0
    assert [r[0] for r in rows()] == ["first", "second"]


def test_file_left_by_a_dead_ingester_is_taken_over() -> None:
    record("orphan")
    pending = Path(tracking.pending_path())
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    orphan = pending.with_name(f"{pending.name}.{dead.stdout.strip()}.123.ingest")
    pending.rename(orphan)  # as if that process had claimed it and died
    assert [r[0] for r in rows()] == ["orphan"]
    assert not orphan.exists()


def test_twenty_concurrent_writers_lose_no_rows(tmp_path: Path) -> None:
    """Every writer ingests after each row, so writers and ingesters contend for the journal all the
    time. The ingester used to rename the journal away: a writer that lost that race five times in a
    row dropped its row with 'journal kept moving' (1 to 4 rows in 100 at 60 writers)."""
    script = (
        "import sys\nfrom rtk import tracking\nfrom rtk.tracking import db\n"
        "for i in range(40):\n"
        "    tracking.record_command(original=f'w{sys.argv[1]} {i}', rtk_cmd='rtk x', filter_name='f',"
        " input_tokens=10, output_tokens=5, exec_ms=1, exit_code=0)\n"
        "    db.ingest(quiet=True)\n"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(n)], stderr=subprocess.PIPE, text=True) for n in range(20)
    ]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0] * 20
    assert [e for e in errors if e] == []  # no "tracking disabled for this run"
    got = rows()
    assert len(got) == 800
    assert len({r[0] for r in got}) == 800


def test_ingest_leaves_the_journal_file_where_writers_append() -> None:
    """A writer that opened the journal before an ingest must still append to the journal."""
    record("before")
    pending = tracking.pending_path()
    inode = os.stat(pending).st_ino
    with open(pending, "ab") as early_writer:  # opened before the ingest, written after it
        db.ingest(quiet=True)
        assert os.stat(pending).st_ino == inode and os.path.getsize(pending) == 0
        early_writer.write(b"\t".join([b"1", b"C", tracking.now_iso().encode(), b"late"] + [b"x"] * 10) + b"\n")
    assert sorted(r[0] for r in rows()) == ["before", "late"]


def test_torn_journal_line_is_skipped() -> None:
    record("good")
    with open(tracking.pending_path(), "ab") as f:
        f.write(b"1\tC\t2026-01-01T00:00:00Z\ttorn")  # no newline: a writer died mid-line
    assert [r[0] for r in rows()] == ["good"]


def test_two_corrupt_databases_in_one_second_keep_both_copies(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(db.time, "time", lambda: 1_700_000_000.0)
    path = Path(tracking.db_path())
    path.parent.mkdir(parents=True, exist_ok=True)
    for n in (1, 2):
        path.write_bytes(f"corrupt copy {n} ".encode() * 100)
        db.connect().close()
    copies = sorted(path.parent.glob("history.db.corrupt-*"))
    assert [c.name for c in copies] == ["history.db.corrupt-1700000000", "history.db.corrupt-1700000000.1"]
    assert [c.read_bytes()[:14] for c in copies] == [b"corrupt copy 1", b"corrupt copy 2"]
    _, err = capfd.readouterr()
    assert err.count("\n") == 2 and str(copies[1]) in err


def test_retention_with_the_largest_history_days_keeps_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """history_days * 86400 seconds back is before the platform's clock starts: nothing is that old."""
    from rtk import config

    monkeypatch.setitem(config.load(), "tracking.history_days", 1 << 53)  # the largest accepted
    record("kept")
    assert [r[0] for r in rows()] == ["kept"]


def test_retention_deletes_old_rows() -> None:
    record("recent")
    conn = db.open_for_reading()
    conn.execute(
        "INSERT INTO commands (timestamp, original_cmd, rtk_cmd, input_tokens, output_tokens, saved_tokens, savings_pct)"
        " VALUES ('2020-01-01T00:00:00Z', 'ancient', 'rtk ancient', 1, 1, 0, 0)"
    )
    conn.close()
    record("another")
    assert [r[0] for r in rows()] == ["recent", "another"]


def test_tracking_disabled_by_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTK_TRACKING", "0")
    record()
    assert not Path(tracking.pending_path()).exists()


def test_fields_with_tabs_and_newlines_round_trip() -> None:
    record("printf 'a\tb\nc\\\\d'")
    assert rows()[0][0] == "printf 'a\tb\nc\\\\d'"


@pytest.mark.parametrize(
    ("cmd", "secret"),
    [
        ("curl -H 'Authorization: Bearer abc.def.ghi' https://api.x", "abc.def.ghi"),
        ('curl -H "X-Api-Key: k3y-value" https://api.x', "k3y-value"),
        ("GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwx123 git push", "ghp_abcdefghijklmnopqrstuvwx123"),
        ("AWS_SECRET_ACCESS_KEY='wJalrXUtnFEMI/K7MDENG' aws s3 ls", "wJalrXUtnFEMI"),
        ("mysql --password=hunter2 db", "hunter2"),
        ("tool --api-key sk-live-123456789012345678 run", "sk-live-123456789012345678"),
        ("git clone https://user:s3cr3t@github.com/o/r.git", "s3cr3t"),
        ("echo sk-proj-abcdefghijklmnopqrstuv", "sk-proj-abcdefghijklmnopqrstuv"),
        ("curl 'https://x/api?access_token=zzz123&x=1'", "zzz123"),
        ("psql postgresql://app:pa55@db:5432/prod", "pa55"),
        ('env DB_PASSWORD="two words" ./run', "two words"),
    ],
)
def test_secrets_are_masked(cmd: str, secret: str) -> None:
    masked = mask(cmd)
    assert secret not in masked
    assert "****" in masked
    record(cmd)
    assert secret not in str(rows())


@pytest.mark.parametrize(
    "cmd", ["git status", "git commit --author 'Dev <d@x>' -m 'fix auth'", "ls -la src", "pytest -k keyboard"]
)
def test_ordinary_commands_are_not_masked(cmd: str) -> None:
    assert tracking.mask_command(cmd) == cmd or ("author" in cmd and "Dev" in tracking.mask_command(cmd))


HOLD_LOCK = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
fcntl.lockf(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("due", [False, True])
def test_a_journal_lock_held_elsewhere_never_stops_the_command(tmp_path: Path, due: bool) -> None:
    """A process stopped while holding the journal lock (rtk gain suspended with Ctrl-Z) made every rtk
    command wait for it: the output was printed, the command never ended, its exit code never came."""
    Path(tracking.pending_path()).parent.mkdir(parents=True, exist_ok=True)
    if due:  # a journal past its size: this run would ingest it too
        Path(tracking.pending_path()).write_bytes(b"x" * (tracking.INGEST_AT_BYTES + 1))
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, tracking.pending_path()], stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
        p = subprocess.run(rtk_argv("run", "-c", "echo hi; exit 5"), capture_output=True, timeout=30)
        assert p.returncode == 5 and p.stdout == b"hi\n"
        assert b"Traceback" not in p.stderr and p.stderr.count(b"\n") <= 1
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.skipif(sys.platform == "win32", reason="posix only")
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_journal_that_is_not_a_file_never_stops_the_command(tmp_path: Path, kind: str) -> None:
    """A FIFO in the journal's place blocked the open for a reader that never came; /dev/zero made the
    ingester read forever. The command runs, its exit code comes back, rtk says tracking is off."""
    pending = Path(tracking.pending_path())
    pending.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(pending)
    else:
        pending.symlink_to("/dev/zero")
    p = subprocess.run(rtk_argv("run", "-c", "echo hi; exit 6"), capture_output=True, timeout=30)
    assert p.returncode == 6 and p.stdout == b"hi\n"
    assert b"Traceback" not in p.stderr and p.stderr.count(b"\n") <= 1
    assert db.ingest(quiet=True) == 0  # returns at once, nothing read
