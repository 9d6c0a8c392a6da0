"""What is installed and whether it works: integrity of each recorded part, the hook command, a round trip.

Shared by ``rtk init --show``, ``rtk doctor`` and the once-a-day check. States of an
installed part: ``ok``; ``modified`` (rtk's part differs from what was recorded);
``missing`` (rtk's part is gone); ``outdated`` (this rtk would write something else:
the part is older than the installed rtk).
"""

from __future__ import annotations

import json
import os
import shlex

from rtk.agents._artifacts import Artifact, Options, Scope
from rtk.agents._install import peek as read
from rtk.agents._install import short
from rtk.agents._manifest import Manifest, sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents.registry import Integration

SAMPLE = "git status"
ALLOW_ONLY = ("codex", "cursor", "qwen")  # rewrite only with allow (see docs/agents.md)


def options_of(rec: dict[str, Any]) -> Options:
    o = rec.get("options", {})
    return Options(o.get("command", "rtk"), bool(o.get("block")), bool(o.get("suggest")))


def scope_of(rec: dict[str, Any]) -> Scope:
    return Scope(rec.get("scope") == "global", rec.get("root", ""))


class PartState:
    def __init__(self, art: Artifact | None, path: str, state: str, hook: bool) -> None:
        self.art = art
        self.path = path
        self.state = state
        self.hook = hook


def parts(integ: Integration, rec: dict[str, Any]) -> list[PartState]:
    """The state of every recorded part of one install."""
    arts = {(a.path, a.kind): a for a in integ.artifacts(scope_of(rec), options_of(rec))}
    out = []
    for r in rec["artifacts"]:
        art = arts.get((r["path"], r["kind"]))
        got = art.extract(read(r["path"])) if art is not None else None
        if got is None:
            state = "missing"
        elif sha256(got) != r["sha256"]:
            state = "modified"
        elif art is not None and art.rendered() != got:
            state = "outdated"
        else:
            state = "ok"
        out.append(PartState(art, r["path"], state, bool(r.get("hook"))))
    return out


def command_problem(command: str) -> str:
    """Why the registered rtk command cannot run ("" when its executable exists)."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return "the command cannot be parsed"
    if not argv:
        return "empty command"
    exe = argv[0]
    if not os.path.isabs(exe):
        return f"{exe} is not an absolute path (agents may not share your shell's PATH)"
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)):
        return f"{exe} does not exist or is not executable"
    return ""


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word boundary, with "…" when cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,:") + "…"


def unrecorded_hooks(integ: Integration, cwd: str) -> list[tuple[str, str]]:
    """rtk hook entries of ``integ`` that the manifest does not know (global, and the project ``cwd``):
    (file, registered command or "")."""
    out = []
    for scope in (Scope(True, ""), Scope(False, cwd)):
        for a in integ.artifacts(scope, Options("rtk", block=True)):
            if a.hook and a.extract(read(a.path)) is not None:
                executable = getattr(a, "executable", False)
                cmd = a.path if executable else registered_command(PartState(a, a.path, "ok", True))
                out.append((a.path, cmd or ""))
    return out


def sample_payload(agent: str, cwd: str, command: str = SAMPLE) -> dict[str, Any]:
    """A shell tool call of ``command`` (``git status``) in the shape ``agent`` sends."""
    cmd = {"command": command}
    snake = {"hook_event_name": "PreToolUse", "cwd": cwd, "tool_input": cmd}
    shapes: dict[str, dict[str, Any]] = {
        "claude": {**snake, "tool_name": "Bash", "permission_mode": "default"},
        "codex": {**snake, "tool_name": "Bash"},
        "droid": {**snake, "tool_name": "Execute"},
        "qwen": {**snake, "tool_name": "run_shell_command"},
        "gemini": {**snake, "hook_event_name": "BeforeTool", "tool_name": "run_shell_command"},
        "cursor": {**snake, "hook_event_name": "preToolUse", "tool_name": "Shell"},
        "kiro": {**snake, "hook_event_name": "preToolUse", "tool_name": "execute_bash"},
        "vscode": {"hookEventName": "PreToolUse", "cwd": cwd, "tool_name": "run_in_terminal", "tool_input": cmd},
        "copilot": {"cwd": cwd, "toolName": "bash", "toolArgs": json.dumps(cmd)},
        "cline": {
            "hookName": "PreToolUse",
            "workspaceRoots": [cwd],
            "preToolUse": {"toolName": "execute_command", "parameters": cmd},
        },
        "vibe": {"cwd": cwd, "hook_event_name": "pre_tool", "tool_name": "bash", "tool_input": cmd},
        "windsurf": {"agent_action_name": "pre_run_command", "tool_info": {"command_line": command, "cwd": cwd}},
    }
    return shapes[agent]


def round_trip(integ: Integration, line: str, hook_file: str = "") -> tuple[bool, str]:
    """Run the registered hook command ``line`` (or hook file; for plugins ``line`` is the rtk command,
    run as ``rtk rewrite``) on a sample call of ``git status``: (works, what it answered)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="rtk-doctor-") as cwd:
        if integ.hook is None:
            argv = [*shlex.split(line), "rewrite", SAMPLE]
            stdin = b""
        else:
            argv = [hook_file] if hook_file else ["/bin/sh", "-c", line]
            stdin = json.dumps(sample_payload(integ.hook, cwd)).encode()
        try:
            p = subprocess.run(argv, input=stdin, capture_output=True, timeout=20, cwd=cwd)
        except (OSError, subprocess.SubprocessError) as e:
            return False, f"could not run: {e}"
    out = p.stdout.decode("utf-8", "replace").strip()
    err = p.stderr.decode("utf-8", "replace").strip()
    if integ.hook is None:
        ok = p.returncode in (0, 1, 3) and (p.returncode == 1 or out.startswith("rtk "))
        return ok, f"rtk rewrite {SAMPLE!r} -> {out or '(nothing)'} (exit {p.returncode})"
    if p.returncode not in (0, 2) or (p.returncode == 2 and not err):
        return False, f"exit {p.returncode}: {clip(err or out, 200)}"
    if out:
        try:
            doc = json.loads(out)
        except ValueError:
            return False, f"stdout is not one JSON object: {clip(out, 200)}"
        if not isinstance(doc, dict):
            return False, f"stdout is not a JSON object: {clip(out, 200)}"
    rewritten = "rtk " + SAMPLE in out + err
    what = f"rewrites to `rtk {SAMPLE}`" if rewritten else "leaves the command unchanged"
    shown = (out or err or "(no output)").replace("\n", " ")
    return True, f"{what} (exit {p.returncode}): {clip(shown, 160)}"


