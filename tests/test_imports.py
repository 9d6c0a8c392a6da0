"""Import budget: what `rtk git status` loads. Python startup is most of rtk's cost per command."""

from __future__ import annotations

import os
from pathlib import Path

from helpers import loaded, stub_tool

# Never on the path of a filtered command: each costs milliseconds at import time.
FORBIDDEN = {
    "re", "enum", "typing", "subprocess", "argparse", "sqlite3", "tomllib", "json", "dataclasses",
    "signal", "shlex", "logging", "importlib.metadata", "fcntl", "rtk.filters.files.ls", "rtk.tracking.db",
}  # fmt: skip


def test_git_status_imports_stay_small(tmp_path: Path) -> None:
    stub_tool(tmp_path, "git", "printf 'On branch main\\nnothing to commit, working tree clean\\n'")
    mods = loaded(tmp_path, "git", "status")
    assert not mods & FORBIDDEN, sorted(mods & FORBIDDEN)
    rtk_mods = {m for m in mods if m.startswith("rtk")}
    assert len(rtk_mods) <= 16, sorted(rtk_mods)


def test_unknown_tool_imports_no_filter(tmp_path: Path) -> None:
    stub_tool(tmp_path, "sometool", "echo hi")
    mods = loaded(tmp_path, "sometool")
    assert not mods & FORBIDDEN
    assert not {m for m in mods if m.startswith("rtk.filters.")}


# `rtk rewrite` runs before every agent command: exactly these modules, nothing else.
REWRITE_MODULES = {
    "__future__", "rtk", "rtk.__main__", "rtk.filters", "rtk.paths", "rtk.rewrite", "rtk.rewrite.cli",
    "rtk.rewrite.engine", "rtk.rewrite.launch", "rtk.rewrite.matching", "rtk.rewrite.permissions",
    "rtk.rewrite.rules", "rtk.shell", "rtk.shell.lexer", "rtk.shell.segments", "rtk.shell.simple",
}  # fmt: skip


def test_rewrite_imports_exactly_its_modules(tmp_path: Path) -> None:
    mods = loaded(tmp_path, "rewrite", "git status")
    assert mods == REWRITE_MODULES, sorted(mods ^ REWRITE_MODULES)


def test_rewrite_with_settings_and_config_stays_light(tmp_path: Path) -> None:
    """With a Claude settings file and a config file: marshal caches, never json or tomllib."""
    home = Path(os.environ["HOME"])
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text('{"permissions": {"allow": ["Bash(git status)"]}}')
    cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('[hooks]\nexclude_commands = ["git push"]\n')
    first = loaded(tmp_path, "rewrite", "git status")  # parses both files, writes the caches
    assert {"json", "tomllib"} <= first
    mods = loaded(tmp_path, "rewrite", "git status")
    assert not mods & (FORBIDDEN - {"re"}), sorted(mods & FORBIDDEN)
    assert "re" not in mods and "json" not in mods and "tomllib" not in mods
    assert {m for m in mods if m.startswith("rtk")} == {m for m in REWRITE_MODULES if m.startswith("rtk")} | {
        "rtk.config"
    }
    assert not {m for m in mods if m.startswith("rtk.filters.")}


def test_rewrite_imports_re_only_for_regex_exclusions(tmp_path: Path) -> None:
    cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('[hooks]\nexclude_commands = ["^git (push|pull)"]\n')
    loaded(tmp_path, "rewrite", "git status")
    assert "re" in loaded(tmp_path, "rewrite", "git status")
