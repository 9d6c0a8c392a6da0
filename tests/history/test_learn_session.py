"""rtk learn (correction pairs, --write) and rtk session (recent sessions) on real and built transcripts."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from histlib import claude_session, homes, install_real, iso, rtk, rtk_json, track


def test_learn_finds_the_real_correction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_real(tmp_path, monkeypatch)
    d = rtk_json("learn", "--all", "--since", "all")
    assert d["failures"] == 4  # rg exit 1 (no match) is not a failure; the cancelled call never ran
    rules = d["rules"]
    assert len(rules) == 1
    r = rules[0]
    # Codex ran `rg ... node_modules/opencode-ai node_modules/opencode` (exit 2, "No such file or directory"),
    # then the same search in node_modules/@codemieai/...: a wrong path, corrected.
    assert r["kind"] == "wrong-path" and r["tool"] == "rg"
    assert r["rule"] == (
        "`rg`: `node_modules/opencode-ai node_modules/opencode` does not exist;"
        " use `node_modules/@codemieai/codemie-opencode node_modules/@codemieai/codemie-opencode-darwin-arm64`"
    )
    assert r["error"].startswith("rg: node_modules/opencode-ai: No such file or directory")
    assert r["confidence"] >= 0.6
    # the failing `npm test -t ...` that later passed unchanged (the code was fixed) is no correction
    assert not any("npm" in x["rule"] for x in rules)


def steps_with_mistakes() -> list[dict[str, object]]:
    return [
        {
            "command": "git comit -m 'fix parser'",
            "exit": 1,
            "output": "git: 'comit' is not a git command. See 'git --help'.",
        },
        {"command": "git commit -m 'fix parser'", "output": "[main 1a2b3c4] fix parser\n 1 file changed"},
        {"command": "ls --colour=auto src", "exit": 2, "output": "ls: unrecognized option '--colour=auto'"},
        {"command": "ls --color=auto src", "output": "a.py b.py"},
        {
            "command": "mysql --password=hunter2 -e 'select 1' --hostt db",
            "exit": 7,
            "output": "mysql: [ERROR] unknown option '--hostt'.",
        },
        {"command": "mysql --password=hunter2 -e 'select 1' --host db", "output": "1"},
        {"command": "pytest tests/test_x.py", "exit": 1, "output": "1 failed"},
        {"command": "pytest tests/test_x.py", "output": "1 passed"},  # passed unchanged: not a correction
        {"command": "pytest tests/test_y.py", "output": "1 passed"},
    ]


def test_learn_rules_kinds_and_masking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude, _ = homes(tmp_path, monkeypatch)
    claude_session(claude, steps_with_mistakes())
    d = rtk_json("learn", "--all", "--since", "all")
    rules = {r["tool"]: r for r in d["rules"]}
    assert set(rules) == {"git", "ls", "mysql"}
    assert rules["git"]["kind"] == "unknown-subcommand"
    assert rules["git"]["rule"] == "`git` does not accept `comit`; use `commit`"
    assert rules["ls"]["kind"] == "unknown-flag"
    assert rules["mysql"]["rule"] == "`mysql` does not accept `--hostt`; use `--host`"
    p = rtk("learn", "--all", "--since", "all")
    assert p.returncode == 0 and "--password=****" in p.stdout
    assert "hunter2" not in p.stdout and "hunter2" not in str(d)


def test_learn_write_is_idempotent_and_keeps_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude, _ = homes(tmp_path, monkeypatch)
    proj = tmp_path / "proj"
    proj.mkdir()
    claude_session(claude, steps_with_mistakes(), cwd=str(proj))
    (proj / "AGENTS.md").write_text("# Agents\n\nBe careful.\n")
    p = rtk("learn", "--all", "--since", "all", "--write", cwd=proj)
    assert p.returncode == 0 and "added 3 rule(s) to AGENTS.md" in p.stdout
    text = (proj / "AGENTS.md").read_text()
    assert text.startswith("# Agents\n\nBe careful.\n")
    assert text.count("<!-- rtk learn: begin") == 1 and text.rstrip().endswith("<!-- rtk learn: end -->")
    assert "- `git` does not accept `comit`; use `commit`" in text
    p = rtk("learn", "--all", "--since", "all", "--write", cwd=proj)
    assert "nothing new to add" in p.stdout
    assert (proj / "AGENTS.md").read_text() == text
    # a rule the user deleted by hand comes back once; edits outside the section are kept
    edited = text.replace("- `git` does not accept `comit`; use `commit`\n", "").replace("Be careful.", "Be kind.")
    (proj / "AGENTS.md").write_text(edited + "\nMore notes.\n")
    rtk("learn", "--all", "--since", "all", "--write", cwd=proj)
    again = (proj / "AGENTS.md").read_text()
    assert "Be kind." in again and again.endswith("More notes.\n") and again.count("comit") == 1
    # with no instructions file at all: CLAUDE.md is created
    other = tmp_path / "other"
    other.mkdir()
    claude_session(claude, steps_with_mistakes()[:2], cwd=str(other), session="0c0ffee0-0000-4000-8000-000000000002")
    rtk("learn", "--all", "--since", "all", "--write", cwd=other)
    assert "<!-- rtk learn: begin" in (other / "CLAUDE.md").read_text()


def test_learn_write_keeps_to_this_projects_sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--all shows every project's rules, but --write only writes those learnt in this project, and lists them."""
    install_real(tmp_path, monkeypatch)  # the real Codex correction (node_modules paths) ran in another project
    claude, _ = homes(tmp_path, monkeypatch)
    proj = tmp_path / "proj"
    proj.mkdir()
    claude_session(claude, steps_with_mistakes()[:2], cwd=str(proj), session="0c0ffee0-0000-4000-8000-0000000000aa")
    p = rtk("learn", "--all", "--since", "all", "--write", cwd=proj)
    assert p.returncode == 0, p.stderr
    text = (proj / "CLAUDE.md").read_text()
    assert "- `git` does not accept `comit`; use `commit`" in text
    assert "node_modules" not in text
    assert "added 1 rule(s) to CLAUDE.md" in p.stdout and "  + `git` does not accept `comit`; use `commit`" in p.stdout
    assert "not written: 1 rule(s) learnt only from other projects' sessions" in p.stdout
    assert "node_modules/opencode-ai" in p.stdout  # still shown in the report


