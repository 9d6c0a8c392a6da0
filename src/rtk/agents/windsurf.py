"""Windsurf (Cascade): ``pre_run_command`` hook (opt-in block mode), plus the rules file.

Windsurf cannot change a command; its hooks can only block (exit 2, message on
stderr). Without ``--block`` the hook does nothing; with it, a command rtk can
shorten is blocked with the suggestion to run the rtk form.
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, suggestion

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.hook import Answer, Context


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    if "--block" not in ctx.flags or payload.get("agent_action_name") != "pre_run_command":
        return NOTHING
    info = payload.get("tool_info")
    if not isinstance(info, dict):
        return NOTHING
    cmd = info.get("command_line")
    if not isinstance(cmd, str) or not cmd.strip():
        return NOTHING
    cwd = info.get("cwd")
    new = suggestion(ctx, cmd, cwd if isinstance(cwd, str) else None)
    if new is None:
        return NOTHING
    return None, f'Use "{new}" instead (compact output).\n', 2
