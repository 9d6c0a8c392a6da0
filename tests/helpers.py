"""Helpers for tests that run rtk against stand-in tools."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

TESTS = Path(__file__).parent

# Run rtk in a subprocess with the test filters registered under `rtktest`.
DRIVER = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from rtk.filters import FAMILIES
FAMILIES["rtktest"] = "testfilters"
from rtk.__main__ import main
sys.exit(main())
"""


def stub_tool(tmp: Path, name: str, body: str) -> Path:
    """Write an executable ``name`` (a sh script) into ``tmp/bin``; return that dir."""
    bindir = tmp / "bin"
    bindir.mkdir(exist_ok=True)
    tool = bindir / name
    tool.write_text("#!/bin/sh\n" + body + "\n")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    return bindir


def path_with(bindir: Path) -> str:
    return f"{bindir}{os.pathsep}{os.environ['PATH']}"


def rtk_argv(*args: str, driver: bool = False) -> list[str]:
    if driver:
        return [sys.executable, "-c", DRIVER, *args]
    return [sys.executable, "-m", "rtk", *args]
