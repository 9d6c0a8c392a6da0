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

In every shape, a rewrite an ask rule asks about is passed on only with ``ask`` (VS Code):
without a decision the host would judge ``rtk git push`` and miss its rule for ``git push``.
A line denied (or asked about by an ask rule) for a command inside another's words (``rtk proxy
git push``, ``find -exec rm``), which the host's own rules do not see, gets ``deny`` (``ask``)
without a rewrite, also under ``--suggest``.
"""

from __future__ import annotations

from rtk.agents._adapt import (
    NOTHING,
    REASON,
    command_of,
    cwd_of,
    hidden,
    hook_specific,
    is_tool,
    mode_of,
    passable,
    replaced,
    shell_call,
    tool_input,
    verdict,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope
    from rtk.hook import Answer, Context

CLI_TOOLS = frozenset(("bash",))
VSCODE_TOOLS = frozenset(("run_in_terminal", "runTerminalCommand", "Bash", "bash"))


def handle(payload: dict[str, Any], ctx: Context) -> Answer:
    if "toolName" in payload:
        return _camel(payload, ctx)
    ti = tool_input(payload, VSCODE_TOOLS)
    if ti is None:
        return NOTHING
    d0 = ctx.decide(ti["command"], cwd_of(payload), mode_of(payload))
    h = hidden(d0, ti["command"])
    if h is not None:  # rtk proxy git push: the host's rules see rtk
        return verdict(*h), "", 0
    vscode = "hookEventName" in payload or "hook_event_name" not in payload
    call = shell_call(payload, ctx, VSCODE_TOOLS, d0, carries_ask=vscode)
    if call is None:
        return NOTHING
    args, d = call
    if "--suggest" in ctx.flags and not vscode:
        return _suggest(d.rewritten or "")
    return hook_specific(args, d, decision=vscode or d.verdict == "allow"), "", 0


def _camel(payload: dict[str, Any], ctx: Context) -> Answer:
    if not is_tool(payload.get("toolName"), CLI_TOOLS):
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
    d = ctx.decide(cmd, cwd_of(payload))
    h = hidden(d, cmd)
    if h is not None:  # rtk proxy git push: Copilot's rules see rtk
        return {"permissionDecision": h[0], "permissionDecisionReason": h[1]}, "", 0
    if not passable(d, cmd):
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


# -- rtk init ------------------------------------------------------------------------------

BINARIES = ("copilot",)
VSCODE_BINARIES = ("code", "code-insiders")
NOTE = "in -p mode, repository hooks need a trusted folder (Copilot CLI 1.0.49+)"
VSCODE_NOTE = "agent hooks are a VS Code preview feature: check chat.hookFilesLocations"
FIRST_MODIFYING = (1, 0, 24)  # modifiedArgs is honoured from this version on


def config_dir() -> str:
    from rtk.agents._artifacts import env_dir

    return env_dir("COPILOT_HOME", ".copilot")


def cli_version() -> tuple[int, ...] | None:
    """``copilot --version`` as numbers, or None when the CLI is missing or says nothing usable."""
    import re
    import shutil
    import subprocess

    exe = shutil.which("copilot")
    if exe is None:
        return None
    try:
        p = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", p.stdout + p.stderr)
    return tuple(int(x) for x in m.groups()) if m else None


def needs_suggest() -> bool:
    """An installed CLI older than 1.0.24 cannot rewrite: deny with a suggestion instead."""
    v = cli_version()
    return v is not None and v < FIRST_MODIFYING


def _instructions(scope: Scope) -> list[Artifact]:
    from rtk.agents._artifacts import Section
    from rtk.agents.registry import awareness

    return [] if scope.is_global else [Section(scope.at(".github", "copilot-instructions.md"), awareness(shared=True))]


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """Copilot CLI: a camelCase preToolUse hook file in .github/hooks (or $COPILOT_HOME/hooks)."""
    import os

    from rtk.agents._artifacts import JsonHook

    d = os.path.join(config_dir(), "hooks") if scope.is_global else scope.at(".github", "hooks")
    flags = ("--suggest",) if opts.suggest else ()
    entry = {"type": "command", "bash": opts.hook("copilot", *flags), "timeoutSec": 10, "matcher": "bash"}
    path = os.path.join(d, "rtk-copilot.json")
    hook = JsonHook(path, "copilot", ("hooks", "preToolUse"), entry, command_at=("bash",), top={"version": 1})
    return [hook, *_instructions(scope)]


def artifacts_vscode(scope: Scope, opts: Options) -> list[Artifact]:
    """VS Code (local agent harness): a PreToolUse hook file in .github/hooks (or ~/.copilot/hooks)."""
    import os

    from rtk.agents._artifacts import JsonHook

    d = os.path.join(config_dir(), "hooks") if scope.is_global else scope.at(".github", "hooks")
    entry = {"type": "command", "command": opts.hook("vscode"), "timeout": 15}
    hook = JsonHook(os.path.join(d, "rtk-vscode.json"), "vscode", ("hooks", "PreToolUse"), entry)
    return [hook, *_instructions(scope)]
