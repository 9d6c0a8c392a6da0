"""Each host's own permission rules decide the hook's verdict, and one sentence (init, hook check, doctor) says so.

The permission file formats of Cursor, Gemini CLI, Qwen Code and Droid are not in the protocol
reference (agent-hooks.md documents hooks only); they follow the vendors' documentation and are
unconfirmed here: these tests pin rtk's reading of them (docs/agents.md, "Who approves").
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hookcases import AGENTS, BY_NAME, Agent, allow

from rtk import config, hook
from rtk.agents._permline import UNRULED, sentence
from rtk.commands import doctor, hook_check, init_cmd
from rtk.rewrite import engine, hostperms

HOOKED = [a for a in AGENTS if a.name in UNRULED]  # every agent whose hook can rewrite a command


def run(agent: Agent, command: str, mode: str | None = None) -> tuple[bytes, dict[str, object] | None]:
    p = agent.payload()
    agent.set_cmd(p, command)
    if mode is not None:
        p["permission_mode"] = mode
    out, _err, code = hook.run(agent.name, agent.flags, json.dumps(p).encode())
    assert code == 0
    return out, agent.rewritten(out, b"")


def approved(out: bytes) -> bool:
    """Whether the answer approves (allow), in any host's shape."""
    doc = json.loads(out) if out else {}
    inner = doc.get("hookSpecificOutput", {})
    return "allow" in (doc.get("permission"), doc.get("permissionDecision"), doc.get("decision")) or (
        isinstance(inner, dict) and inner.get("permissionDecision") == "allow"
    )


def write(rel: str, doc: object) -> Path:
    path = Path(os.environ["HOME"]) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    config.reset()
    engine.reset()
    return path


@pytest.mark.parametrize("agent", HOOKED, ids=repr)
def test_a_command_the_hosts_allow_rules_permit_is_rewritten_with_allow(agent: Agent) -> None:
    allow(agent.name, "git status")
    out, args = run(agent, "git status")
    assert args is not None and args["command"] == "rtk git status"
    assert approved(out)


@pytest.mark.parametrize("agent", HOOKED, ids=repr)
def test_a_command_the_hosts_rules_deny_stays_denied(agent: Agent) -> None:
    allow(agent.name, "git push:*", kind="deny")
    assert run(agent, "git push origin main") == (agent.noop, None)


@pytest.mark.parametrize("agent", HOOKED, ids=repr)
def test_a_command_with_no_rule_behaves_as_the_sentence_says(agent: Agent) -> None:
    allow(agent.name, "cargo test")  # a rule exists, none for git status
    out, args = run(agent, "git status")
    said = sentence(agent.name)
    assert "(1 rule found)" in said
    if "others run unchanged" in said:
        assert (out, args) == (agent.noop, None)
    else:
        assert args is not None and args["command"] == "rtk git status" and not approved(out)
        assert ("asks you to confirm" in said) == (agent.ask == "ask")


@pytest.mark.parametrize("agent", ["gemini", "qwen", "cursor", "droid", "codex"])
def test_rtk_allow_list_does_not_approve_for_a_host_whose_rules_are_read(agent: str) -> None:
    allow(agent, "git status")  # the host's own rule
    allow("copilot", "git log:*")  # rtk's [hooks] allow: not the host's word
    assert hook.Context(agent, []).decide("git log -3", None).verdict == "ask"
    assert hook.Context(agent, []).decide("git status", None).verdict == "allow"


@pytest.mark.parametrize("agent", ["gemini", "cursor", "droid", "codex"])
def test_rtk_deny_still_applies_on_top_of_host_rules(agent: str) -> None:
    allow(agent, "git")
    cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('[hooks]\ndeny = ["git push:*"]\n')
    config.reset()
    assert hook.Context(agent, []).decide("git push", None).verdict == "deny"
    assert hook.Context(agent, []).decide("git status", None).verdict == "allow"


