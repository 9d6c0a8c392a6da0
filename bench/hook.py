"""Benchmark for ``rtk hook claude`` (loaded by bench/run.py, which calls ``run(bench)``).

hook-latency: the installed launcher answering a typical Claude Code ``PreToolUse``
payload (TV-CLAUDE-1 shape: ``git status`` with a description and timeout), with a
settings file that allows it (allow answer; the json parse is cached after the
first run) and with no settings at all (ask answer), and a non-shell tool call
(``Edit``, the path every other tool call takes), each against ``python -I -c pass``.
Budget: median <= 2 x floor for each.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

PAYLOAD = {
    "session_id": "3f2a9c1e-7b4d-4e21-9a0f-5c6d7e8f9a01",
    "transcript_path": "/home/dev/.claude/projects/-home-dev-app/3f2a9c1e.jsonl",
    "cwd": "",
    "permission_mode": "default",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "git status", "description": "Show working tree status", "timeout": 120000},
    "tool_use_id": "toolu_01AbCdEfGhIjKlMnOpQrStUv",
}


def _spawn(argv: list[str], env: dict[str, str], stdin: str | None) -> tuple[float, int, bytes]:
    out_r, out_w = os.pipe()
    fd_in = os.open(stdin or os.devnull, os.O_RDONLY)
    try:
        t0 = time.perf_counter()
        pid = os.posix_spawn(
            argv[0], argv, env, file_actions=[(os.POSIX_SPAWN_DUP2, fd_in, 0), (os.POSIX_SPAWN_DUP2, out_w, 1)]
        )
        os.close(out_w)
        chunks = []
        while chunk := os.read(out_r, 65536):
            chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        return time.perf_counter() - t0, os.waitstatus_to_exitcode(status), b"".join(chunks)
    finally:
        os.close(fd_in)
        os.close(out_r)


def run(bench: Any) -> None:
    tmp = Path(bench.tmp)
    project = tmp / "hook-project"
    project.mkdir(exist_ok=True)
    home = tmp / "hook-home"
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"allow": ["Bash(git status)"]}}))
    bare = tmp / "hook-bare"
    bare.mkdir(exist_ok=True)
    shell = tmp / "hook-shell.json"
    shell.write_text(json.dumps(dict(PAYLOAD, cwd=str(project))))
    edit = tmp / "hook-edit.json"
    edit.write_text(json.dumps(dict(PAYLOAD, cwd=str(project), tool_name="Edit", tool_input={"file_path": "/x"})))
    floor = [bench.python, "-I", "-c", "pass"]
    hook = [bench.rtk, "hook", "claude"]
    cases = {
        "floor": (floor, bench.env, None, b""),
        "allow": (hook, dict(bench.env, HOME=str(home)), str(shell), b'"permissionDecision":"allow"'),
        "ask": (hook, dict(bench.env, HOME=str(bare)), str(shell), b'"permissionDecision":"ask"'),
        "other_tool": (hook, dict(bench.env, HOME=str(home)), str(edit), b""),
    }
    samples: dict[str, list[float]] = {k: [] for k in cases}
    for i in range(bench.runs + 3):  # interleaved, 3 warm-up rounds
        for name, (argv, env, stdin, want) in cases.items():
            t, code, out = _spawn(argv, env, stdin)
            if code != 0 or want not in out or (not want and out):
                raise SystemExit(f"bench: hook {name} answered {out!r} (exit {code})")
            if i >= 3:
                samples[name].append(t)
    m = {k: statistics.median(v) for k, v in samples.items()}
    f = m["floor"]
    if bench.floor is None:
        bench.floor = f
    worst = max(m["allow"], m["ask"], m["other_tool"]) / f
    bench.record(
        "hook-latency",
        {
            "floor_ms": round(f * 1000, 2),
            "hook_allow_ms": round(m["allow"] * 1000, 2),
            "hook_ask_ms": round(m["ask"] * 1000, 2),
            "hook_other_tool_ms": round(m["other_tool"] * 1000, 2),
            "ratio_allow": round(m["allow"] / f, 2),
            "ratio_ask": round(m["ask"] / f, 2),
            "ratio_other_tool": round(m["other_tool"] / f, 2),
        },
        "median <= 2 x floor",
        worst <= 2.0,
    )
