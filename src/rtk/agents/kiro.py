"""Kiro CLI: ``preToolUse`` hook (opt-in block mode), plus the steering file.

Kiro cannot change a command; its hooks block with exit 2 and a message on stderr.
Without ``--block`` the hook does nothing; with it, a command rtk can shorten is
blocked with the suggestion to run the rtk form, and a line denied (or asked about by an ask
rule) for a command inside another's words (``rtk proxy git push``) is blocked with the reason.
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, blocked, cwd_of, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("execute_bash", "executeBash", "shell"))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    if "--block" not in ctx.flags:
        return NOTHING
    args = tool_input(payload, TOOLS)
    if args is None:
        return NOTHING
    return blocked(ctx, args["command"], cwd_of(payload))


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("kiro", "kiro-cli")
NOTE = "the preToolUse hook (--block) costs one extra model turn per rewritable command"


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home(".kiro")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """The steering file (.kiro/steering/rtk.md); with --block a v3 hook file (.kiro/hooks/rtk-rewrite.json)."""
    import json
    import os

    from rtk.agents._artifacts import OwnedFile
    from rtk.agents.registry import rules_text

    d = config_dir() if scope.is_global else scope.at(".kiro")
    md = "---\ninclusion: always\n---\n<!-- written by rtk init -->\n" + rules_text()
    out: list[Artifact] = [OwnedFile(os.path.join(d, "steering", "rtk.md"), md)]
    if opts.block:
        hook = {
            "name": "rtk-rewrite",
            "description": "written by rtk init: suggest the rtk form of shell commands",
            "trigger": "PreToolUse",
            "matcher": "execute_bash|shell",
            "action": {"type": "command", "command": opts.hook("kiro", "--block")},
            "timeout": 30,
            "enabled": True,
        }
        text = json.dumps({"version": "v1", "hooks": [hook]}, indent=2) + "\n"
        out.append(OwnedFile(os.path.join(d, "hooks", "rtk-rewrite.json"), text, hook=True))
    return out
