"""The OpenCode and Pi plugins: `tsc --noEmit` against the pinned types, and runs under node on fake tool calls.

Needs node and `npm install` in tests/ts (`.ci/run` does it); skipped cleanly otherwise.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from hookcases import VECTORS, rtk_bin

from rtk.agents._artifacts import Options
from rtk.agents.registry import plugin_source

TS = Path(__file__).resolve().parent.parent / "ts"
TEMPLATES = Path(__file__).resolve().parent.parent.parent / "src" / "rtk" / "agents" / "templates"
NODE = shutil.which("node")
TSC = TS / "node_modules" / ".bin" / "tsc"

needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")
needs_modules = pytest.mark.skipif(
    not (TS / "node_modules" / "typescript").is_dir() or not (TS / "node_modules" / "@opencode-ai" / "plugin").is_dir(),
    reason="tests/ts/node_modules is missing (run: cd tests/ts && npm install --no-save)",
)
pytestmark = [needs_node, needs_modules]


def tsc(project: Path) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run([NODE, str(TSC), "-p", str(project)], capture_output=True, text=True, timeout=300)


def test_plugins_type_check_against_the_pinned_types() -> None:
    p = tsc(TS / "tsconfig.json")
    assert p.returncode == 0, p.stdout + p.stderr


def test_type_check_catches_a_wrong_hook(tmp_path: Path) -> None:
    """The check can fail: a misspelt OpenCode hook name or a wrong argument type is an error."""
    bad = (TEMPLATES / "opencode.ts").read_text().replace('"tool.execute.before"', '"tool.execute.bfore"')
    (tmp_path / "bad.ts").write_text(bad)
    config = {"extends": str(TS / "tsconfig.json"), "files": [str(tmp_path / "bad.ts")]}
    (tmp_path / "tsconfig.json").write_text(json.dumps(config))
    p = tsc(tmp_path)
    assert p.returncode != 0 and "bfore" in p.stdout, p.stdout


def fake_rtk(tmp_path: Path, body: str) -> str:
    exe = tmp_path / "fake-rtk"
    exe.write_text("#!/bin/sh\n" + f'echo "$@" >> "{tmp_path}/calls"\n' + body + "\n")
    exe.chmod(0o755)
    return str(exe)


def run_plugin(tmp_path: Path, kind: str, rtk: str, call: dict[str, Any]) -> dict[str, Any]:
    src = tmp_path / f"{kind}.ts"
    src.write_text(plugin_source(f"{kind}.ts", Options(rtk)))
    assert NODE is not None
    p = subprocess.run(
        [NODE, str(TS / "harness.mjs"), kind, str(src), json.dumps(call)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=TS,
    )
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)  # type: ignore[no-any-return]


def opencode_call(tool: str = "bash") -> dict[str, Any]:
    return {
        "input": {
            "tool": tool,
            "sessionID": "ses_01JD8X4K2M9Q7R5T3V1W0YZABC",
            "callID": "call_01JD8X4N6P8S0U2W4Y6A8C0E2G",
        },
        "output": {"args": {"command": "git status", "description": "Shows working tree status", "timeout": 120000}},
    }


def test_opencode_vector_with_the_real_rtk(tmp_path: Path) -> None:
    r = run_plugin(tmp_path, "opencode", str(Path(rtk_bin()) / "rtk"), opencode_call())
    assert r["threw"] is None and r["returned"] is None
    assert r["after"]["args"] == {
        "command": "rtk git status",
        "description": "Shows working tree status",
        "timeout": 120000,
    }
    assert r["exports"] == ["RtkPlugin"]  # OpenCode calls every exported function as a plugin


def test_pi_vector_with_the_real_rtk(tmp_path: Path) -> None:
    event = VECTORS["TV-PI-1"][0]
    r = run_plugin(tmp_path, "pi", str(Path(rtk_bin()) / "rtk"), event)
    assert r["threw"] is None and r["returned"] is None
    assert r["after"]["input"] == {"command": "rtk git status"}
    assert r["after"] == dict(event, input={"command": "rtk git status"})


@pytest.mark.parametrize("kind", ["opencode", "pi"])
@pytest.mark.parametrize(
    ("body", "rewritten"),
    [
        ("echo 'rtk git status'; exit 0", True),  # allowed
        ("echo 'rtk git status'; exit 3", True),  # rewrite, ask as usual: still a rewrite
        ("exit 1", False),  # nothing to rewrite
        ("echo 'rtk git status'; exit 2", False),  # denied: the host decides on the original
        ("echo 'Traceback (most recent call last)' >&2; exit 70", False),  # rtk crashed
        ("exit 0", False),  # exit 0 with no output
    ],
)
def test_plugins_follow_the_rewrite_contract(kind: str, body: str, rewritten: bool, tmp_path: Path) -> None:
    rtk = fake_rtk(tmp_path, body)
    call = (
        opencode_call()
        if kind == "opencode"
        else {"type": "tool_call", "toolName": "bash", "input": {"command": "git status"}}
    )
    r = run_plugin(tmp_path, kind, rtk, call)
    assert r["threw"] is None
    args = r["after"]["args"] if kind == "opencode" else r["after"]["input"]
    assert args["command"] == ("rtk git status" if rewritten else "git status")
    host = "--host opencode " if kind == "opencode" else ""  # OpenCode's own permission patterns are read
    assert (tmp_path / "calls").read_text() == f"rewrite {host}-- git status\n"


@pytest.mark.parametrize("kind", ["opencode", "pi"])
def test_missing_rtk_is_swallowed(kind: str, tmp_path: Path) -> None:
    call = (
        opencode_call()
        if kind == "opencode"
        else {"type": "tool_call", "toolName": "bash", "input": {"command": "git status"}}
    )
    r = run_plugin(tmp_path, kind, str(tmp_path / "no-such-rtk"), call)
    assert r["threw"] is None
    args = r["after"]["args"] if kind == "opencode" else r["after"]["input"]
    assert args["command"] == "git status"


@pytest.mark.parametrize("kind", ["opencode", "pi"])
def test_hanging_rtk_times_out_and_is_swallowed(kind: str, tmp_path: Path) -> None:
    rtk = fake_rtk(tmp_path, "sleep 20; echo 'rtk git status'")
    call = (
        opencode_call()
        if kind == "opencode"
        else {"type": "tool_call", "toolName": "bash", "input": {"command": "git status"}}
    )
    t0 = time.monotonic()
    r = run_plugin(tmp_path, kind, rtk, call)
    assert time.monotonic() - t0 < 15
    assert r["threw"] is None
    args = r["after"]["args"] if kind == "opencode" else r["after"]["input"]
    assert args["command"] == "git status"


@pytest.mark.parametrize("kind", ["opencode", "pi"])
def test_other_tools_are_untouched_and_rtk_is_not_called(kind: str, tmp_path: Path) -> None:
    rtk = fake_rtk(tmp_path, "echo 'rtk git status'")
    if kind == "opencode":
        call = opencode_call("read")
    else:
        call = {"type": "tool_call", "toolName": "read", "input": {"command": "git status", "path": "x"}}
    r = run_plugin(tmp_path, kind, rtk, call)
    assert r["threw"] is None
    assert r["after"] == (call["output"] if kind == "opencode" else call)
    assert not (tmp_path / "calls").exists()


@pytest.mark.parametrize("kind", ["opencode", "pi"])
def test_malformed_calls_do_not_throw(kind: str, tmp_path: Path) -> None:
    rtk = fake_rtk(tmp_path, "echo 'rtk git status'")
    calls: list[dict[str, Any]]
    if kind == "opencode":
        calls = [
            {"input": {"tool": "bash"}, "output": {"args": None}},
            {"input": {"tool": "bash"}, "output": {"args": {"command": 5}}},
        ]
    else:
        calls = [{"toolName": "bash", "input": None}, {"toolName": "bash", "input": {"command": ["git"]}}]
    for call in calls:
        assert run_plugin(tmp_path, kind, rtk, call)["threw"] is None


def test_plugin_source_writes_the_launcher_path() -> None:
    src = plugin_source("opencode.ts", Options(shlex.quote("/opt/my rtk/bin/rtk")))
    assert 'const RTK: string = "/opt/my rtk/bin/rtk" //' in src
