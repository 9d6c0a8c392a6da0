"""`rtk init`: before/after fixtures per agent, install twice, exact restore on uninstall, files rtk must not touch."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from hookcases import rtk_bin

from rtk.agents import registry
from rtk.commands import init_cmd

FIXTURES = Path(__file__).parent / "init_fixtures"
AGENTS = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
BLOCK = {"cline", "windsurf", "kiro"}  # installed with --block: the hook as well as the rules


def home() -> Path:
    return Path(os.environ["HOME"])


IGNORED = (".local", ".config/rtk")  # rtk's own data and config dirs, not an agent's files


def tree(root: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and directory (None) under ``root`` except rtk's own data and config."""
    out: dict[str, bytes | None] = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if rel == ".config" or any(rel == i or rel.startswith(i + "/") for i in IGNORED):
            continue
        out[rel] = p.read_bytes() if p.is_file() else None
    return out


def placeholders(data: bytes) -> bytes:
    from rtk import __version__

    return data.replace(registry.rtk_command().encode(), b"@RTK@").replace(__version__.encode(), b"@VERSION@")


def init(*args: str) -> int:
    return init_cmd.main(list(args))


@pytest.fixture(autouse=True)
def on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", rtk_bin() + os.pathsep + os.environ["PATH"])
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("agent", AGENTS)
def test_install_matches_fixture_twice_and_uninstall_restores_bytes(
    agent: str, update_goldens: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(FIXTURES / agent / "before", home(), dirs_exist_ok=True)
    before = tree(home())
    flags = ["--block"] if agent in BLOCK else []
    assert init("--agent", agent, "--global", *flags) == 0
    after = tree(home())
    expected_dir = FIXTURES / agent / "after"
    if update_goldens:
        shutil.rmtree(expected_dir, ignore_errors=True)
        for rel, data in after.items():
            if data is not None and before.get(rel) != data:
                dest = expected_dir / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(placeholders(data))
    expected = {p.relative_to(expected_dir).as_posix(): p.read_bytes() for p in expected_dir.rglob("*") if p.is_file()}
    changed = {rel: placeholders(data) for rel, data in after.items() if data is not None and before.get(rel) != data}
    assert changed == expected
    assert all(before[rel] == after[rel] for rel in before if rel not in changed)  # nothing else touched
    capsys.readouterr()
    # Installing twice changes nothing.
    assert init("--agent", agent, "--global", *flags) == 0
    assert tree(home()) == after
    assert "updated" not in capsys.readouterr().out
    # Uninstall: the original bytes, and no file or directory of rtk's left.
    assert init("--uninstall", "--agent", agent, "--global") == 0
    assert tree(home()) == before
    assert not (home() / ".local" / "share" / "rtk" / "integrations").exists()
    assert not (home() / ".local" / "share" / "rtk" / ".hook_check").exists()


@pytest.mark.parametrize(
    "agent", [a for a in AGENTS if registry.BY_NAME[a].hook or registry.BY_NAME[a].kind != "rules"]
)
def test_registered_command_is_an_absolute_launcher(agent: str) -> None:
    init("--agent", agent, "--global", "--block")
    command = registry.rtk_command()
    assert os.path.isabs(command) and os.access(command, os.X_OK)
    text = b"".join(d for d in tree(home()).values() if d)
    assert command.encode() in text


def test_uninstall_after_user_edits_keeps_them() -> None:
    shutil.copytree(FIXTURES / "claude" / "before", home(), dirs_exist_ok=True)
    init("--agent", "claude", "-g")
    settings = home() / ".claude" / "settings.json"
    doc = json.loads(settings.read_text())
    doc["model"] = "sonnet"  # the user changes something after rtk init
    settings.write_text(json.dumps(doc, indent=2) + "\n")
    md = home() / ".claude" / "CLAUDE.md"
    md.write_text(md.read_text() + "\n- One more rule.\n")
    assert init("--uninstall", "--agent", "claude", "-g") == 0
    doc = json.loads(settings.read_text())
    original = json.loads((FIXTURES / "claude" / "before" / ".claude" / "settings.json").read_text())
    assert doc == dict(original, model="sonnet")
    assert list(doc) == list(original)  # key order kept
    assert "rtk" not in md.read_text() and "- One more rule." in md.read_text()


def test_json_with_comments_is_not_touched(capsys: pytest.CaptureFixture[str]) -> None:
    d = home() / ".claude"
    d.mkdir()
    original = b'{\n  // my settings\n  "model": "opus"\n}\n'
    (d / "settings.json").write_bytes(original)
    assert init("--agent", "claude", "-g") == 1
    out = capsys.readouterr().out
    assert "not valid JSON" in out and "not touched" in out
    assert "rtk is not set up for Claude Code (global): nothing could be written" in out
    assert "rtk is set up" not in out
    assert '"PreToolUse"' in out and registry.rtk_command() in out  # the snippet to add by hand
    assert (d / "settings.json").read_bytes() == original
    # Without the hook, a CLAUDE.md saying commands go through rtk would be untrue: it is not written either.
    assert "~/.claude/CLAUDE.md: not written either" in out
    assert not (d / "CLAUDE.md").exists()
    assert init("--uninstall", "-g") == 0 and "nothing installed by rtk init" in capsys.readouterr().out


def test_json_with_comments_in_one_agent_keeps_the_other_agents_files(capsys: pytest.CaptureFixture[str]) -> None:
    d = home() / ".claude"
    d.mkdir()
    (d / "settings.json").write_bytes(b"{\n  // mine\n}\n")
    (d / "CLAUDE.md").write_bytes(b"# my notes\n")
    assert init("--agent", "claude", "--agent", "gemini", "-g") == 1
    out = capsys.readouterr().out
    assert (d / "CLAUDE.md").read_bytes() == b"# my notes\n"
    assert "hook gemini" in (home() / ".gemini" / "settings.json").read_text()
    assert "rtk is set up for Gemini CLI (global)" in out


def test_read_only_settings_file_is_a_one_line_error_and_nothing_is_written(capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(FIXTURES / "claude" / "before", home(), dirs_exist_ok=True)
    settings = home() / ".claude" / "settings.json"
    original = settings.read_bytes()
    settings.chmod(0o444)
    assert init("--agent", "claude", "-g") == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["rtk: cannot write ~/.claude/settings.json: the file is read-only (nothing was changed)"]
    assert settings.read_bytes() == original and stat.S_IMODE(settings.stat().st_mode) == 0o444
    assert b"rtk" not in (home() / ".claude" / "CLAUDE.md").read_bytes()
    assert not (home() / ".local" / "share" / "rtk" / "integrations").exists()


def test_read_only_directory_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    d = home() / ".cursor"
    d.mkdir()
    d.chmod(0o555)
    try:
        assert init("--agent", "cursor", "-g") == 1
        assert "read-only" in capsys.readouterr().err
        assert list(d.iterdir()) == []
    finally:
        d.chmod(0o755)


def test_a_failing_write_is_reported_and_nothing_else_is_lost(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rtk.agents import _install

    shutil.copytree(FIXTURES / "claude" / "before", home(), dirs_exist_ok=True)
    original = (home() / ".claude" / "settings.json").read_bytes()

    def disk_full(path: str, data: bytes | None, executable: bool = False) -> list[str]:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_install, "write", disk_full)
    assert init("--agent", "claude", "-g") == 1
    assert "No space left on device" in capsys.readouterr().err
    assert (home() / ".claude" / "settings.json").read_bytes() == original


def test_dry_run_writes_nothing_and_shows_every_change(capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(FIXTURES / "claude" / "before", home(), dirs_exist_ok=True)
    before = tree(home())
    assert init("--agent", "claude", "--agent", "codex", "-g", "--dry-run") == 0
    out = capsys.readouterr().out
    assert tree(home()) == before
    assert "would modify  ~/.claude/settings.json" in out and "would create  ~/.codex/hooks.json" in out
    assert f'+            "command": "{registry.rtk_command()} hook claude"' in out
    assert "would modify  ~/.claude/CLAUDE.md" in out and "+<!-- rtk:begin" in out
    init("--agent", "claude", "-g")
    capsys.readouterr()
    assert init("--uninstall", "--agent", "claude", "-g", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "would restore  ~/.claude/settings.json" in out and "-<!-- rtk:begin" in out
    assert (home() / ".local" / "share" / "rtk" / "integrations" / "manifest.json").exists()


def test_project_scope_uses_the_local_claude_settings(tmp_path: Path) -> None:
    assert init("--agent", "claude") == 0
    local = tmp_path / ".claude" / "settings.local.json"
    assert "hook claude" in local.read_text()
    assert "rtk:begin" in (tmp_path / "CLAUDE.md").read_text()
    assert not (home() / ".claude").exists()
    assert init("--uninstall") == 0
    assert list(tmp_path.iterdir()) == []


def test_uninstall_without_a_manifest_still_removes_rtk_entries() -> None:
    shutil.copytree(FIXTURES / "gemini" / "before", home(), dirs_exist_ok=True)
    original = json.loads((home() / ".gemini" / "settings.json").read_text())
    init("--agent", "gemini", "-g")
    shutil.rmtree(home() / ".local" / "share" / "rtk" / "integrations")
    assert init("--uninstall", "--agent", "gemini", "-g") == 0
    assert json.loads((home() / ".gemini" / "settings.json").read_text()) == original
    assert "rtk" not in (home() / ".gemini" / "GEMINI.md").read_text()


def test_foreign_file_at_an_owned_path_is_not_overwritten(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plugin = tmp_path / ".opencode" / "plugins" / "rtk.ts"
    plugin.parent.mkdir(parents=True)
    plugin.write_text("export const Mine = async () => ({})\n")
    assert init("--agent", "opencode") == 1
    assert "was not written by rtk init" in capsys.readouterr().out
    assert plugin.read_text() == "export const Mine = async () => ({})\n"


def test_reinstall_with_a_new_command_replaces_the_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    init("--agent", "cursor", "-g")
    monkeypatch.setattr(registry, "rtk_command", lambda: "/opt/rtk/bin/rtk")
    assert init("--agent", "cursor", "-g") == 0
    doc = json.loads((home() / ".cursor" / "hooks.json").read_text())
    assert [h["command"] for h in doc["hooks"]["preToolUse"]] == ["/opt/rtk/bin/rtk hook cursor"]


def test_copilot_cli_version_decides_the_deny_fallback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    copilot = bindir / "copilot"
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    hooks = tmp_path / ".github" / "hooks" / "rtk-copilot.json"
    for version, suggest in (("1.0.20", True), ("1.0.24", False), ("1.0.102", False)):
        copilot.write_text(f"#!/bin/sh\necho 'GitHub Copilot CLI {version}.'\n")
        copilot.chmod(0o755)
        assert init("--agent", "copilot") == 0
        command = json.loads(hooks.read_text())["hooks"]["preToolUse"][0]["bash"]
        assert command.endswith("hook copilot --suggest") is suggest, (version, command)


def test_codex_toml_hooks_get_a_marked_block() -> None:
    d = home() / ".codex"
    d.mkdir()
    original = b'model = "gpt-5.5-codex"\n\n[hooks]\n\n[[hooks.PostToolUse]]\nmatcher = "Bash"\n'
    (d / "config.toml").write_bytes(original)
    assert init("--agent", "codex", "-g") == 0
    text = (d / "config.toml").read_text()
    assert text.startswith(original.decode()) and "# rtk:begin" in text and "hook codex" in text
    import tomllib

    doc = tomllib.loads(text)
    assert doc["hooks"]["PreToolUse"][0]["hooks"][0]["command"].endswith("hook codex")
    assert doc["hooks"]["PostToolUse"] == [{"matcher": "Bash"}]
    assert not (d / "hooks.json").exists()
    assert init("--agent", "codex", "-g") == 0 and (d / "config.toml").read_text() == text
    assert init("--uninstall", "-g") == 0
    assert (d / "config.toml").read_bytes() == original


def test_codex_toml_that_would_clash_is_not_touched(capsys: pytest.CaptureFixture[str]) -> None:
    d = home() / ".codex"
    d.mkdir()
    original = b"[hooks]\nPreToolUse = []\n"
    (d / "config.toml").write_bytes(original)
    assert init("--agent", "codex", "-g") == 1
    assert "not valid TOML" in capsys.readouterr().out
    assert (d / "config.toml").read_bytes() == original


def test_cline_rules_file_gets_a_section(tmp_path: Path) -> None:
    (tmp_path / ".clinerules").write_text("Use tabs.\n")
    assert init("--agent", "cline") == 0
    text = (tmp_path / ".clinerules").read_text()
    assert text.startswith("Use tabs.\n\n<!-- rtk:begin") and "Prefix shell commands with `rtk`" in text
    assert init("--uninstall", "--agent", "cline") == 0
    assert (tmp_path / ".clinerules").read_text() == "Use tabs.\n"


def test_shared_instructions_stay_while_another_agent_needs_them(tmp_path: Path) -> None:
    init("--agent", "copilot", "--agent", "vscode")
    instructions = tmp_path / ".github" / "copilot-instructions.md"
    assert init("--uninstall", "--agent", "copilot") == 0
    assert "rtk:begin" in instructions.read_text()
    assert init("--uninstall", "--agent", "vscode") == 0
    assert list(tmp_path.iterdir()) == []


def test_unknown_agent_is_a_usage_error() -> None:
    from rtk.errors import UsageError

    with pytest.raises(UsageError, match="unknown agent"):
        init("--agent", "emacs")


def test_detection_offers_and_installs_with_yes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (home() / ".gemini").mkdir()
    assert init("-g") == 0
    out = capsys.readouterr().out
    assert "gemini" in out and "rtk init --agent gemini" in out  # not a TTY: offers, installs nothing
    assert not (home() / ".gemini" / "settings.json").exists()
    assert init("-g", "--yes") == 0
    assert "hook gemini" in (home() / ".gemini" / "settings.json").read_text()


def test_timeouts_are_written_in_each_hosts_unit() -> None:
    """Gemini and Qwen count milliseconds; Claude, Codex, Copilot, VS Code and Droid count seconds."""
    for agent in ("claude", "codex", "gemini", "qwen", "copilot", "vscode", "droid"):
        init("--agent", agent, "-g")
    found = {}
    for path in home().rglob("*.json"):
        if ".local" in path.parts:
            continue
        text = path.read_text()
        for agent in ("claude", "codex", "gemini", "qwen", "copilot", "vscode", "droid"):
            if f"hook {agent}" in text:
                found[agent] = text
    docs = {a: json.loads(text) for a, text in found.items()}

    def timeout_of(doc: object) -> int:
        if isinstance(doc, dict):
            for k, v in doc.items():
                if k in ("timeout", "timeoutSec") and isinstance(v, int):
                    return v
                t = timeout_of(v)
                if t:
                    return t
        if isinstance(doc, list):
            for v in doc:
                t = timeout_of(v)
                if t:
                    return t
        return 0

    units = {a: timeout_of(doc) for a, doc in docs.items()}
    assert units == {"claude": 10, "codex": 30, "gemini": 5000, "qwen": 10000, "copilot": 10, "vscode": 15, "droid": 10}


# The JSON file each agent's global install edits (a path in the user's home).
JSON_TARGETS = {
    "claude": ".claude/settings.json", "gemini": ".gemini/settings.json", "cursor": ".cursor/hooks.json",
    "vscode": ".copilot/hooks/rtk-vscode.json", "copilot": ".copilot/hooks/rtk-copilot.json",
    "codex": ".codex/hooks.json", "qwen": ".qwen/settings.json", "droid": ".factory/hooks.json",
    "windsurf": ".codeium/windsurf/hooks.json", "kiro": ".kiro/hooks/rtk-rewrite.json",
}  # fmt: skip
# Settings whose structure is not what rtk expects where it would add its entry.
ODD_SETTINGS: list[object] = [
    [], "x", None,
    {"hooks": "x"}, {"hooks": []}, {"hooks": {"PreToolUse": {}}}, {"hooks": {"PreToolUse": [1, "a", None]}},
    {"hooks": {"PreToolUse": [{"matcher": ["Bash"], "hooks": [{"type": "command", "command": 5}]}]}},
    {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [None, 3, {"command": None}]}]}},
    {"version": "1", "hooks": {"preToolUse": "x", "beforeShellExecution": 7}},
]  # fmt: skip


@pytest.mark.parametrize("agent", sorted(JSON_TARGETS))
def test_settings_of_unexpected_shape_never_crash_and_uninstall_restores_them(
    agent: str, capsys: pytest.CaptureFixture[str]
) -> None:
    block = ["--block"] if agent in BLOCK else []
    target = home() / JSON_TARGETS[agent]
    target.parent.mkdir(parents=True, exist_ok=True)
    for doc in ODD_SETTINGS:
        original = json.dumps(doc).encode()
        target.write_bytes(original)
        assert init("--agent", agent, "-g", *block) in (0, 1)
        assert init("--uninstall", "--agent", agent, "-g") in (0, 1)
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        assert target.read_bytes() == original, doc


def test_offer_names_the_scope_and_every_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (home() / ".gemini").mkdir()
    assert init() == 0  # project scope (the current directory), not a TTY: offers only
    out = capsys.readouterr().out
    assert f"scope: project {tmp_path}" in out
    assert f"gemini    {tmp_path / '.gemini' / 'settings.json'}" in out
    assert list(tmp_path.iterdir()) == []
    assert init("-g") == 0
    out = capsys.readouterr().out
    assert "scope: global (your home)" in out and "gemini    ~/.gemini/settings.json" in out


def test_project_files_are_never_written_into_home_itself(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rtk.errors import UsageError

    monkeypatch.chdir(home())
    with pytest.raises(UsageError, match="is your home directory"):
        init("--agent", "claude")
    with pytest.raises(UsageError, match="is your home directory"):
        init("--project", str(home()), "--yes")
    assert not (home() / "CLAUDE.md").exists() and not (home() / ".claude").exists()
    assert init("--agent", "claude", "-g") == 0  # --global is the way


def test_uninstall_in_a_project_names_the_global_installation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert init("--agent", "claude", "--agent", "gemini", "-g") == 0
    capsys.readouterr()
    assert init("--uninstall") == 0
    out = capsys.readouterr().out
    assert f"nothing installed by rtk init here ({tmp_path})" in out
    line = "found a global installation (claude, gemini); to remove it: rtk init --uninstall --global --agent claude --agent gemini"
    assert line in out
    assert init("--uninstall", "--global", "--agent", "claude", "--agent", "gemini") == 0
    assert not (home() / ".claude" / "settings.json").exists()  # rtk created it: removed
    capsys.readouterr()
    assert init("--uninstall") == 0
    assert "found a" not in capsys.readouterr().out


def test_project_claude_md_is_true_for_teammates_without_rtk(tmp_path: Path) -> None:
    assert init("--agent", "claude") == 0
    md = (tmp_path / "CLAUDE.md").read_text()
    personal = "Shell commands may be rewritten to rtk"
    assert personal not in md  # untrue for a teammate without the personal hook
    assert "when it does not, rtk is not installed for you" in md
    assert init("--agent", "claude", "-g") == 0
    assert personal in (home() / ".claude" / "CLAUDE.md").read_text()  # the personal file


@pytest.mark.parametrize(
    ("agent", "rel"),
    [
        ("codex", "AGENTS.md"),
        ("gemini", "GEMINI.md"),
        ("copilot", ".github/copilot-instructions.md"),
        ("vscode", ".github/copilot-instructions.md"),
    ],
)
def test_project_instructions_are_true_for_teammates_without_rtk(agent: str, rel: str, tmp_path: Path) -> None:
    """The project's AGENTS.md, GEMINI.md and copilot-instructions.md are read by everyone (issue 17): they used to
    say "Shell commands may be rewritten to rtk", untrue for a teammate without rtk or without the hook."""
    assert init("--agent", agent) == 0
    md = " ".join((tmp_path / rel).read_text().split())
    assert "Shell commands may be rewritten to rtk" not in md
    assert "rtk is not installed for you" in md or "If `rtk` is not installed for you" in md
    assert init("--agent", agent, "-g") == 0
    if agent in ("codex", "gemini"):  # the personal file of a global install keeps the personal wording
        personal = home() / (".codex" if agent == "codex" else ".gemini") / rel
        assert "Shell commands may be rewritten to rtk" in personal.read_text()


def test_uninstall_help_says_to_remove_hooks_before_pip_uninstall(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        init("--uninstall", "--help")
    assert e.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "before pip uninstall" in out and "BEFORE pip uninstall, or the agents keep calling a command" in out
    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text().split())
    assert "`rtk init --uninstall --global`) *before* `pip uninstall" in readme


def test_init_help_names_every_agent_it_can_set_up(capsys: pytest.CaptureFixture[str]) -> None:
    # `rtk init --help` listed every agent but Hermes, which `rtk init --agent hermes --global` sets up.
    with pytest.raises(SystemExit) as e:
        init("--help")
    assert e.value.code == 0
    agents = capsys.readouterr().out.split("agents:", 1)[1].split("Project scope", 1)[0]
    named = {w.strip(" ,()") for w in agents.split()}
    assert {i.name for i in registry.INTEGRATIONS} <= named, {i.name for i in registry.INTEGRATIONS} - named
