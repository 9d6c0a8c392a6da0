"""``uv run`` rewrites: scripts through ``rtk run`` (node too), and a REPL or server through ``rtk uv run`` stays live."""

from __future__ import annotations

import os
import select
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import path_with, rtk_argv, stub_tool
from rtk.rewrite import engine


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("uv run node x.js", "rtk run uv run node x.js"),  # as `node x.js`: a script (was: no rewrite)
        ("uv run node -r dotenv/config scripts/seed.js", "rtk run uv run node -r dotenv/config scripts/seed.js"),
        ("uv run node --test test/", "uv run rtk node --test test/"),  # node's own rule still wins
        ("uv run node", None),  # a REPL
        ("uv run node -e 'console.log(1)'", None),
        ("uv run node server.js", None),  # a server by its name
        ("uv run pytest -x", "uv run rtk pytest -x"),
    ],
)
def test_uv_run_node_follows_node(line: str, expected: str | None) -> None:
    assert engine.rewrite(line) == expected


def _converse(cmd: str, env: dict[str, str], steps: list[tuple[str, str]], deadline: float = 30) -> str:
    """Run ``cmd`` on a pseudo-terminal (``script``); for each (wait_for, send): read until ``wait_for``, then type ``send``.

    Each ``wait_for`` must arrive before the line after it is typed: output held back until the
    program ends (or a terminal not passed through) makes this time out.
    """
    proc = subprocess.Popen(["script", "-qec", cmd, "/dev/null"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env)  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    seen = b""
    end = time.monotonic() + deadline
    try:
        for wait_for, send in steps:
            while wait_for.encode() not in seen:
                left = end - time.monotonic()
                ready, _, _ = select.select([proc.stdout], [], [], max(left, 0))
                if not ready:
                    pytest.fail(f"no {wait_for!r} before typing {send!r}; got {seen!r}")
                chunk = os.read(proc.stdout.fileno(), 4096)
                if not chunk:
                    pytest.fail(f"ended before {wait_for!r}; got {seen!r}")
                seen += chunk
            proc.stdin.write(send.encode())
            proc.stdin.flush()
        while True:  # to the end of the output
            ready, _, _ = select.select([proc.stdout], [], [], max(end - time.monotonic(), 0))
            chunk = os.read(proc.stdout.fileno(), 4096) if ready else b""
            if not chunk:
                break
            seen += chunk
        proc.wait(timeout=max(end - time.monotonic(), 1))
        return seen.decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        proc.stdout.close()


needs_script = pytest.mark.skipif(shutil.which("script") is None, reason="needs script(1) for a pseudo-terminal")


def _env(tmp_path: Path) -> dict[str, str]:
    # A stand-in uv: `uv run X...` runs X (what rtk does with the terminal is under test, not uv).
    bindir = stub_tool(tmp_path, "uv", '[ "$1" = run ] && shift; exec "$@"')
    return dict(os.environ, PATH=path_with(bindir))


@needs_script
def test_uv_run_python_stays_an_interactive_repl(tmp_path: Path) -> None:
    assert engine.rewrite("uv run python3") == "rtk uv run python3"
    rtk = " ".join(shlex.quote(a) for a in rtk_argv())
    code = "import sys; print('TTY', sys.stdin.isatty(), sys.stdout.isatty(), sys.stderr.isatty())\n"
    out = _converse(
        f"{rtk} uv run {shlex.quote(sys.executable)} -q",
        _env(tmp_path),
        [(">>> ", "print(6 * 7)\n"), ("42", code), ("TTY True True True", "exit(4)\n")],
    )
    assert "42" in out and "TTY True True True" in out


@needs_script
def test_uv_run_server_script_streams_and_reads_the_terminal(tmp_path: Path) -> None:
    assert engine.rewrite("uv run manage.py runserver") == "rtk uv run manage.py runserver"
    (tmp_path / "manage.py").write_text(
        "import sys\nprint('READY', sys.stdin.isatty(), sys.stdout.isatty(), flush=True)\n"
        "line = input()\nprint('GOT', line)\n"
    )
    rtk = " ".join(shlex.quote(a) for a in rtk_argv())
    cmd = f"cd {shlex.quote(str(tmp_path))} && {rtk} uv run {shlex.quote(sys.executable)} manage.py runserver"
    out = _converse(cmd, _env(tmp_path), [("READY True True", "quit\n"), ("GOT quit", "")])
    assert "GOT quit" in out
