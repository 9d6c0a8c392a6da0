"""rtk read on inputs too big to hold: memory stays bounded, head stops early, tail reads from the end, devices end."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtk.commands import _window, read

BIG = 200 << 20  # larger than the address space the child gets
LIMIT = 160 << 20  # RLIMIT_AS of the child: the old read (whole file in memory) dies under it


def _big_file(tmp_path: Path) -> Path:
    """Text lines, a 200 MiB hole (one line of NUL bytes, after the sniffed prefix), text lines."""
    f = tmp_path / "big.log"
    head = b"".join(b"first %d\n" % i for i in range(2000))  # over 8 KiB: the file is sniffed as text
    with open(f, "wb") as fh:
        fh.write(head)
        fh.truncate(BIG)  # sparse: no disk used
        fh.seek(BIG)
        fh.write(b"".join(b"last %d\n" % i for i in range(20)) + b"no newline at the end")
    return f


def _limited() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def _digest(argv: list[str], limited: bool, stdin: int | None = None) -> tuple[int, str, int]:
    """Run ``argv``; (exit code, sha256 of stdout, stdout size), stdout streamed, never held."""
    p = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=stdin,
        preexec_fn=_limited if limited else None,
    )
    h = hashlib.sha256()
    size = 0
    assert p.stdout is not None
    while chunk := p.stdout.read(1 << 20):
        h.update(chunk)
        size += len(chunk)
    return p.wait(timeout=120), h.hexdigest(), size


RTK = [sys.executable, "-m", "rtk", "read"]


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS and sparse files")
@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (["--head-lines", "5"], ["head", "-n", "5"]),
        (["--tail-lines", "5"], ["tail", "-n", "5"]),
        (["--tail-lines", "25"], ["tail", "-n", "25"]),  # the window holds the 200 MiB line
        ([], ["cat"]),
    ],
)
def test_big_file_is_read_in_bounded_memory(ours: list[str], theirs: list[str], tmp_path: Path) -> None:
    f = _big_file(tmp_path)
    code, digest, size = _digest([*RTK, *ours, str(f)], limited=True)
    assert code == 0, "rtk read ran out of memory"
    assert (digest, size) == _digest([*theirs, str(f)], limited=False)[1:]


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS and sparse files")
def test_big_stream_tail_is_bounded_too(tmp_path: Path) -> None:
    f = _big_file(tmp_path)
    with open(f, "rb") as src:
        cat = subprocess.Popen(["cat", str(f)], stdout=subprocess.PIPE)
        assert cat.stdout is not None
        code, digest, size = _digest([*RTK, "--tail-lines", "3", "-"], limited=True, stdin=cat.stdout.fileno())
        cat.stdout.close()
        cat.wait()
        assert code == 0
        theirs = _digest(["tail", "-n", "3"], limited=False, stdin=src.fileno())
    assert (digest, size) == theirs[1:]


@pytest.mark.skipif(not os.path.exists("/dev/urandom"), reason="no /dev/urandom")
@pytest.mark.parametrize("window", [["--head-lines", "2"], ["--tail-lines", "2"], []])
def test_endless_device_ends(window: list[str]) -> None:
    p = subprocess.run([*RTK, *window, "/dev/urandom"], capture_output=True, timeout=30, check=False)
    assert p.returncode == 0
    assert p.stdout == b"rtk read: /dev/urandom: binary (binary data, device, size unknown); not printed\n"


def test_head_of_an_endless_text_stream_stops() -> None:
    yes = subprocess.Popen(["yes", "line"], stdout=subprocess.PIPE)
    assert yes.stdout is not None
    try:
        p = subprocess.run([*RTK, "--head-lines", "3", "-"], stdin=yes.stdout, capture_output=True, timeout=30)
    finally:
        yes.kill()
        yes.wait()
    assert p.returncode == 0 and p.stdout == b"line\nline\nline\n"


def test_binary_line_says_what_and_how_big(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    f = tmp_path / "bin.dat"
    f.write_bytes(b"\x7fELF" + b"\x00" * 5000)
    assert read.main(["--head-lines", "5", str(f)]) == 0
    out, err = capfdbinary.readouterr()
    assert out == f"rtk read: {f}: binary (ELF executable, 5004 bytes); not printed\n".encode()
    assert err == b""


# Chunk boundaries anywhere: the same differential check with tiny chunks and an eager spool compaction.
_PIECES = st.sampled_from([b"a", b"line", b"\n", b"\n", b"\r\n", b"\xff", "错".encode()])


@settings(max_examples=80, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    content=st.lists(_PIECES, max_size=80).map(b"".join),
    n=st.sampled_from([0, 1, 2, 3, 5, 8, 13, 40, 2**63 - 1]),
    chunk=st.integers(1, 9),
)
def test_windows_are_exact_at_any_chunk_boundary(
    content: bytes, n: int, chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_window, "CHUNK", chunk)
    monkeypatch.setattr(_window, "COMPACT", 4)
    f = tmp_path / "f.txt"
    f.write_bytes(content)

    def expect(tool: list[str]) -> bytes:
        return subprocess.run(tool, input=content, capture_output=True, check=False).stdout

    def before(tail: bytes) -> int:
        return content[: len(content) - len(tail)].count(b"\n") + 1

    with open(f, "rb") as fh:
        assert b"".join(_window.head(_window.chunks(fh), n)) == expect(["head", "-n", str(n)])
    with open(f, "rb") as fh:
        inp = _window.Input(fh)
        if inp.seekable:
            body, first = _window.tail_of_file(inp, n, True)
            tail = b"".join(body)
            assert tail == expect(["tail", "-n", str(n)])
            assert n == 0 or first == before(tail)
    with open(f, "rb") as fh:
        body, first = _window.tail_of_stream(_window.chunks(fh), n, True)
        tail = b"".join(body)
        assert tail == expect(["tail", "-n", str(n)])
        assert n == 0 or first == before(tail)
    num = _window.Numbering()
    with open(f, "rb") as fh:
        assert b"".join(num.feed(c) for c in _window.chunks(fh)) == expect(["cat", "-n"])
