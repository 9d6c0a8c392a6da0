"""`rtk hook <agent>`: every reference test vector as a golden pair, and the generic negative vectors per adapter."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hookcases import AGENTS, BY_NAME, VECTORS, Agent, allow, rtk_bin

from rtk import hook


@pytest.fixture(autouse=True)
def rtk_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deny-with-suggestion hosts only suggest `rtk ...` when rtk resolves on PATH."""
    monkeypatch.setenv("PATH", rtk_bin() + os.pathsep + os.environ["PATH"])
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("RTK_HOOK_DEBUG", raising=False)


def run(agent: Agent | str, payload: Any, flags: list[str] | None = None) -> tuple[bytes, bytes, int]:
    a = BY_NAME[agent] if isinstance(agent, str) else agent
    raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return hook.run(a.name, a.flags if flags is None else flags, raw)


def one_object(out: bytes) -> Any:
    """stdout is exactly one ASCII JSON object on one line."""
    assert out.endswith(b"\n") and out.count(b"\n") == 1, out
    out.decode("ascii")
    doc = json.loads(out)
    assert isinstance(doc, dict)
    return doc


# -- golden pairs (the reference's vectors, byte-for-byte inputs) -------------------------


def test_claude_vector_allow() -> None:
    allow("claude", "git status")
    out, err, code = run("claude", VECTORS["TV-CLAUDE-1"][0])
    assert (one_object(out), err, code) == (VECTORS["TV-CLAUDE-1"][1], b"", 0)


def test_claude_vector_ask_without_rules() -> None:
    out, _, code = run("claude", VECTORS["TV-CLAUDE-1"][0])
    doc = one_object(out)["hookSpecificOutput"]
    assert code == 0 and doc["permissionDecision"] == "ask"
    assert doc["updatedInput"] == VECTORS["TV-CLAUDE-1"][1]["hookSpecificOutput"]["updatedInput"]
    assert "no permission rule" in doc["permissionDecisionReason"]


def test_claude_dont_ask_mode_leaves_unallowed_commands() -> None:
    p = BY_NAME["claude"].payload()
    p["permission_mode"] = "dontAsk"
    assert run("claude", p) == (b"", b"", 0)
    allow("claude", "git status")
    assert one_object(run("claude", p)[0])["hookSpecificOutput"]["permissionDecision"] == "allow"


def test_claude_bypass_mode_rewrites_what_is_not_denied_or_asked() -> None:
    """bypassPermissions runs every command not denied without asking: a rewrite grants nothing new."""
    p = BY_NAME["claude"].payload()
    p["permission_mode"] = "bypassPermissions"
    doc = one_object(run("claude", p)[0])["hookSpecificOutput"]
    assert doc["permissionDecision"] == "allow" and doc["updatedInput"]["command"] == "rtk git status"
    allow("claude", "git status", kind="ask")  # an ask rule still asks: bypass mode cannot carry ask
    assert run("claude", p) == (b"", b"", 0)
    allow("claude", "git status", kind="deny")
    assert run("claude", p) == (b"", b"", 0)
    p["tool_input"]["command"] = "git status $(rm -rf ~)"  # never attested, whatever the mode
    assert run("claude", p) == (b"", b"", 0)


def test_claude_settings_run_by_another_host_never_ask() -> None:
    """Copilot CLI runs .claude/settings.json entries (no permission_mode); its cloud agent denies on ask."""
    p = BY_NAME["claude"].payload()
    del p["permission_mode"]
    assert run("claude", p) == (b"", b"", 0)
    allow("claude", "git status")
    assert one_object(run("claude", p)[0]) == VECTORS["TV-CLAUDE-1"][1]


@pytest.mark.parametrize("tool", ["Read", "run_in_terminal", "Shell", "PowerShell"])
def test_claude_noop_variants(tool: str) -> None:
    p = BY_NAME["claude"].payload()
    p["tool_name"] = tool
    assert run("claude", p) == (b"", b"", 0)
    p = BY_NAME["claude"].payload()
    p["tool_input"]["command"] = "rtk git status"
    assert run("claude", p) == (b"", b"", 0)


