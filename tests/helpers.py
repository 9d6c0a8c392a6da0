"""Helpers for tests that run rtk against stand-in tools."""

from __future__ import annotations

import os
import stat
import subprocess
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


# Run `rtk ARGV` in a fresh interpreter and report the modules it imported.
PROBE = """
import sys
before = set(sys.modules)
from rtk.__main__ import main
code = main(sys.argv[1:])
print("MODULES", " ".join(sorted(set(sys.modules) - before)), file=sys.stderr)
"""


def loaded(tmp_path: Path, *argv: str) -> set[str]:
    """Modules `rtk *argv` imports, with ``tmp_path/bin`` first on PATH (stand-in tools)."""
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    p = subprocess.run([sys.executable, "-I", "-c", PROBE, *argv], env=env, capture_output=True, text=True, timeout=60)
    line = next(ln for ln in p.stderr.splitlines() if ln.startswith("MODULES "))
    return set(line.split()[1:])
