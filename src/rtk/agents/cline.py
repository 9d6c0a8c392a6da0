"""Cline: an executable ``PreToolUse`` hook file (deny with a suggestion), plus the ``.clinerules`` file.

Cline cannot change a command: the hook cancels ``execute_command`` with a message
naming the rtk form, which the model re-issues (``rtk ...`` then passes). Nothing is
suggested when the engine says deny or has no rewrite, or when ``rtk`` does not
resolve on PATH. A line denied (or asked about by an ask rule) for a command inside another's
words (``rtk proxy git push``, ``find -exec rm``) is cancelled with the reason (Cline cannot ask).
"""

from __future__ import annotations

from rtk.agents._adapt import command_of, hidden, is_tool, passable, refusal, rtk_on_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("execute_command",))
PROCEED: Answer = ({"cancel": False}, "", 0)
CONTEXT = "This project routes shell commands through rtk; prefix supported commands with `rtk `."


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    call = payload.get("preToolUse")
    if not isinstance(call, dict) or not is_tool(call.get("toolName"), TOOLS):
        return PROCEED
    cmd = command_of(call.get("parameters"))
    if cmd is None:
        return PROCEED
    roots = payload.get("workspaceRoots")
    cwd = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else None
    d = ctx.decide(cmd, cwd)
    h = hidden(d, cmd)
    if h is not None:  # rtk proxy git push: Cline's own approval sees rtk
        return {"cancel": True, "errorMessage": refusal(*h)}, "", 0
    new = d.rewritten if passable(d, cmd) and rtk_on_path() else None
    if new is None:
        return PROCEED
    msg = f"Please run `{new}` instead of `{cmd}`: same result, compact output."
    return {"cancel": True, "errorMessage": msg, "contextModification": CONTEXT}, "", 0


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("cline",)
NOTE = "the PreToolUse hook (--block) costs one extra model turn per rewritable command"


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home("Documents", "Cline")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """The rules (.clinerules/rtk.md, or a section of a .clinerules file); with --block the hook file."""
    import os

    from rtk.agents._artifacts import OwnedFile, Section
    from rtk.agents.registry import rules_text

    rules = os.path.join(config_dir(), "Rules") if scope.is_global else scope.at(".clinerules")
    out: list[Artifact] = []
    if not scope.is_global and os.path.isfile(rules):
        out.append(Section(rules, rules_text()))
    else:
        out.append(OwnedFile(os.path.join(rules, "rtk.md"), "<!-- written by rtk init -->\n" + rules_text()))
    if opts.block:
        hooks = os.path.join(rules, "Hooks" if scope.is_global else "hooks")
        script = f"#!/bin/sh\n# Cline PreToolUse hook, written by rtk init.\nexec {opts.hook('cline')}\n"
        out.append(OwnedFile(os.path.join(hooks, "PreToolUse"), script, executable=True, hook=True))
    return out
