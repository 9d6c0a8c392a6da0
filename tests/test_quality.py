"""The code base stays lint-clean and type-checked (ruff and mypy --strict)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tool(name: str) -> list[str]:
    exe = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if exe is None:
        pytest.skip(f"{name} is not installed")
    return [exe]


def test_ruff_check() -> None:
    p = subprocess.run(
        [*tool("ruff"), "check", "src", "tests", "scripts", "bench"], cwd=ROOT, capture_output=True, text=True
    )
    assert p.returncode == 0, p.stdout + p.stderr


def test_ruff_format() -> None:
    p = subprocess.run(
        [*tool("ruff"), "format", "--check", "src", "tests", "scripts", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stdout + p.stderr


def test_mypy_strict() -> None:
    p = subprocess.run([*tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_every_module_says_what_it_owns() -> None:
    missing = []
    for path in sorted((ROOT / "src" / "rtk").rglob("*.py")):
        text = path.read_text(encoding="utf-8").lstrip()
        if not text.startswith('"""'):
            missing.append(str(path.relative_to(ROOT)))
    assert not missing, f"modules without a docstring: {missing}"
