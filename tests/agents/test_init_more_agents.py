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

from rtk.agents.registry import agents_md
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
    # The rules text, not awareness; Amp's AGENTS.md gets the section it shares with Codex (issue 17).
    texts = [b"otherwise prefix covered commands with `rtk`" if agent == "amp" else b"Prefix shell commands with `rtk`"]
    assert all(texts[0] in d for d in changed.values())
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


def _show(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = init("--show")
    return code, capsys.readouterr().out


@pytest.mark.parametrize("order", [("codex", "amp"), ("amp", "codex")], ids=["codex-first", "amp-first"])
@pytest.mark.parametrize("first_out", [0, 1], ids=["uninstall-first", "uninstall-second"])
def test_amp_and_codex_keep_exactly_one_correct_agents_md_block(
    order: tuple[str, str], first_out: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Install A, install B, uninstall one, uninstall the other: always exactly one block, true for both, until
    the last goes (it used to hold the text of the one installed last, and --show called the other outdated)."""
    md = tmp_path / "AGENTS.md"
    md.write_text("Build with make.\n")
    expected = agents_md()
    for agent in order:
        assert init("--agent", agent) == 0
        text = md.read_text()
        assert text.count("rtk:begin") == 1 and expected in text
    code, out = _show(capsys)
    assert code == 0 and "outdated" not in out and "modified" not in out, out
    leaving, staying = order[first_out], order[1 - first_out]
    assert init("--uninstall", "--agent", leaving) == 0
    text = md.read_text()
    assert text.count("rtk:begin") == 1 and expected in text  # the other still needs it
    code, out = _show(capsys)
    assert code == 0 and f"\n{staying} (" in "\n" + out and f"\n{leaving} (" not in "\n" + out, out
    assert init("--uninstall", "--agent", staying) == 0
    assert md.read_text() == "Build with make.\n"


def test_the_shared_agents_md_text_is_true_without_rtk_and_without_a_hook() -> None:
    text = agents_md()
    flat = " ".join(text.split())
    assert "If `rtk` is not installed for you" in flat and "run commands as usual" in flat  # a teammate without rtk
    assert (
        "commands may already be rewritten for you" in flat and "otherwise prefix covered commands with `rtk`" in text
    )  # Amp
    assert "Shell commands may be rewritten to rtk" not in text  # the personal wording of a hooked install


def test_the_rules_text_is_true_for_a_teammate_without_rtk() -> None:
    """Trae, Antigravity and Kilo Code write it into project files the whole team reads: a reader without
    rtk must not be told to prefix commands with a program they do not have."""
    from rtk.agents.registry import rules_text

    lines = rules_text().splitlines()
    prefix = next(i for i, line in enumerate(lines) if line.startswith("Prefix shell commands with `rtk`"))
    condition = next(i for i, line in enumerate(lines) if "If `rtk` is not installed for you" in line)
    assert condition <= prefix + 2 and "run commands as usual" in lines[condition]
    assert len(lines) <= 15
