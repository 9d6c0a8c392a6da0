"""Streaming filters: output arrives while the command runs, memory stays flat, fail open mid-stream."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import DRIVER, path_with, rtk_argv, stub_tool
from rtk import filters, run


@pytest.fixture
def streaming(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(filters.FAMILIES, "rtktest", "testfilters")


def test_lines_reach_the_caller_while_the_command_runs(tmp_path: Path) -> None:
    stub_tool(tmp_path, "rtktest", "echo 'ERROR first problem'; sleep 4; echo 'ERROR second'")
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    started = time.monotonic()
    p = subprocess.Popen(rtk_argv("rtktest", "stream", driver=True), env=env, stdout=subprocess.PIPE)
    assert p.stdout is not None
    first = p.stdout.readline()
    arrived = time.monotonic() - started
    rest = p.stdout.read()
    p.wait(timeout=30)
    assert first == b"ERROR first problem\n"
    assert arrived < 3.5, f"first line took {arrived:.1f}s: it was held until the command ended"
    assert rest == b"ERROR second\n0 other lines, exit 0\n"


def test_short_stream_gets_the_exact_never_worse_check(
    streaming: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    # Two short lines: the summary would make the output bigger than raw, so raw is shown.
    monkeypatch.setenv("PATH", path_with(stub_tool(tmp_path, "rtktest", "echo a; echo b")))
    assert run.run_tool(["rtktest", "stream"]) == 0
    out, _ = capfd.readouterr()
    assert out == "a\nb\n"


def test_stream_summary_and_exit_code(
    streaming: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    body = "i=0; while [ $i -lt 300 ]; do echo progress $i; i=$((i+1)); done; echo 'ERROR: disk full'; exit 3"
    monkeypatch.setenv("PATH", path_with(stub_tool(tmp_path, "rtktest", body)))
    assert run.run_tool(["rtktest", "stream"]) == 3
    out, _ = capfd.readouterr()
    lines = out.splitlines()
    assert lines[0] == "ERROR: disk full"
    assert lines[1] == "300 other lines, exit 3"
    assert lines[2].startswith("[rtk] full output: ")  # failed run: raw kept


def test_stream_filter_crash_prints_raw(
    streaming: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    body = "echo one; echo 'ERROR x'; echo CRASH; echo after; exit 5"
    monkeypatch.setenv("PATH", path_with(stub_tool(tmp_path, "rtktest", body)))
    assert run.run_tool(["rtktest", "stream-crash"]) == 5
    out, _ = capfd.readouterr()
    assert out == "one\nERROR x\nCRASH\nafter\n"


def test_stream_crash_after_going_live_still_shows_everything(tmp_path: Path) -> None:
    # The pause outlasts the runner's hold time, so the output is live when the filter crashes.
    body = (
        "i=0; while [ $i -lt 2000 ]; do echo line $i; i=$((i+1)); done; sleep 1.5; echo CRASH; echo tail-line; exit 2"
    )
    stub_tool(tmp_path, "rtktest", body)
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    p = subprocess.run(rtk_argv("rtktest", "stream-crash", driver=True), env=env, capture_output=True, timeout=60)
    assert p.returncode == 2
    out = p.stdout.decode()
    assert "filter test-stream-crash failed; raw output follows" in out
    assert "line 0\n" in out and "line 1999\n" in out and "CRASH\ntail-line\n" in out
    assert out.splitlines()[-1].startswith("[rtk] full output: ")  # failed run: raw kept


def test_memory_stays_flat_on_large_output(tmp_path: Path) -> None:
    # 60 MB through the streaming filter; peak RSS must not grow with it.
    gen = tmp_path / "gen.py"
    gen.write_text(
        "import sys\nline = b'x' * 99 + b'\\n'\nchunk = line * 10000\nw = sys.stdout.buffer.write\n"
        "for _ in range(60):\n    w(chunk)\nw(b'ERROR at the end\\n')\n"
    )
    stub_tool(tmp_path, "rtktest", f'exec "{sys.executable}" "{gen}"')
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    # VmHWM is the peak of this process's own memory; ru_maxrss would also carry the
    # high-water mark of the (large) pytest process across fork and exec on Linux.
    code = (
        DRIVER.replace("sys.exit(main())", "code = main()")
        + "\nimport resource\npeak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        + "try:\n    peak = int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM:')).split()[1])\n"
        + "except (OSError, StopIteration):\n    pass\nprint(peak, file=sys.stderr)\nsys.exit(code)\n"
    )
    p = subprocess.run([sys.executable, "-c", code, "rtktest", "stream"], env=env, capture_output=True, timeout=120)
    assert p.returncode == 0
    assert p.stdout.startswith(b"ERROR at the end\n600000 other lines")
    peak_kib = int(p.stderr.decode().split()[-1])
    assert peak_kib < 64 * 1024, f"peak RSS {peak_kib} KiB for 60 MB of output"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 0


def test_a_follow_that_goes_quiet_prints_what_it_has(tmp_path: Path) -> None:
    # `docker logs -f web` printing two lines and then waiting: after the hold window the live fold
    # must print them; the loop went on to a blocking read and printed nothing until the child ended.
    import select

    bindir = stub_tool(tmp_path, "docker", "echo 'web: started'; echo 'web: ready on :8080'; sleep 20")
    env = {**os.environ, "PATH": path_with(bindir), "RTK_DB_PATH": str(tmp_path / "db"), "XDG_DATA_HOME": str(tmp_path)}
    p = subprocess.Popen(rtk_argv("docker", "logs", "-f", "web"), stdout=subprocess.PIPE, env=env)
    try:
        got = b""
        end = time.monotonic() + 8
        while b"ready on :8080" not in got and time.monotonic() < end:
            assert p.stdout is not None
            if select.select([p.stdout], [], [], 0.2)[0]:
                got += os.read(p.stdout.fileno(), 4096)
        assert b"web: started\nweb: ready on :8080\n" in got
    finally:
        p.kill()
        p.wait()


def test_a_readiness_line_shows_within_the_bound_while_the_script_runs(tmp_path: Path) -> None:
    # `rtk run -c 'echo ready; sleep 10'` showed "ready" after 6.2 s: the live fold held it until the script
    # had been quiet for 5 s. A line held now shows at most 1 s (LATENCY) after it came; 3 s is the margin.
    import select

    env = {**os.environ, "RTK_DB_PATH": str(tmp_path / "db"), "XDG_DATA_HOME": str(tmp_path)}
    started = time.monotonic()
    p = subprocess.Popen(rtk_argv("run", "-c", "echo ready; sleep 5; exit 3"), stdout=subprocess.PIPE, env=env)
    try:
        assert p.stdout is not None
        got = b""
        while b"ready\n" not in got and time.monotonic() < started + 3:
            if select.select([p.stdout], [], [], 0.1)[0]:
                got += os.read(p.stdout.fileno(), 4096)
        assert got == b"ready\n", f"{time.monotonic() - started:.1f} s"
        assert p.wait(timeout=30) == 3  # the script's exit code, as before
        assert p.stdout.read() == b""  # nothing printed twice at the end
    finally:
        p.kill()
        p.wait()