def test_vscode_vector() -> None:
    allow("vscode", "git status")
    out, err, code = run("vscode", VECTORS["TV-VSCODE-1"][0])
    assert (one_object(out), err, code) == (VECTORS["TV-VSCODE-1"][1], b"", 0)


@pytest.mark.parametrize("tool", ["runTerminalCommand", "Bash", "bash"])
def test_vscode_terminal_tool_names(tool: str) -> None:
    allow("vscode", "git status")
    p = BY_NAME["vscode"].payload()
    p["tool_name"] = tool
    assert one_object(run("vscode", p)[0]) == VECTORS["TV-VSCODE-1"][1]


def test_copilot_cli_vector_allow() -> None:
    allow("copilot", "git status")
    out, err, code = run("copilot", VECTORS["TV-COPILOTCLI-1"][0])
    assert (one_object(out), err, code) == (VECTORS["TV-COPILOTCLI-1"][1], b"", 0)


def test_copilot_cli_without_allow_sends_modified_args_alone() -> None:
    out, _, _ = run("copilot", VECTORS["TV-COPILOTCLI-1"][0])
    assert one_object(out) == {"modifiedArgs": VECTORS["TV-COPILOTCLI-1"][1]["modifiedArgs"]}


def test_copilot_cli_before_1_0_24_denies_with_suggestion() -> None:
    out, err, code = run("copilot", VECTORS["TV-COPILOTCLI-1"][0], ["--suggest"])
    assert (one_object(out), err, code) == (VECTORS["TV-COPILOTCLI-1"][2], b"", 0)


def test_copilot_cli_pascal_case_entry() -> None:
    """Claude-format entries run by the CLI: snake_case payload, Claude answer, no ask (cloud agent denies it)."""
    p = dict(BY_NAME["claude"].payload(), tool_name="Bash")
    out = one_object(run("copilot", p)[0])["hookSpecificOutput"]
    assert "permissionDecision" not in out and out["updatedInput"]["command"] == "rtk git status"
    allow("copilot", "git status")
    assert one_object(run("copilot", p)[0]) == VECTORS["TV-CLAUDE-1"][1]


def test_cursor_vector_and_noop() -> None:
    allow("cursor", "git status")
    out, err, code = run("cursor", VECTORS["TV-CURSOR-1"][0])
    assert (one_object(out), err, code) == (VECTORS["TV-CURSOR-1"][1], b"", 0)
    p = BY_NAME["cursor"].payload()
    p["tool_name"] = "Read"
    assert run("cursor", p) == (b"{}\n", b"", 0)


def test_gemini_vector() -> None:
    allow("gemini", "git status")
    out, err, code = run("gemini", VECTORS["TV-GEMINI-1"][0])
    assert (one_object(out), err, code) == (VECTORS["TV-GEMINI-1"][1], b"", 0)


def test_gemini_without_allow_rewrites_without_decision() -> None:
    doc = one_object(run("gemini", VECTORS["TV-GEMINI-1"][0])[0])
    assert doc == {"hookSpecificOutput": VECTORS["TV-GEMINI-1"][1]["hookSpecificOutput"]}


def test_codex_vector() -> None:
    allow("codex", "git status")
    out, err, code = run("codex", VECTORS["TV-CODEX-1"][0])
    assert (one_object(out), err, code) == (VECTORS["TV-CODEX-1"][1], b"", 0)


