"""VS Code's ``chat.tools.terminal.autoApprove`` decides the VS Code hook's verdict (allow, ask).

The setting's keys and semantics (prefix and ``/regex/`` keys, ``false`` wins, JSONC) are not in the
protocol reference (agent-hooks.md documents hooks only): they follow VS Code's documentation and are
unconfirmed here (no VS Code runs in this environment). These tests pin rtk's reading of them.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hookcases import BY_NAME, rtk_bin

from rtk import config, hook
from rtk.agents._permline import sentence
from rtk.commands import doctor
from rtk.rewrite import engine, hostperms

VSCODE = BY_NAME["vscode"]
KEY = "chat.tools.terminal.autoApprove"


def user(doc: object) -> Path:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "Code" / "User" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    config.reset()
    engine.reset()
    return path


def answer(command: str, cwd: Path | None = None) -> tuple[str | None, str | None]:
    """(permissionDecision, rewritten command) of the VS Code hook, (None, None) for no output."""
    p = VSCODE.payload()
    VSCODE.set_cmd(p, command)
    if cwd is not None:
        p["cwd"] = str(cwd)
    out, err, code = hook.run("vscode", [], json.dumps(p).encode())
    assert (code, err) == (0, b"")
    if not out:
        return None, None
    inner = json.loads(out)["hookSpecificOutput"]
    return inner["permissionDecision"], inner["updatedInput"]["command"]


def verdict(command: str, cwd: Path | None = None) -> str:
    return hook.Context("vscode", []).decide(command, str(cwd) if cwd else None).verdict


def test_true_allows_false_asks_and_false_wins() -> None:
    user({KEY: {"git": True, "git push": False, "ls": True, "cargo": None}})
    assert answer("git status") == ("allow", "rtk git status")
    assert answer("ls -la") == ("allow", "rtk ls -la")
    assert answer("git push origin main") == ("ask", "rtk git push origin main")  # VS Code would ask: so do we
    assert answer("cargo test") == ("ask", "rtk cargo test")  # null: no rule, VS Code asks
    assert answer("git status && git push") == ("ask", "rtk git status && rtk git push")  # every sub-command
    said = sentence("vscode")
    assert said.startswith("VS Code: commands your VS Code chat.tools.terminal.autoApprove permits will be "
                           "rewritten (3 rules found); others are rewritten and VS Code asks you to confirm them")  # fmt: skip


def test_rtk_deny_applies_and_rtk_allow_does_not() -> None:
    cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('[hooks]\nallow = ["git log:*"]\ndeny = ["git push:*"]\n')
    user({KEY: {"git": True}})
    assert answer("git push") == (None, None)  # denied: left alone
    assert answer("git status") == ("allow", "rtk git status")
    user({})
    assert answer("git log -3") == ("ask", "rtk git log -3")  # rtk's allow is not VS Code's word


def test_regex_keys_with_flags() -> None:
    user({KEY: {"/^git (status|log)\\b/": True, "/PUSH/i": False, "/^ls$/": True}})
    assert verdict("git log -3") == "allow"
    assert verdict("git status") == "allow"
    assert verdict("git diff") == "ask"
    assert verdict("git push") == "ask"  # /PUSH/i
    assert verdict("ls") == "allow" and verdict("ls -la") == "ask"
    d = hook.Context("vscode", []).decide("git push", None)
    assert "/(?i)PUSH/" in d.reason  # the reason names the rule readably


@pytest.mark.parametrize(
    "rules",
    [
        {"/(?<name>x)/": False},  # JavaScript syntax Python does not read
        {"/git/v": False},  # a flag rtk does not know
        {"git push": {"approve": False, "matchCommandLine": True}},  # a whole-line refusal
        {"git": "yes"},
    ],
)
def test_a_refusal_rtk_cannot_read_allows_nothing_and_doctor_names_it(rules: dict[str, object]) -> None:
    path = user({KEY: {"git status": True, **rules}})
    d = hook.Context("vscode", []).decide("git status", None)
    assert d.verdict == "ask" and "cannot be evaluated" in d.reason
    assert any(p.startswith(f"{path}: ") for p in doctor.permission_problems())


def test_approvals_rtk_cannot_read_exactly_approve_nothing() -> None:
    user(
        {
            KEY: {
                "/(?<n>git)/": True,
                "git*": True,
                "": True,
                "git log": {"approve": True, "matchCommandLine": True},
                "git status": {"approve": True},
            }
        }
    )
    assert verdict("git log") == "ask" and verdict("git diff") == "ask"
    assert verdict("git status") == "allow"  # the object form without matchCommandLine
    assert hostperms.host_rules("vscode").broken == ""


def test_jsonc_comments_and_trailing_commas_parse_and_a_broken_file_fails_closed() -> None:
    user('{\n  // terminal\n  "chat.tools.terminal.autoApprove": {\n    "git status": true, /* read-only */\n  },\n}\n')
    assert verdict("git status") == "allow"
    user('{"x.note": "a, ] // not a comment", "chat.tools.terminal.autoApprove": {"git status": true},}')
    assert verdict("git status") == "allow"  # commas and brackets inside strings kept
    path = user('{"chat.tools.terminal.autoApprove": {"git status": true,,}}')
    d = hook.Context("vscode", []).decide("git status", None)
    assert d.verdict == "ask" and "cannot be evaluated" in d.reason
    assert any(p.startswith(f"{path}: ") for p in doctor.permission_problems())


def test_workspace_settings_are_read_and_a_workspace_false_wins(tmp_path: Path) -> None:
    user({KEY: {"git": True}})
    project = tmp_path / "proj"
    (project / ".vscode").mkdir(parents=True)
    (project / ".vscode" / "settings.json").write_text(json.dumps({KEY: {"git push": False, "make": True}}))
    assert verdict("git push", project) == "ask"
    assert verdict("make check", project) == "ask"  # a workspace approves nothing: rtk cannot see its trust
    assert verdict("git status", project) == "allow"
    assert verdict("make check", tmp_path) == "ask"  # outside the workspace


def test_a_cloned_workspace_cannot_approve_a_command(tmp_path: Path) -> None:
    # VS Code ignores an untrusted workspace's auto-approve settings; a hook cannot tell trusted from
    # untrusted, so a repository's own settings never turn a command into an allow.
    user({})
    project = tmp_path / "proj"
    (project / ".vscode").mkdir(parents=True)
    (project / ".vscode" / "settings.json").write_text(json.dumps({KEY: {"cargo": True, "/^git /": True}}))
    assert verdict("cargo test", project) == "ask"
    assert verdict("git status", project) == "ask"


def test_global_auto_approve_allows_what_no_rule_refuses_but_only_from_user_settings(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    (project / ".vscode").mkdir(parents=True)
    (project / ".vscode" / "settings.json").write_text(json.dumps({"chat.tools.global.autoApprove": True}))
    user({})
    assert verdict("git status", project) == "ask"  # a workspace cannot approve everything
    user({"chat.tools.global.autoApprove": True, KEY: {"git push": False}})
    assert answer("cargo test") == ("allow", "rtk cargo test")
    assert verdict("git push") == "ask"


def test_auto_approve_turned_off_allows_nothing() -> None:
    user({"chat.tools.terminal.enableAutoApprove": False, KEY: {"git": True}})
    assert answer("git status") == ("ask", "rtk git status")


HOSTILE = "/(a+)+$/"  # catastrophic backtracking: exponential in the run of a's before a mismatch
SLOW = "git log " + "a" * 40 + "!"


@pytest.mark.parametrize("approve", [True, False])
def test_a_catastrophic_workspace_regex_never_hangs_the_hook(approve: bool, tmp_path: Path) -> None:
    # Run in a subprocess with a deadline so that the suite itself cannot hang (the old hook did).
    project = tmp_path / "proj"
    (project / ".vscode").mkdir(parents=True)
    (project / ".vscode" / "settings.json").write_text(json.dumps({KEY: {HOSTILE: approve}}))
    user({KEY: {"git log": True}})  # approvals count from the user's settings only
    p = VSCODE.payload()
    VSCODE.set_cmd(p, SLOW)
    p["cwd"] = str(project)
    launcher = str(Path(rtk_bin()) / "rtk")
    try:
        run = subprocess.run([launcher, "hook", "vscode"], input=json.dumps(p).encode(), capture_output=True,
                             timeout=20, check=False)  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail("the hook hung on a catastrophic regular expression")
    assert (run.returncode, run.stderr) == (0, b"")
    decision = json.loads(run.stdout)["hookSpecificOutput"]["permissionDecision"] if run.stdout else None
    # An approval rtk cannot search approves nothing ("git log" still does); a refusal it cannot
    # search makes the workspace file "cannot be evaluated": nothing is allowed.
    assert decision == ("allow" if approve else "ask")
    if not approve:
        d = hook.Context("vscode", []).decide(SLOW, str(project))
        assert d.verdict == "ask" and "cannot be evaluated" in d.reason
        assert any("nested or grouped repetition" in x for x in doctor.permission_problems(str(project)))


@pytest.mark.parametrize(
    "key",
    ["/(a+)+$/", "/(ab|a)*c/", "/(x)\\1/", "/^git(?= push)/", "/(?<!no)push/", "/a*a*a*a*b/", "/" + "a" * 300 + "/"],
)
def test_regexes_rtk_cannot_search_in_bounded_time_are_refused(key: str) -> None:
    path = user({KEY: {"git status": True, key: False}})
    d = hook.Context("vscode", []).decide("git status", None)
    assert d.verdict == "ask" and "cannot be evaluated" in d.reason
    assert any(p.startswith(f"{path}: ") and "cannot use" in p for p in doctor.permission_problems())
    user({KEY: {key: True}})
    assert verdict("git status") == "ask" and hostperms.host_rules("vscode").broken == ""


def test_a_command_too_long_to_search_fails_closed() -> None:
    # Accepted expressions still cost a power of the command's length: past the budget the
    # search is not run, so an approval does not apply and a refusal does.
    user({KEY: {"/^git log .*$/": True, "/^git\\s*\\s*\\s*push/": False}})
    assert verdict("git log -3") == "allow"
    assert verdict("git log " + "x" * 5000) == "ask"
    assert verdict("git push") == "ask"
    user({KEY: {"/^git\\s*\\s*\\s*push/": False, "git": True}})
    assert verdict("git status") == "allow"
    assert verdict("git status " + "x" * 400) == "ask"  # too long to search the refusal in: it applies
