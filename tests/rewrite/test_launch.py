"""A rewrite never changes whether a command can run: the inserted rtk resolves (rtk.rewrite.launch)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtk.agents.registry import launcher
from rtk.rewrite import engine, launch
from rtk.rewrite.launch import Launch

LAUNCHER = launcher()
BIN = os.path.dirname(LAUNCHER)
SYSTEM_PATH = "/usr/bin:/bin"  # git, ls and bash, no rtk
ABS = Launch("rtk", "'/opt/my rtk/bin/rtk'")  # shell words, quoted


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("PATH=/usr/bin git status", "PATH=/usr/bin '/opt/my rtk/bin/rtk' git status"),
        ("env PATH=/usr/bin git status", "env PATH=/usr/bin '/opt/my rtk/bin/rtk' git status"),
        ("env -u PATH git status", "env -u PATH '/opt/my rtk/bin/rtk' git status"),
        ("command -p git log", "command -p '/opt/my rtk/bin/rtk' git log"),
        (
            "export PATH=/x; git status && ls",
            "export PATH=/x; '/opt/my rtk/bin/rtk' git status && '/opt/my rtk/bin/rtk' ls",
        ),
        ("PATH=/x head -5 a.txt", "PATH=/x '/opt/my rtk/bin/rtk' read a.txt --head-lines 5"),
        ("PATH=/x uv run pytest", "PATH=/x uv run '/opt/my rtk/bin/rtk' pytest"),
        ("git status; PATH=/x git log", "rtk git status; PATH=/x '/opt/my rtk/bin/rtk' git log"),
        ("PATH=$PATH:/x git status", "PATH=$PATH:/x rtk git status"),
    ],
)
def test_path_changes_get_the_absolute_rtk(line: str, expected: str) -> None:
    assert engine.rewrite(line, launch=ABS) == expected


def test_without_a_known_path_nothing_is_rewritten() -> None:
    d = engine.decide("PATH=/usr/bin git status", agent=None)
    assert (d.rewritten, d.verdict) == (None, "none")
    assert "PATH" in d.reason


def test_rtk_not_on_path_gets_the_absolute_rtk_everywhere() -> None:
    off = Launch("/x/rtk", "/x/rtk")
    assert engine.rewrite("git status && cargo test 2>&1 | tail -5", launch=off) == (
        "/x/rtk git status && /x/rtk cargo test 2>&1 | tail -5"
    )


def test_current_knows_whether_rtk_is_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [LAUNCHER, "hook", "claude"])
    monkeypatch.setenv("PATH", SYSTEM_PATH)
    got = launch.current()
    assert (got.plain, got.absolute) == (LAUNCHER, LAUNCHER)
    monkeypatch.setenv("PATH", BIN + os.pathsep + SYSTEM_PATH)
    got = launch.current()
    assert (got.plain, got.absolute) == ("rtk", LAUNCHER)
    monkeypatch.setattr(sys, "argv", ["/somewhere/rtk/__main__.py", "rewrite"])  # python -m rtk
    assert launch.current().plain == "rtk"
    monkeypatch.setenv("PATH", SYSTEM_PATH)
    assert launch.current().plain == f"{os.path.abspath(sys.executable)} -P -m rtk"


def test_quote() -> None:
    assert launch.quote("/usr/local/bin/rtk") == "/usr/local/bin/rtk"
    assert launch.quote("/it's here/rtk") == "'/it'\"'\"'s here/rtk'"


def _env(path: str) -> dict[str, str]:
    return dict(os.environ, PATH=path)


def _bash(line: str, cwd: Path, path: str) -> int:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=_env(path), capture_output=True, check=False).returncode


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


@pytest.mark.parametrize(
    ("line", "agent_path"),
    [
        ("PATH=/usr/bin git status", BIN + os.pathsep + SYSTEM_PATH),
        ("env PATH=/usr/bin git status", BIN + os.pathsep + SYSTEM_PATH),
        ("env -u PATH git status", BIN + os.pathsep + SYSTEM_PATH),
        ("export PATH=/usr/bin:/bin; git status", BIN + os.pathsep + SYSTEM_PATH),
        ("git status", SYSTEM_PATH),  # rtk rewrite run as /abs/rtk, rtk not on the agent's PATH
    ],
)
def test_rewritten_line_runs_wherever_the_raw_one_does(line: str, agent_path: str, repo: Path) -> None:
    p = subprocess.run([LAUNCHER, "rewrite", line], env=_env(agent_path), capture_output=True, text=True, check=False)
    assert p.returncode in (0, 3), p
    new = p.stdout.rstrip("\n")
    assert LAUNCHER in new
    assert _bash(line, repo, agent_path) == 0
    assert _bash(new, repo, agent_path) == 0  # the old rewrite (PATH=/usr/bin rtk git status) exits 127


def test_hook_run_by_absolute_path_answers_a_command_that_resolves(repo: Path) -> None:
    payload = {
        "tool_name": "Bash",
        "tool_input": {"command": "git status"},
        "cwd": str(repo),
        "permission_mode": "default",
    }
    p = subprocess.run(
        [LAUNCHER, "hook", "claude"],
        input=json.dumps(payload).encode(),
        env=_env(SYSTEM_PATH),
        capture_output=True,
        check=False,
    )
    new = json.loads(p.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert new == f"{LAUNCHER} git status"
    assert _bash(new, repo, SYSTEM_PATH) == 0


@pytest.mark.parametrize(
    "line",
    [
        "PYTHONPATH=. git status",  # rtk would import the directory's modules
        "PYTHONHOME=/nonexistent node x.js",  # rtk would not start: the command would never run
        "env PYTHONPATH=. git status",
        "env -u PYTHONPATH git status",
        "env -uPYTHONHOME git status",
        "FOO=1 PYTHONSTARTUP=x PYTHONINSPECT=1 ./run.sh",
        "export PYTHONPATH=.; git status",
        "PYTHONPATH=.; git status",
        "unset PYTHONHOME && git status",
        "if true; then export PYTHONPATH=x; fi; git status",
    ],
)
def test_a_python_environment_meant_for_the_command_never_reaches_rtk(line: str) -> None:
    assert engine.rewrite(line, launch=ABS) is None
    d = engine.decide(line, agent=None)
    assert (d.rewritten, d.verdict) == (None, "none")
    assert "PYTHON" in d.reason or "block is left as written" in d.reason


def test_harmless_python_variables_and_later_segments_are_still_rewritten() -> None:
    assert engine.rewrite("PYTHONUNBUFFERED=1 python3 x.py") == "PYTHONUNBUFFERED=1 rtk run python3 x.py"
    assert engine.rewrite("PYTHONPATH=src pytest; git status") == "PYTHONPATH=src pytest; rtk git status"
    assert engine.rewrite("git status; PYTHONPATH=src pytest") == "rtk git status; PYTHONPATH=src pytest"


def test_python_path_of_the_command_runs_none_of_its_modules_in_rtk(repo: Path) -> None:
    # A module named like one rtk imports, in the directory PYTHONPATH names for the command.
    for mod in ("subprocess", "shlex", "json", "signal", "selectors", "bisect", "sqlite3", "tempfile"):
        (repo / f"{mod}.py").write_text("import sys\nsys.stderr.write('HIJACKED\\n')\nsys.exit(99)\n")
    line = "PYTHONPATH=. git status"
    p = subprocess.run([LAUNCHER, "rewrite", line], env=_env(BIN + os.pathsep + SYSTEM_PATH), capture_output=True,
                       text=True, check=False)  # fmt: skip
    new = p.stdout.rstrip("\n") or line
    run = subprocess.run(["bash", "-c", new], cwd=repo, env=_env(BIN + os.pathsep + SYSTEM_PATH),
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert "HIJACKED" not in run.stderr
    assert run.returncode == 0


def test_rtk_run_as_a_module_never_imports_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A checkout holding an `rtk` package (or a module named like one rtk imports) must not run in
    # its place: the hook command init writes and the absolute word of a rewrite both use `-m rtk`.
    from rtk.agents import registry

    (tmp_path / "rtk").mkdir()
    (tmp_path / "rtk" / "__init__.py").write_text("")
    (tmp_path / "rtk" / "__main__.py").write_text("print('HIJACKED')\n")
    monkeypatch.setattr(sys, "argv", ["/somewhere/rtk/__main__.py", "hook", "claude"])
    monkeypatch.setenv("PATH", SYSTEM_PATH)
    monkeypatch.setattr(registry, "launcher", lambda: "")
    for word in (launch.current().absolute, registry.rtk_command()):
        p = subprocess.run(f"{word} --version", shell=True, cwd=tmp_path, capture_output=True, text=True, check=False)
        assert "HIJACKED" not in p.stdout
        assert p.returncode == 0 and p.stdout.startswith("rtk"), p


# --- PYTHON* variables: rtk runs as python -E -P -m rtk, the command still gets them -------------

PY = Launch("rtk", "'/opt/my rtk/bin/rtk'", "/py/bin/python3 -E -P -m rtk")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("PYTHONPATH=src pytest", "PYTHONPATH=src /py/bin/python3 -E -P -m rtk pytest"),
        (
            "PYTHONPATH=. python -m pytest tests/",
            "PYTHONPATH=. /py/bin/python3 -E -P -m rtk python -m pytest tests/",
        ),
        ("PYTHONPATH=src pytest; git status", "PYTHONPATH=src /py/bin/python3 -E -P -m rtk pytest; rtk git status"),
        ("export PYTHONPATH=src; pytest -q", "export PYTHONPATH=src; /py/bin/python3 -E -P -m rtk pytest -q"),
        ("env -u PYTHONHOME git status", "env -u PYTHONHOME /py/bin/python3 -E -P -m rtk git status"),
        ("PATH=/x PYTHONPATH=. git status", "PATH=/x PYTHONPATH=. /py/bin/python3 -E -P -m rtk git status"),
        ("PYTHONPATH=src uv run pytest", "PYTHONPATH=src uv run /py/bin/python3 -E -P -m rtk pytest"),
    ],
)
def test_a_python_environment_gets_an_rtk_deaf_to_it(line: str, expected: str) -> None:
    assert engine.rewrite(line, launch=PY) == expected


def test_current_offers_an_interpreter_ignoring_python_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for k in ("PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setattr(sys, "argv", [LAUNCHER, "hook", "claude"])
    assert launch.current().python == f"{launch.quote(os.path.abspath(sys.executable))} -E -P -m rtk"


def test_no_python_form_when_rtk_itself_is_found_through_a_python_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    # -E would lose the variable rtk's own interpreter needs: such lines stay as written.
    import rtk

    monkeypatch.setattr(sys, "argv", [LAUNCHER, "hook", "claude"])
    home = os.path.dirname(os.path.dirname(os.path.abspath(rtk.__file__)))
    monkeypatch.setenv("PYTHONPATH", "/elsewhere" + os.pathsep + home)
    assert launch.current().python == ""
    monkeypatch.delenv("PYTHONPATH")
    monkeypatch.setenv("PYTHONUSERBASE", os.path.dirname(home))
    assert launch.current().python == ""
    monkeypatch.setenv("PYTHONUSERBASE", "/elsewhere")
    assert launch.current().python != ""


SHADOW = """\
import os
import sys