def describe_parts(states: list[PartState]) -> list[str]:
    return [f"{s.state:<9}{short(s.path)}" for s in states]


def registered_command(state: PartState) -> str | None:
    """The command the agent will run for this hook part, read from the file as it is now."""
    from rtk.agents._artifacts import JsonHook, TomlBlock

    art = state.art
    data = read(state.path)
    if data is None or art is None:
        return None
    if isinstance(art, JsonHook):
        found = art.found(data)
        if not found:
            return None
        node: Any = found[0]["hooks"][0] if art.group is not None else found[0]
        for k in art.command_at:
            node = node.get(k) if isinstance(node, dict) else None
        return node if isinstance(node, str) else None
    if isinstance(art, TomlBlock):
        import tomllib

        block = art.extract(data) or ""
        try:
            doc = tomllib.loads(block)
            hooks = doc["hooks"]  # Vibe's hooks.toml: [[hooks]]; Codex's config.toml: [[hooks.PreToolUse]]
            cmd = hooks[0]["command"] if isinstance(hooks, list) else hooks["PreToolUse"][0]["hooks"][0]["command"]
        except (tomllib.TOMLDecodeError, KeyError, IndexError, TypeError):
            return None
        return cmd if isinstance(cmd, str) else None
    if art.path.endswith(".json"):
        try:
            cmd = json.loads(data)["hooks"][0]["action"]["command"]
        except (ValueError, KeyError, IndexError, TypeError):
            return None
        return cmd if isinstance(cmd, str) else None
    return None


class Report:
    """Everything known about one install."""

    def __init__(self, key: str, integ: Integration, rec: dict[str, Any]) -> None:
        self.key = key
        self.integ = integ
        self.rec = rec
        self.parts = parts(integ, rec)
        self.problems: list[str] = []
        for s in self.parts:
            if s.state != "ok":
                self.problems.append(f"{short(s.path)}: rtk's part is {s.state}")

    def check_command(self, run: bool) -> list[str]:
        """The hook command's checks (and the round trip when ``run``); lines to print."""
        lines = []
        opts = options_of(self.rec)
        for s in self.parts:
            if not s.hook or s.state == "missing":
                continue
            hook_file = s.path if s.art is not None and getattr(s.art, "executable", False) else ""
            cmd = opts.command if self.integ.hook is None else (hook_file or registered_command(s))
            if cmd is None:
                self.problems.append(f"{short(s.path)}: no rtk hook entry found")
                continue
            why = "" if hook_file else command_problem(cmd)
            if why:
                self.problems.append(f"{short(s.path)}: {why}")
                lines.append(f"  command  {cmd}: {why}")
                continue
            lines.append(f"  command  {cmd}: exists")
            if self.integ.kind == "rules" or opts.suggest:
                from rtk.agents._adapt import rtk_on_path

                if not rtk_on_path():
                    self.problems.append("rtk is not on PATH, so the hook never suggests the rtk form")
            if run:
                ok, what = round_trip(self.integ, cmd, hook_file)
                if ok and "unchanged" in what and self.integ.name in ALLOW_ONLY:
                    what += "; this agent needs an allow rule to rewrite ([hooks] allow in rtk's config)"
                lines.append(f"  {'works' if ok else 'FAILS':<8} {what}")
                if not ok:
                    self.problems.append(f"{short(s.path)}: the hook does not answer correctly: {what}")
        return lines


def reports() -> list[Report]:
    from rtk.agents.registry import BY_NAME

    m = Manifest.load()
    out = []
    for key, rec in sorted(m.installs.items()):
        integ = BY_NAME.get(rec.get("agent", ""))
        if integ is not None:
            out.append(Report(key, integ, rec))
    return out
