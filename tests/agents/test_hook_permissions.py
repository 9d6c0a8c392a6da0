"""Hook adapters and permission rules: nested executing constructs, malformed rules, project root from cwd."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hookcases import AGENTS, BY_NAME, Agent, allow

from rtk import config, hook
from rtk.commands import doctor
from rtk.rewrite import engine


def answer(agent: Agent, command: str, cwd: str | None = None) -> dict[str, object] | None:
    p = agent.payload()
    agent.set_cmd(p, command)
    if cwd is not None:
        p["cwd"] = cwd
    out, _err, _code = hook.run(agent.name, agent.flags, json.dumps(p).encode())
    return json.loads(out) if out else None


def decision(doc: dict[str, object] | None) -> object:
    inner = doc.get("hookSpecificOutput") if doc else None
    return inner.get("permissionDecision") if isinstance(inner, dict) else None


@pytest.mark.parametrize("agent", [a for a in AGENTS if a.name != "claude"], ids=repr)
def test_hooks_deny_of_the_wrong_type_means_nothing_is_allowed(agent: Agent, isolated_home: Path) -> None:
    cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('[hooks]\nallow = ["git:*"]\ndeny = "git push:*"\n')
    config.reset()
    engine.reset()
    ctx = hook.Context(agent.name, [])
    for line in ("git push", "git status"):
        d = ctx.decide(line, None)
        assert d.verdict != "allow", (line, d)
        assert "hooks.deny" in d.reason


def test_claude_hook_never_allows_a_substitution_inside_an_expansion() -> None:
    allow("claude", "git:*")
    claude = BY_NAME["claude"]
    assert decision(answer(claude, "git status")) == "allow"
    doc = answer(claude, "git status ${x:-$(touch pwned)}")
    assert decision(doc) == "ask", doc


def test_claude_hook_finds_project_rules_from_a_subdirectory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    allow("claude", "git:*")
    local = tmp_path / "proj" / ".claude" / "settings.local.json"
    local.parent.mkdir(parents=True)
    local.write_text(json.dumps({"permissions": {"deny": ["Bash(git push:*)"]}}))
    sub = tmp_path / "proj" / "src" / "deep"
    sub.mkdir(parents=True)
    claude = BY_NAME["claude"]
    assert answer(claude, "git push", cwd=str(sub)) is None  # denied: left to the host
    assert decision(answer(claude, "git status", cwd=str(sub))) == "allow"


def test_doctor_names_the_permission_key_that_cannot_be_evaluated(
    tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = isolated_home / ".claude" / "settings.json"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_text(json.dumps({"permissions": {"allow": ["Bash(git:*)"], "deny": "Bash(git push:*)"}}))
    cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('[hooks]\nask = "git push"\n')
    config.reset()
    monkeypatch.chdir(tmp_path)
    assert doctor.main(["--agent", "claude"]) == 1
    out = capsys.readouterr().out
    assert f"{bad}: permissions.deny is a str, not a list" in out
    assert "hooks.ask must be a list of strings" in out


def test_doctor_is_quiet_about_well_formed_permissions(
    tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    allow("claude", "git status")
    monkeypatch.chdir(tmp_path)
    doctor.main(["--agent", "claude"])
    assert "cannot be evaluated" not in capsys.readouterr().out


def test_claude_hook_denies_a_denied_command_inside_another_ones_words(tmp_path: Path) -> None:
    # Claude Code matches `Bash(git push:*)` on `rtk proxy git push` as written and misses; with `rtk:*` (or `find:*`)
    # allowed the command ran. The hook left every denied line to the host.
    settings = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    rules = {"allow": ["Bash(rtk:*)", "Bash(find:*)", "Bash(git:*)"], "deny": ["Bash(git push:*)", "Bash(rm:*)"]}
    settings.write_text(json.dumps({"permissions": rules}))
    claude = BY_NAME["claude"]
    for line in (
        "rtk git push",
        "rtk proxy git push origin main",
        "rtk -v run -c 'git push'",
        "find . -exec rm {} \\;",
        "if true; then rtk git push; fi",
        "echo $(rtk proxy git push)",
    ):
        doc = answer(claude, line, cwd=str(tmp_path))
        assert decision(doc) == "deny", (line, doc)
        assert "updatedInput" not in doc["hookSpecificOutput"]  # type: ignore[index, operator]
    assert answer(claude, "git push", cwd=str(tmp_path)) is None  # the host's own deny sees this one
    assert answer(claude, "rtk git status", cwd=str(tmp_path)) is None  # already rtk, nothing denied
    assert decision(answer(claude, "git status", cwd=str(tmp_path))) == "allow"


def test_claude_hook_asks_for_an_asked_command_inside_another_ones_words(tmp_path: Path) -> None:
    settings = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(rtk:*)"], "ask": ["Bash(git push:*)"]}}))
    claude = BY_NAME["claude"]
    doc = answer(claude, "rtk proxy git push", cwd=str(tmp_path))
    assert decision(doc) == "ask" and "updatedInput" not in doc["hookSpecificOutput"]  # type: ignore[index, operator]
    assert answer(claude, "rtk proxy git status", cwd=str(tmp_path)) is None  # no ask rule: the host's rtk:* applies
    p = claude.payload()
    claude.set_cmd(p, "rtk proxy git push")
    p["permission_mode"] = "bypassPermissions"  # no prompt wanted: left to the host, as for every ask
    assert hook.run("claude", [], json.dumps(p).encode())[0] == b""


def test_gemini_hook_denies_a_denied_command_inside_another_ones_words(tmp_path: Path) -> None:
    settings = Path(os.environ["HOME"]) / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    tools = {
        "allowed": ["run_shell_command(rtk)", "run_shell_command(git)"],
        "exclude": ["run_shell_command(git push)"],
    }
    settings.write_text(json.dumps({"tools": tools}))
    gemini = BY_NAME["gemini"]
    doc = answer(gemini, "rtk proxy git push", cwd=str(tmp_path))
    assert doc is not None and doc.get("decision") == "deny" and "tool_input" not in json.dumps(doc)
    assert answer(gemini, "git push", cwd=str(tmp_path)) == {}  # Gemini's own exclude sees this one
    doc = answer(gemini, "git status", cwd=str(tmp_path))
    assert doc is not None and doc.get("decision") == "allow"


# What each host's hook answers itself for a line whose deny / ask rule matches a command inside another's
# words: the host's own rules see only `rtk` / `find` there. A host whose hooks cannot ask refuses instead.
HIDDEN_ASK = {"claude": "ask", "vscode": "ask", "copilot": "ask", "cursor": "ask", "qwen": "ask", "droid": "ask"}
HIDDEN_LINES = (
    "rtk proxy git push origin main",
    "rtk git push",
    "find . -exec git push \\;",
    "echo $(rtk proxy git push)",
)


def refused(agent: Agent, command: str, payload: dict[str, object] | None = None) -> tuple[object, str]:
    """(the decision the hook gave itself, its text) for ``command``; fails on any rewrite."""
    p = payload if payload is not None else agent.payload()
    agent.set_cmd(p, command)
    out, err, code = hook.run(agent.name, agent.flags, json.dumps(p).encode())
    text = out.decode() + err.decode()
    for key in ("updatedInput", "modifiedArgs", "updated_input", "tool_input", 'Use \\"rtk', "Please run"):
        assert key not in text, (agent, command, text)
    if agent.name in ("windsurf", "kiro"):
        return ("deny" if code == 2 else None), err.decode()
    assert code == 0
    doc = json.loads(out) if out else {}
    if agent.name == "cline":
        return ("deny" if doc.get("cancel") else None), str(doc.get("errorMessage"))
    inner = doc.get("hookSpecificOutput", {})
    for d in (
        inner.get("permissionDecision"),
        doc.get("permissionDecision"),
        doc.get("permission"),
        doc.get("decision"),
    ):
        if d is not None:
            return d, text
    return None, text


@pytest.mark.parametrize("agent", [a for a in AGENTS if a.name != "claude"], ids=repr)
def test_every_hook_refuses_a_denied_command_inside_another_ones_words(agent: Agent) -> None:
    # Only the Claude and Gemini hooks answered deny here: the others left `rtk proxy git push` to a host whose
    # rules see `rtk` (allowed by `rtk:*`, or by Cursor's/Codex's auto-run) and ran it.
    allow(agent.name, "git push:*", kind="deny")
    for line in HIDDEN_LINES:
        d, text = refused(agent, line)
        assert d == "deny", (line, text)
        assert "deny rule" in text and "git push" in text
    assert refused(agent, "git push")[0] is None  # the host's own deny sees this one


@pytest.mark.parametrize("agent", [a for a in AGENTS if a.name != "claude"], ids=repr)
def test_every_hook_asks_or_refuses_an_asked_command_inside_another_ones_words(agent: Agent) -> None:
    allow(agent.name, "git push:*", kind="ask")
    for line in HIDDEN_LINES:
        d, text = refused(agent, line)
        assert d == HIDDEN_ASK.get(agent.name, "deny"), (line, text)
        assert "ask rule" in text
        if d == "deny":  # a host that cannot ask: the model is told how to get asked
            assert "run that command on its own" in text
    assert refused(agent, "rtk proxy git status")[0] is None  # no rule for it: the host decides


def test_copilot_claude_format_entries_refuse_a_hidden_denied_command() -> None:
    # Copilot CLI's PascalCase entries (tool_name Bash, hook_event_name): Claude's answer shape.
    allow("copilot", "git push:*", kind="deny")
    copilot = BY_NAME["vscode"]  # the snake_case payload; ``hook_event_name`` makes it Copilot CLI's
    p = copilot.payload()
    p.pop("hookEventName", None)
    p["hook_event_name"] = "PreToolUse"
    p["tool_name"] = "Bash"
    p["tool_input"]["command"] = "rtk proxy git push"
    out, _err, code = hook.run("copilot", [], json.dumps(p).encode())
    doc = json.loads(out)
    assert code == 0 and decision(doc) == "deny" and "updatedInput" not in doc["hookSpecificOutput"]


def test_qwen_yolo_leaves_a_hidden_ask_to_the_host() -> None:
    allow("qwen", "git push:*", kind="ask")
    qwen = BY_NAME["qwen"]
    p = qwen.payload()
    p["permission_mode"] = "yolo"  # no prompt wanted, as Claude's bypassPermissions
    assert refused(qwen, "rtk proxy git push", p)[0] is None
