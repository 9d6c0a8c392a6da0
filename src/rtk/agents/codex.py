"""Codex CLI: ``PreToolUse`` hook on ``Bash`` (hooks.json), plus the AGENTS.md awareness section.

Codex applies ``updatedInput`` only with ``permissionDecision: allow`` (and rejects it
without), so the command is rewritten only when the engine says allow; when the
rules say ask, it is left unchanged (no output).
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, cwd_of, hook_specific, rewrite, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.hook import Answer, Context

TOOLS = frozenset(("Bash",))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return NOTHING
    d = rewrite(ctx, args["command"], cwd_of(payload))
    if d is None or d.verdict != "allow":
        return NOTHING
    return hook_specific(args, d, with_reason=False), "", 0
