"""Per-agent descriptions for the hook tests: base payload, how to change tool and command, how to read answers."""

from __future__ import annotations

import copy
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
VECTORS: dict[str, list[Any]] = json.loads((HERE / "vectors.json").read_text(encoding="utf-8"))


def _snake_tool(p: dict[str, Any], name: str) -> None:
    p["tool_name"] = name


def _snake_cmd(p: dict[str, Any], cmd: str) -> None:
    p["tool_input"]["command"] = cmd


def _snake_extra(p: dict[str, Any]) -> None:
    p["x_unknown_top"] = {"nested": [1, 2]}
    p["tool_input"]["x_unknown_arg"] = "kept"


def _copilot_tool(p: dict[str, Any], name: str) -> None:
    p["toolName"] = name


def _copilot_cmd(p: dict[str, Any], cmd: str) -> None:
    args = json.loads(p["toolArgs"])
    args["command"] = cmd
    p["toolArgs"] = json.dumps(args)


def _copilot_extra(p: dict[str, Any]) -> None:
    p["x_unknown_top"] = True
    args = json.loads(p["toolArgs"])
    args["x_unknown_arg"] = "kept"
    p["toolArgs"] = json.dumps(args)


def _cline_tool(p: dict[str, Any], name: str) -> None:
    p["preToolUse"]["toolName"] = name


def _cline_cmd(p: dict[str, Any], cmd: str) -> None:
    p["preToolUse"]["parameters"]["command"] = cmd


def _cline_extra(p: dict[str, Any]) -> None:
    p["x_unknown_top"] = 1
    p["preToolUse"]["parameters"]["x_unknown_arg"] = "kept"


def _windsurf_tool(p: dict[str, Any], name: str) -> None:
    p["agent_action_name"] = "pre_read_code" if name else name


def _windsurf_cmd(p: dict[str, Any], cmd: str) -> None:
    p["tool_info"]["command_line"] = cmd


def _windsurf_extra(p: dict[str, Any]) -> None:
    p["x_unknown_top"] = 1
    p["tool_info"]["x_unknown_arg"] = "kept"


def _hso(key: str) -> Callable[[bytes, bytes], dict[str, Any] | None]:
    def read(out: bytes, err: bytes) -> dict[str, Any] | None:
        if not out:
            return None
        doc = json.loads(out)
        inner = doc.get("hookSpecificOutput", {})
        return inner.get(key) if isinstance(inner, dict) else None

    return read


def _flat(key: str) -> Callable[[bytes, bytes], dict[str, Any] | None]:
    def read(out: bytes, err: bytes) -> dict[str, Any] | None:
        return json.loads(out).get(key) if out else None

    return read


def _vibe(out: bytes, err: bytes) -> dict[str, Any] | None:
    if not out:
        return None
    inner = json.loads(out).get("hook_specific_output", {})
    return inner.get("tool_input") if isinstance(inner, dict) else None


def _from_text(out: bytes, err: bytes) -> dict[str, Any] | None:
    text = (json.dumps(json.loads(out), ensure_ascii=False) if out else "") + err.decode()
    m = re.search(r'(?:`|")(rtk [^`"]+)(?:`|")', text)
    return {"command": m.group(1)} if m else None


class Agent:
    """How to drive one hook adapter in the tests."""

    def __init__(
        self,
        name: str,
        vector: str,
        set_tool: Callable[[dict[str, Any], str], None],
        set_cmd: Callable[[dict[str, Any], str], None],
        extra: Callable[[dict[str, Any]], None],
        rewritten: Callable[[bytes, bytes], dict[str, Any] | None],
        noop: bytes = b"",
        flags: tuple[str, ...] = (),
        echoes_input: bool = True,
        ask: str = "",
    ) -> None:
        self.name = name
        self.vector = vector
        self.set_tool = set_tool
        self.set_cmd = set_cmd
        self.extra = extra
        self.rewritten = rewritten
        self.noop = noop
        self.flags = list(flags)
        self.echoes_input = echoes_input  # the answer carries the whole tool input
        self.ask = ask  # what an "ask" verdict gives: ask | rewrite (no decision) | none | suggest

    def payload(self) -> dict[str, Any]:
        return copy.deepcopy(VECTORS[self.vector][0])

    def __repr__(self) -> str:
        return self.name


