"""The runner: exit codes, signals, missing tools, stdin, broken pipes, undecodable output."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import path_with, rtk_argv, stub_tool

# Lines the test filter drops, so that its output is smaller than the raw output.
PAD = "i=0; while [ $i -lt 20 ]; do echo '# padding padding padding padding'; i=$((i+1)); done\n"


def run(args: list[str], tmp_path: Path, **kw: object) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    return subprocess.run(args, env=env, capture_output=True, timeout=60, **kw)  # type: ignore[call-overload,no-any-return]


@pytest.mark.parametrize("code", [0, 1, 2, 3, 42, 128, 255])
def test_exit_code_of_filtered_command_is_exact(tmp_path: Path, code: int) -> None:
    stub_tool(tmp_path, "git", f"echo 'On branch main'; exit {code}")
    p = run(rtk_argv("git", "status"), tmp_path)
    assert p.returncode == code


@pytest.mark.parametrize("code", [0, 1, 7, 255])
def test_exit_code_of_unknown_tool_is_exact(tmp_path: Path, code: int) -> None:
    stub_tool(tmp_path, "sometool", f"echo hi; exit {code}")
    p = run(rtk_argv("sometool"), tmp_path)
    assert p.returncode == code
    assert p.stdout == b"hi\n"  # untouched


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV])
def test_child_killed_by_signal_gives_128_plus_n(tmp_path: Path, sig: signal.Signals) -> None:
    stub_tool(tmp_path, "git", f"echo partial; kill -{int(sig)} $$")
    p = run(rtk_argv("git", "status"), tmp_path)
    assert p.returncode == 128 + int(sig)
    stub_tool(tmp_path, "other", f"kill -{int(sig)} $$")
    assert run(rtk_argv("other"), tmp_path).returncode == 128 + int(sig)


def test_missing_tool_is_127_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    for args in (rtk_argv("no-such-tool-xyz", "--flag"), rtk_argv("proxy", "no-such-tool-xyz")):
        p = run(args, tmp_path)
        assert p.returncode == 127
        assert p.stdout == b""
        assert p.stderr.decode().strip() == "rtk: command not found: no-such-tool-xyz"


def test_missing_filtered_tool_is_127(tmp_path: Path) -> None:
    (tmp_path / "bin").mkdir()
    env = dict(os.environ, PATH=str(tmp_path / "bin"))
    p = subprocess.run(rtk_argv("git", "status"), env=env, capture_output=True, timeout=60)
    assert p.returncode == 127
    assert b"command not found: git" in p.stderr


def test_not_executable_is_126(tmp_path: Path) -> None:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "noexec").write_text("#!/bin/sh\necho hi\n")
    p = run(rtk_argv(str(bindir / "noexec")), tmp_path)
    assert p.returncode == 126


def test_stdin_is_inherited(tmp_path: Path) -> None:
    # A tool that prompts reads from rtk's own stdin, for filtered and unfiltered tools alike.
    stub_tool(tmp_path, "git", 'read answer; echo "On branch $answer"')
    p = run(rtk_argv("git", "status"), tmp_path, input=b"feature\n")
    assert b"feature" in p.stdout
    stub_tool(tmp_path, "asker", 'read answer; echo "got $answer"')
    p = run(rtk_argv("asker"), tmp_path, input=b"yes\n")
    assert p.stdout == b"got yes\n"


def test_sigterm_reaches_the_child(tmp_path: Path) -> None:
    marker = tmp_path / "got-term"
    stub_tool(
        tmp_path, "git", f"trap 'echo term > {marker}; exit 143' TERM; echo started; while :; do sleep 0.05; done"
    )
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    p = subprocess.Popen(rtk_argv("git", "status"), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.0)
    p.send_signal(signal.SIGTERM)
    _out, err = p.communicate(timeout=30)
    assert marker.exists(), err
    assert p.returncode == 143


def test_sigint_reaches_the_child_without_a_terminal(tmp_path: Path) -> None:
    marker = tmp_path / "got-int"
    stub_tool(tmp_path, "slow", f"trap 'echo int > {marker}; exit 130' INT; while :; do sleep 0.05; done")
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    p = subprocess.Popen(
        rtk_argv("slow"), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=30)
    assert marker.exists(), err
    assert p.returncode == 130
    assert b"Traceback" not in err


def test_a_signal_during_the_child_start_is_forwarded_once_it_runs() -> None:
    # Under load a Ctrl-C could land between the spawn and the relay: rtk died, the child ran on.
    from rtk import runner

    held = runner.Held()
    os.kill(os.getpid(), signal.SIGINT)  # no KeyboardInterrupt here: kept for the child
    assert held.got == [signal.SIGINT]
    child = runner.spawn(["sleep", "30"], capture=False)
    started = time.monotonic()
    child.relay_signals(held)
    assert child.wait() == 130 and time.monotonic() - started < 10
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_broken_stdout_pipe_ends_quietly(tmp_path: Path) -> None:
    lines = "".join(f"\\tmodified:   file{i}.py\\n" for i in range(3000))
    stub_tool(tmp_path, "git", f"printf 'On branch main\\nChanges not staged for commit:\\n{lines}\\n'")
    stub_tool(tmp_path, "yes-ish", "i=0; while [ $i -lt 200000 ]; do echo line $i; i=$((i+1)); done")
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    for cmd in ("git status", "yes-ish"):
        shell = f'{" ".join(rtk_argv())} {cmd} | head -1; echo "rc=${{PIPESTATUS[0]}}" >&2'
        p = subprocess.run(["bash", "-c", shell], env=env, capture_output=True, timeout=60)
        assert p.stdout.count(b"\n") == 1, p.stdout[:200]
        assert b"Traceback" not in p.stderr and b"BrokenPipe" not in p.stderr, p.stderr
        assert b"Exception ignored" not in p.stderr


def test_invalid_utf8_and_binary_output_never_drop_a_line(tmp_path: Path) -> None:
    stub_tool(tmp_path, "rtktest", PAD + r"printf 'ok line\n\377\376 bad bytes\n\000nul\001\002 binary\nlast\n'")
    p = run(rtk_argv("rtktest", "echo", driver=True), tmp_path)
    text = p.stdout.decode("utf-8")
    assert p.returncode == 0
    assert text.startswith("ok line\n") and text.endswith("last\n")
    assert "\ufffd\ufffd bad bytes" in text
    assert "nul" in text and "binary" in text
    assert text.count("\n") == 4


def test_ansi_is_stripped_before_filtering(tmp_path: Path) -> None:
    stub_tool(
        tmp_path, "rtktest", PAD + r"printf '\033[1;31merror\033[0m: red\n\033]8;;http://x\007link\033]8;;\007\n'"
    )
    p = run(rtk_argv("rtktest", "echo", driver=True), tmp_path)
    assert p.stdout == b"error: red\nlink\n"


def test_stderr_not_merged_goes_to_stderr(tmp_path: Path) -> None:
    stub_tool(tmp_path, "rtktest", PAD + "echo out; echo err >&2")
    p = run(rtk_argv("rtktest", "nomerge", driver=True), tmp_path)
    assert p.stdout == b"out\n"
    assert p.stderr == b"err\n"


def test_stderr_merged_by_default(tmp_path: Path) -> None:
    stub_tool(tmp_path, "rtktest", PAD + "echo out; echo err >&2")
    p = run(rtk_argv("rtktest", "echo", driver=True), tmp_path)
    assert p.stdout == b"out\nerr\n"


def test_rtk_disabled_is_pure_passthrough(tmp_path: Path) -> None:
    stub_tool(tmp_path, "git", "echo 'On branch main'; echo \"args: $*\"; exit 3")
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"), RTK_DISABLED="1")
    p = subprocess.run(rtk_argv("git", "status", "--x"), env=env, capture_output=True, timeout=60)
    assert p.returncode == 3
    assert p.stdout == b"On branch main\nargs: status --x\n"
    data = Path(os.environ["XDG_DATA_HOME"]) / "rtk"
    assert not (data / "history.db.pending").exists()  # nothing tracked


def test_live_spec_is_not_captured(tmp_path: Path) -> None:
    stub_tool(tmp_path, "rtktest", 'if [ -t 0 ]; then echo tty; else echo notty; fi; echo "$@"')
    p = run(rtk_argv("rtktest", "live", "x", driver=True), tmp_path)
    assert p.stdout == b"notty\nlive x\n"


@pytest.mark.skipif(sys.platform == "win32", reason="posix only")
def test_sigpipe_default_in_child(tmp_path: Path) -> None:
    # Python ignores SIGPIPE; the child must get the default back so `| head` ends it.
    stub_tool(tmp_path, "sigshow", "grep SigIgn /proc/$$/status")
    p = run(rtk_argv("sigshow"), tmp_path)
    ignored = int(p.stdout.split()[1], 16)
    assert not ignored & (1 << (signal.SIGPIPE - 1))


@pytest.mark.parametrize("args", [[""], ["", "x"], ["-v", ""], ["--", ""], ["proxy", ""]])
@pytest.mark.parametrize("disabled", ["", "1"])
def test_empty_command_name_is_127_with_one_line(tmp_path: Path, args: list[str], disabled: str) -> None:
    """As a shell says ``: command not found`` for ``""``; posix_spawnp and execvp raise ValueError on it."""
    env = dict(os.environ, RTK_DISABLED=disabled)
    p = subprocess.run(rtk_argv(*args), env=env, capture_output=True, timeout=60)
    assert p.returncode == 127 and p.stdout == b"" and b"Traceback" not in p.stderr
    assert p.stderr.decode().splitlines()[-1] == "rtk: command not found: '' (an empty command name)"


def _no_shebang(path: Path, body: bytes) -> Path:
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(body)
    path.chmod(0o755)
    return path


@pytest.mark.parametrize(
    ("how", "disabled"),
    [("path", ""), ("path", "1"), ("name", ""), ("name", "1"), ("filtered", ""), ("filtered", "1")],
)
def test_executable_without_shebang_runs_as_a_shell_script(tmp_path: Path, how: str, disabled: str) -> None:
    """The kernel says ENOEXEC; a shell (and execvp) runs the file with /bin/sh. The exit code is relayed."""
    name = "git" if how == "filtered" else "plainscript"
    script = _no_shebang(tmp_path / "bin" / name, b'echo "ran with $# args: $1"\nexit 7\n')
    argv = [str(script) if how == "path" else name, "one", "two"]
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"), RTK_DISABLED=disabled)
    p = subprocess.run(rtk_argv(*argv), env=env, capture_output=True, timeout=60)
    assert p.returncode == 7
    assert b"ran with 2 args: one\n" in p.stdout
    assert b"Exec format error" not in p.stderr


@pytest.mark.parametrize("disabled", ["", "1"])
def test_binary_without_shebang_stays_126(tmp_path: Path, disabled: str) -> None:
    """Like bash: a NUL byte in the first line means a binary for another machine, never run by sh."""
    binary = _no_shebang(tmp_path / "bin" / "foreign", b"\x7fELF\x00\x01\x02\necho must not run\n")
    env = dict(os.environ, RTK_DISABLED=disabled)
    p = subprocess.run(rtk_argv(str(binary)), env=env, capture_output=True, timeout=60)
    assert p.returncode == 126 and b"must not run" not in p.stdout
    assert p.stderr.decode() == f"rtk: cannot run {binary}: Exec format error\n"


@pytest.mark.skipif(sys.platform == "win32", reason="posix only")
@pytest.mark.parametrize("flags", [["--raw"], ["-n"]])
def test_rtk_read_into_a_closed_pipe_exits_as_cat_does(tmp_path: Path, flags: list[str]) -> None:
    """`cat big | head -1` is rewritten to `rtk read big | head -1`: its status is cat's, 128+SIGPIPE (it was 0)."""
    big = tmp_path / "big.txt"
    big.write_text("".join(f"{i}\n" for i in range(400_000)))
    got = []
    cat = ["cat", *[f for f in flags if f != "--raw"]]
    for cmd in ([*cat, str(big)], [*rtk_argv("read", *flags), str(big)]):
        shell = f'{" ".join(cmd)} | head -1; echo "rc=${{PIPESTATUS[0]}}" >&2'
        p = subprocess.run(["bash", "-c", shell], capture_output=True, timeout=60)
        assert b"Traceback" not in p.stderr, p.stderr
        got.append((p.stdout, p.stderr.strip().splitlines()[-1]))
    assert got[1] == got[0] and got[0][1] == b"rc=141"
