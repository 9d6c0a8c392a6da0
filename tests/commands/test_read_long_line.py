"""rtk read of a file that is one 200 MB line: every form copies it through in pieces, in bounded memory."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import rtk_argv

SIZE = 200 << 20
PEAK_MAX_KB = 64 << 10  # 64 MiB

# In a fresh interpreter: run rtk with the file on stdin, hash its stdout as it streams (never held),
# then report the digest, the size and the peak RSS of rtk's process (the only child).
PEAK = """
import hashlib, resource, subprocess, sys
p = subprocess.Popen(sys.argv[2:], stdin=open(sys.argv[1], "rb"), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
h = hashlib.sha256()
size = 0
while b := p.stdout.read(1 << 20):
    h.update(b)
    size += len(b)
code = p.wait()
print(h.hexdigest(), size, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)
"""


@pytest.fixture(scope="module")
def one_line(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A 200 MiB log-like file with no newline at all, written in 1 MiB chunks (no holes); its sha256."""
    piece = ("2024-01-01 10:00:00 INFO request served café id=42 " * 25_000).encode()[: 1 << 20]
    path = tmp_path_factory.mktemp("long") / "one.log"
    h = hashlib.sha256()
    with open(path, "wb") as f:
        for _ in range(SIZE >> 20):
            f.write(piece)
            h.update(piece)
    return path, h.hexdigest()


def _run(stdin: Path, *argv: str) -> tuple[str, int, int, int]:
    """sha256 and size of ``rtk ARGV < stdin``'s output, its peak RSS in kB, its exit code."""
    p = subprocess.run(
        [sys.executable, "-c", PEAK, str(stdin), *rtk_argv(*argv)], capture_output=True, timeout=300, check=True
    )
    digest, size, peak, code = p.stdout.decode().split()
    return digest, int(size), int(peak), int(code)


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kB")
@pytest.mark.parametrize(
    "form",
    [
        ["read", "FILE"],  # plain: sampled for a fold, then copied
        ["read", "--raw", "FILE"],
        ["read", "--lines", "1-1", "FILE"],
        ["read", "--lines", "1-5", "FILE"],
        ["read", "--head-lines", "1", "FILE"],
        ["read", "--tail-lines", "1", "FILE"],
        ["read", "--tail-lines", "300", "FILE"],  # a tail window long enough to be folded
        ["read", "-"],  # standard input: a log on a pipe or file may be folded (and held)
        ["read"],
    ],
)
def test_one_huge_line_is_copied_through_in_bounded_memory(one_line: tuple[Path, str], form: list[str]) -> None:
    path, digest = one_line
    argv = [str(path) if a == "FILE" else a for a in form]
    got, size, peak_kb, code = _run(path, *argv)
    assert code == 0
    assert size == SIZE
    assert got == digest  # byte for byte: the line is neither cut, folded nor given a newline
    assert peak_kb < PEAK_MAX_KB, f"peak RSS {peak_kb} kB"


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kB")
def test_one_huge_line_numbered_in_bounded_memory(one_line: tuple[Path, str]) -> None:
    path, _ = one_line
    want = hashlib.sha256(b"     1\t")
    with open(path, "rb") as f:
        while b := f.read(1 << 20):
            want.update(b)
    got, size, peak_kb, code = _run(path, "read", "-n", str(path))
    assert (code, size, got) == (0, SIZE + 7, want.hexdigest())  # cat -n: one number, then the line as it is
    assert peak_kb < PEAK_MAX_KB, f"peak RSS {peak_kb} kB"


@pytest.fixture(scope="module")
def log_then_line(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """500 log lines (a fold is tried), one 200 MiB line, 500 log lines, written in chunks.

    With the sha256 of the whole file and of its last 600 lines (99 log lines, the huge one, 500).
    """
    lines = [b"2024-01-01 10:00:%02d INFO request served id=%d\n" % (i % 60, i) for i in range(500)]
    piece = b"x" * (1 << 20)
    path = tmp_path_factory.mktemp("long") / "mixed.log"
    whole, last = hashlib.sha256(), hashlib.sha256()
    with open(path, "wb") as f:
        for k, b in enumerate((*lines, *[piece] * (SIZE >> 20), b"\n", *lines)):
            f.write(b)
            whole.update(b)
            if k >= 401:
                last.update(b)
    return path, whole.hexdigest(), last.hexdigest()


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kB")
@pytest.mark.parametrize("form", [["read", "FILE"], ["read", "--tail-lines", "600", "FILE"], ["read", "-"]])
def test_a_log_with_one_huge_line_gives_up_the_fold_in_bounded_memory(
    log_then_line: tuple[Path, str, str], form: list[str]
) -> None:
    path, whole, last = log_then_line
    got, size, peak_kb, code = _run(path, *[str(path) if a == "FILE" else a for a in form])
    assert code == 0
    assert got == (last if "--tail-lines" in form else whole)  # the fold gave way: every byte as it is
    assert size > SIZE
    assert peak_kb < PEAK_MAX_KB, f"peak RSS {peak_kb} kB"
