"""GitHub Copilot: the CLI (camelCase ``preToolUse``, ``modifiedArgs``) and VS Code's local agent harness.

One adapter for every payload shape these hosts send, because they read each
other's hook files:

- Copilot CLI camelCase: ``toolName``/``toolArgs`` (a JSON string, or an object in
  the SDK style). allow -> ``permissionDecision: allow`` + ``modifiedArgs``; ask ->
  ``modifiedArgs`` alone (the CLI prompts as usual). With ``--suggest`` (CLI older
  than 1.0.24, which ignores ``modifiedArgs``; chosen by ``rtk init``): deny with
  a suggestion to run the rtk form.
- VS Code local harness (``hookEventName``, ``tool_name`` ``run_in_terminal``...):
  Claude's ``hookSpecificOutput`` with ``allow`` or ``ask``.
- Copilot CLI PascalCase entries (``hook_event_name``, ``tool_name: Bash``): allow ->
  ``allow`` + ``updatedInput``; ask -> ``updatedInput`` without a decision (the
  cloud agent turns ``ask`` into deny).
"""

from __future__ import annotations

from rtk.agents._adapt import NOTHING, REASON, command_of, cwd_of, hook_specific, replaced, rewrite, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.hook import Answer, Context

CLI_TOOLS = frozenset(("bash",))
VSCODE_TOOLS = frozenset(("run_in_terminal", "runTerminalCommand", "Bash", "bash"))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    if "toolName" in payload:
        return _camel(payload, ctx)
    args = tool_input(payload, VSCODE_TOOLS)
    if args is None:
        return NOTHING
    d = rewrite(ctx, args["command"], cwd_of(payload))
    if d is None:
        return NOTHING
    vscode = "hookEventName" in payload or "hook_event_name" not in payload
    if "--suggest" in ctx.flags and not vscode:
        return _suggest(d.rewritten or "")
    return hook_specific(args, d, decision=vscode or d.verdict == "allow"), "", 0


def _camel(payload: dict[str, Any], ctx: Context) -> Answer:
    if payload.get("toolName") not in CLI_TOOLS:
        return NOTHING
    args = payload.get("toolArgs")
    if isinstance(args, str):
        from rtk._fastjson import loads

        try:
            args = loads(args)
        except (ValueError, RecursionError):
            return NOTHING
    cmd = command_of(args)
    if cmd is None or not isinstance(args, dict):
        return NOTHING
    d = rewrite(ctx, cmd, cwd_of(payload))
    if d is None:
        return NOTHING
    if "--suggest" in ctx.flags:
        return _suggest(d.rewritten or "")
    out: dict[str, Any] = {}
    if d.verdict == "allow":
        out["permissionDecision"] = "allow"
        out["permissionDecisionReason"] = REASON
    out["modifiedArgs"] = replaced(args, d.rewritten or "")
    return out, "", 0


def _suggest(new: str) -> Answer:
    from rtk.agents._adapt import rtk_on_path

    if not rtk_on_path():
        return NOTHING
    msg = f"Run '{new}' instead (same output, fewer tokens)."
    return {"permissionDecision": "deny", "permissionDecisionReason": msg}, "", 0
