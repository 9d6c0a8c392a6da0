"""Recovery files by the ten thousand: a write, `rtk recall` and `rtk recall ID` do bounded work (counted)."""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rtk import config, tee
from rtk.commands import recall

MANY = 10_000


def make_files(d: Path, n: int, *, first_age_h: float = 20.0, last_age_h: float = 1.0) -> list[str]:
    """``n`` recovery files named as rtk names them, oldest first, their mtimes spread from ``first_age_h`` to
    ``last_age_h`` hours ago (a name's epoch is its mtime's second, as when rtk writes it)."""
    d.mkdir(parents=True, exist_ok=True)
    now = time.time()
    made = []
    for i in range(n):
        data = b"error %d\n" % i
        t = int(now - (first_age_h + (last_age_h - first_age_h) * i / max(n - 1, 1)) * 3600)
        path = str(d / f"{t}_make_{hashlib.sha256(data).hexdigest()[: tee.ID_LEN]}.log")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, data)
        os.close(fd)
        os.utime(path, (t, t))
        made.append(path)
    return made


class Counted:
    """Counts the stats, hashes and opened files of the code under test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.stats = 0
        self.hashes = 0
        real_stat, real_lstat, real_scandir, real_sha = os.stat, os.lstat, os.scandir, hashlib.sha256
        counter = self

        class Entry:  # a directory entry whose stat is counted (DirEntry.stat does not call os.stat)
            def __init__(self, e: os.DirEntry[str]) -> None:
                self.e, self.name, self.path = e, e.name, e.path

            def stat(self, *, follow_symlinks: bool = True) -> os.stat_result:
                counter.stats += 1
                return self.e.stat(follow_symlinks=follow_symlinks)

            def is_file(self, *, follow_symlinks: bool = True) -> bool:
                return self.e.is_file(follow_symlinks=follow_symlinks)

            def is_symlink(self) -> bool:
                return self.e.is_symlink()

        class Scan:
            def __init__(self, d: Any) -> None:
                self.it = real_scandir(d)

            def __iter__(self) -> Iterator[Entry]:
                return (Entry(e) for e in self.it)

            def __enter__(self) -> Scan:
                return self

            def __exit__(self, *exc: object) -> None:
                self.it.close()

        def stat(*a: Any, **k: Any) -> os.stat_result:
            counter.stats += 1
            return real_stat(*a, **k)

        def lstat(*a: Any, **k: Any) -> os.stat_result:
            counter.stats += 1
            return real_lstat(*a, **k)

        def sha(*a: Any, **k: Any) -> Any:
            counter.hashes += 1
            return real_sha(*a, **k)

        monkeypatch.setattr(os, "stat", stat)
        monkeypatch.setattr(os, "lstat", lstat)
        monkeypatch.setattr(os, "scandir", Scan)
        monkeypatch.setattr(hashlib, "sha256", sha)


@pytest.fixture
def big(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    d = tmp_path / "tee"
    monkeypatch.setenv("RTK_TEE_DIR", str(d))
    config.reset()
    return make_files(d, MANY)


def test_a_write_among_ten_thousand_files_stats_a_bounded_number(
    big: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tee, "_full_turn", lambda count: False, raising=False)
    c = Counted(monkeypatch)
    path = tee.write(["make"], b"error: new\n")
    assert path is not None and Path(path).read_bytes() == b"error: new\n"
    assert c.stats <= 200 + 5, c.stats  # tee.OLDEST; was one per file (10,000)
    assert len(os.listdir(os.path.dirname(path))) == MANY + 1  # all under 24 h and 200 MB: all stay


def test_full_scans_are_rare_in_a_large_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    turns = sum(tee._full_turn(100_000) for _ in range(2000))
    assert 10 <= turns <= 100  # about one write in 50 (FULL_SCAN / 100,000)
    assert all(tee._full_turn(tee.FULL_SCAN) for _ in range(50))


def test_recall_id_reads_only_the_file_named(big: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    target = big[1234]
    cid = Path(target).name[:-4].rsplit("_", 1)[1]
    c = Counted(monkeypatch)
    k, got = recall.find(cid)
    assert (k.path, got) == (target, cid)
    assert c.hashes == 0 and c.stats <= 3, (c.hashes, c.stats)  # was a hash of every file (10,000)
    c.hashes = 0
    full = hashlib.sha256(Path(target).read_bytes()).hexdigest()
    assert recall.find(full[:10])[0].path == target  # more digits than the name holds: that one file is read
    assert c.hashes <= 2
    with pytest.raises(Exception, match="no kept output"):
        recall.find(full[:6] + "0000" if full[6] != "0" else full[:6] + "1111")


def test_recall_listing_is_one_query_and_bounded(
    big: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rtk import tracking
    from rtk.tracking import db as trackdb

    tracking.record_command(
        original="make -j4", rtk_cmd="rtk make -j4", filter_name="make", input_tokens=10, output_tokens=5,
        exec_ms=1, exit_code=2, tee_path=big[-1],
    )  # fmt: skip
    trackdb.ingest(quiet=True)
    queries: list[str] = []
    real_open = trackdb.open_for_reading

    class Conn:
        def __init__(self) -> None:
            self.db = real_open()

        def execute(self, sql: str, *a: Any) -> Any:
            queries.append(sql)
            return self.db.execute(sql, *a)

        def close(self) -> None:
            self.db.close()

    monkeypatch.setattr(trackdb, "open_for_reading", Conn)
    c = Counted(monkeypatch)
    assert recall.listing(20) == 0
    assert len(queries) == 1  # was one per file (10,000)
    assert c.stats <= 2000 + 20 and c.hashes == 0  # tee.FULL_SCAN; the database opened takes a few
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 22 and rows[-1] == f"({MANY - 20} older; rtk recall -n {MANY})"
    ids = [Path(p).name[:-4].rsplit("_", 1)[1] for p in big[::-1][:20]]
    assert [r.split()[0] for r in rows[1:21]] == ids  # newest first, the id from the name
    assert rows[1].split()[1] == "1" and rows[1].endswith("make -j4") and rows[2].split()[1:2] == ["-"]
    assert rows[2].endswith("  make")


def test_a_large_directory_keeps_the_promise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past FULL_SCAN files a write stats only the oldest by name: files past 24 h go, never one of the
    ``keep_files`` most recent, never one a re-run made recent again (its name is old, its mtime new)."""
    d = tmp_path / "tee"
    monkeypatch.setenv("RTK_TEE_DIR", str(d))
    monkeypatch.setattr(tee, "_full_turn", lambda count: False, raising=False)
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[tee]\nkeep_files = {2000 + 95}\n")
    config.reset()
    made = make_files(d, 2000 + 100, first_age_h=60, last_age_h=30)  # all past 24 h
    rerun = made[0]
    os.utime(rerun)  # the oldest name, written again just now
    tee.write(["make"], b"error: new\n")
    left = set(os.listdir(d))
    gone = {os.path.basename(p) for p in made} - left
    # FULL_SCAN + 102 files, keep FULL_SCAN + 95: the 6 oldest by mtime may go (made[1:7]); made[6] stays, as
    # the names alone do not show that `rerun` is newer than it (it is removed by a later write's full scan)
    assert gone == {os.path.basename(p) for p in made[1:6]}
    assert os.path.basename(rerun) in left


