"""Import budget: what `rtk git status` loads. Python startup is most of rtk's cost per command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers import path_with, stub_tool

# Never on the path of a filtered command: each costs milliseconds at import time.
FORBIDDEN = {
    "re", "enum", "typing", "subprocess", "argparse", "sqlite3", "tomllib", "json", "dataclasses",
    "signal", "shlex", "logging", "importlib.metadata", "fcntl", "rtk.filters.ls", "rtk.tracking.db",
}  # fmt: skip
PROBE = """
import sys
before = set(sys.modules)
from rtk.__main__ import main
code = main(sys.argv[1:])
print("MODULES", " ".join(sorted(set(sys.modules) - before)), file=sys.stderr)
"""


def loaded(tmp_path: Path, *argv: str) -> set[str]:
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    p = subprocess.run([sys.executable, "-I", "-c", PROBE, *argv], env=env, capture_output=True, text=True, timeout=60)
    line = next(ln for ln in p.stderr.splitlines() if ln.startswith("MODULES "))
    return set(line.split()[1:])


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
