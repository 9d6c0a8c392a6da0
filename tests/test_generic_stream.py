"""rtk test/err/summary stream: memory stays flat however much the command prints (issue 12, item 9)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from helpers import rtk_argv
from rtk.commands import _blocks, _generic

# Run rtk in a fresh interpreter and report the peak RSS of its process tree (rtk dominates it).
PEAK = """
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], capture_output=True)
sys.stdout.buffer.write(p.stdout)
print("\\nPEAK", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "EXIT", p.returncode, file=sys.stderr)
"""

# 80 MB of 2,000-character lines (39,981 with the cut last one) after one error line, then exit 3. Before the fix the runner held
# 64 MiB of it (about 270 MB of RSS) and then printed all 80 MB raw.
BIG = "echo 'error: boom at start'; yes \"$(head -c 2000 /dev/zero | tr '\\0' x)\" | head -c 80000000; exit 3"


@pytest.mark.parametrize(
    ("kind", "expect"),
    [
        ("err", "err: 1 error, 0 warnings (exit 3, 39982 lines of output)\nerror: boom at start\n"),
        (
            "summary",
            "summary: exit 3, 39982 lines, 1 error line, 0 warning lines\nfirst error:\n  error: boom at start\n",
        ),
        ("test", "test: exit 3; no summary line\nerror: boom at start\n"),
    ],
)
def test_huge_output_is_read_with_bounded_memory(kind: str, expect: str) -> None:
    p = subprocess.run([sys.executable, "-c", PEAK, *rtk_argv(kind, "sh", "-c", BIG)], capture_output=True, timeout=300)
    peak_kb, code = (int(x) for x in p.stderr.decode().rsplit("PEAK", 1)[1].split()[::2])
    assert code == 3
    assert peak_kb < 100_000, f"peak RSS {peak_kb} kB"
    out = p.stdout.decode()
    assert out.startswith(expect) and len(out) < 100_000
    assert "[rtk] full output: " in out  # the raw output is kept for recovery


def test_over_the_hold_budget_the_generic_reading_takes_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the budget the runner formats are recognised as a whole; past it, failure blocks and summary lines."""
    lines = [
        "test_a.py::test_one FAILED",
        "E   assert 1 == 2",
        *(["filler line"] * 50),
        "== 1 failed, 3 passed in 0.1s ==",
    ]
    whole = _blocks.run(_generic.TestStream(["x"]), lines, 1)
    assert whole.text.startswith("pytest: 1 failed, 3 passed in 0.1s")
    monkeypatch.setattr(_generic, "HOLD_BYTES", 100)
    s = _generic.TestStream(["x"])
    got = _blocks.run(s, lines, 1)
    assert s.held == [] and s.generic is not None  # nothing held past the budget
    assert got.text == "test: exit 1; == 1 failed, 3 passed in 0.1s ==\ntest_a.py::test_one FAILED\nE   assert 1 == 2"


def test_streamed_readings_keep_only_what_they_print() -> None:
    err = _blocks.ErrStream(["x"])
    for i in range(10_000):
        err.feed(f"src/f{i}.c:1: error: bad {i}")
        err.feed("    continuation")
    text = err.finish(1)
    assert len(err.kept.blocks) == 31 and err.kept.count == 10_000  # test_max_failures + 1 held at most
    assert text.endswith("+9970 more error/warning blocks") and err.cut == 9970
    summary = _blocks.SummaryStream(["x"])
    for i in range(10_000):
        summary.feed(f"line {i}")
    assert len(summary.tail) == _blocks.TAIL and summary.finish(0).endswith("  line 9999")
