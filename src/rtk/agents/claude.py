"""Claude Code: ``PreToolUse`` command hook on ``Bash`` (settings.json), plus the CLAUDE.md awareness section.

Verdicts: the engine reads Claude Code's own permission rules. allow -> ``allow`` with
``updatedInput``; ask -> ``ask`` with ``updatedInput`` (the user confirms the rewritten
command), except in ``bypassPermissions``/``dontAsk`` sessions, where a prompt would be
unwanted or refused, and for payloads without a ``permission_mode`` string (another host running
Claude's settings file: Copilot CLI's cloud agent turns ``ask`` into deny): the command
is left unchanged. deny/none -> no output, except a line denied for a command inside another's
words (``rtk proxy git push`` the model wrote, ``find . -exec rm {} ;``): Claude Code's rules
see only ``rtk``/``find`` there, so the hook answers ``deny`` itself (``ask`` for an ask rule).
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, cwd_of, hidden_from_host, hook_specific, mode_of, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("Bash",))
NO_PROMPT_MODES = frozenset(("bypassPermissions", "dontAsk"))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return NOTHING
    d = ctx.decide(args["command"], cwd_of(payload), mode_of(payload))
    mode = payload.get("permission_mode")
    prompts = isinstance(mode, str) and mode not in NO_PROMPT_MODES
    # ``rtk git push`` (the model may write it: ``rtk proxy CMD`` is how it gets raw output) or
    # ``find . -exec rm {} ;``: Claude Code matches ``Bash(git push:*)`` on the words as written and
    # misses the command inside, so the hook says deny (or, for an ask rule, ask) itself.
    if d.verdict == "deny" and hidden_from_host(args["command"]):
        return _verdict("deny", d.reason), "", 0
    ask_rule = d.rewritten is None and prompts and d.permission_reason.startswith("ask rule")
    if ask_rule and hidden_from_host(args["command"]):
        return _verdict("ask", d.permission_reason), "", 0
    if d.rewritten is None or d.verdict not in ("allow", "ask") or d.rewritten == args["command"]:
        return NOTHING
    if d.verdict == "ask" and not prompts:
        return NOTHING
    return hook_specific(args, d), "", 0


def _verdict(decision: str, why: str) -> dict[str, Any]:
    """A decision without a rewrite: the command stays as the model wrote it."""
    out = {"hookEventName": "PreToolUse", "permissionDecision": decision, "permissionDecisionReason": f"rtk: {why}"}
    return {"hookSpecificOutput": out}


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("claude",)
NOTE = "restart Claude Code (hooks are read at session start); /hooks lists them"


def config_dir() -> str:
    from rtk.agents._artifacts import env_dir

    return env_dir("CLAUDE_CONFIG_DIR", ".claude")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """Global: settings.json + CLAUDE.md in ~/.claude; project: .claude/settings.local.json (personal) +
    CLAUDE.md (shared, so worded to be true for teammates without rtk)."""
    import os

    from rtk.agents._artifacts import JsonHook, Section
    from rtk.agents.registry import awareness

    d = config_dir() if scope.is_global else scope.at(".claude")
    settings = os.path.join(d, "settings.json" if scope.is_global else "settings.local.json")
    entry = {"type": "command", "command": opts.hook("claude"), "timeout": 10}
    md = os.path.join(d, "CLAUDE.md") if scope.is_global else scope.at("CLAUDE.md")
    return [
        JsonHook(settings, "claude", ("hooks", "PreToolUse"), entry, group={"matcher": "Bash"}),
        Section(md, awareness(shared=not scope.is_global)),  # the project's CLAUDE.md is read by the whole team
    ]
