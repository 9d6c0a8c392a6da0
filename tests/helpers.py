"""Helpers for tests that run rtk against stand-in tools."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import rtk

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


# Where the rtk package is imported from, for interpreters started without site-packages.
RTK_ROOT = str(Path(rtk.__file__).resolve().parent.parent)

# Run `rtk ARGV` in a fresh interpreter and report the modules it imported. The interpreter
# runs with -S: a site-packages .pth file (some machines have one that imports re, typing
# and pathlib) would otherwise preload modules and hide them from the difference.
PROBE = f"""
import os, sys  # os: loaded by every normal start-up, through site
before = set(sys.modules)
sys.path.insert(0, {RTK_ROOT!r})
from rtk.__main__ import main
code = main(sys.argv[1:])
print("MODULES", " ".join(sorted(set(sys.modules) - before)), file=sys.stderr)
"""


def probe_argv(*argv: str) -> list[str]:
    """The command that runs `rtk *argv` under PROBE."""
    return [sys.executable, "-I", "-S", "-c", PROBE, *argv]


def loaded(tmp_path: Path, *argv: str) -> set[str]:
    """Modules `rtk *argv` imports, with ``tmp_path/bin`` first on PATH (stand-in tools)."""
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    p = subprocess.run(probe_argv(*argv), env=env, capture_output=True, text=True, timeout=60)
    line = next(ln for ln in p.stderr.splitlines() if ln.startswith("MODULES "))
    return set(line.split()[1:])


def kept_path(hint_line: str) -> str:
    """The recovery file a ``[rtk] full output: rtk recall ID`` hint names (found as ``rtk recall`` finds it)."""
    from rtk.commands import recall

    rid = hint_line.strip().removeprefix("[rtk] full output: rtk recall ")
    assert rid != hint_line.strip(), hint_line
    return recall.find(rid)[0].path
