"""`rtk rewrite`: the exit-code contract, --json, --help, and bad input (exit 1, no output)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import rtk_argv


def rewrite(*args: str, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess[bytes]:
    e = dict(os.environ, **env)
    return subprocess.run(rtk_argv("rewrite", *args), capture_output=True, timeout=60, cwd=cwd, env=e)


def claude_settings(project: Path, **rules: list[str]) -> None:
    d = project / ".claude"
    d.mkdir(parents=True, exist_ok=True)
    perms = {k: [f"Bash({p})" for p in v] for k, v in rules.items()}
    (d / "settings.json").write_text(json.dumps({"permissions": perms}))


def test_rewrite_without_rules_is_ask(tmp_path: Path) -> None:
    p = rewrite("git status", cwd=tmp_path)
    assert (p.returncode, p.stdout, p.stderr) == (3, b"rtk git status\n", b"")


def test_allow_rule_gives_exit_0(tmp_path: Path) -> None:
    claude_settings(tmp_path, allow=["git status"])
    p = rewrite("git status", cwd=tmp_path)
    assert (p.returncode, p.stdout) == (0, b"rtk git status\n")


def test_deny_rule_gives_exit_2_and_no_output(tmp_path: Path) -> None:
    claude_settings(tmp_path, deny=["git status"])
    p = rewrite("git status", cwd=tmp_path)
    assert (p.returncode, p.stdout, p.stderr) == (2, b"", b"")


def test_no_rewrite_gives_exit_1_and_no_output(tmp_path: Path) -> None:
    for line in ("cd src", "rtk git status", "git status > out.txt", "unknown-tool -x"):
        p = rewrite(line, cwd=tmp_path)
        assert (p.returncode, p.stdout, p.stderr) == (1, b"", b""), line


def test_rtk_disabled_environment(tmp_path: Path) -> None:
    p = rewrite("git status", cwd=tmp_path, RTK_DISABLED="1")
    assert (p.returncode, p.stdout) == (1, b"")


def test_json_form(tmp_path: Path) -> None:
    p = rewrite("--json", "cd x && git status", cwd=tmp_path)
    assert p.returncode == 0
    doc = json.loads(p.stdout)
    assert doc == {"rewritten": "cd x && rtk git status", "verdict": "ask", "reason": doc["reason"], "exit": 3}
    p = rewrite("--json", "cd x", cwd=tmp_path)
    assert json.loads(p.stdout)["rewritten"] is None and json.loads(p.stdout)["verdict"] == "none"


def test_several_words_are_joined(tmp_path: Path) -> None:
    assert rewrite("git", "status", cwd=tmp_path).stdout == b"rtk git status\n"
    assert rewrite("--", "git status", cwd=tmp_path).stdout == b"rtk git status\n"


def test_help() -> None:
    p = rewrite("--help")
    assert p.returncode == 0 and b"usage: rtk rewrite" in p.stdout and b"exit codes" in p.stdout


def test_listed_in_rtk_help() -> None:
    p = subprocess.run(rtk_argv("--help"), capture_output=True, text=True, timeout=60)
    assert "rewrite" in p.stdout


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "\t\n",
        "git status\x00",
        "\x00",
        'git commit -m "unterminated',
        "git log 'open",
        "echo $(ls",
        "git status " + "x" * 1_000_000,
        "&& git status",
        "git status |",
        "\udcff\udcfe",
    ],
    ids=[
        "empty",
        "spaces",
        "whitespace",
        "nul",
        "only-nul",
        "dquote",
        "squote",
        "cmdsub",
        "1MB",
        "lead-op",
        "trail-pipe",
        "bad-utf8",
    ],
)
def test_bad_input_exits_1_silently(line: str, tmp_path: Path) -> None:
    # Via a file so that NUL bytes and huge lines reach rtk intact (argv cannot carry NUL).
    script = tmp_path / "call.py"
    script.write_text(
        "import sys\nfrom rtk.rewrite.cli import main\nline = open(sys.argv[1], encoding='utf-8', errors='surrogateescape').read()\n"
        "sys.exit(main([line]))\n"
    )
    data = tmp_path / "line.txt"
    data.write_bytes(line.encode("utf-8", "surrogateescape"))
    p = subprocess.run([sys.executable, str(script), str(data)], capture_output=True, timeout=60)
    assert (p.returncode, p.stdout, p.stderr) == (1, b"", b""), p.stderr[-500:]


def test_bad_input_through_argv(tmp_path: Path) -> None:
    for line in ("", "   ", '"', "git log 'x"):
        p = rewrite(line, cwd=tmp_path)
        assert (p.returncode, p.stdout, b"Traceback" in p.stderr) == (1, b"", False)


def test_no_arguments_is_a_quiet_error() -> None:
    p = rewrite()
    assert p.returncode == 1 and p.stdout == b"" and b"usage" in p.stderr


def test_non_utf8_bytes_survive(tmp_path: Path) -> None:
    arg = b"ls caf\xe9"
    p = subprocess.run([*rtk_argv("rewrite"), arg], capture_output=True, timeout=60, cwd=tmp_path)  # type: ignore[list-item]
    assert p.stdout == b"rtk ls caf\xe9\n"


def test_docker_compose_v1_reaches_its_toml_filters(tmp_path: Path) -> None:
    """docker-compose (v1) ps/logs/up -d are served by the built-in TOML filters; -q and a foreground up are not."""
    for line in (
        "docker-compose ps",
        "docker-compose -f dev.yml ps",
        "docker-compose up -d",
        "docker-compose logs web",
    ):
        assert rewrite(line, cwd=tmp_path).stdout == f"rtk {line}\n".encode(), line
    for line in ("docker-compose ps -q", "docker-compose up"):
        p = rewrite(line, cwd=tmp_path)
        assert (p.returncode, p.stdout) == (1, b""), line
