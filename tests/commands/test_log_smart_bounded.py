"""`rtk log` and `rtk smart` in bounded memory: inputs past their hold bound are read as they come."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from helpers import rtk_argv
from rtk.commands import log, smart

# Run rtk in a fresh interpreter and report the peak RSS of its process tree (rtk dominates it).
PEAK = """
import resource, subprocess, sys
p = subprocess.run(sys.argv[2:], stdin=open(sys.argv[1], "rb"), capture_output=True)
sys.stdout.buffer.write(p.stdout)
print("\\nPEAK", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "EXIT", p.returncode, file=sys.stderr)
"""


def _peak(stdin: Path, *argv: str) -> tuple[bytes, int, int]:
    p = subprocess.run([sys.executable, "-c", PEAK, str(stdin), *rtk_argv(*argv)], capture_output=True, timeout=300)
    peak_kb, code = (int(x) for x in p.stderr.decode().rsplit("PEAK", 1)[1].split()[::2])
    return p.stdout, peak_kb, code


def _service_log(n: int, bad: int) -> bytes:
    out = []
    for i in range(n):
        out.append(f"2026-11-25T10:{i // 6000 % 60:02d}:{i // 100 % 60:02d}.{i % 1000:03d}Z INFO  [worker-{i % 8}]"
                   f" processed batch {i} in {i % 90} ms\n")  # fmt: skip
        if i == bad:
            out.append(f"2026-11-25T10:20:34.567Z ERROR [worker-5] batch {i} failed: connection reset by peer\n")
    return "".join(out).encode()


def test_rtk_log_of_stdin_past_the_hold_bound_folds_in_bounded_memory(tmp_path: Path) -> None:
    # 300,001 lines, 22 MB (HOLD_MAX is 8 MiB): held whole it was 190 MB of RSS.
    raw = _service_log(300_000, 200_000)
    assert len(raw) > 2 * log.HOLD_MAX
    src = tmp_path / "app.log"
    src.write_bytes(raw)
    out, peak_kb, code = _peak(src, "log")
    assert code == 0
    assert peak_kb < 80_000, f"peak RSS {peak_kb} kB"
    text = out.decode()
    lines = text.splitlines()
    assert lines[0] == "300001 lines, 1 kind; errors: 1 (first at line 200002)"
    assert "2026-11-25T10:20:34.567Z ERROR [worker-5] batch 200000 failed: connection reset by peer" in lines
    assert len(out) < len(raw) // 100
    # the fold ranges name the lines of the recovery file, which holds every byte
    raw_lines = raw.split(b"\n")
    assert re.fullmatch(r"\[rtk\] full output: rtk recall [0-9a-f]{6}", lines[-1])
    got = subprocess.run(rtk_argv("recall", lines[-1].split()[-1], "--full"), capture_output=True)
    assert got.stdout == raw
    for a, b in re.findall(r"\(lines (\d+)-(\d+)\)$", text, re.M):
        assert b" INFO " in raw_lines[int(a) - 1] and b" INFO " in raw_lines[int(b) - 1]


def test_rtk_log_of_a_file_past_the_bound_names_the_file_and_keeps_long_lines_numbered(tmp_path: Path) -> None:
    raw = _service_log(150_000, 10)
    long = b"2026-11-25T10:00:00.000Z DEBUG dump " + b"x" * (3 * log.LINE_MAX) + b"\n"
    raw = raw + long + _service_log(150_000, 140_000)
    src = tmp_path / "two.log"
    src.write_bytes(raw)
    out, peak_kb, code = _peak(src, "log", str(src))
    assert code == 0 and peak_kb < 80_000, peak_kb
    lines = out.decode().splitlines()
    assert lines[0].startswith("300003 lines, ")  # the long line counted once, its rest skipped
    assert lines[-1] == f"[rtk] full output: {src}"
    assert len([ln for ln in lines if " ERROR " in ln]) == 2
    assert "errors: 2 (first at line 12)" in lines[0]
    raw_lines = raw.split(b"\n")
    ranges = [(int(a), int(b)) for a, b in re.findall(r"\(lines (\d+)-(\d+)\)$", out.decode(), re.M)]
    assert max(b for _, b in ranges) == 300_003 - 5  # the last five lines are shown: numbered past the long line
    assert lines[-8] == "2026-11-25T10:00:00.000Z DEBUG dump " + "x" * (log.LINE_MAX - 36) + " [rtk: line cut at 1 MiB]"
    for a, b in ranges:  # past the long line too, the numbers are those of the file
        assert b" INFO " in raw_lines[a - 1] and b" INFO " in raw_lines[b - 1]


def test_rtk_smart_reads_a_bounded_start_and_counts_every_line(tmp_path: Path) -> None:
    src = tmp_path / "big.txt"
    src.write_bytes(b"".join(b"row %d of a large text file with words\n" % i for i in range(800_000)))  # 34 MB
    out, peak_kb, code = _peak(src, "smart", str(src))
    assert code == 0
    assert peak_kb < 60_000, f"peak RSS {peak_kb} kB"  # 164 MB when read whole
    assert out.decode().splitlines() == [
        f"{src}: text, 800000 lines (described from its first {smart.READ_MAX >> 20} MiB)",
        "starts: row 0 of a large text file with words",
    ]


def test_rtk_smart_of_a_file_under_the_bound_is_described_whole(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text('"""Helpers."""\nimport os\n\n\ndef a():\n    pass\n\n\ndef a():\n    pass\n\n\nclass B:\n    pass')
    p = subprocess.run(rtk_argv("smart", str(src)), capture_output=True, text=True)
    assert p.stdout.splitlines() == [
        f"{src}: Python source, 14 lines - Helpers.",
        "defines 1 def: a; 1 class: B | imports os",
    ]
