"""Mistral Vibe: ``pre_tool`` hook on ``bash`` (``~/.vibe/hooks.toml``) that returns the rewritten tool input.

Shapes from Vibe's own hook executor (mistralai/mistral-vibe): stdin carries ``cwd``,
``hook_event_name: "pre_tool"``, ``tool_name``, ``tool_call_id`` and ``tool_input``;
an answer ``{"hook_specific_output": {"tool_input": {...}}}`` replaces the call's
arguments, empty stdout leaves them, ``{"decision": "deny"}`` is the only refusal.
The answer carries no approval: Vibe's own approval applies to the rewritten
command, so rtk rewrites on allow and on ask (not under an ask rule: Vibe would judge
``rtk git push``), and leaves a denied command alone. A line denied for a command inside
another's words (``rtk proxy git push``, ``find -exec rm``), which Vibe's approval does not
see, gets ``decision: deny``; so does one an ask rule matches there (Vibe's hooks cannot ask).
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, cwd_of, hidden, passable, refusal, replaced, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("bash",))


def _tool(payload: dict[str, Any]) -> dict[str, Any] | None:
    """The bash call's input; Vibe may qualify tool names (``<namespace>.bash``)."""
    name = payload.get("tool_name")
    if isinstance(name, str) and name.rsplit(".", 1)[-1] == "bash":
        payload = dict(payload, tool_name="bash")
    return tool_input(payload, TOOLS)


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = _tool(payload)
    if args is None:
        return NOTHING
    d = ctx.decide(args["command"], cwd_of(payload))
    h = hidden(d, args["command"])
    if h is not None:  # rtk proxy git push: Vibe's approval sees rtk
        return {"decision": "deny", "reason": refusal(*h)}, "", 0
    if not passable(d, args["command"]) or d.rewritten is None:
        return NOTHING
    return {"hook_specific_output": {"tool_input": replaced(args, d.rewritten)}}, "", 0


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("vibe",)
NOTE = "restart Vibe; the hook rewrites commands and Vibe still asks for approval as its own settings say"
SCOPES = ("global",)
SCOPE_NOTE = "only the user hooks file ~/.vibe/hooks.toml is confirmed; use --global"


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home(".vibe")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """A marked ``[[hooks]]`` block in ~/.vibe/hooks.toml (global only)."""
    import json
    import os

    from rtk.agents._artifacts import TomlBlock

    if not scope.is_global:
        return []
    body = (
        '[[hooks]]\nname = "rtk-rewrite"\ntype = "pre_tool"\nmatch = "bash"\n'
        f"command = {json.dumps(opts.hook('vibe'))}\nstrict = false\n"
    )
    return [TomlBlock(os.path.join(config_dir(), "hooks.toml"), body, hook=True)]
