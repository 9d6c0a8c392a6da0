"""Test helpers for history analysis: agent homes holding the real transcripts, and sessions built from them.

``install_real`` lays the shared real transcripts (bytes unchanged) out the way each agent
stores them. ``claude_session`` writes a Claude Code session whose every line is a copy of
a real record from ``codemie-session-4c2ddfdc`` (a Bash call and its result, a Read call
and its result) with only the command, output, ids, times and directory replaced: the
record format stays the real one, the contents are what a test needs (rtk runs, re-runs,
corrections), which no shared transcript has.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
REAL = HERE / "transcripts"
CLAUDE = REAL / "claude-code"
CODEX = REAL / "codex"
TEMPLATE = CLAUDE / "codemie-session-4c2ddfdc_cc-2.0.64.jsonl"

# Where the real files live in an agent's home (the session ids are the files' own).
CLAUDE_LAYOUT = {
    "codemie-session-196820da_cc-2.0.76.jsonl": "-Users-user-repo/196820da-1026-4b6f-a513-a6aae42da1a6.jsonl",
    "codemie-session-4c2ddfdc_cc-2.0.64.jsonl": "-tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl",
    "spotter-subagent-a7be2f0_cc-2.1.39.jsonl": (
        "-home-USER-projects-spotter-worktrees-spotter-fum/8463c716-a2ea-4c14-9efa-87158ebd9f20/subagents/agent-a7be2f0.jsonl"
    ),
    "spotter-tool-heavy_cc-2.1.38.jsonl": "-home-marco-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl",
}
CODEX_LAYOUT = {
    "rollout-codex-exec-0.77-shell.jsonl": (
        "2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl"
    ),
    "rollout-codex-tui-0.125-exec-command.jsonl": (
        "2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"
    ),
}


def homes(base: Path, mp: pytest.MonkeyPatch | None = None) -> tuple[Path, Path]:
    """``$CLAUDE_CONFIG_DIR`` and ``$CODEX_HOME`` under ``base``, set with ``mp`` (else left to the caller)."""
    claude, codex = base / "claude", base / "codex"
    (claude / "projects").mkdir(parents=True, exist_ok=True)
    (codex / "sessions").mkdir(parents=True, exist_ok=True)
    if mp is not None:
        mp.setenv("CLAUDE_CONFIG_DIR", str(claude))
        mp.setenv("CODEX_HOME", str(codex))
    return claude, codex


def install_real(base: Path, mp: pytest.MonkeyPatch | None = None, copies: int = 1) -> tuple[Path, Path]:
    """The real transcripts in agent homes; ``copies`` > 1 repeats each as more sessions."""
    claude, codex = homes(base, mp)
    for k in range(copies):
        for src, rel in CLAUDE_LAYOUT.items():
            dst = claude / "projects" / _nth(rel, k)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(CLAUDE / src, dst)
        for src, rel in CODEX_LAYOUT.items():
            dst = codex / "sessions" / _nth(rel, k)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(CODEX / src, dst)
    return claude, codex


def _nth(rel: str, k: int) -> str:
    """The k-th copy's path: another session file name (same project directory)."""
    if k == 0:
        return rel
    parts = rel.split("/")
    if "subagents" in parts:
        i = parts.index("subagents") - 1
        parts[i] = f"{parts[i]}-copy{k}"
    else:
        stem = parts[-1][: -len(".jsonl")]
        parts[-1] = f"{stem}-copy{k}.jsonl"
    return "/".join(parts)


def _templates() -> dict[str, dict[str, Any]]:
    lines = [json.loads(x) for x in TEMPLATE.read_text(encoding="utf-8").splitlines()]
    out: dict[str, dict[str, Any]] = {}
    for d in lines:
        content = (d.get("message") or {}).get("content")
        if not isinstance(content, list) or not content:
            continue
        block = content[0]
        if block.get("type") == "tool_use" and block.get("name") == "Bash":
            out["bash"] = d
        elif block.get("type") == "tool_use" and block.get("name") == "Read":
            out["read"] = d
        elif block.get("type") == "tool_result":
            if block["tool_use_id"].endswith("AQai4F"):
                out["bash_result"] = d
            elif block["tool_use_id"].endswith("ULmY5m"):
                out["read_result"] = d
    return out


def iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t * 1000) % 1000:03d}Z"


def claude_session(
    claude_home: Path,
    steps: list[dict[str, Any]],
    *,
    cwd: str = "/work/demo",
    session: str = "0c0ffee0-0000-4000-8000-000000000001",
    start: float | None = None,
    gap: float = 20.0,
) -> Path:
    """Write a Claude Code session of ``steps``; return its path.

    A step is ``{"command": str, "output": str, "exit": int}`` (exit != 0 is an error
    result reading ``Exit code N``), ``{"read": path, "output": str}`` for a Read call, and
    may hold ``"parallel": True`` (issued before the previous result came back).
    """
    tpl = _templates()
    t = start if start is not None else time.time() - 3600
    lines: list[str] = []
    for i, step in enumerate(steps):
        if not step.get("parallel"):
            t += gap
        tid = f"toolu_test_{session[:8]}_{i:04d}"
        use = copy.deepcopy(tpl["read" if "read" in step else "bash"])
        res = copy.deepcopy(tpl["read_result" if "read" in step else "bash_result"])
        for d in (use, res):
            d["cwd"] = cwd
            d["sessionId"] = session
            d["uuid"] = f"{tid}-{'u' if d is use else 'r'}"
        use["message"]["id"] = f"msg_test_{session[:8]}_{i:04d}"
        block = use["message"]["content"][0]
        block["id"] = tid
        if "read" in step:
            block["input"] = {"file_path": step["read"]}
        else:
            block["input"] = {"command": step["command"], "description": "test step"}
        use["timestamp"] = iso(t)
        out = step.get("output", "")
        code = int(step.get("exit", 0))
        rb = res["message"]["content"][0]
        rb["tool_use_id"] = tid
        if code:
            rb["content"] = f"Exit code {code}\n{out}"
            rb["is_error"] = True
            res["toolUseResult"] = f"Error: Exit code {code}\n{out}"
        else:
            rb["content"] = out
            rb["is_error"] = False
            if "read" not in step:
                res["toolUseResult"] = {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}
        res["timestamp"] = iso(t + 2)
        lines.append(json.dumps(use))
        lines.append(json.dumps(res))
    path = claude_home / "projects" / slug_of(cwd) / f"{session}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def slug_of(path: str) -> str:
    return "".join(c if (c.isascii() and (c.isalnum() or c == "-")) else "-" for c in path)


def rtk(
    *args: str, cwd: Path | str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rtk", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=env,
    )


def rtk_json(*args: str, cwd: Path | str | None = None) -> Any:
    p = rtk(*args, "--format", "json", cwd=cwd)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def track(cmd: str, filt: str, tin: int, tout: int, ts: str, project: str, tee: str = "") -> None:
    """A row in the tracking database, as an rtk run records it."""
    from rtk.tracking import db

    conn = db.connect()
    conn.execute(
        "INSERT INTO commands (timestamp, original_cmd, rtk_cmd, filter, input_tokens, output_tokens, saved_tokens,"
        " savings_pct, exec_time_ms, project_path, exit_code, tee_path) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (ts, cmd, "rtk " + cmd, filt, tin, tout, tin - tout, (tin - tout) * 100.0 / tin if tin else 0.0, 10,
         project, 0, tee),
    )  # fmt: skip
    conn.close()