def test_a_backlog_of_old_files_goes_over_several_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Removing 100,000 expired files took one run minutes: each write removes at most UNLINK_MAX."""
    d = tmp_path / "tee"
    monkeypatch.setenv("RTK_TEE_DIR", str(d))
    config.reset()
    made = make_files(d, 400, first_age_h=60, last_age_h=30)
    tee.write(["make"], b"error: 1\n")
    assert len(os.listdir(d)) == 401 - 100
    assert os.path.basename(made[0]) not in os.listdir(d)  # the oldest first
    for i in range(2, 5):
        tee.write(["make"], b"error: %d\n" % i)
    left = set(os.listdir(d))
    assert len(left) == 100 and {os.path.basename(p) for p in made[-96:]} <= left


def test_recall_skips_a_fifo_or_symlink_named_like_a_recovery_file(tmp_path: Path) -> None:
    """`rtk recall ID` hashed every file, a FIFO among them hung it; a symlink was printed through."""
    import subprocess
    import sys

    d = tmp_path / "tee"
    made = make_files(d, 3)
    secret = tmp_path / "secret.txt"
    secret.write_text("password=hunter2\n")
    cid = hashlib.sha256(secret.read_bytes()).hexdigest()[: tee.ID_LEN]
    os.symlink(secret, d / f"1700000000_cat_{cid}.log")
    os.mkfifo(d / "1700000001_make_abcdef.log")
    env = dict(os.environ, RTK_TEE_DIR=str(d))
    rtk = [sys.executable, "-m", "rtk", "recall"]
    p = subprocess.run([*rtk, cid, "--full"], env=env, capture_output=True, text=True, timeout=30)
    assert p.returncode == 1 and "hunter2" not in p.stdout
    target = Path(made[1]).name[:-4].rsplit("_", 1)[1]
    p = subprocess.run([*rtk, target, "--full"], env=env, capture_output=True, text=True, timeout=30)
    assert (p.returncode, p.stdout) == (0, "error 1\n")
    listing = subprocess.run(rtk, env=env, capture_output=True, text=True, timeout=30).stdout
    assert len(listing.splitlines()) == 4 and cid not in listing and "abcdef" not in listing
