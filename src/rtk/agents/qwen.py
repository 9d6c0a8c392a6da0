"""Qwen Code: ``PreToolUse`` hook on ``run_shell_command`` (settings.json, timeouts in milliseconds).

Qwen requires ``permissionDecision`` and ``permissionDecisionReason`` with every
answer and turns ``ask`` into deny in headless runs, so the command is rewritten
only when the engine says allow; otherwise it is left unchanged (no output).
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, cwd_of, hook_specific, rewrite, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.hook import Answer, Context

TOOLS = frozenset(("run_shell_command",))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return NOTHING
    d = rewrite(ctx, args["command"], cwd_of(payload))
    if d is None or d.verdict != "allow":
        return NOTHING
    return hook_specific(args, d), "", 0
