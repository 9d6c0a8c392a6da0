"""Programs run through options (git -c core.pager=CMD, git fetch --upload-pack, rg --pre, npm x): never auto-allowed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from rwhelpers import all_registered  # noqa: F401  (autouse: every command has a filter)

from rtk import hook
from rtk.rewrite import engine
from rtk.rewrite.permissions import Permissions

ALLOWED = ["git:*", "rg:*", "npm:*", "rtk:*", "find:*"]


def decide(line: str, **rules: list[str]) -> engine.Decision:
    return engine.decide(line, permissions=Permissions(**rules))


@pytest.mark.parametrize(
    "line",
    [
        'git -c core.sshCommand="touch /tmp/pwned" fetch',
        "git -c core.pager=evil log",
        "git -C . -c core.editor=evil commit",
        "git --config-env=core.pager=EVIL log",
        "git -c diff.external=evil diff",
        'git -c alias.st="!evil" st',
        "git fetch --upload-pack=evil origin",
        "git fetch --upload-pack evil origin",
        "git push --receive-pack=evil origin",
        "git --exec-path=/tmp/evil status",
        "rg --pre evil foo",
        "rg --pre=evil foo",
        "npm x evil",
        "npm x -- evil --flag",
        "find . -exec git -c core.pager=evil log \\;",
    ],
)
def test_a_program_named_in_an_option_is_never_auto_allowed(line: str) -> None:
    # `git:*`/`rg:*`/`npm:*` allowed: every one of these was answered allow, and the option's program ran unasked.
    d = decide(line, allow=ALLOWED)
    assert d.verdict != "allow" and d.permission == "ask", (line, d)
    assert "runs a program named in an option" in d.reason + d.permission_reason


@pytest.mark.parametrize(
    "line",
    [
        "git status",
        "git log -3",
        "git -c color.ui=always log",
        "git push -u origin main",
        "git add -u",
        "rg --pre-glob '*.pdf' foo",
        "rg -c foo",
        "npm install",
        "npm run build",
    ],
)
def test_ordinary_options_stay_allowed(line: str) -> None:
    assert decide(line, allow=ALLOWED).verdict == "allow", line


@pytest.mark.parametrize(
    "line",
    [
        'git -c core.sshCommand="rm -rf ~" fetch',
        'git -c core.pager="rm -rf x" log',
        'git -c alias.x="!rm -rf y" x',
        'git fetch --upload-pack="rm -rf x" origin',
        'git rebase -x "rm x" HEAD~2',
        "rg --pre rm foo",
        "npm x rm -- -rf x",
        "npm exec -- rm -rf x",
        "rtk git -c core.pager='rm -rf x' log",
    ],
)
def test_deny_rules_see_the_command_an_option_runs(line: str) -> None:
    d = decide(line, allow=ALLOWED, deny=["rm:*"])
    assert d.verdict == "deny", (line, d)
    assert "rm" in d.reason


def test_the_hook_refuses_a_denied_command_named_in_an_option(tmp_path: Path) -> None:
    # Claude Code matches `Bash(rm:*)` on `git -c core.pager="rm -rf x" log` as written: it sees git, allowed.
    settings = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(git:*)"], "deny": ["Bash(rm:*)"]}}))
    engine.reset()
    p = {
        "hook_event_name": "PreToolUse",
        "permission_mode": "default",
        "cwd": str(tmp_path),
        "tool_name": "Bash",
        "tool_input": {"command": 'git -c core.pager="rm -rf x" log'},
    }
    doc = json.loads(hook.run("claude", [], json.dumps(p).encode())[0])
    assert doc["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "updatedInput" not in doc["hookSpecificOutput"]
