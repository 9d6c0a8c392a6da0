"""Kiro CLI: ``preToolUse`` hook (opt-in block mode), plus the steering file.

Kiro cannot change a command; its hooks block with exit 2 and a message on stderr.
Without ``--block`` the hook does nothing; with it, a command rtk can shorten is
blocked with the suggestion to run the rtk form.
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, cwd_of, suggestion, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.hook import Answer, Context

TOOLS = frozenset(("execute_bash", "executeBash", "shell"))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    if "--block" not in ctx.flags:
        return NOTHING
    args = tool_input(payload, TOOLS)
    if args is None:
        return NOTHING
    new = suggestion(ctx, args["command"], cwd_of(payload))
    if new is None:
        return NOTHING
    return None, f'Use "{new}" instead (compact output).\n', 2
