"""`rtk hook check`: the hook's decision for one command, dry, through the same code the hook runs."""

from __future__ import annotations

import json
import subprocess

import pytest
from hookcases import allow

from helpers import rtk_argv
from rtk.commands import hook_check
from rtk.hook import ADAPTERS


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = hook_check.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_rewritten_command_shows_its_rtk_form_and_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = check(capsys, "git", "status")
    assert code == 0
    assert out.splitlines() == [
        "git status",
        "  -> rtk git status",
        "  verdict: ask (no permission rule applies (default: ask))",
    ]


def test_command_rtk_leaves_alone_says_so_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = check(capsys, "echo hi")
    assert code == 1
    assert out.splitlines()[0] == "No rewrite for: echo hi"
    assert "verdict: none" in out


def test_allow_rule_from_claude_settings_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    allow("claude", "git status")
    code, out, _ = check(capsys, "--agent", "claude", "git status")
    assert code == 0
    assert "verdict: allow" in out
    answer = json.loads(out.split("claude hook answers (exit 0): ", 1)[1].splitlines()[0])
    spec = answer["hookSpecificOutput"]
    assert spec["permissionDecision"] == "allow" and spec["updatedInput"] == {"command": "rtk git status"}


def test_deny_rule_wins_and_nothing_is_rewritten(capsys: pytest.CaptureFixture[str]) -> None:
    allow("claude", "git push:*", kind="deny")
    code, out, _ = check(capsys, "git push origin main")
    assert code == 1
    assert "No rewrite for: git push origin main" in out and "verdict: deny" in out


def test_codex_ask_verdict_leaves_the_command_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    """Codex applies a rewrite only with allow: the engine rewrites, the hook answers nothing, exit 1."""
    code, out, _ = check(capsys, "-a", "codex", "git status")
    assert code == 1
    assert "  -> rtk git status" in out
    assert "codex hook answers (exit 0): (nothing)" in out
    assert "the codex hook leaves the command unchanged" in out


def test_copilot_answer_carries_the_rewrite_of_every_segment(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = check(capsys, "--json", "--agent=copilot", "git log -3 && ls")
    assert code == 0
    doc = json.loads(out)
    assert doc["rewritten"] == "rtk git log -3 && rtk ls"
    assert doc["answer"] == {
        "stdout": {"modifiedArgs": {"command": "rtk git log -3 && rtk ls"}},
        "stderr": "",
        "exit": 0,
    }


@pytest.mark.parametrize("agent", sorted(ADAPTERS))
def test_every_agent_answers_a_check(capsys: pytest.CaptureFixture[str], agent: str) -> None:
    allow(agent, "cargo test")
    blocks = agent in ("kiro", "windsurf")  # they can only block with a suggestion, and only with --block
    code, out, _ = check(capsys, "--json", "--agent", agent, *(["--block"] if blocks else []), "cargo test")
    doc = json.loads(out)
    assert doc["rewritten"] == "rtk cargo test" and doc["verdict"] == "allow"
    assert doc["answer"]["exit"] == (2 if blocks else 0)
    assert code == 0, doc  # with allow, every host's answer carries the rewritten command


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "no command given"),
        (["--agent"], "--agent needs a name"),
        (["--agent", "nope", "git status"], "unknown agent 'nope'"),
    ],
)
def test_bad_usage_is_one_clear_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = check(capsys, *args)
    assert (code, out) == (2, "")
    assert err.splitlines()[0].startswith(f"rtk hook check: {message}")


def test_kiro_without_block_does_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = check(capsys, "--agent", "kiro", "git status")
    assert code == 1
    assert "kiro hook answers (exit 0): (nothing)" in out


def test_through_rtk_hook_in_a_process() -> None:
    p = subprocess.run(rtk_argv("hook", "check", "cargo", "test"), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "  -> rtk cargo test" in p.stdout
    helptext = subprocess.run(rtk_argv("hook", "--help"), capture_output=True, text=True, timeout=60).stdout
    assert "rtk hook check [--agent NAME] <command>" in helptext
