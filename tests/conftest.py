"""Test set-up shared by the whole suite: isolation from the real home, golden updates."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

REAL_HOME = os.path.expanduser("~")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens", action="store_true", help="rewrite tests/fixtures/*/*.expected from the filters"
    )


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point HOME, XDG dirs and every rtk location at a fresh temp dir for each test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    for var in (
        "RTK_CONFIG",
        "RTK_CONFIG_DIR",
        "RTK_DATA_DIR",
        "RTK_DB_PATH",
        "RTK_TEE_DIR",
        "RTK_TEE",
        "RTK_DISABLED",
        "RTK_TRACKING",
        "CLAUDE_CONFIG_DIR",
        "CODEX_HOME",
        "COPILOT_HOME",
        "GEMINI_CLI_HOME",
        "PI_CODING_AGENT_DIR",
        "CLAUDE_PROJECT_DIR",
        "RTK_HOOK_DEBUG",
        "CI",
    ):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    from rtk import config, options

    config.reset()
    options.verbose = 0
    options.ultra_compact = False
    options.skip_env = False
    yield home
    config.reset()
    assert not (Path(REAL_HOME) / ".local" / "share" / "rtk" / "pytest-canary").exists()
