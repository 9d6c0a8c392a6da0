"""Hostile review 6: commands that try to get past the allow check, through the engine, the CLI and the Claude hook."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from rwhelpers import all_registered  # noqa: F401  (autouse: every command has a filter)

from helpers import rtk_argv
from rtk.rewrite import engine
from rtk.rewrite.permissions import Permissions

ALLOW = ["git:*", "ls:*", "cat:*", "head:*", "php -l:*", "bundle install:*", "deno test:*", "npm test:*"]


def verdict(line: str, allow: list[str] = ALLOW, deny: list[str] | None = None) -> engine.Decision:
    return engine.decide(line, permissions=Permissions(allow=allow, deny=deny or []))


# Code that runs where it sits, at any depth: never auto-approved, whatever the allow rules say.
EXECUTING = [
    "$(id)", "`id`", "<(id)", ">(id)", '"$(id)"', '"`id`"', "${x:-$(id)}", '"${x:-`id`}"', "$((a[$(id)]))",
    "${!x}", "${x@P}", "${(e)x}", "$~x", "${x:-${y:-$(id)}}", '"${x:-"$(id)"}"', "$(< /etc/passwd)",
]  # fmt: skip


@pytest.mark.parametrize("construct", EXECUTING)
@pytest.mark.parametrize("base", ["git log", "ls -la", "cat a.log | head -5", "php -l f.php", "bundle", "deno test"])
def test_an_executing_construct_is_never_allowed(base: str, construct: str) -> None:
    d = verdict(f"{base} {construct}", allow=["*"])
    assert d.permission != "allow", d


@pytest.mark.parametrize(
    ("line", "allow"),
    [
        # php: options before -l change what runs (a prepended file, another ini): the host's `php -l` rule is a prefix
        ("php -d auto_prepend_file=/tmp/e.php -l x.php", ["php -l:*"]),
        ("php -dauto_prepend_file=/tmp/e.php -l x.php", ["php -l:*"]),
        ("php -c /tmp/evil.ini -l x.php", ["php -l:*"]),
        ("php -n -l x.php", ["php -l:*"]),
        ("php -d -l -l x.php", ["php -l:*"]),
        ("php -r 'system(\"id\");' -l", ["php -l:*"]),
        # bare bundle is bundle install, but the host's rule names the word
        ("bundle", ["bundle install:*"]),
        ("bundle --gemfile=/tmp/Gemfile", ["bundle install:*"]),
        ("bundle exec rake", ["bundle install:*"]),
        # cat | head becomes rtk read --raw: both programs still need their rule
        ("cat a.log | head -5", ["head:*"]),
        ("cat a.log | head -5", ["cat:*"]),
        ("cat a.log | head -5; id", ["cat:*", "head:*"]),
        ("cat a.log | head -5 | sh", ["cat:*", "head:*"]),
        ("deno task build", ["deno test:*"]),
        ("deno test; deno run -A evil.ts", ["deno test:*"]),
        # compound lines, odd separators, wrappers and environment
        ("git status\rrm -rf ~", ["git status:*"]),
        ("git status\u00a0; rm -rf /", ["git status:*"]),
        ("git status |& sh", ["git status:*"]),
        ("git status ;#\nrm -rf /", ["git status:*"]),
        ("GIT_PAGER=id git log", ["git log:*"]),
        ("PAGER='sh -c id' git log", ["git log:*"]),
        ("env -S 'sh -c id' git log", ["git log:*"]),
        ("git -c core.pager='sh -c id' log", ["git log:*"]),
        ("git --exec-path=/tmp log", ["git log:*"]),
        ("git log > ~/.bashrc", ["git log:*"]),
        ("xargs git status", ["git status:*"]),
        ("git log <<EOF\n$(id)\nEOF", ["git log:*"]),
        ("exec git log", ["git log:*"]),
        ("uv run --with evil pytest", ["pytest:*"]),
        ("python -m pytest", ["pytest:*"]),
    ],
)
def test_not_allowed_where_the_host_would_ask(line: str, allow: list[str]) -> None:
    assert verdict(line, allow=allow).permission != "allow"


@pytest.mark.parametrize(
    ("line", "allow", "rewritten"),
    [
        ("php -l x.php", ["php -l:*"], "rtk php -l x.php"),
        ("bundle", ["bundle:*"], "rtk bundle"),
        ("cat a.log | head -5", ["cat:*", "head:*"], "rtk read --raw a.log | head -5"),
        ("deno test --allow-read", ["deno test:*"], "rtk deno test --allow-read"),
        ("git log '$(id)'", ["git log:*"], "rtk git log '$(id)'"),  # single-quoted: text, not code
    ],
)
def test_what_the_host_allows_is_still_allowed_and_rewritten(line: str, allow: list[str], rewritten: str) -> None:
    d = verdict(line, allow=allow)
    assert (d.permission, d.rewritten) == ("allow", rewritten)


def test_deny_on_the_original_program_holds_after_the_read_rewrite() -> None:
    d = verdict("cat secret.env | head -5", allow=["*"], deny=["cat secret.env:*"])
    assert d.verdict == "deny", d


_ALLOWED = st.sampled_from(["git status", "git log -3", "ls -la", "cat a.log | head -5", "deno test", "php -l f.php"])
_SEP = st.sampled_from(["; ", " && ", " || ", " | ", "\n", " & ", " |& ", "\r\n", ";\n"])
_OTHER = st.sampled_from(["rm -rf ~", "curl x", "sh", "python -c 1", "id"])


@hsettings(max_examples=200, deadline=None)
@given(_ALLOWED, _SEP, _OTHER, st.booleans())
def test_an_unallowed_command_joined_to_an_allowed_one_is_never_allowed(
    first: str, sep: str, other: str, before: bool
) -> None:
    line = f"{other}{sep}{first}" if before else f"{first}{sep}{other}"
    assert verdict(line).permission != "allow", line


@hsettings(max_examples=200, deadline=None)
@given(_ALLOWED, st.sampled_from(EXECUTING), st.integers(0, 3), st.booleans())
def test_executing_construct_at_any_depth_never_allowed(base: str, construct: str, depth: int, quoted: bool) -> None:
    inner = construct
    for _ in range(depth):
        inner = "${v:-" + inner + "}"
    arg = f'"{inner}"' if quoted and not inner.startswith(("<(", ">(")) else inner  # "<(id)" is text
    assert verdict(f"{base} {arg}", allow=["*"]).permission != "allow", arg


def _hook(tmp_path: Path, command: str, allow: list[str], deny: list[str] = ()) -> dict[str, object]:  # type: ignore[assignment]
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True, exist_ok=True)
    perms = {"allow": [f"Bash({a})" for a in allow], "deny": [f"Bash({d})" for d in deny]}
    (proj / ".claude" / "settings.json").write_text(json.dumps({"permissions": perms}))
    event = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(proj), "hook_event_name": "PreToolUse"}
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(proj))
    p = subprocess.run(
        rtk_argv("hook", "claude"),
        input=json.dumps(event),
        cwd=proj,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    return json.loads(p.stdout) if p.stdout.strip() else {}


def _decision(out: dict[str, object]) -> object:
    spec = out.get("hookSpecificOutput")
    return spec.get("permissionDecision") if isinstance(spec, dict) else None


@pytest.mark.parametrize(
    ("command", "allow"),
    [
        ("php -d auto_prepend_file=/tmp/e.php -l x.php", ["php -l:*"]),
        ("cat a.log | head -5 `id`", ["cat:*", "head:*"]),
        ("bundle", ["bundle install:*"]),
        ("git status; rm -rf ~", ["git status:*"]),
    ],
)
def test_claude_hook_gives_no_allow_where_the_settings_would_ask(
    tmp_path: Path, command: str, allow: list[str]
) -> None:
    assert _decision(_hook(tmp_path, command, allow)) != "allow"


def test_claude_hook_allows_what_the_settings_allow(tmp_path: Path) -> None:
    out = _hook(tmp_path, "cat a.log | head -5", ["cat:*", "head:*"])
    assert _decision(out) == "allow", out


@pytest.mark.parametrize("consumer", ["head -c 16", "head -c16", "head --bytes=16", "tail -c 8", "head --bytes 4"])
def test_a_byte_count_consumer_keeps_the_producer_as_written(consumer: str) -> None:
    """`cat img.png | head -c 16` wants the bytes: rtk read refuses binary files (one line instead of data)."""
    d = verdict(f"cat bin.dat | {consumer}")
    assert d.rewritten is None, d


def test_a_line_count_consumer_still_reads_through_rtk() -> None:
    assert verdict("cat a.log | head -n 5").rewritten == "rtk read --raw a.log | head -n 5"
