"""Windsurf (Cascade): ``pre_run_command`` hook (opt-in block mode), plus the rules file.

Windsurf cannot change a command; its hooks can only block (exit 2, message on
stderr). Without ``--block`` the hook does nothing; with it, a command rtk can
shorten is blocked with the suggestion to run the rtk form, and a line denied (or asked
about by an ask rule) for a command inside another's words (``rtk proxy git push``) is
blocked with the reason.
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, blocked

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
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
    return blocked(ctx, cmd, cwd if isinstance(cwd, str) else None)


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("windsurf",)
NOTE = "the pre_run_command hook (--block) costs one extra model turn per rewritable command"


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home(".codeium", "windsurf")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """Rules (.windsurf/rules/rtk.md, a section of .windsurfrules or of global_rules.md); --block: the hook."""
    import os

    from rtk.agents._artifacts import JsonHook, OwnedFile, Section
    from rtk.agents.registry import rules_text

    out: list[Artifact] = []
    if scope.is_global:
        out.append(Section(os.path.join(config_dir(), "memories", "global_rules.md"), rules_text()))
    elif os.path.isfile(scope.at(".windsurfrules")):
        out.append(Section(scope.at(".windsurfrules"), rules_text()))
    else:
        md = "---\ntrigger: always_on\n---\n<!-- written by rtk init -->\n" + rules_text()
        out.append(OwnedFile(scope.at(".windsurf", "rules", "rtk.md"), md))
    if opts.block:
        d = config_dir() if scope.is_global else scope.at(".windsurf")
        entry = {"command": opts.hook("windsurf", "--block"), "show_output": False}
        out.append(JsonHook(os.path.join(d, "hooks.json"), "windsurf", ("hooks", "pre_run_command"), entry))
    return out
