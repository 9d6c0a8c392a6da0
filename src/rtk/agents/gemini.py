"""Gemini CLI: ``BeforeTool`` hook on ``run_shell_command`` (settings.json, timeouts in milliseconds).

allow -> ``decision: allow`` with ``hookSpecificOutput.tool_input`` (the whole input);
ask -> ``tool_input`` without a decision (Gemini's policy engine decides, on the
rewritten command). Every other path prints ``{}`` (an empty stdout would make
Gemini read stderr as the answer).
"""

from __future__ import annotations

from rtk.agents._adapt import cwd_of, replaced, rewrite, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.hook import Answer, Context

TOOLS = frozenset(("run_shell_command",))
EMPTY: Answer = ({}, "", 0)


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return EMPTY
    d = rewrite(ctx, args["command"], cwd_of(payload))
    if d is None:
        return EMPTY
    out: dict[str, Any] = {}
    if d.verdict == "allow":
        out["decision"] = "allow"
    out["hookSpecificOutput"] = {"hookEventName": "BeforeTool", "tool_input": replaced(args, d.rewritten or "")}
    return out, "", 0