SNAKE = (_snake_tool, _snake_cmd, _snake_extra)
AGENTS = [
    Agent("claude", "TV-CLAUDE-1", *SNAKE, _hso("updatedInput"), ask="ask"),
    Agent("vscode", "TV-VSCODE-1", *SNAKE, _hso("updatedInput"), ask="ask"),
    Agent("copilot", "TV-COPILOTCLI-1", _copilot_tool, _copilot_cmd, _copilot_extra, _flat("modifiedArgs"), ask="rewrite"),
    Agent("cursor", "TV-CURSOR-1", *SNAKE, _flat("updated_input"), noop=b"{}\n", ask="none"),
    Agent("gemini", "TV-GEMINI-1", *SNAKE, _hso("tool_input"), noop=b"{}\n", ask="rewrite"),
    Agent("codex", "TV-CODEX-1", *SNAKE, _hso("updatedInput"), ask="none"),
    Agent("qwen", "TV-QWEN-1", *SNAKE, _hso("updatedInput"), ask="none"),
    Agent("droid", "TV-DROID-1", *SNAKE, _hso("updatedInput"), ask="rewrite"),
    Agent("vibe", "TV-VIBE-1", *SNAKE, _vibe, ask="rewrite"),
    Agent(
        "cline", "TV-CLINE-1", _cline_tool, _cline_cmd, _cline_extra, _from_text,
        noop=b'{"cancel":false}\n', echoes_input=False, ask="suggest",
    ),
    Agent(
        "windsurf", "TV-WINDSURF-1", _windsurf_tool, _windsurf_cmd, _windsurf_extra, _from_text,
        flags=("--block",), echoes_input=False, ask="suggest",
    ),
    Agent("kiro", "TV-KIRO-1", *SNAKE, _from_text, flags=("--block",), echoes_input=False, ask="suggest"),
]  # fmt: skip
BY_NAME = {a.name: a for a in AGENTS}


# Each host's own settings file and how a rule is written there (see rtk.rewrite.hostperms; Codex's
# rules file and VS Code's autoApprove map are written by allow() itself);
# a kind a host has no list for (Gemini's and Cursor's ask) goes to rtk's [hooks], which still applies.
HOST_RULES: dict[str, tuple[str, dict[str, tuple[str, ...]], str]] = {
    "claude": (".claude/settings.json", {k: ("permissions", k) for k in ("allow", "ask", "deny")}, "Bash({})"),
    "qwen": (".qwen/settings.json", {k: ("permissions", k) for k in ("allow", "ask", "deny")}, "Bash({})"),
    "gemini": (".gemini/settings.json", {"allow": ("tools", "allowed"), "deny": ("tools", "exclude")},
               "run_shell_command({})"),
    "cursor": (".cursor/cli-config.json", {"allow": ("permissions", "allow"), "deny": ("permissions", "deny")},
               "Shell({})"),
    "droid": (".factory/settings.json", {"allow": ("commandAllowlist",), "ask": ("commandDenylist",),
              "deny": ("commandBlocklist",)}, "{}"),
}  # fmt: skip


def allow(agent: str, *patterns: str, kind: str = "allow") -> None:
    """Permission rules for ``agent``: the host's own settings file, or rtk's config for the others."""
    home = Path(os.environ["HOME"])
    spec = HOST_RULES.get(agent)
    if agent == "codex":  # Codex's execpolicy rules file: a prefix_rule per pattern (prefixes only)
        decision = {"allow": "allow", "ask": "prompt", "deny": "forbidden"}[kind]
        path = home / ".codex" / "rules" / "default.rules"
        path.parent.mkdir(parents=True, exist_ok=True)
        if kind == "allow" and "*" in patterns:  # every command: approval_policy = "never"
            (home / ".codex" / "config.toml").write_text('approval_policy = "never"\n')
            patterns = tuple(p for p in patterns if p != "*")
        path.write_text(
            "".join(
                f"prefix_rule(pattern={json.dumps(p.removesuffix(':*').split())}, decision={json.dumps(decision)})\n"
                for p in patterns
            )
        )
    elif agent == "vscode" and kind in ("allow", "ask"):  # chat.tools.terminal.autoApprove: true / false
        path = Path(os.environ["XDG_CONFIG_HOME"]) / "Code" / "User" / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        rules = {p.removesuffix(":*"): kind == "allow" for p in patterns if p != "*"}
        doc = {"chat.tools.terminal.autoApprove": rules}
        if kind == "allow" and "*" in patterns:  # every command: the global auto-approve
            doc["chat.tools.global.autoApprove"] = True
        path.write_text(json.dumps(doc))
    elif spec is not None and kind in spec[1]:
        rel, keys, fmt = spec
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        # Hosts other than Claude Code and Qwen Code match a prefix: `git push:*` is written `git push`.
        plain = fmt.startswith("Bash")
        doc: dict[str, Any] = {}
        cur = doc
        for k in keys[kind][:-1]:
            cur = cur.setdefault(k, {})
        cur[keys[kind][-1]] = [fmt.format(p if plain else p.removesuffix(":*")) for p in patterns]
        path.write_text(json.dumps(doc))
    else:
        cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
        cfg.parent.mkdir(parents=True, exist_ok=True)
        cfg.write_text(f"[hooks]\n{kind} = {json.dumps(list(patterns))}\n")
    from rtk import config
    from rtk.rewrite import engine

    config.reset()
    engine.reset()


def rtk_bin() -> str:
    """The directory of this installation's ``rtk`` launcher (pip puts it in the scripts directory)."""
    from rtk.agents.registry import launcher

    exe = launcher()
    assert exe, f"no rtk launcher for {sys.executable}: pip install -e . first"
    return os.path.dirname(exe)
