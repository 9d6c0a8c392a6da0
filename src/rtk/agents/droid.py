"""Factory Droid: Claude-compatible ``PreToolUse`` hook on ``Execute`` (hooks.json).

allow -> ``allow`` with ``updatedInput``; ask -> ``updatedInput`` without a decision
(Droid's own approval applies, as RTK's Droid hook does), except under an ask rule
(``commandDenylist``), where Droid would judge ``rtk git push`` and miss its ``git push``
entry: unchanged. A line denied (or asked about) for a command inside another's words
(``rtk proxy git push``, ``find -exec rm``) gets ``deny`` (``ask``) without a rewrite.
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, cwd_of, hidden, hook_specific, mode_of, shell_call, tool_input, verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("Execute",))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return NOTHING
    d0 = ctx.decide(args["command"], cwd_of(payload), mode_of(payload))
    h = hidden(d0, args["command"])
    if h is not None:  # rtk proxy git push: Droid's lists see rtk
        return verdict(*h), "", 0
    call = shell_call(payload, ctx, TOOLS, d0)
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
