"""Memory is bounded whatever the output size: whole-output filters hold a bounded output, the rest passes raw."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers import rtk_argv
from rtk import paths

# Run rtk in a fresh interpreter and report the peak RSS of its process tree (rtk dominates it).
PEAK = """
import resource, subprocess, sys
p = subprocess.run(sys.argv[2:], stdin=open(sys.argv[1], "rb"), capture_output=True)
sys.stdout.buffer.write(p.stdout)
print("\\nPEAK", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "EXIT", p.returncode, file=sys.stderr)
"""


def _peak(stdin: Path, *argv: str) -> tuple[bytes, int, int]:
    """rtk's output, peak RSS in kB and exit code for ``rtk ARGV < stdin``."""
    p = subprocess.run([sys.executable, "-c", PEAK, str(stdin), *rtk_argv(*argv)], capture_output=True, timeout=300)
    peak_kb, code = (int(x) for x in p.stderr.decode().rsplit("PEAK", 1)[1].split()[::2])
    return p.stdout, peak_kb, code


def _short_line_diff(files: int, lines: int) -> bytes:
    """A diff of ``files`` files, each replacing ``lines`` short lines (the costliest shape per byte)."""
    out = []
    for k in range(files):
        out.append(f"diff --git a/f{k}.txt b/f{k}.txt\nindex 1111111..2222222 100644\n--- a/f{k}.txt\n+++ b/f{k}.txt\n")
        out.append(f"@@ -1,{lines} +1,{lines} @@\n")
        out.append("".join(f"-{i % 97}\n" for i in range(lines)))
        out.append("".join(f"+x{i % 89}\n" for i in range(lines)))
    return "".join(out).encode()


def _config(text: str) -> None:
    cfg = Path(paths.config_file())
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(text)


def test_a_diff_of_a_million_short_lines_is_passed_through_in_bounded_memory(tmp_path: Path) -> None:
    # 1.2 M lines, 5.6 MB: under the old 64 MiB hold it was parsed whole (lines, hunks, the joined
    # text, the fact guard's sets): 200 MB of RSS here, 966 MB for 6 M lines (26 MB).
    raw = _short_line_diff(4, 150_000)
    src = tmp_path / "big.diff"
    src.write_bytes(raw)
    out, peak_kb, code = _peak(src, "pipe", "-f", "git diff")
    assert code == 0
    assert out == raw  # past the line bound: passed through raw, every byte as it came
    assert peak_kb < 100_000, f"peak RSS {peak_kb} kB"


def test_the_line_bound_decides_between_the_filter_and_raw(tmp_path: Path) -> None:
    _config("[limits]\nbuffer_max_lines = 1000\n")
    small, big = tmp_path / "small.diff", tmp_path / "big.diff"
    small.write_bytes(_short_line_diff(60, 3))  # 660 lines: held and filtered
    big.write_bytes(_short_line_diff(120, 3))  # 1320 lines: raw
    env = dict(os.environ)
    p = subprocess.run(rtk_argv("pipe", "-f", "git diff"), stdin=small.open("rb"), capture_output=True, env=env)
    assert p.returncode == 0
    assert p.stdout.decode().startswith("60 files changed, +180 -180\n=== f0.txt +3 -3\n@@ -1,3 +1,3 @@\n-0\n")
    p = subprocess.run(rtk_argv("pipe", "-f", "git diff"), stdin=big.open("rb"), capture_output=True, env=env)
    assert p.returncode == 0
    assert p.stdout == big.read_bytes()


def test_read_all_stops_at_the_line_bound(tmp_path: Path) -> None:
    from rtk import runner

    src = tmp_path / "out"
    src.write_bytes(b"a\n" * 100_000)
    fd = os.open(src, os.O_RDONLY)
    try:
        data, over = runner.read_all(runner.Child(-1, fd), 1 << 30, 100)
        assert over and len(data) == 65536  # the first read already holds 100 lines
        assert data + os.read(fd, 1 << 20) == b"a\n" * 100_000  # nothing lost: the rest is still to read
        os.lseek(fd, 0, os.SEEK_SET)
        assert runner.read_all(runner.Child(-1, fd), 1 << 30, 0) == (b"a\n" * 100_000, False)
    finally:
        os.close(fd)
