"""Test set-up shared by the whole suite: isolation from the real home, golden updates."""

from __future__ import annotations

import os
import tempfile
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


@pytest.fixture(scope="session")
def homes_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory that holds every test's fresh home (one per test process)."""
    return tmp_path_factory.mktemp("homes")


@pytest.fixture(autouse=True)
def isolated_home(homes_root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point HOME, XDG dirs and every rtk location at a fresh temp dir for each test."""
    # Not tmp_path_factory.mktemp: it lists the whole base temp dir to number the new one, so
    # over ~17,000 tests its cost grows with every test (minutes of CPU over the suite).
    home = Path(tempfile.mkdtemp(prefix="home", dir=homes_root))
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
