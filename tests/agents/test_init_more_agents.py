"""`rtk init` for Mistral Vibe, Kilo Code, Antigravity, Trae and Amp: project fixtures, scopes, the init sentence."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from hookcases import VECTORS, rtk_bin
from test_init import placeholders, tree

from rtk.commands import init_cmd
from rtk.errors import UsageError

FIXTURES = Path(__file__).parent / "init_fixtures_project"
PROJECT_ONLY = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
INSTRUCTIONS_ONLY = ("kilocode", "antigravity", "trae", "amp")


def init(*args: str) -> int:
    return init_cmd.main(list(args))


@pytest.fixture(autouse=True)
def on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", rtk_bin() + os.pathsep + os.environ["PATH"])
    monkeypatch.chdir(tmp_path)


def test_fixture_set_is_the_project_only_agents() -> None:
    assert PROJECT_ONLY == ["amp", "antigravity", "trae"]


@pytest.mark.parametrize("agent", PROJECT_ONLY)
def test_project_install_matches_fixture_twice_and_uninstall_restores_bytes(
    agent: str, tmp_path: Path, update_goldens: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(FIXTURES / agent / "before", tmp_path, dirs_exist_ok=True)
    before = tree(tmp_path)
    assert init("--agent", agent) == 0
    after = tree(tmp_path)
    changed = {rel: placeholders(d) for rel, d in after.items() if d is not None and before.get(rel) != d}
    expected_dir = FIXTURES / agent / "after"
    if update_goldens:
        shutil.rmtree(expected_dir, ignore_errors=True)
        for rel, data in changed.items():
            dest = expected_dir / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
    expected = {p.relative_to(expected_dir).as_posix(): p.read_bytes() for p in expected_dir.rglob("*") if p.is_file()}
    assert changed == expected
    assert all(before[rel] == after[rel] for rel in before if rel not in changed)  # the user's files untouched
    assert all(b"Prefix shell commands with `rtk`" in d for d in changed.values())  # the rules text, not awareness
    capsys.readouterr()
    assert init("--agent", agent) == 0
    assert tree(tmp_path) == after
    assert "updated" not in capsys.readouterr().out
    assert init("--uninstall", "--agent", agent) == 0
    assert tree(tmp_path) == before


@pytest.mark.parametrize(
    ("agent", "flags", "words"),
    [
        ("vibe", [], "cannot be set up per project: only the user hooks file ~/.vibe/hooks.toml is confirmed"),
        ("amp", ["--global"], "cannot be set up globally: only the project's AGENTS.md is confirmed"),
        ("trae", ["--global"], "cannot be set up globally"),
        ("antigravity", ["-g"], "cannot be set up globally"),
    ],
)
def test_unsupported_scope_is_a_usage_error_and_nothing_is_written(
    agent: str, flags: list[str], words: str, tmp_path: Path
) -> None:
    home_before = tree(Path(os.environ["HOME"]))
    with pytest.raises(UsageError, match=words):
        init("--agent", agent, *flags)
    assert list(tmp_path.iterdir()) == []
    assert tree(Path(os.environ["HOME"])) == home_before


def test_a_scope_error_for_one_agent_writes_nothing_for_the_others(tmp_path: Path) -> None:
    with pytest.raises(UsageError):
        init("--agent", "kilocode", "--agent", "vibe")
    assert list(tmp_path.iterdir()) == []


def test_detection_offers_only_agents_the_scope_supports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    home = Path(os.environ["HOME"])
    (home / ".vibe").mkdir()
    (home / ".trae").mkdir()
    assert init("--yes") == 0  # project: Trae's rules, not Vibe's global hook
    assert (tmp_path / ".trae" / "rules" / "project_rules.md").is_file()
    assert not (home / ".vibe" / "hooks.toml").exists()
    assert init("--yes", "--global") == 0  # global: Vibe's hook, not Trae's project rules
    assert (home / ".vibe" / "hooks.toml").is_file()
    assert not (home / ".trae" / "rules").exists()


@pytest.mark.parametrize("agent", INSTRUCTIONS_ONLY)
def test_instructions_only_agents_say_so_and_install_no_hook(
    agent: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert init("--agent", agent) == 0
    out = capsys.readouterr().out
    assert "; instructions only: " in out and "no hook rewrites them" in out
    text = b"".join(d for d in tree(tmp_path).values() if d)
    assert b" hook " not in text and b"rtk hook" not in text  # nothing for the host to run


def test_vibe_hooks_file_keeps_the_users_hooks_and_holds_rtks_entry() -> None:
    home = Path(os.environ["HOME"])
    shutil.copytree(Path(__file__).parent / "init_fixtures" / "vibe" / "before", home, dirs_exist_ok=True)
    assert init("--agent", "vibe", "--global") == 0
    doc = tomllib.loads((home / ".vibe" / "hooks.toml").read_text())
    names = [h["name"] for h in doc["hooks"]]
    assert names == ["block-rm", "rtk-rewrite"]
    ours = doc["hooks"][1]
    assert set(ours) == {"name", "type", "match", "command", "strict"}
    assert (ours["type"], ours["match"], ours["strict"]) == ("pre_tool", "bash", False)
    assert ours["command"].endswith(" hook vibe")


def test_vibe_init_sentence_matches_what_the_installed_hook_does(capsys: pytest.CaptureFixture[str]) -> None:
    """init says the hook rewrites and Vibe keeps its approval: the registered command, run on TV-VIBE-1
    with no permission rule, answers the rewritten input and no approval field."""
    assert init("--agent", "vibe", "--global") == 0
    out = capsys.readouterr().out
    assert ("rtk is set up for Mistral Vibe (global); restart Vibe; the hook rewrites commands "
            "and Vibe still asks for approval as its own settings say") in out  # fmt: skip
    doc = tomllib.loads((Path(os.environ["HOME"]) / ".vibe" / "hooks.toml").read_text())
    command = doc["hooks"][0]["command"]
    p = subprocess.run(
        ["/bin/sh", "-c", command], input=json.dumps(VECTORS["TV-VIBE-1"][0]).encode(), capture_output=True, timeout=60
    )
    assert (p.returncode, p.stderr) == (0, b"")
    answer = json.loads(p.stdout)
    assert answer == VECTORS["TV-VIBE-1"][1]
    assert "decision" not in p.stdout.decode() and "permission" not in p.stdout.decode()


def test_amp_and_codex_share_the_agents_md_section(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("Build with make.\n")
    assert init("--agent", "codex", "--agent", "amp") == 0
    assert init("--uninstall", "--agent", "amp") == 0
    assert "rtk:begin" in (tmp_path / "AGENTS.md").read_text()  # Codex still needs it
    assert init("--uninstall", "--agent", "codex") == 0
    assert (tmp_path / "AGENTS.md").read_text() == "Build with make.\n"
