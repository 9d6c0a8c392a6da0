"""`rtk hook` as the host runs it: through the installed launcher, stdin with a deadline, exactly its modules."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from hookcases import VECTORS, allow, rtk_bin

from helpers import probe_argv

LAUNCHER = str(Path(rtk_bin()) / "rtk")


def hook(agent: str, stdin: bytes, *flags: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    e = dict(os.environ, PATH=rtk_bin() + os.pathsep + os.environ["PATH"], **env)
    return subprocess.run([LAUNCHER, "hook", agent, *flags], input=stdin, capture_output=True, timeout=30, env=e)


def test_launcher_round_trip_claude() -> None:
    allow("claude", "git status")
    p = hook("claude", json.dumps(VECTORS["TV-CLAUDE-1"][0]).encode())
    assert (p.returncode, p.stderr) == (0, b"")
    assert json.loads(p.stdout) == VECTORS["TV-CLAUDE-1"][1]


def test_launcher_block_mode_exit_2() -> None:
    p = hook("kiro", json.dumps(VECTORS["TV-KIRO-1"][0]).encode(), "--block")
    assert (p.returncode, p.stdout, p.stderr) == (2, b"", b'Use "rtk git status" instead (compact output).\n')


def test_huge_stdin_is_a_noop() -> None:
    big = json.dumps({"tool_name": "Bash", "tool_input": {"command": "git status", "pad": "x" * (9 << 20)}})
    for agent, noop in (("claude", b""), ("cursor", b"{}\n"), ("gemini", b"{}\n")):
        p = hook(agent, big.encode())
        assert (p.returncode, p.stdout, p.stderr) == (0, noop, b"")


def test_closed_stdin_is_a_noop() -> None:
    e = dict(os.environ)
    p = subprocess.run([LAUNCHER, "hook", "cursor"], stdin=subprocess.DEVNULL, capture_output=True, timeout=30, env=e)
    assert (p.returncode, p.stdout, p.stderr) == (0, b"{}\n", b"")
    p = subprocess.run(
        [LAUNCHER, "hook", "cursor"], stdin=subprocess.DEVNULL, capture_output=True, timeout=30, env=e, close_fds=True
    )
    assert p.returncode == 0


def test_stdin_never_closed_answers_once_the_object_is_complete() -> None:
    """WSL hosts may never close stdin: the complete object is enough."""
    proc = subprocess.Popen(
        [LAUNCHER, "hook", "cursor"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    t0 = time.monotonic()
    proc.stdin.write(json.dumps({"tool_name": "Read", "tool_input": {}}).encode())
    proc.stdin.flush()
    out = proc.stdout.read()  # until the hook exits, with its stdin still open
    elapsed = time.monotonic() - t0
    assert proc.wait(timeout=30) == 0
    proc.stdin.close()
    assert out == b"{}\n" and elapsed < 2.5


def test_silent_stdin_gives_up_after_the_deadline() -> None:
    code = (
        "import os, sys, time\n"
        "r, w = os.pipe()\n"
        "os.dup2(r, 0)\n"
        "from rtk import hook\n"
        "t = time.monotonic(); data = hook.read_stdin(seconds=0.3); print(data, round(time.monotonic() - t, 1))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert p.stdout.split() == ["b''", "0.3"], p.stdout + p.stderr


# `rtk hook claude` on a shell command: exactly these modules, nothing else (no json, no re).
HOOK_CLAUDE_MODULES = {
    "__future__", "_json", "select", "rtk", "rtk.__main__", "rtk._fastjson", "rtk.agents", "rtk.agents._adapt",
    "rtk.agents.claude", "rtk.filters", "rtk.hook", "rtk.paths", "rtk.rewrite", "rtk.rewrite.engine",
    "rtk.rewrite.launch", "rtk.rewrite.matching", "rtk.rewrite.permissions", "rtk.rewrite.rules", "rtk.shell",
    "rtk.shell.lexer", "rtk.shell.segments", "rtk.shell.simple",
}  # fmt: skip


def modules(agent: str, payload: object) -> set[str]:
    p = subprocess.run(
        probe_argv("hook", agent),
        input=json.dumps(payload).encode(),
        capture_output=True,
        timeout=60,
        env=dict(os.environ),
    )
    line = next(ln for ln in p.stderr.decode().splitlines() if ln.startswith("MODULES "))
    return set(line.split()[1:])


def test_hook_claude_imports_exactly_its_modules() -> None:
    mods = modules("claude", VECTORS["TV-CLAUDE-1"][0])
    assert mods == HOOK_CLAUDE_MODULES, sorted(mods ^ HOOK_CLAUDE_MODULES)


def test_hook_claude_with_settings_stays_light() -> None:
    allow("claude", "git status")
    modules("claude", VECTORS["TV-CLAUDE-1"][0])  # parses the settings once, writes the cache
    mods = modules("claude", VECTORS["TV-CLAUDE-1"][0])
    assert not mods & {"json", "re", "tomllib", "subprocess", "typing", "enum"}, sorted(mods)
    assert mods - HOOK_CLAUDE_MODULES <= {"rtk.config"}


def test_non_shell_tool_never_loads_the_engine() -> None:
    p = dict(VECTORS["TV-CLAUDE-1"][0], tool_name="Edit")
    mods = modules("claude", p)
    assert not {m for m in mods if m.startswith("rtk.rewrite")}
    assert "json" not in mods and "re" not in mods


def test_a_broken_config_never_prints_on_the_hooks_stderr() -> None:
    cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('[hooks]\nallow = "git status"\nnonsense = 1\n[nosection]\n')
    for agent, tv in (("codex", "TV-CODEX-1"), ("gemini", "TV-GEMINI-1"), ("copilot", "TV-COPILOTCLI-1")):
        p = hook(agent, json.dumps(VECTORS[tv][0]).encode())
        assert (p.returncode, p.stderr) == (0, b""), (agent, p.stderr)
