"""A line too long to hold passes through exactly, as it comes, in bounded memory and linear time, whatever the filter."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from helpers import kept_path, path_with, rtk_argv, stub_tool
from rtk import paths


def _config(text: str) -> None:
    cfg = Path(paths.config_file())
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(text)


def test_one_endless_line_over_the_buffer_limit_passes_through_whole_and_quickly(tmp_path: Path) -> None:
    _config("[limits]\nbuffer_max_bytes = 100000\n")
    size = 30_000_000
    stub_tool(tmp_path, "git", f"head -c {size} /dev/zero | tr '\\0' a\nprintf 'é\\nend\\n'\nexit 3")
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    start = time.monotonic()
    p = subprocess.run(rtk_argv("git", "status"), env=env, capture_output=True, timeout=120, cwd=tmp_path)
    took = time.monotonic() - start
    assert p.returncode == 3
    # Past the bound the output goes through the live fold: the line comes out whole (no newline put into
    # it), then the short rest, then the recovery hint of a failed run.
    whole = b"a" * size + "é\nend\n".encode()
    assert p.stdout[: len(whole)] == whole, (len(p.stdout), p.stdout[size - 10 : size + 40])
    rest = p.stdout[len(whole) :].decode()
    assert rest.startswith("[rtk] full output: rtk recall ") and rest.count("\n") == 1, rest
    assert took < 6, took  # was 14 s for 30 MB, 54 s for 60 MB: the line was copied on every read


def test_a_piece_of_a_line_is_never_cut_inside_a_utf8_character() -> None:
    from rtk.text import utf8_end as _utf8_end

    assert _utf8_end(b"ab") == 2
    assert _utf8_end("aé".encode()) == 3
    assert _utf8_end("aé".encode()[:-1]) == 1
    assert _utf8_end(b"a" + "€".encode()[:2]) == 1
    assert _utf8_end(b"a" + "😀".encode()[:3]) == 1
    assert _utf8_end(b"a" + "😀".encode()) == 5


# Each streaming filter reads lines; a line over 1 MiB was cut into 1 MiB pieces fed as lines (a newline put
# into the output at each cut, a UTF-8 character split there into two replacement characters).
STREAMS = [
    "pytest",
    "git push",
    "git fetch",
    "cargo build",
    "cargo test",
    "go test",
    "go build",
    "make",
    "cmake --build .",
    "gcc x.c",
    "journalctl -f",
    "tail -f app.log",
]
LONG = ("aé€😀" * 300_000).encode()  # 3 MB, characters of 1 to 4 bytes across every piece boundary


@pytest.mark.parametrize("command", STREAMS)
def test_a_line_over_a_mib_passes_every_stream_filter_exactly(tmp_path: Path, command: str) -> None:
    from rtk import filters

    spec = filters.resolve(command.split())
    assert spec is not None and spec.stream is not None and not spec.live  # a streaming filter
    src = tmp_path / "in.txt"
    src.write_bytes(b"first line\n" + LONG + b"\nlast line\n")
    p = subprocess.run(rtk_argv("pipe", "-f", command), stdin=src.open("rb"), capture_output=True, timeout=120)
    assert p.returncode == 0
    assert b"\n" + LONG + b"\n" in b"\n" + p.stdout, (len(p.stdout), p.stdout.count(b"\n"))
    # Once whole; a filter that finds the output is not its tool's (pytest) adds the raw head and tail after it.
    assert len(p.stdout) < 1.5 * len(LONG)


def _run_gen(tmp_path: Path, code: int) -> tuple[subprocess.CompletedProcess[bytes], bytes]:
    """``rtk run`` of a script printing a log whose line N says ``step N``, a 3 MB line 401 and an error at 1001."""
    gen = tmp_path / "gen.py"
    gen.write_text(
        "import sys\n"
        "w = sys.stdout.buffer.write\n"
        "for n in range(1, 1501):\n"
        "    if n == 401:\n"
        f"        w({LONG!r} + b'\\n')\n"
        "    elif n == 1001:\n"
        "        w(b'2026-11-25 10:16:41 ERROR worker step 1001 failed: disk full on /var/lib/app\\n')\n"
        "    else:\n"
        "        w(b'2026-11-25 10:%02d:%02d INFO worker step %d done\\n' % (n // 60 % 60, n % 60, n))\n"
        f"sys.exit({code})\n"
    )
    raw = subprocess.run(["python3", str(gen)], capture_output=True).stdout
    p = subprocess.run(rtk_argv("run", "python3", str(gen)), capture_output=True, timeout=120, cwd=tmp_path)
    return p, raw


def _check_ranges(out: str, raw: bytes) -> int:
    """Every fold's range holds its lines in the raw output: its first and last line of the template, at least
    its count of them; a fold right after a line shown whole of its run starts at the next line (line N: step N)."""
    import re

    info = re.compile(rb"INFO worker step (\d+) done$")
    raw_lines = raw.split(b"\n")
    checked = 0
    lines = out.split("\n")
    for before, line in zip(["", *lines], lines, strict=False):
        fold = re.match(r"… ([\d,]+) more like: .*\(lines (\d+)-(\d+)\)$", line)
        if not fold:
            continue
        n, a, b = int(fold[1].replace(",", "")), int(fold[2]), int(fold[3])
        span = raw_lines[a - 1 : b]
        assert info.search(span[0]) and info.search(span[-1]), (line, span[0][:80], span[-1][:80])
        assert sum(1 for ln in span if info.search(ln)) >= n, line
        shown = re.search(r" INFO worker step (\d+) done$", before)
        if shown:
            assert a == int(shown[1]) + 1, (before, line)
        checked += 1
    return checked


def test_a_long_line_in_the_live_fold_keeps_the_line_ranges_exact(tmp_path: Path) -> None:
    # The long line is printed whole by the runner, the fold never sees it: the fold is told it went by,
    # so every range after it still names the lines of the recovery file (it was one short before).
    import re

    _config("[tee]\nmax_file_size = 16000000\n")
    p, raw = _run_gen(tmp_path, 4)
    assert p.returncode == 4
    out = p.stdout.decode()
    assert "\n" + LONG.decode() + "\n" in out
    assert "2026-11-25 10:16:41 ERROR worker step 1001 failed: disk full on /var/lib/app\n" in out
    assert _check_ranges(out, raw) >= 2
    after = out.split(LONG.decode(), 1)[1]
    assert re.search(r"\(lines 4\d\d-", after)  # a fold of the lines after the long line
    assert len(out.encode()) - len(LONG) < (len(raw) - len(LONG)) // 5  # the log around it folded
    hint = out.splitlines()[-1]
    assert Path(kept_path(hint)).read_bytes() == raw  # the recovery file: every byte
    rid = hint.removeprefix("[rtk] full output: rtk recall ")
    r = subprocess.run(rtk_argv("recall", rid, "--lines", "400-402"), capture_output=True)
    assert r.returncode == 0 and r.stdout.split(b"\n")[1] == LONG


def test_a_progress_bar_redrawn_for_9_mb_on_one_line_shows_its_last_state(tmp_path: Path) -> None:
    # 200,000 redraws joined by CR, no newline until the end: cut into 1 MiB lines, each piece's last state
    # came out as a line of its own; glued, a line of eight states. A terminal shows the last one.
    gen = tmp_path / "bar.py"
    gen.write_text(
        "import sys\n"
        "for i in range(200000):\n"
        "    sys.stdout.write(f\"\\rdownloading {i * 100 // 200000:3d}% [{'#' * (i * 20 // 200000):20s}]\")\n"
        "sys.stdout.write('\\ndone\\n')\n"
    )
    p = subprocess.run(rtk_argv("run", "python3", str(gen)), capture_output=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 0
    assert p.stdout.decode() == "downloading  99% [################### ]\ndone\n"
