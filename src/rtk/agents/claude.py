"""Claude Code: ``PreToolUse`` command hook on ``Bash`` (settings.json), plus the CLAUDE.md awareness section.

Verdicts: the engine reads Claude Code's own permission rules. allow -> ``allow`` with
``updatedInput``; ask -> ``ask`` with ``updatedInput`` (the user confirms the rewritten
command), except in ``bypassPermissions``/``dontAsk`` sessions, where a prompt would be
unwanted or refused: the command is left unchanged. deny/none -> no output.
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, cwd_of, hook_specific, rewrite, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.hook import Answer, Context

TOOLS = frozenset(("Bash",))
NO_PROMPT_MODES = frozenset(("bypassPermissions", "dontAsk"))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return NOTHING
    d = rewrite(ctx, args["command"], cwd_of(payload))
    if d is None or (d.verdict == "ask" and payload.get("permission_mode") in NO_PROMPT_MODES):
        return NOTHING
    return hook_specific(args, d), "", 0
