"""The agents whose hook or plugin cannot approve (Vibe, OpenCode, Pi, Cline, Windsurf, Kiro): allowed, denied and
unruled commands behave as the one sentence that init, hook check and doctor print says (issue 17, "Done when")."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hookcases import BY_NAME, allow, rtk_bin

from rtk import hook
from rtk.agents._permline import sentence
from rtk.commands import doctor, hook_check, init_cmd


@pytest.fixture(autouse=True)
def on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", rtk_bin() + os.pathsep + os.environ["PATH"])
    monkeypatch.chdir(tmp_path)


def vibe(command: str) -> tuple[bytes, str | None]:
    agent = BY_NAME["vibe"]
    p = agent.payload()
    agent.set_cmd(p, command)
    out, err, code = hook.run("vibe", [], json.dumps(p).encode())
    assert (code, err) == (0, b"")
    args = agent.rewritten(out, b"")
    return out, None if args is None else args["command"]


def test_vibe_rewrites_allowed_and_unruled_commands_without_approving_and_leaves_denied_ones() -> None:
    said = sentence("vibe")
    assert "every command rtk can shorten is rewritten and Vibe still asks" in said
    assert "rtk's [hooks] deny leaves a command unchanged" in said
    allow("vibe", "git status")
    out, cmd = vibe("git status")
    assert cmd == "rtk git status" and b"allow" not in out and b"decision" not in out  # Vibe has no approval field
    assert vibe("git log -3")[1] == "rtk git log -3"  # no rule: rewritten all the same, Vibe asks as usual
    allow("vibe", "git push:*", kind="deny")
    assert vibe("git push origin main") == (b"", None)  # denied: unchanged


def rewrite(command: str) -> tuple[int, str]:
    """What the OpenCode and Pi plugins run: ``rtk rewrite -- <command>`` (exit 0 and 3 replace the command)."""
    p = subprocess.run(
        [os.path.join(rtk_bin(), "rtk"), "rewrite", "--", command], capture_output=True, text=True, timeout=60
    )
    return p.returncode, p.stdout.strip()


@pytest.mark.parametrize("agent", ["opencode", "pi", "hermes"])
def test_plugin_agents_behave_as_their_sentence_says(agent: str) -> None:
    said = sentence(agent)
    assert "every command rtk can shorten is rewritten" in said
    assert "a deny rule in Claude Code's settings, which rtk rewrite reads, leaves a command unchanged" in said
    assert "rtk's [hooks] deny" not in said  # rtk rewrite does not read it: the old sentence was untrue
    home = Path(os.environ["HOME"])
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(git status)"], "deny": ["Bash(git push:*)"]}})
    )
    assert rewrite("git status") == (0, "rtk git status")  # allowed: replaced (exit 0)
    assert rewrite("git log -3") == (3, "rtk git log -3")  # no rule: replaced, the host asks as usual (exit 3)
    assert rewrite("git push origin main") == (2, "")  # denied: the plugin leaves it unchanged
    cfg = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('[hooks]\nexclude_commands = ["git log"]\n')
    assert rewrite("git log -3") == (1, "")  # never rewritten, as the sentence says


@pytest.mark.parametrize("agent", ["vibe", "cline", "windsurf", "kiro", "opencode", "pi", "hermes"])
def test_init_hook_check_and_doctor_say_the_same_sentence(agent: str, capsys: pytest.CaptureFixture[str]) -> None:
    said = sentence(agent)
    assert said.startswith(f"{said.split(':')[0]}: ") and said.endswith(".")
    flags = ["--global", "--block"] if agent in ("cline", "windsurf", "kiro") else ["--global"]
    assert init_cmd.main(["--agent", agent, *flags]) == 0
    assert capsys.readouterr().out.rstrip("\n").splitlines()[-1] == said  # rtk init ends with it
    if agent in ("vibe", "cline", "windsurf", "kiro"):  # hook check knows the hook adapters, not the plugins
        hook_check.main(["--agent", agent, "git status"])
        assert f"  {said}" in capsys.readouterr().out.splitlines()
    doctor.main(["--agent", agent])
    assert f"  {said}" in capsys.readouterr().out.splitlines()