def test_session_on_real_transcripts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_real(tmp_path, monkeypatch)
    d = rtk_json("session", "--all")
    rows = {r["session"]: r for r in d["sessions"]}
    assert len(rows) == 6
    tui = rows["019e1625-789d-76c0-80ab-3724b5ddb799"]
    assert (tui["agent"], tui["shell_commands"], tui["via_rtk"]) == ("codex", 43, 0)
    assert tui["project"] == "/Users/Sample_User/repos/codemie-ai/codemie-code"
    sub = rows["8463c716-a2ea-4c14-9efa-87158ebd9f20"]  # only its subagent file is in the pack
    assert sub["subagent_shell_commands"] == 10 and sub["project"].endswith("spotter-fum")
    assert d["sessions"][0]["start"][:10] == "2026-05-11"  # most recent first
    assert len(rtk_json("session", "--all", "-n", "2")["sessions"]) == 2
    p = rtk("session", "--all")
    assert p.returncode == 0 and "codex" in p.stdout and "ceil(characters / 4)" in p.stdout


def test_session_saved_tokens_are_tracked_figures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude, _ = homes(tmp_path, monkeypatch)
    start = time.time() - 7200
    claude_session(
        claude,
        [
            {"command": "rtk git diff", "output": "x"},
            {"command": "cargo test", "output": "test result: ok"},  # hook-rewritten
            {"command": "rtk ls", "output": "y"},  # no tracked row (ran elsewhere)
            {"command": "git log", "output": "z" * 400},  # raw
        ],
        start=start,
    )
    track("git diff", "git-diff", 900, 200, iso(start + 21)[:19] + "Z", "/work/demo")
    track("cargo test", "cargo-test", 3000, 100, iso(start + 41)[:19] + "Z", "/work/demo")
    d = rtk_json("session", "--all")
    (s,) = d["sessions"]
    assert (s["via_rtk"], s["via_hook"], s["rewritable"], s["tracked_runs"]) == (3, 1, 4, 2)
    assert s["saved_tokens"] == 700 + 2900 and s["untracked_rtk_runs"] == 1
    assert s["adoption_pct"] == 75.0 and s["missed_est_saved_tokens"] == 70  # 100 tokens of git log x 70%
    p = rtk("session", "--all")
    assert "3,600*" in p.stdout and "no tracked row" in p.stdout
