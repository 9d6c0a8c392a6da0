"""Hostile review 9: closed standard streams, the live fold's timed loop, hostile fold inputs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def _sh(line: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run ``line`` with bash, ``RTK`` standing for this interpreter's rtk."""
    rtk = f"{sys.executable} -m rtk"
    return subprocess.run(["bash", "-c", line.replace("RTK", rtk)], cwd=cwd, capture_output=True, timeout=60)


def test_closed_stderr_runs_the_command_and_keeps_its_exit_code(tmp_path: Path) -> None:
    # rtk cmd 2>&- crashed before the command ran: internal error AttributeError (sys.stderr is None), exit 1.
    got = _sh("RTK run -c 'echo out; echo err >&2; exit 3' 2>&-", tmp_path)
    assert got.returncode == 3
    assert got.stdout == b"out\n"  # the child's stderr is thrown away, as the user asked; not merged in
    got = _sh("RTK ls /nonexistent-review9 2>&-", tmp_path)
    assert got.returncode == 2 and b"internal error" not in got.stdout


def test_closed_stdout_runs_the_command_and_keeps_its_exit_code(tmp_path: Path) -> None:
    got = _sh("RTK run -c 'echo out; echo err >&2; touch ran; exit 3' >&-", tmp_path)
    assert got.returncode == 3 and b"internal error" not in got.stderr
    assert (tmp_path / "ran").exists()


def test_jsonl_event_deeply_nested_line_is_linear() -> None:
    # The punctuation before each pair was read unbounded: a run of 30,000 closing braces was scanned again
    # from each of its characters (about 10 s for this one line; a 36 MB log of 2,000 such lines took > 2 min).
    import time

    from rtk.fold import jsonl

    line = '{"level":"info","msg":"m","a":' + '{"b":' * 30_000 + "1" + "}" * 30_000 + "}"
    t = time.process_time()
    e = jsonl.event(line)
    assert time.process_time() - t < 1.0
    assert e is not None and e.toks == ["level=info", '"m"', "b=1"]
    # A pair after a run of punctuation longer than the bound: its depth is unknown, the line is not an event.
    wide = '{"level":"info","msg":"m","a":[' + "{}," * 30_000 + '{}],"n":2}'
    t = time.process_time()
    assert jsonl.event(wide) is None
    assert time.process_time() - t < 1.0
    # Ordinary nesting still reads: the nested field by its own name, the depth right after closing braces.
    e = jsonl.event('{"level":"info","msg":"m","a":{"b":{"c":1}},"n":2}')
    assert e is not None and e.toks == ["level=info", '"m"', "c=1", "n=2"]


def test_config_init_never_writes_through_a_dangling_symlink_and_says_why_in_one_line(tmp_path: Path) -> None:
    # A dangling symlink at the config path was "internal error: FileExistsError"; a config dir under a
    # file was "internal error: NotADirectoryError".
    link = tmp_path / "config.toml"
    link.symlink_to(tmp_path / "elsewhere.toml")
    env = {**os.environ, "RTK_CONFIG": str(link)}
    got = subprocess.run([sys.executable, "-m", "rtk", "config", "--init"], env=env, capture_output=True, text=True)
    assert got.returncode != 0 and got.stderr == f"rtk: {link} already exists; not overwriting it\n"
    assert not (tmp_path / "elsewhere.toml").exists()
    (tmp_path / "afile").write_text("")
    env = {**os.environ, "RTK_CONFIG": str(tmp_path / "afile" / "config.toml")}
    got = subprocess.run([sys.executable, "-m", "rtk", "config", "--init"], env=env, capture_output=True, text=True)
    assert got.returncode != 0 and got.stderr.startswith("rtk: cannot write ") and got.stderr.count("\n") == 1
    assert "internal error" not in got.stderr


def test_a_blank_line_printed_by_the_live_folds_timer_is_not_lost(tmp_path: Path) -> None:
    # The runner printed tick()'s and idle()'s text only when truthy: a blank line held alone came back as ""
    # and was dropped (a, blank, b printed "a\nb\n").
    env = {**os.environ, "RTK_DB_PATH": str(tmp_path / "db")}
    line = "echo a; sleep 1.3; echo; sleep 1.3; echo b; exit 3"
    got = subprocess.run([sys.executable, "-m", "rtk", "run", "-c", line], env=env, capture_output=True, timeout=60)
    assert got.returncode == 3 and got.stdout == b"a\n\nb\n"


def test_a_trailing_blank_line_is_kept_short_or_folded(tmp_path: Path) -> None:
    # FoldStream.finish joined its lines without a final newline and the runner ends the text only when it
    # is not ended: a last blank line was lost ("a", "" printed "a\n").
    from rtk.fold.live import FoldStream

    fs = FoldStream(["x"], 200, None, None)
    assert fs.feed("a") is None and fs.feed("") is None
    assert fs.finish(0) == "a\n\n"  # the runner prints it as it is: a, then the blank line
    fs = FoldStream(["x"], 200, None, None)
    shown = [r for i in range(300) if (r := fs.feed(f"row {i} done")) is not None]
    for ln in ("end", ""):
        assert fs.feed(ln) is None
    assert fs.finish(0).endswith("\nend\n\n") and shown
    env = {**os.environ, "RTK_DB_PATH": str(tmp_path / "db")}
    line = 'for i in $(seq 300); do echo "row $i done"; done; echo end; echo'
    got = subprocess.run([sys.executable, "-m", "rtk", "run", "-c", line], env=env, capture_output=True)
    assert got.returncode == 0 and b"\nrow 300 done\nend\n\n" in got.stdout
