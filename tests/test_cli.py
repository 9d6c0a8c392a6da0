"""rtk's own command line: global flags, help, version, proxy, disabled mode."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from helpers import path_with, rtk_argv, stub_tool
from rtk import __version__, options
from rtk.__main__ import COMMANDS


def run(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(rtk_argv(*args), capture_output=True, text=True, timeout=60, **kw)  # type: ignore[call-overload,no-any-return]


def test_version() -> None:
    p = run("--version")
    assert p.returncode == 0 and p.stdout.startswith(f"rtk {__version__}")


def test_help_lists_commands_filters_and_flags() -> None:
    p = run("--help")
    assert p.returncode == 0
    for word in ("gain", "config", "proxy", "git", "ls", "--ultra-compact", "--skip-env", "ceil(characters / 4)"):
        assert word in p.stdout


def test_help_says_rtk_read_folds_long_logs() -> None:
    # `rtk --help` called rtk read "exact bytes" while a long log-like file (and a long tail window) is folded.
    line = next(ln for ln in run("--help").stdout.splitlines() if ln.split()[:1] == ["read"])
    assert "exact bytes" in line and "long log" in line and "folded" in line and "--raw" in line, line


def test_no_arguments_is_usage_error() -> None:
    p = run()
    assert p.returncode == 2 and "usage: rtk" in p.stderr


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_every_command_has_help(cmd: str) -> None:
    p = run(cmd, "--help")
    assert p.returncode == 0 and "usage:" in p.stdout.lower(), p.stdout + p.stderr
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_every_command_rejects_an_unknown_flag_in_one_line(cmd: str) -> None:
    p = run(cmd, "--no-such-flag-xyz")
    assert "Traceback" not in p.stderr
    if p.returncode != 0:
        assert len(p.stderr.strip().splitlines()) <= 3, p.stderr


def test_unknown_flag_of_a_command_is_one_line_error() -> None:
    p = run("gain", "--no-such-flag")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "unrecognized arguments: --no-such-flag" in p.stderr


def test_global_flags_are_only_read_before_the_tool() -> None:
    rest, action = options.parse_global(["-vv", "--ultra-compact", "git", "push", "-u", "-v"])
    assert rest == ["git", "push", "-u", "-v"] and action is None
    assert options.verbose == 2 and options.ultra_compact


def test_tool_help_goes_to_the_tool(tmp_path: Path) -> None:
    stub_tool(tmp_path, "git", 'echo "git got: $*"')
    p = run("git", "--help", env=dict(os.environ, PATH=path_with(tmp_path / "bin")))
    assert p.stdout == "git got: --help\n"


def test_verbose_reports_filter_and_tokens(tmp_path: Path) -> None:
    stub_tool(tmp_path, "git", "printf 'On branch main\\nnothing to commit, working tree clean\\n'")
    p = run("-v", "git", "status", env=dict(os.environ, PATH=path_with(tmp_path / "bin")))
    assert "git-status [filtered]" in p.stderr and "tokens" in p.stderr
    assert p.stdout == "on main\nworking tree clean\n"


def test_skip_env_sets_variable_for_child(tmp_path: Path) -> None:
    stub_tool(tmp_path, "showenv", 'echo "SKIP=$SKIP_ENV_VALIDATION"')
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    assert run("--skip-env", "showenv", env=env).stdout == "SKIP=1\n"
    assert run("showenv", env=env).stdout == "SKIP=\n"


def test_proxy_runs_raw_and_tracks(tmp_path: Path) -> None:
    stub_tool(tmp_path, "git", "printf 'On branch main\\n\\nnothing to commit, working tree clean\\n'; exit 0")
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    p = run("proxy", "git", "status", env=env)
    assert p.stdout == "On branch main\n\nnothing to commit, working tree clean\n"
    p = run("gain", "-f", "json")
    assert '"raw: git"' in p.stdout


def test_disabled_filter_in_config_runs_raw(tmp_path: Path) -> None:
    cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text('[filters]\ndisabled = ["git-status"]\n')
    stub_tool(tmp_path, "git", "printf 'On branch main\\n\\nnothing to commit, working tree clean\\n'")
    p = run("git", "status", env=dict(os.environ, PATH=path_with(tmp_path / "bin")))
    assert p.stdout == "On branch main\n\nnothing to commit, working tree clean\n"


ODD = b"\xff".decode("utf-8", "surrogateescape")  # a byte that is not UTF-8, as Python passes it on


@pytest.mark.parametrize(
    "args",
    [
        [""], ["", "x"], ["-v", ""], ["--", ""], ["--"], ["-"], [" "], ["/"], [ODD], ["git", ODD], ["ls", ""],
        ["git", ""], ["test", ""], ["err", "--"], ["summary", "", "x"], ["proxy", ""], ["read", ""], ["json", ""],
        ["hook", ""], ["rewrite", ""], ["rewrite", ODD], ["config", ""], ["filters", ""], ["log", ""], ["echo", ODD],
    ],
)  # fmt: skip
def test_odd_argument_lists_get_an_error_line_or_run(args: list[str], tmp_path: Path) -> None:
    p = subprocess.run(rtk_argv(*args), capture_output=True, timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert b"Traceback" not in p.stderr and b"internal error" not in p.stderr, p.stderr


def test_a_typo_of_an_rtk_command_gets_a_suggestion_and_127(tmp_path: Path) -> None:
    p = run("gian", cwd=tmp_path)
    assert p.returncode == 127
    assert p.stderr.strip() == "rtk: command not found: gian (did you mean rtk gain?)"
    assert run("discovr").stderr.strip() == "rtk: command not found: discovr (did you mean rtk discover?)"
    # A real tool of that name on PATH runs as always.
    bindir = stub_tool(tmp_path, "gian", "echo real gian")
    p = run("gian", env={**os.environ, "PATH": path_with(bindir)})
    assert p.returncode == 0 and "real gian" in p.stdout


def test_an_unknown_flag_before_the_tool_is_a_usage_line() -> None:
    p = run("-u")
    assert p.returncode == 2
    assert "rtk: unknown option -u" in p.stderr and "usage: rtk [global options] <tool>" in p.stderr
    assert "command not found" not in p.stderr
