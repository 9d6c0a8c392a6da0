"""rtk read of standard input (``rtk read -``, ``... | rtk read``): a long log folds like a file, its exact
bytes in a recovery file named in the header; anything else stays byte for byte."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

RTK = [sys.executable, "-m", "rtk", "read"]
LOGDATA = Path(__file__).resolve().parent.parent / "logdata"


def _read(data: bytes, *args: str, env: dict[str, str] | None = None) -> bytes:
    p = subprocess.run([*RTK, *args], input=data, capture_output=True, check=True, env=env)
    assert b"Traceback" not in p.stderr
    return p.stdout


def _log() -> bytes:
    rows = [f"2024-05-01T10:00:{i % 60:02d}Z INFO GET /api/{i % 3} 200 {i}ms" for i in range(600)]
    rows.insert(300, "2024-05-01T10:05:00Z ERROR payment failed: card declined")
    return ("\n".join(rows) + "\n").encode()


@pytest.mark.parametrize("args", [["-"], []])
def test_a_piped_log_folds_like_the_file(args: list[str], tmp_path: Path) -> None:
    data = _log()
    f = tmp_path / "app.log"
    f.write_bytes(data)
    out = _read(data, *args)
    head, _, body = out.partition(b"\n")
    m = re.fullmatch(rb"\[rtk\] stdin: 601 lines folded to \d+; exact lines: rtk read (\S+) --lines A-B", head)
    assert m is not None, head
    assert b"2024-05-01T10:05:00Z ERROR payment failed: card declined\n" in body
    assert len(out) < len(data) // 5
    # The same fold as the file's, and the recovery file gives back any range byte for byte.
    assert body == subprocess.run([*RTK, str(f)], capture_output=True, check=True).stdout.partition(b"\n")[2]
    kept = m.group(1).decode()
    assert Path(kept).read_bytes() == data
    assert _read(b"", kept, "--lines", "2-301") == b"".join(data.splitlines(keepends=True)[1:301])


def test_stdin_that_is_not_a_log_stays_exact(tmp_path: Path) -> None:
    src = "".join(f"x{i} = {i}\n" for i in range(600)).encode()  # one template, but source code (no name: by content)
    py = b"#!/usr/bin/env python3\n" + src
    prose = (Path(__file__).resolve().parents[2] / "docs" / "folding.md").read_bytes() * 3  # text, not a log
    csv = "".join(f"{i},name{i},{i * 3}\n" for i in range(500)).encode()
    short = "".join(f"2024-05-01 INFO tick {i}\n" for i in range(150)).encode()
    for data in (py, prose, csv, short, b"", b"no newline at the end"):
        assert _read(data, "-") == data
        assert _read(data) == data


def test_raw_window_and_no_recovery_file_stay_exact() -> None:
    data = _log()
    assert _read(data, "--raw", "-") == data
    assert _read(data, "-n", "-").count(b"\n") == 601
    env = {**os.environ, "RTK_TEE": "0"}  # recovery files off: nothing to name, so nothing is folded
    assert _read(data, "-", env=env) == data


def _env_with(tmp_path: Path, toml: str) -> dict[str, str]:
    cfg = tmp_path / "cfg"
    (cfg / "rtk").mkdir(parents=True, exist_ok=True)
    (cfg / "rtk" / "config.toml").write_text(toml)
    return {**os.environ, "XDG_CONFIG_HOME": str(cfg)}


def test_a_fold_that_gives_way_prints_every_byte_read_and_unread(tmp_path: Path) -> None:
    """A NUL byte past the sample: the fold stops early; what it read, and the rest, print byte for byte."""
    data = _log()
    env = _env_with(tmp_path, "[tee]\nmax_file_size = 8388608\n")  # room for all of it: the fold itself gives way
    big = data * 10 + b"2024-05-01T10:09:00Z INFO \x00 binary\n" + data
    assert _read(big, "-", env=env) == big
    f = tmp_path / "big.log"
    f.write_bytes(big)
    assert _read(b"", str(f), env=env) == big  # as the file gives way
    assert _read(data * 10, "-", env=env).startswith(b"[rtk] stdin: ")


def test_stdin_past_what_a_recovery_file_keeps_streams_exact(tmp_path: Path) -> None:
    """Past tee.max_file_size the held bytes print and the rest streams through: a pipe that never ends is not held."""
    data = _log()
    env = _env_with(tmp_path, "[tee]\nmax_file_size = 100000\n")
    assert _read(data * 5, "-", env=env) == data * 5  # 160 kB: not folded, byte for byte
    assert _read(data * 2, "-", env=env).startswith(b"[rtk] stdin: ")  # 64 kB: folded
    import select

    p = subprocess.Popen([*RTK, "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    assert p.stdin is not None and p.stdout is not None
    try:
        p.stdin.write(data * 5)
        p.stdin.flush()  # the pipe stays open: rtk must print without waiting for its end
        got = b""
        while len(got) < len(data) * 4:
            ready, _, _ = select.select([p.stdout], [], [], 20)
            assert ready, f"only {len(got)} bytes printed while the pipe stays open"
            got += os.read(p.stdout.fileno(), 1 << 16)
        assert (data * 5).startswith(got)
    finally:
        p.stdin.close()
        rest = p.stdout.read()
        p.wait(20)
    assert got + rest == data * 5


def test_a_terminal_is_never_held() -> None:
    from rtk.commands import read

    class Tty:
        def isatty(self) -> bool:
            return True

    assert not read._stdin_folds(Tty())  # type: ignore[arg-type]


def test_a_real_log_through_stdin_matches_its_file(tmp_path: Path) -> None:
    for name in ("nginx-access.log", "jvm-ingest.log", "postgres.log"):
        f = LOGDATA / name
        piped = _read(f.read_bytes(), "-")
        own = subprocess.run([*RTK, str(f)], capture_output=True, check=True).stdout
        assert piped.partition(b"\n")[2] == own.partition(b"\n")[2], name
        assert piped.startswith(b"[rtk] stdin: ")