def test_gemini_shell_entries_are_prefixes_on_a_word_boundary() -> None:
    write(".gemini/settings.json", {"tools": {"allowed": ["run_shell_command(git log)", "ShellTool(ls)"]}})
    ctx = hook.Context("gemini", [])
    assert ctx.decide("git log -3", None).verdict == "allow"
    assert ctx.decide("ls -la", None).verdict == "allow"
    assert ctx.decide("git status", None).verdict == "ask"
    assert ctx.decide("git log -3 && git status", None).verdict == "ask"  # every segment must be allowed
    write(
        ".gemini/settings.json",
        {"tools": {"allowed": ["run_shell_command"], "exclude": ["run_shell_command(git push)"]}},
    )
    assert ctx.decide("git push -f", None).verdict == "deny"
    assert ctx.decide("git status $(git push)", None).verdict != "allow"


def test_legacy_gemini_keys_and_the_project_file_are_read(tmp_path: Path) -> None:
    write(".gemini/settings.json", {"allowedTools": ["run_shell_command(git status)"]})
    project = tmp_path / "proj"
    (project / ".gemini").mkdir(parents=True)
    (project / ".gemini" / "settings.json").write_text(json.dumps({"excludeTools": ["run_shell_command(git)"]}))
    sub = project / "src"
    sub.mkdir()
    assert hook.Context("gemini", []).decide("git status", str(tmp_path)).verdict == "allow"
    assert hook.Context("gemini", []).decide("git status", str(sub)).verdict == "deny"


def test_cursor_terminal_allowlist_with_comments_is_read() -> None:
    write(
        ".cursor/permissions.json",
        '{\n  // read-only git\n  "terminalAllowlist": ["git status", "git diff"] /* more later */\n}\n',
    )
    ctx = hook.Context("cursor", [])
    assert ctx.decide("git diff --stat", None).verdict == "allow"
    assert ctx.decide("git push", None).verdict == "ask"
    assert "(2 rules found)" in sentence("cursor")


def test_droid_denylist_asks_and_blocklist_denies() -> None:
    write(
        ".factory/settings.json",
        {"commandAllowlist": ["git"], "commandDenylist": ["git push"], "commandBlocklist": ["git reset --hard"]},
    )
    ctx = hook.Context("droid", [])
    assert ctx.decide("git status", None).verdict == "allow"
    assert ctx.decide("git push", None).verdict == "ask"
    assert ctx.decide("git reset --hard HEAD", None).verdict == "deny"


@pytest.mark.parametrize(
    ("rel", "doc"),
    [
        (".qwen/settings.json", {"permissions": {"allow": ["Bash(git:*)"], "deny": "Bash(git push:*)"}}),
        (".gemini/settings.json", {"tools": {"allowed": "run_shell_command(git)"}}),
        (".cursor/cli-config.json", {"permissions": {"allow": ["Shell(git)", 3]}}),
        (".factory/settings.json", "{not json"),
    ],
)
def test_malformed_host_settings_allow_nothing_and_doctor_names_them(rel: str, doc: object) -> None:
    agent = {".qwen": "qwen", ".gemini": "gemini", ".cursor": "cursor", ".factory": "droid"}[rel.split("/")[0]]
    path = write(rel, doc)
    d = hook.Context(agent, []).decide("git status", None)
    assert d.verdict == "ask" and "cannot be evaluated" in d.reason
    assert any(p.startswith(str(path)) for p in doctor.permission_problems())


def test_qwen_yolo_mode_rewrites_what_is_not_denied() -> None:
    agent = BY_NAME["qwen"]
    out, args = run(agent, "git status", mode="yolo")
    assert args is not None and args["command"] == "rtk git status" and approved(out)
    assert run(agent, "git status", mode="default") == (b"", None)
    allow("qwen", "git status", kind="deny")
    assert run(agent, "git status", mode="yolo") == (b"", None)