@pytest.mark.parametrize(
    "command", ["git status", "git log -5", "cargo test && git diff", "ls -la | head", "git push", "$(git status)"]
)
@pytest.mark.parametrize("rules", ["none", "allow-git-status", "ask-git", "allow-all"])
def test_codex_never_sends_updated_input_without_allow(command: str, rules: str) -> None:
    if rules == "allow-git-status":
        allow("codex", "git status")
    elif rules == "ask-git":
        allow("codex", "git *", kind="ask")
    elif rules == "allow-all":
        allow("codex", "*")
    p = BY_NAME["codex"].payload()
    p["tool_input"]["command"] = command
    out, err, code = run("codex", p)
    assert code == 0 and err == b""
    if out:
        inner = one_object(out)["hookSpecificOutput"]
        assert inner["permissionDecision"] == "allow" and "updatedInput" in inner


def test_codex_ask_rule_leaves_command_unchanged() -> None:
    allow("codex", "git status", kind="ask")
    assert run("codex", VECTORS["TV-CODEX-1"][0]) == (b"", b"", 0)


def test_cline_vector() -> None:
    out, err, code = run("cline", VECTORS["TV-CLINE-1"][0])
    assert (one_object(out), err, code) == (VECTORS["TV-CLINE-1"][1], b"", 0)
    p = BY_NAME["cline"].payload()
    p["preToolUse"]["parameters"]["command"] = "rtk git status"
    assert run("cline", p) == (b'{"cancel":false}\n', b"", 0)


@pytest.mark.parametrize("agent", ["windsurf", "kiro"])
def test_block_mode_vectors(agent: str) -> None:
    tv = VECTORS["TV-WINDSURF-1" if agent == "windsurf" else "TV-KIRO-1"][0]
    out, err, code = run(agent, tv, ["--block"])
    assert (out, err, code) == (b"", b'Use "rtk git status" instead (compact output).\n', 2)
    assert run(agent, tv, []) == (b"", b"", 0)  # default mode: exit 0, no output


def test_suggestions_need_rtk_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert run("cline", VECTORS["TV-CLINE-1"][0]) == (b'{"cancel":false}\n', b"", 0)
    assert run("kiro", VECTORS["TV-KIRO-1"][0], ["--block"]) == (b"", b"", 0)
    assert run("copilot", VECTORS["TV-COPILOTCLI-1"][0], ["--suggest"]) == (b"", b"", 0)


def test_droid_vector() -> None:
    allow("droid", "git status")
    out, err, code = run("droid", VECTORS["TV-DROID-1"][0])
    assert (one_object(out), err, code) == (VECTORS["TV-DROID-1"][1], b"", 0)


def test_qwen_vector() -> None:
    allow("qwen", "git status")
    out, err, code = run("qwen", VECTORS["TV-QWEN-1"][0])
    doc = one_object(out)
    assert (doc, err, code) == (VECTORS["TV-QWEN-1"][1], b"", 0)
    inner = doc["hookSpecificOutput"]
    assert inner["permissionDecision"] and inner["permissionDecisionReason"]  # both required by Qwen


def test_unknown_agent_is_a_stderr_line_and_exit_0() -> None:
    out, err, code = hook.run("nosuch", [], b"{}")
    assert (out, code) == (b"", 0) and b"unknown agent" in err


# -- generic negative vectors (reference section 3), against every adapter ---------------


def rewrites_to(a: Agent, out: bytes, err: bytes, code: int) -> str | None:
    assert code in (0, 2)
    if out:
        one_object(out)
    got = a.rewritten(out, err)
    return None if got is None else got["command"]


def allowed(a: Agent) -> None:
    allow(a.name, "git status", "git log:*", "ls:*")


@pytest.mark.parametrize("agent", AGENTS, ids=str)
@pytest.mark.parametrize("tool", ["Read", "read_file", "editFiles", "Edit"])
def test_neg1_non_shell_tool(agent: Agent, tool: str) -> None:
    allowed(agent)
    p = agent.payload()
    agent.set_tool(p, tool)
    assert run(agent, p) == (agent.noop, b"", 0)


@pytest.mark.parametrize("agent", AGENTS, ids=str)
@pytest.mark.parametrize("command", ["rtk git status", "  rtk git status", "FOO=1 rtk git status"])
def test_neg2_already_rtk(agent: Agent, command: str) -> None:
    allowed(agent)
    p = agent.payload()
    agent.set_cmd(p, command)
    assert run(agent, p) == (agent.noop, b"", 0)


