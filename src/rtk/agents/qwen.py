"""Qwen Code: ``PreToolUse`` hook on ``run_shell_command`` (settings.json, timeouts in milliseconds).

Qwen requires ``permissionDecision`` and ``permissionDecisionReason`` with every
answer and turns ``ask`` into deny in headless runs, so the command is rewritten
only when the engine says allow; otherwise it is left unchanged (no output).
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, hook_specific, shell_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("run_shell_command",))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    call = shell_call(payload, ctx, TOOLS)
    if call is None:
        return NOTHING
    args, d = call
    if d.verdict != "allow":
        return NOTHING
    return hook_specific(args, d), "", 0


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("qwen",)
NOTE = "restart Qwen Code; disableAllHooks in settings.json turns hooks off"


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home(".qwen")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """settings.json PreToolUse hook on ^run_shell_command$ (timeout in milliseconds)."""
    import os

    from rtk.agents._artifacts import JsonHook

    d = config_dir() if scope.is_global else scope.at(".qwen")
    entry = {"type": "command", "command": opts.hook("qwen"), "timeout": 10000}
    group = {"matcher": "^run_shell_command$"}
    return [JsonHook(os.path.join(d, "settings.json"), "qwen", ("hooks", "PreToolUse"), entry, group=group)]
