"""Hostile review 11: commands run by another one named in its words (package runners, shell lines, sudo, ssh...)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "agents"))
from hookcases import BY_NAME

from rtk import hook
from rtk.rewrite import engine
from rtk.rewrite.permissions import Permissions

RUNNERS_ALLOWED = [
    "pnpm:*", "npx:*", "npm:*", "yarn:*", "bunx:*", "bun:*", "uvx:*", "uv:*", "pipx:*", "poetry:*", "bundle:*",
    "pdm:*", "hatch:*", "conda:*", "git:*", "ls:*", "bash:*", "sh:*", "sudo:*", "xargs:*", "ssh:*", "watch:*",
    "parallel:*", "env:*", "eval:*", "mamba:*", "pixi:*", "rye:*",
]  # fmt: skip
DENY = ["curl:*", "rm:*", "git push:*"]


def decide(
    line: str, allow: list[str] = RUNNERS_ALLOWED, deny: list[str] = DENY, ask: tuple[str, ...] = ()
) -> engine.Decision:
    return engine.decide(line, permissions=Permissions(allow=allow, deny=deny, ask=ask))


# A runner that names the program it runs: the denied program is refused, however the runner is allowed.
RUN_BY_RUNNER = [
    "yarn exec curl x", "yarn dlx curl", "pnpm dlx curl x", "pnpm curl x", "pnpm -r exec rm -rf x",
    "pnpm --filter web exec curl x", "uvx curl", "uvx --from httpie curl x", "uv tool run curl", "pipx run curl",
    "hatch run curl x", "conda run -n base curl x", "conda run curl x", "mamba run -p /env rm x",
    "bun x curl", "bun exec 'curl x'", "pixi run curl x", "rye run curl", "npm x curl",
    "pnpm exec git push", "npx --yes rm -rf x", "yarn -s exec git push origin",
]  # fmt: skip
# Shell lines and commands that run the rest of their words (here, or on a remote host).
RUN_BY_NAME = [
    'git status && bash -c "rm x"', "sh -c 'curl x'", "bash -lc 'git push'", "zsh -o errexit -c 'rm x'",
    "dash -ec 'curl x | sh'", 'eval "curl x"', "builtin eval curl x", 'env -S "curl x"', "env -i rm x",
    "env -u HOME -C /tmp rm x", "sudo rm x", "sudo -u root -E rm x", "doas rm x", "sudo sh -c 'rm x'",
    "echo a | xargs rm", "xargs -n 1 -P 4 curl < urls", "watch -n 1 'git push'", "parallel rm ::: a b",
    "ssh host 'rm -rf /'", "ssh -p 2222 -i key host curl x", "nohup bash -c 'rm x' &", "git log; sudo bash -c 'eval rm x'",
]  # fmt: skip


@pytest.mark.parametrize("line", RUN_BY_RUNNER + RUN_BY_NAME)
def test_a_denied_program_run_by_another_is_denied(line: str) -> None:
    d = decide(line)
    assert d.verdict == "deny", d
    assert d.rewritten is None


@pytest.mark.parametrize("line", ["pnpm exec curl x", "sudo rm x", "bash -c 'rm x'", "ssh h rm x", "yarn dlx curl"])
def test_an_ask_rule_sees_the_program_run_by_another(line: str) -> None:
    d = decide(line, deny=[], ask=("curl:*", "rm:*"))
    assert d.permission == "ask" and "ask rule" in (d.permission_reason or d.reason), d


# Their own commands are not programs they run: no false refusal (pnpm rm removes a package).
@pytest.mark.parametrize(
    ("line", "verdict"),
    [("pnpm rm lodash", "allow"), ("yarn remove curl", "allow"), ("pnpm install", "allow"), ("git status", "allow"),
     ("bash script.sh", "allow"), ("sudo -l", "none"), ("ssh host uptime", "allow"), ("hatch run test:cov", "none")],
)  # fmt: skip
def test_a_runner_own_command_is_not_refused(line: str, verdict: str) -> None:
    d = decide(line)
    assert d.verdict == verdict, d


def test_commands_run_by_commands_past_the_depth_bound_are_never_allowed_and_bounded_in_time() -> None:
    for line in ("sudo " * 20000 + "git status", "pnpm exec " * 10000 + "ls", "env -S " * 10000 + "ls"):
        start = time.monotonic()
        d = decide(line[: engine.MAX_LINE], allow=["*"], deny=["curl:*"])
        assert time.monotonic() - start < 5
        assert d.permission != "allow", d
    assert decide("sudo " * 8 + "rm x").verdict == "deny"


@pytest.mark.parametrize("line", ["pnpm dlx curl x", "git status && bash -c 'rm x'", "sudo rm x", "yarn exec curl"])
def test_claude_hook_refuses_a_denied_program_run_by_another(line: str, isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    rules = {"allow": [f"Bash({p})" for p in RUNNERS_ALLOWED], "deny": [f"Bash({p})" for p in DENY]}
    settings.write_text(json.dumps({"permissions": rules}))
    claude = BY_NAME["claude"]
    p = claude.payload()
    claude.set_cmd(p, line)
    out, _err, code = hook.run("claude", [], json.dumps(p).encode())
    doc = json.loads(out)
    assert code == 0 and doc["hookSpecificOutput"]["permissionDecision"] == "deny", doc
    assert "updatedInput" not in doc["hookSpecificOutput"]
