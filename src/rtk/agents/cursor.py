"""Cursor: ``preToolUse`` hook on ``Shell`` (hooks.json); ``{}`` is the answer whenever nothing changes.

Cursor applies ``updated_input`` only together with ``allow`` (not with ``ask``), so
the command is rewritten only when the engine says allow; otherwise ``{}``.
"""

from __future__ import annotations

from rtk.agents._adapt import cwd_of, replaced, rewrite, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.hook import Answer, Context

TOOLS = frozenset(("Shell",))
EMPTY: Answer = ({}, "", 0)


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return EMPTY
    d = rewrite(ctx, args["command"], cwd_of(payload))
    if d is None or d.verdict != "allow":
        return EMPTY
    return {"continue": True, "permission": "allow", "updated_input": replaced(args, d.rewritten or "")}, "", 0
