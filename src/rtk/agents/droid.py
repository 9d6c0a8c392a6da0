"""Factory Droid: Claude-compatible ``PreToolUse`` hook on ``Execute`` (hooks.json).

allow -> ``allow`` with ``updatedInput``; ask -> ``updatedInput`` without a decision
(Droid's own approval applies, as RTK's Droid hook does).
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, hook_specific, shell_call

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("Execute",))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    call = shell_call(payload, ctx, TOOLS)
    if call is None:
        return NOTHING
    args, d = call
    return hook_specific(args, d, decision=d.verdict == "allow"), "", 0


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("droid",)
NOTE = "restart Droid; /hooks lists the registered hooks"


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home(".factory")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """hooks.json PreToolUse hook on Execute."""
    import os

    from rtk.agents._artifacts import JsonHook

    d = config_dir() if scope.is_global else scope.at(".factory")
    entry = {"type": "command", "command": opts.hook("droid"), "timeout": 10}
    return [
        JsonHook(os.path.join(d, "hooks.json"), "droid", ("hooks", "PreToolUse"), entry, group={"matcher": "Execute"})
    ]
