"""Session providers on the real Claude Code and Codex transcripts: calls, results, layout, tolerance."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from histlib import CLAUDE, CODEX, install_real

from rtk.history import Call, Problems, SessionFile, Usage, claude, codex, projects, scan


def read_claude(name: str, subagent: bool = False) -> list[Call]:
    sf = SessionFile("claude", str(CLAUDE / name), 0.0, "S", subagent=subagent)
    return [r for r in claude.read(sf, Problems()) if isinstance(r, Call)]


def read_codex(name: str) -> list[Call]:
    sf = SessionFile("codex", str(CODEX / name), 0.0, "S")
    return [r for r in codex.read(sf, Problems()) if isinstance(r, Call)]


def shell(calls: list[Call]) -> list[Call]:
    return [c for c in calls if c.kind == "shell"]


def test_claude_bash_calls_results_and_errors() -> None:
    calls = read_claude("codemie-session-196820da_cc-2.0.76.jsonl")
    sh = shell(calls)
    assert len(sh) == 39  # PROVENANCE: 39 Bash calls, 2 is_error
    assert [c.seq for c in calls] == sorted(c.seq for c in calls)  # call order kept
    failed = [c for c in sh if c.failed]
    assert len(failed) == 2 and all(c.exit_code == 1 for c in failed)
    assert "no matches found" in failed[0].error_head
    assert all(c.failed is False for c in sh if c not in failed)
    first = sh[0]
    assert first.command == 'find ~/.claude -name "*.md" -type f 2>/dev/null | head -20'
    assert first.ts == "2026-01-08T20:57:56Z" and first.cwd == "/Users/user/repo"
    assert first.session == "196820da-1026-4b6f-a513-a6aae42da1a6" and first.tool_id.startswith("toolu_")
    assert first.end_ts >= first.ts and first.output_chars == 2225
    # the agent's own tools are counted, not analysed
    other = {c.tool for c in calls if c.kind == "other"}
    assert {"TodoWrite", "Grep"} <= other
    assert any(c.kind == "read" and c.command.endswith("CLAUDE.md") for c in calls)


def test_claude_output_size_is_what_the_agent_received() -> None:
    raw = (CLAUDE / "codemie-session-196820da_cc-2.0.76.jsonl").read_text(encoding="utf-8").splitlines()
    sizes = {}
    for line in raw:
        d = json.loads(line)
        content = (d.get("message") or {}).get("content")
        if isinstance(content, list):
            for b in content:
                if isinstance(b, dict) and b.get("type") == "tool_result" and isinstance(b.get("content"), str):
                    sizes[b["tool_use_id"]] = len(b["content"])
    for c in shell(read_claude("codemie-session-196820da_cc-2.0.76.jsonl")):
        assert c.output_chars == sizes[c.tool_id]


def test_claude_subagent_file_counts_for_its_parent_session() -> None:
    calls = read_claude("spotter-subagent-a7be2f0_cc-2.1.39.jsonl", subagent=True)
    sh = shell(calls)
    assert len(sh) == 11  # PROVENANCE: 11 Bash calls
    assert all(c.subagent for c in sh)
    assert {c.session for c in sh} == {"8463c716-a2ea-4c14-9efa-87158ebd9f20"}
    # "Sibling tool call errored": the call never ran; it is not a failure
    cancelled = [c for c in sh if c.cancelled]
    assert len(cancelled) == 1 and cancelled[0].command.startswith("find ")
    assert not any(c.failed for c in sh)


def test_claude_background_call_and_usage_records() -> None:
    sf = SessionFile("claude", str(CLAUDE / "spotter-tool-heavy_cc-2.1.38.jsonl"), 0.0, "S")
    recs = list(claude.read(sf, Problems(), usage=True))
    sh = [r for r in recs if isinstance(r, Call) and r.kind == "shell"]
    assert [c.command for c in sh] == [
        "mix phx.server",
        "tail -5 /tmp/claude-1000/-home-marco-projects-spotter/tasks/bae407b.output",
    ]
    usage = [r for r in recs if isinstance(r, Usage)]
    # 9 assistant lines, 4 requests (message.id + requestId); the largest value of each field wins
    assert len(usage) == 4 and {u.model for u in usage} == {"claude-opus-4-6"}
    assert max(u.output for u in usage) == 173
    assert all(u.cache_write_1h > 0 and u.cache_write_5m == 0 for u in usage if u.cache_write)


def test_codex_old_shell_calls() -> None:
    sh = shell(read_codex("rollout-codex-exec-0.77-shell.jsonl"))
    assert [c.command for c in sh] == ["ls", "rg --files -g 'AGENTS.md'", "sed -n '1,160p' README.md"]
    assert all(c.exit_code == 0 and c.failed is False for c in sh)
    assert sh[0].output_chars == len(
        "_bmad\n_bmad-output\nassets\nbin\nCLAUDE.md\nCODE_OF_CONDUCT.md\ncommitlint.config.cjs\nconfig.example.json\n"
        "CONTRIBUTING.md\ndist\ndocs\neslint.config.mjs\nLICENSE\nnode_modules\npackage-lock.json\npackage.json\n"
        "README.md\nscripts\nSECURITY.md\nsrc\ntests\ntsconfig.json\nvitest.config.ts\n"
    )
    assert sh[0].session == "019b7f94-51b4-7593-922e-ba12b5b73b52"
    assert sh[0].cwd == "/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code"


def test_codex_exec_command_calls_with_polled_output() -> None:
    calls = read_codex("rollout-codex-tui-0.125-exec-command.jsonl")
    sh = shell(calls)
    assert len(sh) == 43  # 43 exec_command_end events; write_stdin polls are not calls of their own
    codes = {c.command[:30]: c.exit_code for c in sh if c.exit_code}
    assert list(codes.values()).count(1) >= 3 and 2 in codes.values()
    rg = next(c for c in sh if c.exit_code == 2)
    assert "No such file or directory" in rg.error_head and rg.failed
    npm = [c for c in sh if c.command.startswith("npm test")]
    assert [c.exit_code for c in npm] == [1, 0, 0]
    first = sh[0]
    # the output arrived through a write_stdin poll ("Original token count: 1356")
    assert first.command.startswith("sed -n '1,180p'") and first.output_chars and first.output_chars > 5000
    assert {c.tool for c in calls if c.kind == "other"} >= {"apply_patch", "update_plan"}
    assert all(c.session == "019e1625-789d-76c0-80ab-3724b5ddb799" for c in sh)


def test_agents_homes_honour_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_real(tmp_path, monkeypatch)
    files = list(scan.session_files(scan.Scope()))
    names = sorted(sf.path.rsplit("/", 1)[1] for _, sf in files)
    assert len(names) == 6 and "agent-a7be2f0.jsonl" in names
    sub = next(sf for _, sf in files if sf.subagent)
    assert sub.session == "8463c716-a2ea-4c14-9efa-87158ebd9f20"
    # defaults: ~/.claude and ~/.codex
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.delenv("CODEX_HOME")
    assert claude.roots() == [os.path.join(os.path.expanduser("~"), ".claude")]
    assert codex.roots()[0] == os.path.join(os.path.expanduser("~"), ".codex", "sessions")
    assert list(scan.session_files(scan.Scope())) == []


def test_claude_config_dir_may_list_several(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, _ = install_real(tmp_path / "a")
    b, _ = install_real(tmp_path / "b")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", f"{a},{b}")
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "none"))
    assert len(list(scan.session_files(scan.Scope()))) == 8


def test_slug_encoding_matches_real_claude_directories() -> None:
    # Real pairs: the codemie fixture sits in "-tmp-private/" and was run in /tmp/private;
    # the spotter session (cwd /home/marco/projects/spotter) wrote to /tmp/claude-1000/-home-marco-projects-spotter/.
    assert projects.slug("/tmp/private") == "-tmp-private"
    assert projects.slug("/home/marco/projects/spotter") == "-home-marco-projects-spotter"
    assert projects.slug("/home/me/my_app.v2") == "-home-me-my-app-v2"
    assert projects.slug("/home/me/café app") == "-home-me-caf--app"
    assert projects.slug_may_hold("-tmp-private", "/tmp/private")
    assert projects.slug_may_hold("-tmp-private-sub", "/tmp/private")  # maybe /tmp/private/sub
    assert not projects.slug_may_hold("-tmp-privateer", "/tmp/private")
    assert projects.slug_may_hold("C--Users-me-app", "c:\\Users\\me\\app")


def test_project_containment() -> None:
    assert projects.under("/a/b", "/a/b") and projects.under("/a/b/src", "/a/b") and projects.under("/a/b", "/a/b/")
    assert not projects.under("/a/bc", "/a/b") and not projects.under("/a", "/a/b") and not projects.under("", "/a")
    assert projects.under("C:\\Users\\Me\\app\\src", "c:/users/me/app")


def test_project_scope_uses_each_calls_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_real(tmp_path, monkeypatch)

    def count(project: str) -> int:
        return sum(1 for c in scan.calls(scan.Scope(project), Problems()) if c.kind == "shell")

    assert count("/Users/user/repo") == 39
    assert count("/Users/user") == 39
    assert count("/Users/use") == 0
    assert count("/home/USER/projects/spotter-worktrees/spotter-fum") == 11
    assert count("/Users/Sample_User/repos/codemie-ai/codemie-code") == 43


def test_since_drops_older_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_real(tmp_path, monkeypatch)
    calls = [c for c in scan.calls(scan.Scope(since="2026-02-11T00:00:00Z"), Problems()) if c.kind == "shell"]
    assert calls and all(c.ts >= "2026-02-11T00:00:00Z" for c in calls)
    assert len(calls) == 11 + 43


def test_truncated_last_line_reported_once_and_skipped(tmp_path: Path) -> None:
    src = (CLAUDE / "codemie-session-196820da_cc-2.0.76.jsonl").read_bytes()
    cut = src[: len(src) - 40]  # the last record loses its end (and its newline)
    p = tmp_path / "s.jsonl"
    p.write_bytes(cut)
    problems = Problems()
    calls = [c for c in claude.read(SessionFile("claude", str(p), 0, "s"), problems) if isinstance(c, Call)]
    assert len([c for c in calls if c.kind == "shell"]) == 39
    assert problems.items == {str(p): "truncated last line skipped"}


def test_corrupt_lines_and_files(tmp_path: Path) -> None:
    lines = (CODEX / "rollout-codex-exec-0.77-shell.jsonl").read_bytes().split(b"\n")
    i = next(k for k, ln in enumerate(lines) if b'"function_call"' in ln)
    lines[i] = lines[i][: len(lines[i]) // 2]  # a damaged record in the middle
    p = tmp_path / "rollout-x.jsonl"
    p.write_bytes(b"\n".join(lines))
    problems = Problems()
    calls = [c for c in codex.read(SessionFile("codex", str(p), 0, "x"), problems) if isinstance(c, Call)]
    assert [c.command for c in calls] == ["rg --files -g 'AGENTS.md'", "sed -n '1,160p' README.md"]
    assert problems.items[str(p)] == "1 unreadable line skipped"
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(4000))
    problems = Problems()
    assert list(claude.read(SessionFile("claude", str(garbage), 0, "g"), problems)) == []
    assert problems.items == {str(garbage): "not a JSONL transcript; skipped"}
    missing = tmp_path / "gone.jsonl"
    assert list(claude.read(SessionFile("claude", str(missing), 0, "g"), problems)) == []
    assert "cannot read" in problems.items[str(missing)]


def test_unknown_record_types_are_skipped(tmp_path: Path) -> None:
    src = (CLAUDE / "codemie-session-4c2ddfdc_cc-2.0.64.jsonl").read_bytes()
    p = tmp_path / "s.jsonl"
    # a record type no provider knows, and JSON that is not an object
    p.write_bytes(b'{"type":"future-thing","tool_use":"x"}\n[1,2,3]\n' + src)
    problems = Problems()
    calls = [c for c in claude.read(SessionFile("claude", str(p), 0, "s"), problems) if isinstance(c, Call)]
    assert [c.command for c in calls if c.kind == "shell"] == ["rm hello.js"]
    assert problems.items == {}


def test_repeated_call_ids_in_one_file_are_all_kept(tmp_path: Path) -> None:
    src = (CODEX / "rollout-codex-exec-0.77-shell.jsonl").read_bytes()
    p = tmp_path / "rollout-big.jsonl"
    p.write_bytes(src * 5)
    calls = [c for c in codex.read(SessionFile("codex", str(p), 0, "x"), Problems()) if isinstance(c, Call)]
    sh = [c for c in calls if c.kind == "shell"]
    assert len(sh) == 15 and all(c.exit_code == 0 and c.output_chars for c in sh)


def test_copied_layout_is_bytes_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude_home, _ = install_real(tmp_path, monkeypatch)
    for p in (claude_home / "projects").rglob("*.jsonl"):
        assert any(p.read_bytes() == f.read_bytes() for f in CLAUDE.iterdir())
    shutil.rmtree(claude_home)
    assert all(sf.agent == "codex" for _, sf in scan.session_files(scan.Scope()))


def test_via_rtk_is_what_the_transcript_shows() -> None:
    def call(cmd: str) -> Call:
        return Call("claude", "s", "shell", cmd)

    assert call("rtk git status").via_rtk and call("cd x && uv run rtk pytest -q").via_rtk
    assert call("RTK_DISABLED=0 rtk -v ls").via_rtk
    assert not call("rtk proxy git log").via_rtk and not call("git status").via_rtk and not call("rtk gain").via_rtk
    assert not call("echo rtk").via_rtk