def test_codex_approval_never_rewrites_what_its_rules_do_not_forbid() -> None:
    agent = BY_NAME["codex"]
    assert run(agent, "git status") == (b"", None)
    cfg = write(".codex/config.toml", 'approval_policy = "never"\n')
    out, args = run(agent, "git status")
    assert args is not None and args["command"] == "rtk git status" and approved(out)
    assert 'approval_policy = "never"' in sentence("codex")
    rules = cfg.parent / "rules"
    rules.mkdir()
    (rules / "default.rules").write_text('prefix_rule(pattern=["git", "status"], decision="forbidden")\n')
    engine.reset()
    assert run(agent, "git status") == (b"", None)  # its forbidden rule is read: denied, left alone
    out, args = run(agent, "git log -3")  # no rule: approval never still means no prompt
    assert args is not None and args["command"] == "rtk git log -3" and approved(out)
    (rules / "default.rules").write_text("load('x.star', 'y')\n")
    assert run(agent, "git log -3") == (b"", None)  # a file rtk cannot evaluate: nothing treated as allowed


def test_host_rules_are_cached_and_reread_on_change(monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(".gemini/settings.json", {"tools": {"allowed": ["run_shell_command(git status)"]}})
    assert hostperms.host_rules("gemini").allow == ("git status:*",)

    def no_parse(agent: str, files: list[str]) -> None:
        raise AssertionError("parsed again")

    with monkeypatch.context() as m:
        m.setattr(hostperms, "_parse", no_parse)
        assert hostperms.host_rules("gemini").allow == ("git status:*",)
    path.write_text(json.dumps({"tools": {"allowed": ["run_shell_command(git log)", "run_shell_command(ls)"]}}))
    assert hostperms.host_rules("gemini").allow == ("git log:*", "ls:*")


@pytest.mark.parametrize("agent", HOOKED, ids=repr)
def test_init_hook_check_and_doctor_say_the_same_sentence(
    agent: Agent, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from hookcases import rtk_bin

    monkeypatch.setenv("PATH", rtk_bin() + os.pathsep + os.environ["PATH"])
    monkeypatch.chdir(tmp_path)
    allow(agent.name, "git status")
    said = sentence(agent.name)
    assert said.startswith(f"{said.split(':')[0]}: commands ") and "(1 rule found)" in said
    assert init_cmd.main(["--agent", agent.name, "--global"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip("\n").splitlines()[-1] == said  # rtk init ends with it
    hook_check.main(["--agent", agent.name, "git status"])
    assert f"  {said}" in capsys.readouterr().out.splitlines()
    doctor.main(["--agent", agent.name])
    assert f"  {said}" in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize(
    ("agent", "rel", "doc"),
    [
        ("gemini", ".gemini/settings.json", {"tools": {"allowed": ["run_shell_command()"]}}),
        ("gemini", ".gemini/settings.json", {"tools": {"allowed": ["run_shell_command(  )"]}}),
        ("qwen", ".qwen/settings.json", {"permissions": {"allow": ["Bash()"]}}),
        ("qwen", ".qwen/settings.json", {"tools": {"allowed": ["ShellTool()"]}}),
        ("cursor", ".cursor/cli-config.json", {"permissions": {"allow": ["Shell()"]}}),
        ("cursor", ".cursor/permissions.json", {"terminalAllowlist": [""]}),
        ("droid", ".factory/settings.json", {"commandAllowlist": ["  "]}),
    ],
)
def test_an_empty_approval_approves_nothing(agent: str, rel: str, doc: object) -> None:
    """An entry with nothing in it never becomes "every command" in rtk's allow."""
    write(rel, doc)
    assert hook.Context(agent, []).decide("git push --force", None).verdict != "allow"


@pytest.mark.parametrize(
    ("agent", "rel", "doc"),
    [
        ("gemini", ".gemini/settings.json", {"tools": {"exclude": ["run_shell_command()"]}}),
        ("droid", ".factory/settings.json", {"commandAllowlist": ["git"], "commandBlocklist": [""]}),
    ],
)
def test_an_empty_refusal_still_refuses(agent: str, rel: str, doc: object) -> None:
    write(rel, doc)
    assert hook.Context(agent, []).decide("git status", None).verdict == "deny"
