"""rtk read folds long log-like files only; --lines A-B, --raw and read.fold=false give exact bytes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

RTK = [sys.executable, "-m", "rtk", "read"]


def _run(*args: str) -> bytes:
    return subprocess.run([*RTK, *args], capture_output=True, check=True).stdout


def _log(tmp_path: Path) -> Path:
    f = tmp_path / "app.log"
    rows = [f"2024-05-01T10:00:{i % 60:02d}Z INFO GET /api/{i % 3} 200 {i}ms" for i in range(600)]
    rows.insert(300, "2024-05-01T10:05:00Z ERROR payment failed: card declined")
    f.write_text("\n".join(rows) + "\n")
    return f


def test_long_log_folds_under_one_header_and_keeps_errors(tmp_path: Path) -> None:
    f = _log(tmp_path)
    out = _run(str(f)).decode()
    assert out.startswith(f"[rtk] {f}: 601 lines folded to ")
    assert "2024-05-01T10:05:00Z ERROR payment failed: card declined\n" in out
    assert len(out) < len(f.read_text()) // 5


def test_lines_window_is_byte_exact(tmp_path: Path) -> None:
    f = _log(tmp_path)
    data = f.read_bytes().split(b"\n")
    assert _run(str(f), "--lines", "2-595") == b"\n".join(data[1:595]) + b"\n"
    assert _run(str(f), "--lines", "601-900") == data[600] + b"\n"
    assert _run(str(f), "--lines", "7") == data[6] + b"\n"
    p = subprocess.run([*RTK, str(f), "--lines", "9-3"], capture_output=True)
    assert p.returncode != 0 and p.stderr.count(b"\n") == 1 and b"Traceback" not in p.stderr


def test_raw_config_off_source_and_short_files_stay_exact(tmp_path: Path) -> None:
    f = _log(tmp_path)
    assert _run(str(f), "--raw") == f.read_bytes()
    cfg = tmp_path / "cfg"
    (cfg / "rtk").mkdir(parents=True)
    (cfg / "rtk" / "config.toml").write_text("[read]\nfold = false\n")
    env = {"XDG_CONFIG_HOME": str(cfg), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    assert subprocess.run([*RTK, str(f)], capture_output=True, env=env).stdout == f.read_bytes()
    src = tmp_path / "gen.py"
    src.write_text("".join(f"x{i} = {i}\n" for i in range(600)))  # one template, but source code
    assert _run(str(src)) == src.read_bytes()
    short = tmp_path / "short.log"
    short.write_text("".join(f"2024-05-01 INFO tick {i}\n" for i in range(150)))
    assert _run(str(short)) == short.read_bytes()


def test_tail_window_of_a_log_folds_with_the_files_own_line_numbers(tmp_path: Path) -> None:
    """Issue 15: ``tail -n 300 access.log`` (rtk read --tail-lines 300) folds like cat of a log."""
    f = tmp_path / "app.log"
    rows = [f"2024-05-01T10:{i // 60 % 60:02d}:{i % 60:02d}Z INFO GET /api/{i % 3} 200 {i}ms" for i in range(1000)]
    rows[849] = "2024-05-01T10:14:09Z ERROR payment failed: card declined"  # line 850, inside the window
    f.write_text("\n".join(rows) + "\n")
    data = f.read_bytes().split(b"\n")
    out = _run(str(f), "--tail-lines", "300").decode()
    head, first, *rest = out.split("\n")
    assert head.startswith(f"[rtk] {f}: last 300 lines (lines 701-1,000) folded to ")
    assert head.endswith(f"; exact lines: rtk read {f} --lines A-B")
    assert first == rows[700]  # the window's first line, not the file's
    assert rows[849] in rest and rows[999] in rest
    assert len(out) < len(b"\n".join(data[700:])) // 4
    ranges = [tuple(map(int, m)) for m in re.findall(r"\(lines (\d+)-(\d+)\)", out)]
    assert ranges and all(701 < a <= b <= 1000 for a, b in ranges), ranges
    for a, b in ranges:  # each range is the file's own lines: rtk read --lines gives back lines of that template
        got = _run(str(f), "--lines", f"{a}-{b}").decode().splitlines()
        assert got == rows[a - 1 : b] and all(" INFO GET /api/" in g for g in (got[0], got[-1]))


def test_short_raw_and_source_tail_windows_stay_exact(tmp_path: Path) -> None:
    f = _log(tmp_path)
    data = f.read_bytes()

    def tail(n: int) -> bytes:
        return b"".join(data.splitlines(keepends=True)[-n:])

    assert _run(str(f), "--tail-lines", "200") == tail(200)  # not longer than read.fold_min_lines
    assert _run(str(f), "--tail-lines", "300", "--raw") == tail(300)
    assert _run(str(f), "-n", "--tail-lines", "300").count(b"\n") == 300
    cfg = tmp_path / "cfg"
    (cfg / "rtk").mkdir(parents=True)
    (cfg / "rtk" / "config.toml").write_text("[read]\nfold = false\n")
    env = {"XDG_CONFIG_HOME": str(cfg), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    off = subprocess.run([*RTK, str(f), "--tail-lines", "300"], capture_output=True, env=env).stdout
    assert off == tail(300)
    src = tmp_path / "gen.py"
    src.write_text("".join(f"x{i} = {i}\n" for i in range(600)))
    assert _run(str(src), "--tail-lines", "400") == b"".join(src.read_bytes().splitlines(keepends=True)[-400:])


def test_read_fold_spool_keeps_every_byte_past_its_memory_limit() -> None:
    # The folded view is held in memory up to a limit, then in a temporary file: the same bytes either way.
    from rtk.commands._readfold import _Spool

    parts = [b"line %d\n" % i for i in range(5000)]
    small, big = _Spool(1 << 20), _Spool(1000)
    for b in parts:
        small.write(b)
        big.write(b)
    assert small.file is None and big.file is not None
    assert b"".join(small.chunks()) == b"".join(big.chunks()) == b"".join(parts)
    assert big.tell() == sum(map(len, parts))
    big.close()


def test_tail_window_far_into_a_file_is_printed_exact_not_numbered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    """Numbering a tail window reads the file before it: past ``NUMBER_MAX`` bytes the window is shown exact."""
    from rtk.commands import read

    f = tmp_path / "app.log"
    rows = [f"2024-05-01T10:{i // 60 % 60:02d}:{i % 60:02d}Z INFO GET /api/{i % 3} 200 {i}ms" for i in range(1000)]
    f.write_text("\n".join(rows) + "\n")
    monkeypatch.setattr(read, "NUMBER_MAX", 1000)
    capfdbinary.readouterr()
    assert read.main([str(f), "--tail-lines", "300"]) == 0
    assert capfdbinary.readouterr().out.decode() == "\n".join(rows[700:]) + "\n"
    monkeypatch.setattr(read, "NUMBER_MAX", 64 << 20)
    assert read.main([str(f), "--tail-lines", "300"]) == 0
    assert capfdbinary.readouterr().out.decode().startswith(f"[rtk] {f}: last 300 lines (lines 701-1,000) folded")


@pytest.mark.parametrize(
    "line",
    [
        "cat {f} | head -5",
        "cat {f} | tail -3",
        "tail -n 300 {f} | head",
        "tail -n 400 {f} | tail -2",
        "cat {f} | cat -",
    ],
)
def test_rewritten_read_feeding_head_or_tail_gives_the_files_own_lines(tmp_path: Path, line: str) -> None:
    # `cat app.log | head -5` asks for the file's first lines: rewritten, rtk read must feed head the
    # exact bytes, not the start of a folded view (which begins with rtk's header).
    from rtk.rewrite import engine

    f = _log(tmp_path)
    cmd = line.format(f=f)
    rewritten = engine.rewrite(cmd)
    assert rewritten is not None and rewritten.startswith("rtk read --raw ")
    rtk_line = f"{sys.executable} -m {rewritten}"
    want = subprocess.run(["/bin/sh", "-c", cmd], capture_output=True, check=True).stdout
    got = subprocess.run(["/bin/sh", "-c", rtk_line], capture_output=True, check=True).stdout
    assert got == want and b"[rtk]" not in got


_BROKEN = {
    "decide": "import rtk.fold.detect as m; m.looks_like_log = lambda *a: 1 / 0",
    "fold": "import rtk.fold as m; m.Folder.feed_lines = lambda *a: 1 / 0",
    "import": "import sys; sys.modules['rtk.commands._readfold'] = None",
}


@pytest.mark.parametrize("broken", sorted(_BROKEN))
@pytest.mark.parametrize("stdin", [False, True])
def test_a_broken_fold_prints_the_exact_bytes(tmp_path: Path, broken: str, stdin: bool) -> None:
    """Fail open: the fold's own code failing (a damaged install, a bug) leaves the file printed whole.

    It printed ``rtk: internal error`` and nothing of the file.
    """
    f = _log(tmp_path)
    code = f"{_BROKEN[broken]}; import sys; from rtk.__main__ import main; sys.exit(main())"
    args = ["read", "-"] if stdin else ["read", str(f)]
    p = subprocess.run(
        [sys.executable, "-c", code, *args],
        input=f.read_bytes() if stdin else None,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "d")},
    )
    assert (p.returncode, p.stdout) == (0, f.read_bytes()), p.stderr[-300:]
    assert b"Traceback" not in p.stderr
