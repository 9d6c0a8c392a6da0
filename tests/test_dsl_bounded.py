"""User and project filters' own regexes run under a time limit: a catastrophic one fails open, never hangs."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from helpers import path_with, rtk_argv, stub_tool
from rtk import paths

EVIL_MATCH = """\
schema_version = 1

[filters.evil]
match_command = "^(a+)+$"
max_lines = 5
"""

EVIL_OUTPUT = """\
schema_version = 1

[filters.evil]
match_command = "^mytool(\\\\s|$)"
strip_lines_matching = ["^(a+)+$"]
"""

SLOW = "a" * 40 + "!"


def run(
    tmp_path: Path, *args: str, cwd: Path, stdin: str | None = None
) -> tuple[subprocess.CompletedProcess[str], float]:
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    start = time.monotonic()
    p = subprocess.run(rtk_argv(*args), cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=20)
    return p, time.monotonic() - start


def test_untrusted_project_filter_with_a_catastrophic_match_command_does_not_hang_the_hook(tmp_path: Path) -> None:
    """A checkout's .rtk/filters/*.toml needs no trust to be searched by the hook: it must not hang it."""
    proj = tmp_path / "proj"
    (proj / ".rtk" / "filters").mkdir(parents=True)
    (proj / ".rtk" / "filters" / "evil.toml").write_text(EVIL_MATCH)
    p, took = run(tmp_path, "rewrite", SLOW, cwd=proj)
    assert took < 8, took
    assert p.stdout == "" and p.returncode != 0 and "Traceback" not in p.stderr
    event = json.dumps({"tool_name": "Bash", "tool_input": {"command": SLOW}})
    p, took = run(tmp_path, "hook", "claude", cwd=proj, stdin=event)
    assert took < 8, took
    assert p.returncode == 0 and p.stdout.strip() in ("", "{}")


def test_user_filter_with_a_catastrophic_match_command_is_skipped(tmp_path: Path) -> None:
    d = Path(paths.config_dir()) / "filters"
    d.mkdir(parents=True, exist_ok=True)
    (d / "evil.toml").write_text(EVIL_MATCH)
    p, took = run(tmp_path, "rewrite", SLOW, cwd=tmp_path)
    assert took < 8, took
    assert p.stdout == "" and "Traceback" not in p.stderr


def test_user_filter_with_a_catastrophic_output_regex_shows_the_raw_output(tmp_path: Path) -> None:
    """The filter is stopped; the raw output is printed whole; the tool's exit code reaches the caller."""
    d = Path(paths.config_dir()) / "filters"
    d.mkdir(parents=True, exist_ok=True)
    (d / "evil.toml").write_text(EVIL_OUTPUT)
    stub_tool(tmp_path, "mytool", f"echo keep\necho '{SLOW}'\nexit 4")
    p, took = run(tmp_path, "mytool", cwd=tmp_path)
    assert took < 15, took
    assert p.returncode == 4
    assert p.stdout.startswith(f"keep\n{SLOW}\n"), p.stdout
    assert "Traceback" not in p.stderr


def test_time_limit_returns_the_value_and_restores_the_alarm_handler() -> None:
    import signal

    from rtk.dsl import deadline

    before = signal.getsignal(signal.SIGALRM)
    assert deadline.limited(1.0, lambda: 42) == 42
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_time_limit_stops_a_catastrophic_search() -> None:
    import re

    import pytest

    from rtk.dsl import deadline

    start = time.monotonic()
    with pytest.raises(deadline.Timeout):
        deadline.limited(0.2, re.compile("^(a+)+$").search, SLOW)
    assert time.monotonic() - start < 3


EVIL_SHADOW = """\
schema_version = 1

[filters.evil-shadow]
match_command = "^(?:\\\\w*\\\\w*\\\\w*\\\\w*\\\\w*\\\\w*\\\\w*\\\\w*\\\\w*\\\\w*)*!"
max_lines = 5
"""

EVIL_TESTED = (
    EVIL_OUTPUT
    + f"""
[[tests.evil]]
input = "keep\\n{SLOW}"
expected = "keep"
"""
)


def test_filters_validate_stops_a_catastrophic_match_command_and_names_the_filter(tmp_path: Path) -> None:
    """Probing which built-in family shadows the filter runs its match_command: it is stopped, reported, exit 1."""
    f = tmp_path / "evil.toml"
    f.write_text(EVIL_SHADOW)
    for args in (("filters", "validate", str(f)), ("filters", "validate")):
        d = Path(paths.config_dir()) / "filters"
        d.mkdir(parents=True, exist_ok=True)
        (d / "evil.toml").write_text(EVIL_SHADOW)
        p, took = run(tmp_path, *args, cwd=tmp_path)
        assert took < 10, took
        assert p.returncode == 1, p.stdout
        stopped = [line for line in p.stdout.splitlines() if "evil-shadow" in line and "stopped" in line]
        assert len(stopped) == 1 and stopped[0].startswith("error: "), p.stdout
        assert "Traceback" not in p.stderr
    p, took = run(tmp_path, "filters", "list", cwd=tmp_path)
    assert took < 10 and p.returncode == 0 and "evil-shadow" in p.stdout


def test_verify_stops_a_catastrophic_filter_and_fails_that_test(tmp_path: Path) -> None:
    f = tmp_path / "evil.toml"
    f.write_text(EVIL_TESTED)
    p, took = run(tmp_path, "verify", str(f), cwd=tmp_path)
    assert took < 12, took
    assert p.returncode == 1, p.stdout
    assert p.stdout.splitlines()[0].startswith("FAIL evil: test 1 (evil.toml): stopped: "), p.stdout
    assert "1 tests: 0 ok, 1 failing" in p.stdout and "Traceback" not in p.stderr