if "rtk" in sys.modules:  # imported inside rtk
    sys.stderr.write("HIJACKED\\n")
    sys.exit(99)
_here = os.path.dirname(os.path.abspath(__file__))
_saved = sys.path[:]
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
del sys.modules[__name__]
try:
    import importlib

    _real = importlib.import_module(__name__)  # anything else (pytest) gets the real module
finally:
    sys.path[:] = _saved
sys.modules[__name__] = _real
"""


def _rewritten(line: str, path: str) -> str:
    p = subprocess.run([LAUNCHER, "rewrite", line], env=_env(path), capture_output=True, text=True, check=False)
    assert p.returncode in (0, 3), p
    return p.stdout.rstrip("\n")


@pytest.mark.parametrize("line", ["PYTHONPATH=lib pytest -q test_a.py", "export PYTHONPATH=lib; pytest -q test_a.py"])
def test_python_path_reaches_pytest_and_not_rtk(line: str, tmp_path: Path) -> None:
    # Modules rtk imports on its way to pytest (every rtk module starts with `from __future__ ...`),
    # shadowed in the directory PYTHONPATH names: they stop any rtk that imports them.
    (tmp_path / "lib").mkdir()
    for mod in ("__future__", "select", "hashlib", "bisect", "json", "subprocess", "signal"):
        (tmp_path / "lib" / f"{mod}.py").write_text(SHADOW)
    (tmp_path / "lib" / "mylib.py").write_text("X = 1\n")
    (tmp_path / "test_a.py").write_text(
        "import os\nimport mylib\n\ndef test_x():\n    assert mylib.X == 1 and os.environ['PYTHONPATH'] == 'lib'\n"
    )
    pytest_bin = os.path.dirname(shutil.which("pytest") or sys.executable)
    agent_path = os.pathsep.join((BIN, pytest_bin, SYSTEM_PATH))
    new = _rewritten(line, agent_path)
    assert "-E -P -m rtk pytest -q test_a.py" in new, new
    run = subprocess.run(["bash", "-c", new], cwd=tmp_path, env=_env(agent_path), capture_output=True, text=True,
                         check=False)  # fmt: skip
    assert "HIJACKED" not in run.stderr + run.stdout
    assert run.returncode == 0, run
    assert "1 passed" in run.stdout
    # and a failing test still fails through it
    (tmp_path / "test_a.py").write_text("import mylib\n\ndef test_x():\n    assert mylib.X == 2\n")
    run = subprocess.run(["bash", "-c", new], cwd=tmp_path, env=_env(agent_path), capture_output=True, text=True,
                         check=False)  # fmt: skip
    assert "HIJACKED" not in run.stderr + run.stdout
    assert run.returncode == 1 and "test_x" in run.stdout, run


def test_python_home_of_the_command_does_not_stop_it(repo: Path) -> None:
    agent_path = BIN + os.pathsep + SYSTEM_PATH
    new = _rewritten("PYTHONHOME=/nonexistent git status", agent_path)
    assert "-E -P -m rtk git status" in new, new
    run = subprocess.run(["bash", "-c", new], cwd=repo, env=_env(agent_path), capture_output=True, text=True,
                         check=False)  # fmt: skip
    assert run.returncode == 0, run
    assert "Fatal Python error" not in run.stderr
