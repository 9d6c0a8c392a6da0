"""Exact recovery of large outputs: compressed recovery files, the cap past which lines are named as lost."""

from __future__ import annotations

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rtk import config, tee, teefile
from rtk.commands import recall


def write_config(text: str) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    config.reset()


def numbered(n: int, start: int = 0) -> bytes:
    return b"".join(b"line %07d of the output\n" % i for i in range(start, start + n))


def noise(n: int) -> bytes:
    """Lines that do not compress well (hex of random bytes): a cap of 1 MiB is reached with a few MB."""
    return b"".join(b"%07d %s\n" % (i, os.urandom(24).hex().encode()) for i in range(n))


def recall_out(capsys: pytest.CaptureFixture[bytes], *args: str) -> tuple[int, bytes, bytes]:
    code = recall.main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_past_max_file_size_every_byte_is_kept_compressed(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    raw = numbered(300_000)  # 7.5 MB: its head and tail only (1 MiB) before
    path = tee.write(["make", "all"], raw) or ""
    assert path.endswith(f"_make_{tee.content_id(path)}.log.gz")
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert gzip.decompress(Path(path).read_bytes()) == raw  # plain gzip: zcat reads it
    assert os.path.getsize(path) < len(raw) // 5
    rid = tee.content_id(path) or ""
    assert tee.hint(path) == f"[rtk] full output: rtk recall {rid}"
    assert recall_out(capsysbinary, rid, "--lines", "150001-150003")[:2] == (0, numbered(3, 150_000))
    assert recall_out(capsysbinary, rid, "--lines", "299999-")[:2] == (0, numbered(2, 299_998))
    assert recall_out(capsysbinary, rid, "--full")[:2] == (0, raw)
    code, out, _ = recall_out(capsysbinary, rid, "--grep", "line 0123456 ")
    assert (code, out) == (0, b"123457:line 0123456 of the output\n")
    assert [f.path for f in recall.kept_files()] == [path]


def test_a_small_output_stays_a_plain_file() -> None:
    raw = numbered(100)
    path = tee.write(["make"], raw) or ""
    assert path.endswith(".log") and Path(path).read_bytes() == raw


def test_the_same_large_output_again_gets_the_same_file() -> None:
    raw = numbered(100_000)
    a = tee.write(["make"], raw)
    b = tee.write(["make"], raw)
    c = tee.write(["make"], raw + b"one more\n")
    assert a == b and a != c
    assert len(os.listdir(tee.directory())) == 2


def test_past_the_cap_the_lost_lines_are_named_and_never_given_as_kept(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    write_config("[tee]\nmax_file_size = 100000\nmax_file_mb = 1\n")
    raw = noise(100_000)  # 7.3 MB of hex: about 4 MB compressed
    lines = raw.split(b"\n")[:-1]
    path = tee.write(["build"], raw) or ""
    assert os.path.getsize(path) <= 1 << 20
    meta = teefile.info(path)
    assert meta is not None and meta.lost is not None and meta.lines == 100_000
    a, b = meta.lost
    assert 1_000 < a < b < 100_000
    rid = tee.content_id(path) or ""
    assert tee.hint(path) == (
        f"[rtk] full output: rtk recall {rid} (lines {a:,}-{b:,} of 100,000 not kept: past tee.max_file_mb;"
        " --lines A-B for others)"
    )
    # every kept line is exactly the raw line of that number
    code, out, err = recall_out(capsysbinary, rid, "--lines", f"1-{a - 1}")
    assert (code, err) == (0, b"") and out.split(b"\n")[:-1] == lines[: a - 1]
    code, out, err = recall_out(capsysbinary, rid, "--lines", f"{b + 1}-")
    assert (code, err) == (0, b"") and out.split(b"\n")[:-1] == lines[b:]
    # a range reaching into the lost part: what is kept, and exit 1 naming the lost lines
    code, out, err = recall_out(capsysbinary, rid, "--lines", f"{a - 2}-{a + 5}")
    assert code == 1 and out.split(b"\n")[:-1] == lines[a - 3 : a - 1]
    assert f"lines {a:,}-{b:,} of 100,000 were not kept".encode() in err
    code, out, _ = recall_out(capsysbinary, rid, "--full")
    marker = b"[rtk: lines %d-%d of this output were not kept (past tee.max_file_mb)]\n" % (a, b)
    assert out == b"".join(ln + b"\n" for ln in lines[: a - 1]) + marker + b"".join(ln + b"\n" for ln in lines[b:])
    code, out, _ = recall_out(capsysbinary, rid, "--grep", "^0099999 ")
    assert out == b"100000:" + lines[-1] + b"\n"


def test_recall_lines_stops_reading_at_the_end_of_the_range(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    raw = numbered(1_000_000)  # 25 MB
    path = tee.write(["make"], raw) or ""
    read = 0
    real = teefile.segments

    def counted(p: str):  # type: ignore[no-untyped-def]
        nonlocal read
        for first, data in real(p):
            read += len(data)
            yield first, data

    monkeypatch.setattr(teefile, "segments", counted)
    assert recall_out(capsysbinary, tee.content_id(path) or "", "--lines", "1000-1009")[:2] == (0, numbered(10, 999))
    assert read < 1 << 20  # not 25 MB decompressed to print 10 lines


def test_spool_memory_is_bounded_and_its_temporary_file_private(tmp_path: Path) -> None:
    s = teefile.Spool(1 << 16, 16 << 20, str(tmp_path))
    for i in range(2_000):
        s.add(numbered(400, i * 400))  # 20 MB
    assert len(s.head) + len(s.tail) <= 3 << 15
    (tmp,) = os.listdir(tmp_path)
    assert tmp.startswith(".rtk-") and not tee._ours(tmp)  # rotation and listings never see it
    assert os.stat(tmp_path / tmp).st_mode & 0o777 == 0o600
    s.close()
    assert os.listdir(tmp_path) == []


def test_a_planted_symlink_is_never_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The temporary name is created new (O_EXCL|O_NOFOLLOW): a guessed name planted as a link fails the spool
    over to memory, the link's target untouched."""
    target = tmp_path / "victim"
    target.write_bytes(b"precious")
    d = tmp_path / "tee"
    d.mkdir()
    s = teefile.Spool(1000, 1 << 20, str(d))
    monkeypatch.setattr(os, "urandom", lambda n: b"\x00" * n)
    os.symlink(target, d / f".rtk-{os.getpid()}-{'00' * 6}.tmp")
    s.add(numbered(1000))
    assert not s.on_disk and s.data().startswith(b"line 0000000")
    assert target.read_bytes() == b"precious"


def test_rotation_counts_the_compressed_size_on_disk() -> None:
    write_config("[tee]\nkeep_files = 1\nmax_total_mb = 2\n")
    made, sizes = [], []
    for i in range(4):  # 5.4 MB of output each, 0.54 MB on disk
        made.append(tee.write(["big", str(i)], numbered(200_000, i)) or "")
        sizes.append(os.path.getsize(made[-1]))
        t = os.stat(made[-1]).st_mtime_ns - (10 - i) * 10**9
        os.utime(made[-1], ns=(t, t))
    left = set(os.listdir(tee.directory()))
    assert left == {os.path.basename(p) for p in made[1:]}  # three fit in 2 MiB on disk, four do not
    assert sum(sizes[1:]) <= 2 << 20 < sum(sizes)


def test_rtk_run_of_a_20_mb_log_gives_back_a_fold_range_from_the_middle(tmp_path: Path) -> None:
    src = tmp_path / "build.txt"
    bench = Path(__file__).parent.parent / "bench" / "big_output.py"
    with open(src, "wb") as f:
        subprocess.run([sys.executable, str(bench), "build", "20"], stdout=f, check=True)
    raw_lines = src.read_bytes().split(b"\n")
    script = tmp_path / "build.sh"
    script.write_text(f"#!/bin/sh\ncat {src}\nexit 2\n")
    script.chmod(0o755)
    rtk = [sys.executable, "-m", "rtk"]
    p = subprocess.run([*rtk, "run", str(script)], capture_output=True, timeout=300)
    assert p.returncode == 2
    out = p.stdout.decode()
    hint = out.splitlines()[-1]
    assert re.fullmatch(r"\[rtk\] full output: rtk recall [0-9a-f]{6}", hint), hint
    rid = hint.split()[-1]
    folds = [(int(a), int(b)) for a, b in re.findall(r"^… [\d,]+ more like: .*\(lines (\d+)-(\d+)\)$", out, re.M)]
    # A fold line names the range its lines span; the live fold counts a template's later windows in one line
    # spanning nearly the whole output, so take 100 lines from the middle of a range that covers the middle.
    mid = len(raw_lines) // 2
    assert any(a < mid - 100 and b > mid + 100 for a, b in folds)
    a, b = mid - 50, mid + 49
    got = subprocess.run([*rtk, "recall", rid, "--lines", f"{a}-{b}"], capture_output=True, timeout=120)
    assert got.returncode == 0
    assert got.stdout == b"".join(ln + b"\n" for ln in raw_lines[a - 1 : b])


def test_a_temporary_file_left_by_a_killed_run_goes_with_the_next_large_write() -> None:
    d = Path(tee.directory())
    d.mkdir(parents=True, exist_ok=True)
    stale, fresh, foreign = d / ".rtk-1-aaaaaaaaaaaa.tmp", d / ".rtk-2-bbbbbbbbbbbb.tmp", d / ".rtk-3-cccccccccccc.tmp"
    for p in (stale, fresh, foreign):
        p.write_bytes(b"x")
        p.chmod(0o600)
    foreign.chmod(0o644)  # not a file rtk made
    old = os.stat(stale).st_mtime - 2 * tee.STALE_S
    for p in (stale, foreign):
        os.utime(p, (old, old))
    tee.write(["make"], numbered(100_000))
    assert not stale.exists() and fresh.exists() and foreign.exists()


@pytest.mark.parametrize("kind", ["plain", "compressed", "capped"])
def test_recall_lines_of_any_range_are_the_raw_lines(kind: str, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    import random

    write_config("[tee]\nmax_file_size = 100000\nmax_file_mb = 1\n" if kind == "capped" else "")
    rng = random.Random(15)
    if kind == "plain":
        raw = b"".join(b"x" * rng.randrange(0, 40) + b"\n" for _ in range(5_000)) + b"no newline at the end"
    else:  # lines of every length, some longer than a piece read back (256 KiB)
        parts = [os.urandom(rng.choice((5, 50, 500))).hex().encode() for _ in range(40_000)]
        parts[7_000] = b"y" * 700_000
        raw = b"\n".join(parts)  # (no newline at the end either)
    lines = raw.split(b"\n")
    path = tee.write(["gen"], raw) or ""
    assert path.endswith(".log" if kind == "plain" else ".log.gz")
    meta = teefile.info(path)
    lost = meta.lost if meta is not None else None
    assert (lost is not None) == (kind == "capped")
    rid = tee.content_id(path) or ""
    for _ in range(40):
        a = rng.randrange(1, len(lines) + 3)
        b = rng.randrange(a, min(a + rng.choice((1, 10, 3_000)), len(lines) + 5))
        want = [i for i in range(a, min(b, len(lines)) + 1) if lost is None or not lost[0] <= i <= lost[1]]
        code, out, _ = recall_out(capsysbinary, rid, "--lines", f"{a}-{b}")
        assert out == b"".join(lines[i - 1] + (b"\n" if i < len(lines) else b"") for i in want), (a, b)
        assert code == (1 if lost is not None and a <= lost[1] and lost[0] <= b else 0)


def test_the_views_hold_a_long_line_up_to_their_cap_and_name_the_rest() -> None:
    # --grep and the default view held a whole line (a 200 MB line of a 0.9 MB .log.gz took 402 MB); they keep
    # LINE_CAP bytes of it and name what --lines gives back (final review).
    from rtk.commands import recall

    path = tee.write(["big"], b"a" * (3 * recall.LINE_CAP) + b"\nend\n") or ""
    got = list(recall._numbered(path))
    assert [n for n, _ in got] == [1, 2] and got[1][1] == b"end\n"
    first = got[0][1]
    assert first.startswith(b"a" * recall.LINE_CAP)
    assert first.endswith(
        b" more bytes of line 1: rtk recall %s --lines 1-1]\n" % tee.name_id(os.path.basename(path)).encode()
    )
    assert b" [rtk: %d more bytes" % (2 * recall.LINE_CAP) in first
