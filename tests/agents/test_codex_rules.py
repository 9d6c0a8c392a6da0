"""Codex's execpolicy ``.rules`` files decide its hook's verdict, read without ever being run.

The rules format (``prefix_rule``) and the ``[projects."/path"] trust_level`` key are not in the
protocol reference (agent-hooks.md documents hooks only): they follow Codex's documentation and are
unconfirmed here (no Codex runs in this environment). These tests pin rtk's reading of them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hookcases import BY_NAME

from rtk import config, hook
from rtk.agents._permline import sentence
from rtk.commands import doctor
from rtk.rewrite import codexrules, engine, hostperms

CODEX = BY_NAME["codex"]


def home() -> Path:
    return Path(os.environ["HOME"])


def rules(text: str, where: Path | None = None, name: str = "default.rules") -> Path:
    path = (where or home() / ".codex") / "rules" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    config.reset()
    engine.reset()
    return path


def answer(command: str, cwd: Path | None = None) -> tuple[bytes, dict[str, object] | None]:
    p = CODEX.payload()
    CODEX.set_cmd(p, command)
    if cwd is not None:
        p["cwd"] = str(cwd)
    out, err, code = hook.run("codex", [], json.dumps(p).encode())
    assert (code, err) == (0, b"")
    return out, CODEX.rewritten(out, b"")


def allowed(out: bytes) -> bool:
    return bool(out) and json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "allow"


RULES = """# team rules
prefix_rule(
    pattern = ["git", ["status", "log"]],   # alternatives
    decision = "allow",
    justification = 'read-only',
    match = ["git status --short", ["git", "log", "-3"]],
    not_match = ["git push"],
)
prefix_rule(pattern=["git", "push"], decision="prompt")
prefix_rule(pattern=["git", "reset", "--hard"], decision="forbidden",)
prefix_rule(pattern=["ls"])  # decision defaults to allow
"""


def test_allowed_is_rewritten_with_allow_forbidden_stays_denied_prompt_and_no_rule_run_unchanged() -> None:
    rules(RULES)
    for cmd in ("git status", "git log -3", "ls -la"):
        out, args = answer(cmd)
        assert args is not None and args["command"] == f"rtk {cmd}" and allowed(out), cmd
    assert answer("git reset --hard HEAD") == (b"", None)  # forbidden: Codex's own rule refuses it
    assert answer("git push origin main") == (b"", None)  # prompt: Codex cannot carry a rewrite with ask
    assert answer("git diff") == (b"", None)  # no rule: unchanged, as the sentence says
    said = sentence("codex")
    assert said.startswith("Codex CLI: commands your Codex rules allow will be rewritten (5 rules found); ")
    assert "others run unchanged" in said and "prefix_rule" in said
    ctx = hook.Context("codex", [])
    assert ctx.decide("git reset --hard HEAD", None).verdict == "deny"
    assert ctx.decide("git push", None).verdict == "ask"
    assert ctx.decide("git status && git push", None).verdict == "ask"  # every segment must be allowed


def test_most_restrictive_rule_wins_across_files() -> None:
    rules('prefix_rule(pattern=["git"], decision="allow")\n', name="a.rules")
    rules('prefix_rule(pattern=["git", "clean"], decision="forbidden")\n', name="b.rules")
    ctx = hook.Context("codex", [])
    assert ctx.decide("git status", None).verdict == "allow"
    assert ctx.decide("git clean -fdx", None).verdict == "deny"
    assert ctx.decide("git -C . clean -fdx", None).verdict == "deny"  # resolved forms are checked too


@pytest.mark.parametrize(
    "text",
    [
        'load("//x.star", "y")\n',
        'cmds = ["git"]\nprefix_rule(pattern=cmds)\n',
        '__import__("os").system("touch PWNED")\n',
        'prefix_rule(pattern=["git", "status"] + ["x"])\n',
        'prefix_rule(pattern=[f"git"])\n',
        'prefix_rule(["git", "status"])\n',
        'prefix_rule(pattern=["git"], decision="never")\n',
        'prefix_rule(pattern=["git"], when="always")\n',
        'prefix_rule(pattern=["git", 1])\n',
        "prefix_rule(pattern=[])\n",
        'prefix_rule(pattern=["git", "status"], match=["git log"])\n',
        'prefix_rule(pattern=["git"], not_match=["git status"])\n',
        'prefix_rule(pattern=["git", "status"]\n',
        'prefix_rule(pattern=["git\n',
        'prefix_rule(pattern=["git", "st\\x61tus"])\n',
    ],
)
def test_a_file_outside_the_literal_subset_cannot_be_evaluated_and_allows_nothing(
    text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    rules('prefix_rule(pattern=["git", "status"])\n', name="good.rules")
    bad = rules(text, name="bad.rules")
    d = hook.Context("codex", []).decide("git status", None)
    assert d.verdict == "ask" and "cannot be evaluated" in d.reason
    assert answer("git status") == (b"", None)
    assert not (tmp_path / "PWNED").exists()  # nothing in a rules file is ever run
    assert any(p.startswith(f"{bad}: ") for p in doctor.permission_problems())


def test_forbidden_rules_of_a_readable_file_still_deny_beside_a_broken_one() -> None:
    rules('prefix_rule(pattern=["git", "push"], decision="forbidden")\n', name="a.rules")
    rules("oops(\n", name="b.rules")
    assert hook.Context("codex", []).decide("git push", None).verdict == "deny"


def test_allow_prefixes_the_matcher_would_read_more_broadly_are_dropped() -> None:
    rules('prefix_rule(pattern=["git", "*"])\nprefix_rule(pattern=["git", "log", "a b"])\n')
    ctx = hook.Context("codex", [])
    assert ctx.decide("git push", None).verdict == "ask"  # Codex reads "*" literally: no glob
    assert ctx.decide("git log a b", None).verdict == "ask"  # one argument "a b", not two words
    rules('prefix_rule(pattern=["git", "log", "a b"], decision="forbidden")\n')
    assert ctx.decide("git log a b", None).verdict == "deny"  # a deny read more broadly only refuses more


def test_project_rules_allow_only_in_a_project_the_user_trusts(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    sub = project / "src"
    sub.mkdir(parents=True)
    rules(
        'prefix_rule(pattern=["make"])\nprefix_rule(pattern=["git", "push"], decision="forbidden")\n',
        where=project / ".codex",
    )
    ctx = hook.Context("codex", [])
    assert ctx.decide("make check", str(sub)).verdict == "ask"  # untrusted: Codex ignores its .codex
    assert ctx.decide("git push", str(sub)).verdict == "deny"  # a stricter rule is honoured anyway
    (home() / ".codex").mkdir(exist_ok=True)
    (home() / ".codex" / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    assert ctx.decide("make check", str(sub)).verdict == "allow"
    out, args = answer("make check", cwd=sub)
    assert args is not None and args["command"] == "rtk make check" and allowed(out)


def test_approval_never_in_an_untrusted_project_config_is_not_assumed(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".codex").mkdir(parents=True)
    (project / ".codex" / "config.toml").write_text('approval_policy = "never"\n')
    assert not hostperms.runs_unasked("codex", None, str(project))
    (home() / ".codex").mkdir(exist_ok=True)
    (home() / ".codex" / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n')
    assert hostperms.runs_unasked("codex", None, str(project))


def test_approval_policy_of_the_chosen_profile_counts() -> None:
    (home() / ".codex").mkdir(exist_ok=True)
    cfg = home() / ".codex" / "config.toml"
    cfg.write_text(
        'approval_policy = "never"\nprofile = "careful"\n[profiles.careful]\napproval_policy = "untrusted"\n'
    )
    assert not hostperms.runs_unasked("codex", None)
    cfg.write_text('approval_policy = "on-request"\nprofile = "fast"\n[profiles.fast]\napproval_policy = "never"\n')
    assert hostperms.runs_unasked("codex", None)


def test_parser_reads_strings_comments_and_trailing_commas() -> None:
    parsed = codexrules.parse_text(
        "prefix_rule(pattern=['a', r'b\\c', \"\"\"d e\"\"\"], decision='prompt',);\n# done\n"
    )
    assert parsed == [([("a", "b\\c", "d e")], "ask")]
    assert codexrules.parse_text("") == []
    assert codexrules.patterns(parsed) == {"allow": [], "ask": ["a b\\c d e:*"], "deny": []}


def test_trust_is_judged_on_real_paths(tmp_path: Path) -> None:
    # A cwd spelled through a trusted directory (`..`, or a symlink in it pointing out) is not
    # inside it: Codex would not load that project's .codex, so its allow rules do not count.
    trusted = tmp_path / "trusted"
    evil = tmp_path / "evil"
    (trusted / "src").mkdir(parents=True)
    (evil / "src").mkdir(parents=True)
    (trusted / "link").symlink_to(evil)
    rules('prefix_rule(pattern=["make"])\n', where=evil / ".codex")
    (evil / ".codex" / "config.toml").write_text('approval_policy = "never"\n')
    (home() / ".codex").mkdir(exist_ok=True)
    (home() / ".codex" / "config.toml").write_text(f'[projects."{trusted}"]\ntrust_level = "trusted"\n')
    ctx = hook.Context("codex", [])
    for cwd in (f"{trusted}/../evil/src", f"{trusted}/link/src", f"{trusted}/link"):
        assert ctx.decide("make check", cwd).verdict == "ask", cwd
        assert not hostperms.runs_unasked("codex", None, cwd), cwd
    assert not hostperms.is_trusted(f"{trusted}/../evil/.codex", [str(trusted)])
    assert not hostperms.is_trusted(f"{trusted}/link/.codex", [str(trusted)])
    # the other way round: a symlink to a trusted project is that project
    (tmp_path / "alias").symlink_to(trusted)
    assert hostperms.is_trusted(f"{tmp_path}/alias/.codex", [str(trusted)])
    assert hostperms.is_trusted(f"{trusted}/.codex", [f"{tmp_path}/alias/"])
