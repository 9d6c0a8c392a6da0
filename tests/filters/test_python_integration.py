"""The Python-toolchain filters against the real tools, on the projects scripts/fixtures builds.

Each test runs the tool through rtk (``run.run_tool``) and on its own, and checks
that rtk returns the tool's exit code and keeps the facts. A tool that is not
installed skips its test; pytest and pip are always there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtk import run

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = str(Path(sys.executable).parent)


@pytest.fixture(scope="module")
def projects(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("py") / "p"
    subprocess.run(
        ["sh", str(ROOT / "scripts" / "fixtures" / "python_projects.sh"), str(root)], check=True, capture_output=True
    )
    return root


def tool(name: str) -> str:
    found = shutil.which(name, path=BIN) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


def through_rtk(
    argv: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> tuple[int, str, int]:
    """(rtk's exit code, what rtk printed, the tool's own exit code)."""
    monkeypatch.setenv("PATH", BIN + os.pathsep + os.environ["PATH"])
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.chdir(cwd)
    own = subprocess.run(argv, capture_output=True, timeout=300).returncode
    code = run.run_tool(argv)
    return code, capfd.readouterr().out, own


def test_pytest_failing_run(projects: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    argv = ["python", "-m", "pytest", "-p", "no:cacheprovider", "tests/test_ok.py", "tests/test_fail.py"]
    code, out, own = through_rtk(argv, projects / "lib", monkeypatch, capfd)
    assert code == own == 1
    for fact in (
        "FAILED tests/test_fail.py::test_param_add[10--3-6]",
        "E   assert 7 == 6",
        "calc/__init__.py:46",
        "E   ZeroDivisionError: division by zero",
        "library frames hidden",
    ):
        assert fact in out
    assert "PASSED" not in out and "[100%]" not in out
    assert out.splitlines()[-2].startswith("pytest: 8 failed, 32 passed, 2 skipped, 1 xfailed, 22 warnings in")


def test_pytest_no_tests_is_not_success(
    projects: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    argv = ["python", "-m", "pytest", "-p", "no:cacheprovider", "tests/test_empty.py"]
    code, out, own = through_rtk(argv, projects / "lib", monkeypatch, capfd)
    assert code == own == 5
    assert "pytest: no tests collected (exit 5)" in out


def test_pytest_collection_error(
    projects: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    code, out, own = through_rtk(
        ["python", "-m", "pytest", "-p", "no:cacheprovider"], projects / "lib", monkeypatch, capfd
    )
    assert code == own == 2
    assert "ERROR collecting tests/test_import_error.py" in out
    assert "ImportError: cannot import name 'does_not_exist'" in out
    assert "pytest: interrupted (exit 2)" in out


def test_ruff_check(projects: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    tool("ruff")
    code, out, own = through_rtk(["ruff", "check", "--no-cache"], projects / "lint", monkeypatch, capfd)
    assert code == own == 1
    for fact in ("app/main.py:1:8: F401", "app/main.py:9:17: E711", "app/util.py:7:5: E731", "Found 21 errors."):
        assert fact in out
    assert " --> " not in out


def test_ruff_format_check(projects: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    tool("ruff")
    code, out, own = through_rtk(["ruff", "format", "--check", "--no-cache"], projects / "lint", monkeypatch, capfd)
    assert code == own == 1
    assert "app/ugly.py" in out


def test_mypy(projects: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    tool("mypy")
    argv = ["mypy", "--no-incremental", "--cache-dir", os.devnull, "shop"]
    code, out, own = through_rtk(argv, projects / "typed", monkeypatch, capfd)
    assert code == own == 1
    assert "shop/cart.py (11 errors):" in out
    assert '  28: "Cart" has no attribute "missing_attr" [attr-defined]' in out
    assert "Found 17 errors in 3 files" in out


def test_pip_list(projects: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    argv = ["python", "-m", "pip", "list", "--disable-pip-version-check"]
    code, out, own = through_rtk(argv, projects, monkeypatch, capfd)
    assert code == own == 0
    assert_listed(out)


def test_uv_pip_list(projects: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    tool("uv")
    code, out, own = through_rtk(["uv", "pip", "list", "--python", sys.executable], projects, monkeypatch, capfd)
    assert code == own == 0
    assert_listed(out)


def assert_listed(out: str) -> None:
    """The environment's packages, compacted (``N packages: a==1, ...``), or as pip printed them where that is no
    bigger in tokens (an environment of a few dozen packages: the aligned table costs less than ``==`` and commas)."""
    if "packages:" in out:
        assert "pytest==" in out
    else:
        assert out.lstrip().startswith(("Package ", "Using Python")) and "\npytest " in out


def test_poetry_install_without_dependencies(
    projects: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    tool("poetry")
    proj = tmp_path / "nodeps"
    proj.mkdir()
    (proj / "pyproject.toml").write_text(
        '[tool.poetry]\nname = "nodeps"\nversion = "0.1.0"\ndescription = ""\nauthors = []\npackage-mode = false\n\n'
        '[tool.poetry.dependencies]\npython = ">=3.11"\n'
    )
    monkeypatch.setenv("POETRY_VIRTUALENVS_IN_PROJECT", "true")
    monkeypatch.setenv("POETRY_CACHE_DIR", str(tmp_path / "cache"))
    code, out, own = through_rtk(["poetry", "install", "--no-interaction"], proj, monkeypatch, capfd)
    assert code == own == 0
    assert "poetry install: ok" in out or "Installing dependencies" in out  # raw when not shorter
