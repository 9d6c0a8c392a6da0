"""Codex CLI: ``PreToolUse`` hook on ``Bash`` (hooks.json), plus the AGENTS.md awareness section.

Codex applies ``updatedInput`` only with ``permissionDecision: allow`` (and rejects it
without), so the command is rewritten only when the engine says allow; when the
rules say ask, it is left unchanged (no output). A line denied for a command inside
another's words (``rtk proxy git push``, ``find -exec rm``), which Codex's rules do not see,
gets ``permissionDecision: deny``; Codex hooks cannot ask, so a prompt rule matching there
gets deny too, with the advice to run the command on its own (Codex then prompts).
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, cwd_of, hidden, hook_specific, mode_of, refusal, shell_call, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("Bash",))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return NOTHING
    d0 = ctx.decide(args["command"], cwd_of(payload), mode_of(payload))
    h = hidden(d0, args["command"])
    if h is not None:  # rtk proxy git push: Codex's rules see rtk; a deny needs a non-empty reason
        out = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": refusal(*h)}
        return {"hookSpecificOutput": out}, "", 0
    call = shell_call(payload, ctx, TOOLS, d0)
    if call is None:
        return NOTHING
    args, d = call
    if d.verdict != "allow":
        return NOTHING
    return hook_specific(args, d, with_reason=False), "", 0


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("codex",)
NOTE = "review and trust the hook in Codex's /hooks (trust is by hash: re-trust after rtk init changes it)"


def config_dir() -> str:
    from rtk.agents._artifacts import env_dir

    return env_dir("CODEX_HOME", ".codex")


def _toml_hooks(path: str) -> bool:
    """Whether config.toml already keeps hooks (then rtk's hook goes there too, as a marked block)."""
    import tomllib

    try:
        with open(path, "rb") as f:
            return "hooks" in tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return False


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """hooks.json (or config.toml when it has a [hooks] table) + the AGENTS.md section (global: personal;
    project: the shared text, true for teammates without rtk or without the hook)."""
    import json
    import os

    from rtk.agents._artifacts import JsonHook, Section, TomlBlock
    from rtk.agents.registry import agents_md, awareness

    d = config_dir() if scope.is_global else scope.at(".codex")
    command = opts.hook("codex")
    md = os.path.join(d, "AGENTS.md") if scope.is_global else scope.at("AGENTS.md")
    toml = os.path.join(d, "config.toml")
    hook: Artifact
    if _toml_hooks(toml):
        body = (
            '[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n[[hooks.PreToolUse.hooks]]\ntype = "command"\n'
            f"command = {json.dumps(command)}\ntimeout = 30\n"
        )
        hook = TomlBlock(toml, body, hook=True)
    else:
        entry = {"type": "command", "command": command, "timeout": 30}
        hook = JsonHook(
            os.path.join(d, "hooks.json"), "codex", ("hooks", "PreToolUse"), entry, group={"matcher": "Bash"}
        )
    # The project's AGENTS.md is read by the whole team (and by Amp, whose section it shares).
    return [hook, Section(md, awareness() if scope.is_global else agents_md())]
