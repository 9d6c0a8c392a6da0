"""Cursor: ``preToolUse`` hook on ``Shell`` (hooks.json); ``{}`` is the answer whenever nothing changes.

Cursor applies ``updated_input`` only together with ``allow`` (not with ``ask``), so
the command is rewritten only when the engine says allow; otherwise ``{}``. A line denied (or
asked about by an ask rule) for a command inside another's words (``rtk proxy git push``,
``find -exec rm``), which Cursor's own rules do not see, gets ``permission: deny`` (``ask``)
without a rewrite.
"""

from __future__ import annotations

from rtk.agents._adapt import cwd_of, hidden, mode_of, replaced, shell_call, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("Shell",))
EMPTY: Answer = ({}, "", 0)


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return EMPTY
    d0 = ctx.decide(args["command"], cwd_of(payload), mode_of(payload))
    h = hidden(d0, args["command"])
    if h is not None:  # rtk proxy git push: Cursor's rules see rtk
        return {"permission": h[0], "user_message": h[1], "agent_message": h[1]}, "", 0
    call = shell_call(payload, ctx, TOOLS, d0)
    if call is None:
        return EMPTY
    args, d = call
    if d.verdict != "allow":
        return EMPTY
    return {"continue": True, "permission": "allow", "updated_input": replaced(args, d.rewritten or "")}, "", 0


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("cursor", "cursor-agent")
NOTE = "Cursor reloads hooks.json on change; check Settings > Hooks"


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home(".cursor")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """~/.cursor/hooks.json or .cursor/hooks.json: a preToolUse entry matching Shell."""
    import os

    from rtk.agents._artifacts import JsonHook

    d = config_dir() if scope.is_global else scope.at(".cursor")
    entry = {"command": opts.hook("cursor"), "matcher": "Shell"}
    return [JsonHook(os.path.join(d, "hooks.json"), "cursor", ("hooks", "preToolUse"), entry, top={"version": 1})]
