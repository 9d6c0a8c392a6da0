"""The hook adapters' shared front: the Context they get, find the shell command, copy the tool input, answer."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.rewrite.engine import Decision

REASON = "rtk: rewrote to token-optimised equivalent"

# The hosts whose permission files the rewrite engine reads itself.
OWN_RULES = frozenset(("claude",))
# Claude Code's mode in which every command the user has not denied runs without asking.
UNASKED = frozenset(("bypassPermissions",))

# (stdout object or None, stderr text, exit code)
Answer = tuple[object, str, int]


class Context:
    """What an adapter may ask for: the flags of its hook command and the rewrite decision."""

    __slots__ = ("agent", "flags")

    def __init__(self, agent: str, flags: list[str]) -> None:
        self.agent = agent
        self.flags = flags

    def decide(self, command: str, cwd: str | None, mode: str | None = None) -> Decision:
        """The engine's decision under the host's own rules; ``mode``: the payload's ``permission_mode``."""
        from rtk.rewrite.engine import decide
        from rtk.rewrite.launch import current

        if self.agent in OWN_RULES:
            if mode not in UNASKED:
                return decide(command, agent=self.agent, cwd=cwd, launch=current())
            from rtk.rewrite.permissions import load

            rules = load(self.agent, cwd)
        else:
            from rtk.rewrite import hostperms

            rules = hostperms.load(self.agent, cwd)
            if not hostperms.runs_unasked(self.agent, mode, cwd):
                return decide(command, agent=None, cwd=cwd, permissions=rules, launch=current())
        from rtk.rewrite.permissions import Permissions

        # The host runs what it does not deny without asking: rewriting grants nothing new.
        rules = Permissions(("*", *rules.allow), rules.ask, rules.deny, rules.broken)
        return decide(command, agent=None, cwd=cwd, permissions=rules, launch=current())


NOTHING: Answer = (None, "", 0)


def command_of(args: Any) -> str | None:
    """``args["command"]`` when it is a non-blank string."""
    if not isinstance(args, dict):
        return None
    cmd = args.get("command")
    return cmd if isinstance(cmd, str) and cmd.strip() else None


def is_tool(name: object, tools: frozenset[str]) -> bool:
    """Whether a payload's tool name (any JSON value) is one of ``tools``."""
    return isinstance(name, str) and name in tools


def tool_input(payload: dict[str, Any], tools: frozenset[str]) -> dict[str, Any] | None:
    """The snake_case ``tool_input`` of a shell tool call (``tool_name`` in ``tools``), else None."""
    if not is_tool(payload.get("tool_name"), tools):
        return None
    ti = payload.get("tool_input")
    return ti if command_of(ti) is not None else None


def cwd_of(payload: dict[str, Any]) -> str | None:
    cwd = payload.get("cwd")
    return cwd if isinstance(cwd, str) and os.path.isabs(cwd) else None


def replaced(args: dict[str, Any], command: str) -> dict[str, Any]:
    """A copy of the whole input with only ``command`` changed (unknown keys kept, order kept)."""
    out = dict(args)
    out["command"] = command
    return out


def mode_of(payload: dict[str, Any]) -> str | None:
    """The payload's ``permission_mode`` (Claude Code, Codex, Qwen Code, Droid send one), if a string."""
    mode = payload.get("permission_mode")
    return mode if isinstance(mode, str) else None


def ask_rule(d: Decision) -> bool:
    """Whether an ask rule (not only a missing allow rule) is why ``d`` asks."""
    why = d.reason if d.rewritten is not None else d.permission_reason
    return d.permission == "ask" and why.startswith("ask rule")


def passable(d: Decision, command: str, carries_ask: bool = False) -> bool:
    """Whether the hook may pass ``d``'s rewrite on. Under an ask rule only with an answer that says ask
    (``carries_ask``): a host deciding on ``rtk git push`` itself does not see its ``git push`` rule."""
    if d.rewritten is None or d.verdict not in ("allow", "ask") or d.rewritten == command:
        return False
    return carries_ask or d.verdict == "allow" or not ask_rule(d)


def rewrite(ctx: Context, command: str, cwd: str | None, mode: str | None = None) -> Decision | None:
    """The decision when there is a rewrite the hook may pass on (allow, or ask without an ask rule), else None."""
    d = ctx.decide(command, cwd, mode)
    return d if passable(d, command) else None


