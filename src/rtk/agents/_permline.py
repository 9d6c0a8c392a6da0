"""The one sentence per agent that says which commands its hook rewrites (printed by rtk init, rtk hook check, rtk doctor)."""

from __future__ import annotations

# agent -> (host title, whose rules, where to add one, an example rule)
_SOURCE: dict[str, tuple[str, str, str, str]] = {
    "claude": ("Claude Code", "your Claude Code permissions allow", "permissions.allow in ~/.claude/settings.json",
               '"Bash(git status)"'),
    "cursor": ("Cursor", "your Cursor allowlist permits", "terminalAllowlist in ~/.cursor/permissions.json",
               '"git status"'),
    "gemini": ("Gemini CLI", "your Gemini CLI tools.allowed permits", "tools.allowed in ~/.gemini/settings.json",
               '"run_shell_command(git status)"'),
    "qwen": ("Qwen Code", "your Qwen Code permissions allow", "permissions.allow in ~/.qwen/settings.json",
             '"Bash(git status)"'),
    "droid": ("Factory Droid", "your Droid commandAllowlist permits", "commandAllowlist in ~/.factory/settings.json",
              '"git status"'),
    "codex": ("Codex CLI", "your Codex rules allow", "a prefix_rule in ~/.codex/rules/default.rules",
              'prefix_rule(pattern=["git", "status"], decision="allow")'),
    "copilot": ("Copilot CLI", "rtk's [hooks] allow list permits", "allow under [hooks] in rtk's config.toml",
                '"git status"'),
    "vscode": ("VS Code", "your VS Code chat.tools.terminal.autoApprove permits",
               "chat.tools.terminal.autoApprove in VS Code's settings.json", '"git status": true'),
}  # fmt: skip

# What the hook does with a command no rule allows (and no rule denies): see each adapter.
UNRULED: dict[str, str] = {
    "claude": "others are rewritten and Claude Code asks you to confirm them (left unchanged in dontAsk mode)",
    "cursor": "others run unchanged",
    "gemini": "others are rewritten and Gemini CLI asks as usual",
    "qwen": "others run unchanged",
    "droid": "others are rewritten and Droid asks as usual",
    "codex": "others run unchanged",
    "copilot": "others are rewritten and Copilot CLI asks as usual",
    "vscode": "others are rewritten and VS Code asks you to confirm them",
}
# The host's mode in which every command not denied is rewritten with allow.
_UNASKED: dict[str, str] = {
    "claude": "in bypassPermissions mode every command not denied is rewritten",
    "qwen": "in YOLO mode every command not denied is rewritten",
    "codex": 'with approval_policy = "never" every command not denied is rewritten',
}
_OTHER: dict[str, str] = {
    "cline": "Cline: cannot rewrite; its hook asks the model to re-issue commands rtk can shorten as rtk ..., "
    "which Cline's own approval then judges.",
    "windsurf": "Windsurf: cannot rewrite; its hook does nothing unless installed with --block (then it blocks "
    "commands rtk can shorten and names the rtk form).",
    "kiro": "Kiro: cannot rewrite; its hook does nothing unless installed with --block (then it blocks "
    "commands rtk can shorten and names the rtk form).",
    "opencode": "OpenCode: every command rtk can shorten is rewritten; OpenCode's own permission check then "
    "runs on the rtk form (a deny rule in Claude Code's settings, which rtk rewrite reads, leaves a command "
    "unchanged; hooks.exclude_commands in rtk's config keeps one from being rewritten).",
    "pi": "Pi: every command rtk can shorten is rewritten (a deny rule in Claude Code's settings, which rtk "
    "rewrite reads, leaves a command unchanged; hooks.exclude_commands in rtk's config keeps one from being "
    "rewritten).",
    "hermes": "Hermes Agent: every command rtk can shorten is rewritten, and Hermes' own approval (its "
    "dangerous-command check) then judges the rtk form (a deny rule in Claude Code's settings, which rtk rewrite "
    "reads, leaves a command unchanged; hooks.exclude_commands in rtk's config keeps one from being rewritten).",
    "vibe": "Mistral Vibe: every command rtk can shorten is rewritten and Vibe still asks for approval as its "
    "own settings say (the answer carries no approval; rtk's [hooks] deny leaves a command unchanged).",
}


def rule_count(agent: str, cwd: str | None = None) -> int:
    """How many command rules the hook of ``agent`` judges with (host's own, or rtk's ``[hooks]``)."""
    if agent == "claude":
        from rtk.rewrite.permissions import load as claude_rules

        p = claude_rules("claude", cwd)
    else:
        from rtk.rewrite import hostperms

        p = hostperms.load(agent, cwd)
    return len(p.allow) + len(p.ask) + len(p.deny)


def sentence(agent: str, cwd: str | None = None) -> str:
    """What ``agent``'s hook will do, in one line naming the rule source, the count and how to add rules."""
    if agent in _OTHER:
        return _OTHER[agent]
    if agent not in _SOURCE:
        return ""
    title, whose, where, example = _SOURCE[agent]
    n = rule_count(agent, cwd)
    rules = "1 rule" if n == 1 else f"{n} rules"
    out = f"{title}: commands {whose} will be rewritten ({rules} found); {UNRULED[agent]}"
    if agent in _UNASKED:
        out += f"; {_UNASKED[agent]}"
    return f"{out}. Add rules with {where}, e.g. {example}."
