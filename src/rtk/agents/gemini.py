"""Gemini CLI: ``BeforeTool`` hook on ``run_shell_command`` (settings.json, timeouts in milliseconds).

allow -> ``decision: allow`` with ``hookSpecificOutput.tool_input`` (the whole input);
ask -> ``tool_input`` without a decision (Gemini's policy engine decides, on the
rewritten command; not under an ask rule, which Gemini would then judge on ``rtk git push``).
A line denied for a command inside another's words (``rtk proxy git
push``, ``find -exec rm``), which Gemini's own rules do not see, gets ``decision: deny``, and so
does one an ask rule matches there (the hook cannot ask). Every
other path prints ``{}`` (an empty stdout would make
Gemini read stderr as the answer).
"""

from __future__ import annotations

from rtk.agents._adapt import cwd_of, hidden, mode_of, refusal, replaced, shell_call, tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

TOOLS = frozenset(("run_shell_command",))
EMPTY: Answer = ({}, "", 0)


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    args = tool_input(payload, TOOLS)
    if args is None:
        return EMPTY
    d0 = ctx.decide(args["command"], cwd_of(payload), mode_of(payload))
    h = hidden(d0, args["command"])
    if h is not None:  # rtk proxy git push: Gemini's rules see rtk
        return {"decision": "deny", "reason": refusal(*h)}, "", 0
    call = shell_call(payload, ctx, TOOLS, d0)
    if call is None:
        return EMPTY
    args, d = call
    out: dict[str, Any] = {}
    if d.verdict == "allow":
        out["decision"] = "allow"
    out["hookSpecificOutput"] = {"hookEventName": "BeforeTool", "tool_input": replaced(args, d.rewritten or "")}
    return out, "", 0


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("gemini",)
NOTE = "project hooks must be approved in Gemini CLI before they run (/hooks)"


def config_dir() -> str:
    import os

    base = os.environ.get("GEMINI_CLI_HOME")
    return os.path.join(base, ".gemini") if base else os.path.join(os.path.expanduser("~"), ".gemini")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """settings.json BeforeTool hook (timeout in milliseconds) + GEMINI.md section."""
    import os

    from rtk.agents._artifacts import JsonHook, Section
    from rtk.agents.registry import awareness

    d = config_dir() if scope.is_global else scope.at(".gemini")
    entry = {"name": "rtk-rewrite", "type": "command", "command": opts.hook("gemini"), "timeout": 5000}
    md = os.path.join(d, "GEMINI.md") if scope.is_global else scope.at("GEMINI.md")
    hook = JsonHook(
        os.path.join(d, "settings.json"),
        "gemini",
        ("hooks", "BeforeTool"),
        entry,
        group={"matcher": "run_shell_command"},
    )
    return [hook, Section(md, awareness(shared=not scope.is_global))]  # the project's GEMINI.md is shared