def shell_call(
    payload: dict[str, Any],
    ctx: Context,
    tools: frozenset[str],
    decided: Decision | None = None,
    carries_ask: bool = False,
) -> tuple[dict[str, Any], Decision] | None:
    """A snake_case shell tool call's input and the rewrite the hook may pass on, else None (``decided``: known;
    ``carries_ask``: the hook answers ask with the rewrite, see :func:`passable`)."""
    args = tool_input(payload, tools)
    if args is None:
        return None
    d = decided or ctx.decide(args["command"], cwd_of(payload), mode_of(payload))
    return (args, d) if passable(d, args["command"], carries_ask) else None


def hidden_from_host(command: str) -> bool:
    """Whether ``command`` runs a command inside another's words (``rtk proxy git push``, ``find -exec rm``,
    ``echo 'rm x' | bash``), which a host matching rules on the words as written does not see."""
    from rtk.rewrite.matching import embedded_commands, rtk_shell_line
    from rtk.rewrite.permissions import commands
    from rtk.rewrite.runs import fed_to_shell
    from rtk.shell.segments import parse

    return any(embedded_commands(c, commands) or rtk_shell_line(c) for c in commands(command)) or bool(
        fed_to_shell(parse(command), commands)
    )  # at any depth: blocks, $(...); echo 'rm x' | bash


def hidden(d: Decision, command: str, asks: bool = True) -> tuple[str, str] | None:
    """("deny" or "ask", why) when a deny rule (an ask rule, if ``asks``) matches a command inside another's
    words (:func:`hidden_from_host`): the host's own rules miss it, so the hook must answer itself."""
    if d.verdict == "deny":
        verdict, why = "deny", d.reason
    elif asks and ask_rule(d):
        verdict, why = "ask", d.reason if d.rewritten is not None else d.permission_reason
    else:
        return None
    return (verdict, f"rtk: {why}") if hidden_from_host(command) else None


def refusal(verdict: str, why: str) -> str:
    """The reason of a deny a host that cannot ask gets for an ``ask`` from :func:`hidden`."""
    if verdict == "deny":
        return why
    return f"{why}; this host's hooks cannot ask, so run that command on its own (the host then asks as usual)"


def reason(d: Decision) -> str:
    return REASON if d.verdict == "allow" else f"{REASON} (not pre-approved: {d.reason})"


def hook_specific(
    args: dict[str, Any], d: Decision, *, decision: bool = True, with_reason: bool = True, event: str = "PreToolUse"
) -> dict[str, Any]:
    """Claude Code's answer shape: ``hookSpecificOutput`` with ``updatedInput`` (the whole input)."""
    out: dict[str, Any] = {"hookEventName": event}
    if decision:
        out["permissionDecision"] = d.verdict
        if with_reason:
            out["permissionDecisionReason"] = reason(d)
    out["updatedInput"] = replaced(args, d.rewritten or "")
    return {"hookSpecificOutput": out}


def rtk_on_path() -> bool:
    """Whether a bare ``rtk`` resolves on PATH (a suggestion to run ``rtk ...`` must work)."""
    dirs = os.environ.get("PATH", "").split(os.pathsep)
    return any(d and os.access(os.path.join(d, "rtk"), os.X_OK) for d in dirs)


def verdict(decision: str, why: str, event: str = "PreToolUse") -> dict[str, Any]:
    """Claude Code's answer shape with a decision and no rewrite: the command stays as the model wrote it."""
    out = {"hookEventName": event, "permissionDecision": decision, "permissionDecisionReason": why}
    return {"hookSpecificOutput": out}


def blocked(ctx: Context, command: str, cwd: str | None) -> Answer:
    """A blocking host's answer (exit 2, message on stderr): the reason for a line :func:`hidden` refuses,
    the rtk form to run instead, or nothing."""
    d = ctx.decide(command, cwd)
    h = hidden(d, command)
    if h is not None:
        return None, refusal(*h) + "\n", 2
    if not passable(d, command) or not rtk_on_path():
        return NOTHING
    return None, f'Use "{d.rewritten}" instead (compact output).\n', 2
