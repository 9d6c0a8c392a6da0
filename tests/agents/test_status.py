"""`rtk init --show`, `rtk doctor` and the once-a-day integrity check: modified, missing, outdated, broken commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hookcases import rtk_bin

from rtk.agents.registry import INTEGRATIONS
from rtk.commands import doctor, init_cmd


def home() -> Path:
    return Path(os.environ["HOME"])


@pytest.fixture(autouse=True)
def on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", rtk_bin() + os.pathsep + os.environ["PATH"])
    monkeypatch.chdir(tmp_path)


def show(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = init_cmd.main(["--show"])
    return code, capsys.readouterr().out


def test_show_reports_every_install_working(capsys: pytest.CaptureFixture[str]) -> None:
    names = [i.name for i in INTEGRATIONS if "global" in i.scopes]
    assert init_cmd.main([*(a for n in names for a in ("--agent", n)), "-g", "--block"]) == 0
    local = [i.name for i in INTEGRATIONS if "global" not in i.scopes]  # project-only rules files
    assert init_cmd.main([*(a for n in local for a in ("--agent", n))]) == 0
    code, out = show(capsys)
    assert code == 0, out
    for name in names + local:
        assert f"\n{name} (" in "\n" + out
    assert "FAILS" not in out and "!" not in out
    assert out.count("works") == 15  # nine hooks, three plugins (OpenCode, Pi, Hermes), three suggesting hooks
    assert "rewrites to `rtk git status`" in out  # e.g. Claude asks, Copilot rewrites without a decision


def test_show_flags_a_modified_hook_entry(capsys: pytest.CaptureFixture[str]) -> None:
    init_cmd.main(["--agent", "claude", "-g"])
    settings = home() / ".claude" / "settings.json"
    doc = json.loads(settings.read_text())
    doc["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 99
    settings.write_text(json.dumps(doc))
    code, out = show(capsys)
    assert code == 1 and "modified ~/.claude/settings.json" in out and "rtk's part is modified" in out


def test_other_edits_of_a_shared_settings_file_are_not_tampering(capsys: pytest.CaptureFixture[str]) -> None:
    init_cmd.main(["--agent", "claude", "-g"])
    settings = home() / ".claude" / "settings.json"
    doc = json.loads(settings.read_text())
    doc["model"] = "opus"
    settings.write_text(json.dumps(doc, indent=4))
    code, out = show(capsys)
    assert code == 0, out


def test_show_flags_a_removed_entry_and_a_tampered_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    init_cmd.main(["--agent", "cursor", "--agent", "opencode", "-g"])
    (home() / ".cursor" / "hooks.json").write_text('{"version": 1, "hooks": {}}')
    plugin = home() / ".config" / "opencode" / "plugins" / "rtk.ts"
    plugin.write_text(plugin.read_text().replace("TIMEOUT_MS = 2000", "TIMEOUT_MS = 1"))
    code, out = show(capsys)
    assert code == 1
    assert "missing  ~/.cursor/hooks.json" in out and "modified ~/.config/opencode/plugins/rtk.ts" in out


def test_show_flags_hooks_older_than_the_installed_rtk(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    init_cmd.main(["--agent", "pi", "-g"])
    import rtk

    monkeypatch.setattr(rtk, "__version__", "99.0.0")  # rtk was upgraded since rtk init
    code, out = show(capsys)
    assert code == 1 and "outdated ~/.pi/agent/extensions/rtk.ts" in out
    assert init_cmd.main(["--agent", "pi", "-g"]) == 0  # the repair
    assert show(capsys)[0] == 0


def test_doctor_finds_a_registered_command_that_no_longer_exists(capsys: pytest.CaptureFixture[str]) -> None:
    init_cmd.main(["--agent", "gemini", "-g"])
    settings = home() / ".gemini" / "settings.json"
    settings.write_text(settings.read_text().replace(str(Path(rtk_bin()) / "rtk"), "/opt/gone/bin/rtk"))
    capsys.readouterr()
    assert doctor.main([]) == 1
    out = capsys.readouterr().out
    assert "gemini (Gemini CLI): detected" in out and "hook registered: yes" in out
    assert "/opt/gone/bin/rtk does not exist or is not executable" in out


def test_doctor_runs_the_round_trip(capsys: pytest.CaptureFixture[str]) -> None:
    init_cmd.main(["--agent", "codex", "--agent", "claude", "-g"])
    capsys.readouterr()
    assert doctor.main(["--agent", "claude", "--agent", "codex"]) == 0
    out = capsys.readouterr().out
    assert "works    rewrites to `rtk git status` (exit 0)" in out  # Claude: ask with the rewrite
    assert "works    leaves the command unchanged" in out and "needs an allow rule" in out  # Codex


def test_doctor_catches_a_hook_that_answers_badly(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    init_cmd.main(["--agent", "droid", "-g"])
    broken = tmp_path / "broken-hook"
    broken.write_text("#!/bin/sh\necho 'Welcome to my shell'\n")  # a profile line breaks the JSON answer
    broken.chmod(0o755)
    hooks = home() / ".factory" / "hooks.json"
    hooks.write_text(
        hooks.read_text().replace(str(Path(rtk_bin()) / "rtk") + " hook droid", f"{broken} rtk hook droid")
    )
    capsys.readouterr()
    assert doctor.main(["--agent", "droid"]) == 1
    assert "not one JSON object" in capsys.readouterr().out


def test_doctor_for_an_agent_not_set_up(capsys: pytest.CaptureFixture[str]) -> None:
    assert doctor.main(["--agent", "kiro"]) == 1
    assert "hook registered: no (rtk init --agent kiro" in capsys.readouterr().out


def test_suggesting_hooks_need_rtk_on_path(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    init_cmd.main(["--agent", "windsurf", "-g", "--block"])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    code, out = show(capsys)
    assert code == 1 and "rtk is not on PATH" in out


# -- the once-a-day check on normal commands ------------------------------------------------


def rtk(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rtk", *args], capture_output=True, text=True, timeout=60)


def marker() -> Path:
    return Path(os.environ["XDG_DATA_HOME"]) / "rtk" / ".hook_check"


def age(days: float) -> None:
    t = time.time() - days * 86400
    os.utime(marker(), (t, t))


def test_daily_check_warns_once_a_day_about_a_modified_hook() -> None:
    init_cmd.main(["--agent", "opencode", "-g"])
    plugin = home() / ".config" / "opencode" / "plugins" / "rtk.ts"
    plugin.write_text(plugin.read_text() + "// edited\n")
    assert marker().exists()
    assert "opencode" not in rtk("proxy", "true").stderr  # checked at install: not due yet
    age(2)
    p = rtk("proxy", "true")
    assert p.returncode == 0
    assert "rtk: opencode integration: ~/.config/opencode/plugins/rtk.ts: rtk's part is modified" in p.stderr
    assert time.time() - marker().stat().st_mtime < 60  # touched: the next run is quiet
    assert "opencode" not in rtk("proxy", "true").stderr


def test_daily_check_is_quiet_when_all_is_well_and_never_runs_for_hooks() -> None:
    init_cmd.main(["--agent", "claude", "-g"])
    age(2)
    p = subprocess.run(
        [sys.executable, "-m", "rtk", "hook", "claude"], input="{}", capture_output=True, text=True, timeout=60
    )
    assert (p.returncode, p.stdout, p.stderr) == (0, "", "")
    assert time.time() - marker().stat().st_mtime > 86400  # the hook path does not even look
    p = rtk("proxy", "true")
    assert (p.returncode, p.stderr) == (0, "")


def test_no_marker_no_check() -> None:
    assert not marker().exists()
    assert rtk("proxy", "true").stderr == ""
    assert not marker().exists()


def test_git_status_with_a_fresh_marker_loads_nothing_of_the_integrations(tmp_path: Path) -> None:
    """The daily check costs one stat on the hot path: no rtk.agents module, no json."""
    from helpers import stub_tool
    from test_imports import FORBIDDEN, loaded

    init_cmd.main(["--agent", "claude", "-g"])
    assert marker().exists()
    stub_tool(tmp_path, "git", "printf 'On branch main\\nnothing to commit, working tree clean\\n'")
    mods = loaded(tmp_path, "git", "status")
    assert not {m for m in mods if m.startswith("rtk.agents")}
    assert not mods & FORBIDDEN


def test_doctor_finds_an_unrecorded_hook_whose_command_is_gone(capsys: pytest.CaptureFixture[str]) -> None:
    """rtk uninstalled (pip uninstall, data dir gone) while the agent still calls it: doctor says so."""
    import shutil

    init_cmd.main(["--agent", "claude", "-g"])
    shutil.rmtree(home() / ".local" / "share" / "rtk")  # no manifest any more
    settings = home() / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace(str(Path(rtk_bin()) / "rtk"), "/opt/gone/bin/rtk"))
    capsys.readouterr()
    assert doctor.main(["--agent", "claude"]) == 1
    out = capsys.readouterr().out
    assert "hook registered: yes, not recorded by rtk init (~/.claude/settings.json)" in out
    assert "/opt/gone/bin/rtk does not exist or is not executable" in out


def test_doctor_samples_are_cut_at_a_word_boundary() -> None:
    from rtk.agents._status import clip

    sample = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'
    cut = clip(sample, 60)
    assert cut.endswith("…") and len(cut) <= 60
    kept = cut[:-1]
    assert sample.startswith(kept) and not sample[len(kept)].isalnum()  # never mid-word
    assert clip("short", 60) == "short"