@pytest.mark.parametrize("agent", AGENTS, ids=str)
@pytest.mark.parametrize("command", ["echo hi", "cd src", "vim notes.txt", "git status > out.txt"])
def test_neg3_unsupported_command(agent: Agent, command: str) -> None:
    from rtk.rewrite.engine import rewrite

    assert rewrite(command) is None  # the premise of this vector
    allowed(agent)
    p = agent.payload()
    agent.set_cmd(p, command)
    assert run(agent, p) == (agent.noop, b"", 0)


@pytest.mark.parametrize("agent", AGENTS, ids=str)
def test_neg4_empty_truncated_or_not_json(agent: Agent) -> None:
    allowed(agent)
    whole = json.dumps(agent.payload()).encode()
    for raw in (
        b"",
        b"   \n",
        whole[: len(whole) // 2],
        b"not json",
        b"[]",
        b"null",
        b'"x"',
        whole + b"{}",
        b"\xff\xfe",
    ):
        assert run(agent, raw) == (agent.noop, b"", 0), raw


@pytest.mark.parametrize("agent", AGENTS, ids=str)
def test_neg5_leading_boms(agent: Agent) -> None:
    allowed(agent)
    whole = json.dumps(agent.payload()).encode()
    plain = run(agent, whole)
    assert rewrites_to(agent, *plain) == "rtk git status"
    for prefix in ("\ufeff", "\ufeff\ufeff", "\ufeff \ufeff\n"):
        assert run(agent, prefix.encode() + whole) == plain


@pytest.mark.parametrize("agent", AGENTS, ids=str)
def test_neg6_unknown_fields_kept(agent: Agent) -> None:
    allowed(agent)
    p = agent.payload()
    agent.extra(p)
    out, err, code = run(agent, p)
    assert rewrites_to(agent, out, err, code) == "rtk git status"
    if agent.echoes_input:
        got = agent.rewritten(out, err)
        assert got is not None and got["x_unknown_arg"] == "kept"
        assert list(got)[-1] == "x_unknown_arg"  # order kept: the new key stays last


def test_neg7_copilot_tool_args_as_object() -> None:
    allow("copilot", "git status")
    p = BY_NAME["copilot"].payload()
    as_string = run("copilot", p)
    p["toolArgs"] = json.loads(p["toolArgs"])
    assert run("copilot", p) == as_string
    assert one_object(as_string[0]) == VECTORS["TV-COPILOTCLI-1"][1]


@pytest.mark.parametrize("agent", AGENTS, ids=str)
def test_neg8_internal_exception(agent: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: object, command: str, cwd: str | None, mode: str | None = None) -> None:
        raise RuntimeError("engine broke")

    monkeypatch.setattr(hook.Context, "decide", boom)
    assert run(agent, agent.payload()) == (agent.noop, b"", 0)


@pytest.mark.parametrize("agent", AGENTS, ids=str)
def test_neg8_debug_shows_the_error_on_stderr_only(agent: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: object, command: str, cwd: str | None, mode: str | None = None) -> None:
        raise RuntimeError("engine broke")

    monkeypatch.setattr(hook.Context, "decide", boom)
    monkeypatch.setenv("RTK_HOOK_DEBUG", "1")
    out, err, code = run(agent, agent.payload())
    assert (out, code) == (agent.noop, 0) and b"engine broke" in err


@pytest.mark.parametrize("agent", AGENTS, ids=str)
def test_neg9_deny_rule_leaves_the_command(agent: Agent) -> None:
    allow(agent.name, "git status", kind="deny")
    assert run(agent, agent.payload()) == (agent.noop, b"", 0)


@pytest.mark.parametrize("agent", AGENTS, ids=str)
def test_neg9_ask_rule_follows_the_host_policy(agent: Agent) -> None:
    allow(agent.name, "git status", kind="ask")
    out, err, code = run(agent, agent.payload())
    if agent.ask != "ask":
        # Unchanged where the answer cannot say ask: a host judging `rtk git status` (the rewrite without a
        # decision, or the suggested form the model re-runs) misses its own rule for `git status`.
        assert (out, err, code) == (agent.noop, b"", 0)
        return
    assert rewrites_to(agent, out, err, code) == "rtk git status"
    text = (out + err).decode()
    assert '"allow"' not in text  # never approved
    assert one_object(out)["hookSpecificOutput"]["permissionDecision"] == "ask"
    assert "ask rule" in one_object(out)["hookSpecificOutput"]["permissionDecisionReason"]


@pytest.mark.parametrize("agent", AGENTS, ids=str)
def test_allow_is_answered_only_where_the_engine_allows(agent: Agent) -> None:
    """No rule at all: the engine says ask, so no adapter approves anything."""
    for command in ("git status", "git log -3", "ls -la", "cargo test"):
        p = agent.payload()
        agent.set_cmd(p, command)
        out, _, _ = run(agent, p)
        assert b'"allow"' not in out, (command, out)


@pytest.mark.parametrize("agent", AGENTS, ids=str)
def test_output_is_ascii_and_keeps_non_ascii_commands(agent: Agent) -> None:
    allow(agent.name, "git log:*")
    p = agent.payload()
    agent.set_cmd(p, "git log --grep='café ☕'")
    out, err, code = run(agent, p)
    out.decode("ascii")
    assert rewrites_to(agent, out, err, code) == "rtk git log --grep='café ☕'"


def test_claude_reads_project_rules_at_the_payload_cwd(tmp_path: Path) -> None:
    agent = BY_NAME["claude"]
    d = tmp_path / ".claude"
    d.mkdir()
    (d / "settings.json").write_text(json.dumps({"permissions": {"allow": ["Bash(git status)"]}}))
    p = agent.payload()
    p["cwd"] = str(tmp_path)
    assert one_object(run(agent, p)[0])["hookSpecificOutput"]["permissionDecision"] == "allow"


# -- Mistral Vibe: TV-VIBE-1 is not in the reference; it is built from Vibe's own hook executor
# (mistralai/mistral-vibe: the pre_tool stdin payload and the stdout interpretation) ----------


def test_vibe_vector_allow() -> None:
    allow("vibe", "git status")
    out, err, code = run("vibe", VECTORS["TV-VIBE-1"][0])
    assert (one_object(out), err, code) == (VECTORS["TV-VIBE-1"][1], b"", 0)


def test_vibe_without_rules_rewrites_and_leaves_approval_to_vibe() -> None:
    """Vibe's answer has no approval field: the rewrite with no rule is the same answer, never a decision."""
    out, err, code = run("vibe", VECTORS["TV-VIBE-1"][0])
    assert (one_object(out), err, code) == (VECTORS["TV-VIBE-1"][1], b"", 0)
    assert b"decision" not in out


def test_vibe_deny_rule_answers_nothing() -> None:
    allow("vibe", "git status", kind="deny")
    assert run("vibe", VECTORS["TV-VIBE-1"][0]) == (b"", b"", 0)


@pytest.mark.parametrize("tool", ["file_system.bash", "bash"])
def test_vibe_qualified_bash_tool_name(tool: str) -> None:
    """Vibe's payload carries the qualified tool name (its notices strip it to the leaf, ``bash``)."""
    p = BY_NAME["vibe"].payload()
    p["tool_name"] = tool
    assert one_object(run("vibe", p)[0]) == VECTORS["TV-VIBE-1"][1]


@pytest.mark.parametrize("tool", ["read_file", "bash_history", "mcp.bashful", "grep"])
def test_vibe_other_tools_are_left_alone(tool: str) -> None:
    p = BY_NAME["vibe"].payload()
    p["tool_name"] = tool
    assert run("vibe", p) == (b"", b"", 0)
