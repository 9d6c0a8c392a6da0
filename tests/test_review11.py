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
        # A guard against a hang (the unbounded recursion took minutes), not a benchmark: about 0.6 s on a quiet
        # machine, 7 s on a loaded one.
        assert time.monotonic() - start < 60
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


# --- OpenCode: its own permission patterns (opencode.json "permission" -> "bash") see the rewritten command.


def _opencode(tmp_path: Path, config: str, *cmd: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    import os
    import subprocess

    from helpers import rtk_argv

    proj = tmp_path / "proj"
    proj.mkdir(exist_ok=True)
    (proj / "opencode.json").write_text(config)
    run_env = dict(os.environ, **(env or {}))
    r = subprocess.run(rtk_argv("rewrite", "--host", "opencode", "--", *cmd), cwd=proj, env=run_env,
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    return r.returncode, r.stdout.strip()


OPENCODE_ASK_PUSH = (
    '{\n  // the user\'s rules\n  "permission": {"bash": {"*": "allow", "git push*": "ask", "rm *": "deny",}}\n}'
)


@pytest.mark.parametrize("line", ["git push", "git push origin main", "git status && git push --force", "git push *"])
def test_opencode_never_rewrites_a_command_out_of_its_ask_pattern(
    line: str, isolated_home: Path, tmp_path: Path
) -> None:
    code, out = _opencode(tmp_path, OPENCODE_ASK_PUSH, line)
    assert (code, out) == (1, ""), out


def test_opencode_still_rewrites_what_its_patterns_treat_alike(isolated_home: Path, tmp_path: Path) -> None:
    assert _opencode(tmp_path, OPENCODE_ASK_PUSH, "git status") == (3, "rtk git status")
    # "git *": "allow" covers git status, not rtk git status: a rewrite asks more, never less
    assert _opencode(tmp_path, '{"permission": {"bash": {"*": "ask", "git *": "allow"}}}', "git status") == (
        3,
        "rtk git status",
    )
    assert _opencode(tmp_path, '{"permission": "allow"}', "git log") == (3, "rtk git log")


@pytest.mark.parametrize(
    "config",
    [
        '{"permission": {"bash": {"git push": "ask"}}}',  # no "*": OpenCode's default is not assumed to ask
        '{"agent": {"build": {"permission": {"bash": {"git push *": "ask"}}}}}',  # an agent's own rules
        '{"permission": {"bash": "ask", "*": "allow"}, "agent": {"plan": {"permission": {"bash": {"git p?sh": "deny"}}}}}',
        '{"permission": {"bash": {"git push": 1}}}',  # not an action: cannot be judged
        '{"permission": [',  # not JSON: cannot be judged
    ],
)
def test_opencode_rules_from_every_source_keep_git_push(config: str, isolated_home: Path, tmp_path: Path) -> None:
    assert _opencode(tmp_path, config, "git push") == (1, "")


def test_opencode_rules_from_the_environment_keep_git_push(isolated_home: Path, tmp_path: Path) -> None:
    env = {"OPENCODE_PERMISSION": '{"bash": {"*": "allow", "git push*": "ask"}}'}
    assert _opencode(tmp_path, "{}", "git push", env=env) == (1, "")
    assert _opencode(tmp_path, "{}", "git status", env=env) == (3, "rtk git status")


def test_opencode_wildcard_follows_its_documented_syntax() -> None:
    from rtk.rewrite.opencodeperms import wildcard

    assert wildcard("git push*", "git push --force") and wildcard("git p?sh", "git push")
    assert not wildcard("git push*", "rtk git push") and not wildcard("git p?sh", "git pussh")
    assert wildcard("*", "") and wildcard("a*b*c", "a-b-b-c") and not wildcard("a*b", "a-b-c")


def test_opencode_plugin_calls_rtk_with_its_host(isolated_home: Path, tmp_path: Path) -> None:
    """The argv the OpenCode plugin passes (read from its template), run as the plugin runs it."""
    import ast
    import os
    import subprocess

    from helpers import rtk_argv

    src = (Path(__file__).parents[1] / "src" / "rtk" / "agents" / "templates" / "opencode.ts").read_text()
    start = src.index("execFile(RTK, [") + len("execFile(RTK, ")
    argv = ast.literal_eval(src[start : src.index("]", start) + 1].replace(", command]", ', "COMMAND"]'))
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "opencode.json").write_text(OPENCODE_ASK_PUSH)
    for line, want in (("git push", (1, "")), ("git status", (3, "rtk git status"))):
        args = [line if a == "COMMAND" else a for a in argv]
        r = subprocess.run(rtk_argv(*args), cwd=proj, env=dict(os.environ), capture_output=True, text=True, timeout=60)
        assert (r.returncode, r.stdout.strip()) == want, (args, r.stdout)


# A shell that runs what it reads: the text fed to it is a command line too.
@pytest.mark.parametrize(
    "line",
    ["echo 'rm x' | bash", "printf 'curl x' | sudo bash", "bash <<< 'rm x'", "bash -s <<< 'git push'",
     "FOO=1 sh <<< 'curl x'", "git status; bash <<'EOF'\nrm x\nEOF", "echo 'rm x' | sudo -u root sh"],
)  # fmt: skip
def test_a_denied_command_fed_to_a_shell_is_denied(line: str) -> None:
    assert decide(line).verdict == "deny"


@pytest.mark.parametrize("line", ["bash script.sh <<< 'rm x'", "echo 'git status' | cat", "echo rm | tee x"])
def test_text_not_run_by_a_shell_is_not_refused(line: str) -> None:
    assert decide(line, allow=["*"]).verdict != "deny"


def test_claude_hook_refuses_a_denied_command_echoed_into_a_shell(isolated_home: Path) -> None:
    settings = isolated_home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(
        json.dumps({"permissions": {"allow": ["Bash(echo:*)", "Bash(bash:*)"], "deny": ["Bash(rm:*)"]}})
    )
    claude = BY_NAME["claude"]
    p = claude.payload()
    claude.set_cmd(p, "echo 'rm -rf x' | bash")
    out, _err, code = hook.run("claude", [], json.dumps(p).encode())
    assert code == 0 and json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize(
    "line",
    [
        "git status && sudo -iu root rm x",
        "git status && bash -c -- 'rm x'",
        "git status && busybox ash -c 'rm x'",
        "git status && busybox rm x",
        "git status && busybox sh -c 'rm x'",
    ],
)
def test_a_denied_program_behind_option_clusters_and_busybox_applets_is_denied(line: str) -> None:
    # sudo's -iu takes the next word (the user), bash runs `-c -- LINE`, busybox runs its applet or shell:
    # each was auto-allowed and rewritten with rm denied (final review).
    d = decide(line, allow=["*"], deny=["rm:*"])
    assert d.permission != "allow", d
