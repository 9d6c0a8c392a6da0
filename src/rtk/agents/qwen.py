"""Qwen Code: ``PreToolUse`` hook on ``run_shell_command`` (settings.json, timeouts in milliseconds).

Qwen requires ``permissionDecision`` and ``permissionDecisionReason`` with every
answer and turns ``ask`` into deny in headless runs, so the command is rewritten
only when the engine says allow; otherwise it is left unchanged (no output). A line denied
(or asked about by an ask rule, except in ``yolo``) for a command inside another's words
(``rtk proxy git push``, ``find -exec rm``), which Qwen's own rules do not see, gets
``deny`` (``ask``) without a rewrite.
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, cwd_of, hidden, hook_specific, mode_of, shell_call, tool_input, verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("run_shell_command",))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return NOTHING
    mode = mode_of(payload)
    d0 = ctx.decide(args["command"], cwd_of(payload), mode)
    h = hidden(d0, args["command"], asks=mode != "yolo")
    if h is not None:  # rtk proxy git push: Qwen's rules see rtk
        return verdict(*h), "", 0
    call = shell_call(payload, ctx, TOOLS, d0)
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
