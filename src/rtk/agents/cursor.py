"""Cursor: ``preToolUse`` hook on ``Shell`` (hooks.json); ``{}`` is the answer whenever nothing changes.

Cursor applies ``updated_input`` only together with ``allow`` (not with ``ask``), so
the command is rewritten only when the engine says allow; otherwise ``{}``.
"""

from __future__ import annotations

from rtk.agents._adapt import replaced, shell_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("Shell",))
EMPTY: Answer = ({}, "", 0)


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    call = shell_call(payload, ctx, TOOLS)
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
