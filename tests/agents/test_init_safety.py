"""`rtk init` never loses the user's edits: byte-exact JSON edits, stale backups, symlinks, a closed stdout."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hookcases import rtk_bin
from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.agents import registry
from rtk.agents._artifacts import JsonHook, Options, Scope
from rtk.agents._json_edit import EditError
from rtk.commands import init_cmd


def home() -> Path:
    return Path(os.environ["HOME"])


def init(*args: str) -> int:
    return init_cmd.main(list(args))


def manifest() -> Path:
    return home() / ".local" / "share" / "rtk" / "integrations" / "manifest.json"


@pytest.fixture(autouse=True)
def on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", rtk_bin() + os.pathsep + os.environ["PATH"])
    monkeypatch.chdir(tmp_path)


def claude_hook() -> JsonHook:
    arts = registry.BY_NAME["claude"].artifacts(Scope(True, ""), Options("/opt/rtk/bin/rtk"))
    hook = arts[0]
    assert isinstance(hook, JsonHook)
    return hook


# -- 19: number tokens, duplicate keys and layout the edit does not touch stay byte for byte --------------

ODD_NUMBERS = (
    b'{\n  "big": 1e400,\n  "exp": 2E3,\n  "frac": 1.50,\n  "neg": -0,\n  "dup": 1,\n  "dup": 2,\n'
    b'  "hooks": {\n    "PreToolUse": [\n      {"matcher": "Edit", "hooks": [{"type": "command", "command": "x"}]}\n'
    b"    ]\n  }\n}\n"
)


def test_numbers_and_duplicate_keys_survive_install_byte_for_byte() -> None:
    settings = home() / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(ODD_NUMBERS)
    assert init("--agent", "claude", "-g") == 0
    after = settings.read_bytes()
    for token in (b'"big": 1e400', b'"exp": 2E3', b'"frac": 1.50', b'"neg": -0', b'"dup": 1,', b'"dup": 2,'):
        assert token in after
    assert b"Infinity" not in after and b"2000.0" not in after
    # Only rtk's group was added: cutting it out gives the original bytes back.
    suffix = b"\n    ]\n  }\n}\n"
    head = ODD_NUMBERS[: -len(suffix)]
    assert after.startswith(head + b",\n      {\n") and after.endswith(suffix)
    added = json.loads(b"[" + after[len(head) + 1 : -len(suffix)] + b"]")
    assert [g["matcher"] for g in added] == ["Bash"]
    assert added[0]["hooks"][0]["command"] == registry.rtk_command() + " hook claude"
    # The user edits one value; uninstall (rtk's part only) keeps every other byte.
    settings.write_bytes(after.replace(b'"frac": 1.50', b'"frac": 1.75'))
    assert init("--uninstall", "--agent", "claude", "-g") == 0
    assert settings.read_bytes() == ODD_NUMBERS.replace(b'"frac": 1.50', b'"frac": 1.75')


LAYOUTS = [
    b'{"hooks": {"PreToolUse": [{"matcher": "Edit", "hooks": []}]}, "n": 1E+2}',
    b'{\n\t"hooks": {\n\t\t"PreToolUse": [\n\t\t\t{"matcher": "Edit", "hooks": []}\n\t\t]\n\t}\n}\n',
    b'{\r\n    "a": 1,\r\n    "hooks": {\r\n        "PreToolUse": [ {"matcher": "x"} ]\r\n    }\r\n}\r\n',
    b'\xef\xbb\xbf{\n  "env": {"A": "\\u00e9"},\n  "hooks": {"Stop": []}\n}',
    b'{\n  "model": "opus" ,\n  "x" : [ 1 , 2 ]\n}\n',
    b'{\n  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}]}\n}\n',
]


@pytest.mark.parametrize("original", LAYOUTS)
def test_add_then_strip_gives_the_original_bytes(original: bytes) -> None:
    hook = claude_hook()
    added = hook.add(original)
    assert added is not None and added != original
    assert hook.extract(added) == hook.rendered_entry()
    doc = json.loads(added.decode("utf-8-sig"))
    assert doc["hooks"]["PreToolUse"][-1]["hooks"][0]["command"] == "/opt/rtk/bin/rtk hook claude"
    if b"\r\n" in original:
        assert b"\n" not in added.replace(b"\r\n", b"")  # CRLF kept for the new lines too
    stripped = hook.strip(added)
    if b"PreToolUse" in original:
        assert stripped == original
    else:  # the list rtk created is taken out again, with the key it needed
        assert stripped is not None and json.loads(stripped.decode("utf-8-sig")) == json.loads(
            original.decode("utf-8-sig")
        )


def test_duplicate_keys_follow_the_last_one_like_json_parsers() -> None:
    original = b'{"hooks": {"PreToolUse": [1], "PreToolUse": []}}'
    added = claude_hook().add(original)
    assert added is not None and added.startswith(b'{"hooks": {"PreToolUse": [1], "PreToolUse": [{"matcher": "Bash"')
    assert claude_hook().strip(added) == b'{"hooks": {"PreToolUse": [1]}}'


def test_reinstall_replaces_the_entry_in_place() -> None:
    hook = claude_hook()
    user = {"matcher": "Edit", "hooks": [{"type": "command", "command": "lint"}]}
    old = {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/bin/python3 -m rtk hook claude"}]}
    original = json.dumps({"hooks": {"PreToolUse": [old, user]}}, indent=2).encode()
    added = hook.add(original)
    assert added is not None
    groups = json.loads(added)["hooks"]["PreToolUse"]
    assert [g["hooks"][0]["command"] for g in groups] == ["/opt/rtk/bin/rtk hook claude", "lint"]


@pytest.mark.parametrize("bad", [b'{"a": NaN}', b'{"a": Infinity}', b'{"a": 01}', b'{"a": 1,}', b"[1]", b'{"a"}'])
def test_what_node_would_reject_is_refused(bad: bytes) -> None:
    with pytest.raises(EditError):
        claude_hook().add(bad)


# -- 16: a backup is restored only when rtk's write is all that changed since it was taken ----------------

SETTINGS = b'{\n  "model": "opus",\n  "permissions": {"allow": ["Bash(git status)"]}\n}\n'


def user_edits(data: bytes) -> bytes:
    """An allow rule and an env block, typed into the file by the user."""
    data = data.replace(b'["Bash(git status)"]', b'["Bash(git status)", "Bash(make:*)"]')
    return data.replace(b'"model": "opus",\n', b'"model": "opus",\n  "env": {"FOO": "1"},\n')


@pytest.mark.parametrize("second", ["same", "other launcher"])
def test_edits_made_between_two_installs_survive_uninstall(
    second: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = home() / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(SETTINGS)
    assert init("--agent", "claude", "-g") == 0
    settings.write_bytes(user_edits(settings.read_bytes()))
    if second == "other launcher":
        monkeypatch.setattr(registry, "rtk_command", lambda: "/opt/rtk/bin/rtk")
    assert init("--agent", "claude", "-g") == 0
    doc = json.loads(settings.read_bytes())
    commands = [h["command"] for g in doc["hooks"]["PreToolUse"] for h in g["hooks"]]
    assert len(commands) == 1 and commands[0].endswith(" hook claude")  # replaced, not a second hook
    capsys.readouterr()
    assert init("--uninstall", "--global") == 0
    assert settings.read_bytes() == user_edits(SETTINGS)
    out = capsys.readouterr().out
    assert "cleaned  ~/.claude/settings.json" in out and "restored  ~/.claude/settings.json" not in out


def test_untouched_install_is_still_restored_from_the_backup(capsys: pytest.CaptureFixture[str]) -> None:
    settings = home() / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(SETTINGS)
    init("--agent", "claude", "-g")
    init("--agent", "claude", "-g")
    capsys.readouterr()
    assert init("--uninstall", "--global") == 0
    assert settings.read_bytes() == SETTINGS
    assert "restored  ~/.claude/settings.json" in capsys.readouterr().out


# Every agent whose hook lives in a shared JSON settings file (kiro's hook file is rtk's own).
SHARED_JSON = {
    "claude": ".claude/settings.json", "gemini": ".gemini/settings.json", "cursor": ".cursor/hooks.json",
    "vscode": ".copilot/hooks/rtk-vscode.json", "copilot": ".copilot/hooks/rtk-copilot.json",
    "codex": ".codex/hooks.json", "qwen": ".qwen/settings.json", "droid": ".factory/hooks.json",
    "windsurf": ".codeium/windsurf/hooks.json",
}  # fmt: skip
ORIGINAL = b'{\n    "mine": 2E3,\n    "mine": 1e400,\n    "z": [1, 1.0]\n}\n'


@pytest.mark.parametrize("agent", sorted(SHARED_JSON))
def test_every_agent_keeps_edits_numbers_and_duplicates(agent: str, monkeypatch: pytest.MonkeyPatch) -> None:
    block = ["--block"] if agent == "windsurf" else []
    target = home() / SHARED_JSON[agent]
    target.parent.mkdir(parents=True)
    target.write_bytes(ORIGINAL)
    assert init("--agent", agent, "-g", *block) == 0
    assert target.read_bytes().startswith(ORIGINAL[:-3])  # rtk's part comes after the user's keys
    target.write_bytes(target.read_bytes().replace(b"[1, 1.0]", b"[1, 1.0, 3]"))
    monkeypatch.setattr(registry, "rtk_command", lambda: "/opt/rtk/bin/rtk")
    assert init("--agent", agent, "-g", *block) == 0
    assert target.read_text().count(f"hook {agent}") == 1
    assert init("--uninstall", "--agent", agent, "-g") == 0
    assert target.read_bytes() == ORIGINAL.replace(b"[1, 1.0]", b"[1, 1.0, 3]")


def test_codex_toml_edits_between_installs_survive() -> None:
    toml = home() / ".codex" / "config.toml"
    toml.parent.mkdir()
    original = b'# my config\nmodel = "gpt-5.5-codex"\n\n[hooks]\n'
    toml.write_bytes(original)
    assert init("--agent", "codex", "-g") == 0
    toml.write_bytes(toml.read_bytes().replace(b"# my config\n", b"# my config\napproval_policy = 'never'\n"))
    assert init("--agent", "codex", "-g") == 0
    assert init("--uninstall", "-g") == 0
    assert toml.read_bytes() == original.replace(b"# my config\n", b"# my config\napproval_policy = 'never'\n")


# -- 17: a settings file that is a symbolic link (a dotfiles repository) stays a link ---------------------


def test_a_symlinked_settings_file_is_edited_through_the_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "settings.json").write_bytes(SETTINGS)
    (dotfiles / "CLAUDE.md").write_bytes(b"# Mine\n")
    d = home() / ".claude"
    d.mkdir()
    (d / "settings.json").symlink_to(dotfiles / "settings.json")
    (d / "CLAUDE.md").symlink_to(dotfiles / "CLAUDE.md")
    assert init("--agent", "claude", "-g") == 0
    out = capsys.readouterr().out
    assert f"updated  ~/.claude/settings.json (a link to {dotfiles / 'settings.json'})" in out
    for name in ("settings.json", "CLAUDE.md"):
        assert (d / name).is_symlink() and os.readlink(d / name) == str(dotfiles / name)
    assert "hook claude" in (dotfiles / "settings.json").read_text()
    assert "rtk:begin" in (dotfiles / "CLAUDE.md").read_text()
    assert sorted(p.name for p in dotfiles.iterdir()) == ["CLAUDE.md", "settings.json"]  # no stray temp file
    # Untouched: the original bytes go back into the target; edited: only rtk's part goes.
    (dotfiles / "CLAUDE.md").write_text((dotfiles / "CLAUDE.md").read_text() + "More.\n")
    assert init("--uninstall", "-g") == 0
    out = capsys.readouterr().out
    assert f"restored  ~/.claude/settings.json (a link to {dotfiles / 'settings.json'})" in out
    for name in ("settings.json", "CLAUDE.md"):
        assert (d / name).is_symlink() and os.readlink(d / name) == str(dotfiles / name)
    assert (dotfiles / "settings.json").read_bytes() == SETTINGS
    assert (dotfiles / "CLAUDE.md").read_bytes() == b"# Mine\nMore.\n"  # rtk's block and its blank line go


def test_a_file_rtk_created_and_the_user_then_linked_is_emptied_not_deleted(tmp_path: Path) -> None:
    assert init("--agent", "cursor", "-g") == 0
    hooks = home() / ".cursor" / "hooks.json"
    kept = tmp_path / "dotfiles-hooks.json"
    hooks.rename(kept)
    hooks.symlink_to(kept)
    assert init("--uninstall", "-g") == 0
    assert hooks.is_symlink() and json.loads(kept.read_bytes()) == {"version": 1}


def test_a_dangling_symlink_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = home() / ".claude"
    d.mkdir()
    (d / "settings.json").symlink_to(tmp_path / "gone.json")
    assert init("--agent", "claude", "-g") == 1
    assert "a symbolic link to a missing file (nothing was changed)" in capsys.readouterr().err
    assert (d / "settings.json").is_symlink() and not (tmp_path / "gone.json").exists()


# -- 18: the manifest is written before the settings, and a closed stdout stops nothing ------------------


def test_a_closed_stdout_still_records_the_install(capsys: pytest.CaptureFixture[str]) -> None:
    settings = home() / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(SETTINGS)
    r, w = os.pipe()
    os.close(r)  # the reader is gone before rtk writes a line, as with `rtk init ... | head -0`
    try:
        p = subprocess.run(
            [registry.launcher(), "init", "--agent", "claude", "-g"], stdout=w, stderr=subprocess.PIPE, text=True
        )
    finally:
        os.close(w)
    assert p.returncode == 0 and "Traceback" not in p.stderr and "Exception" not in p.stderr
    assert "hook claude" in settings.read_text() and "rtk:begin" in (home() / ".claude" / "CLAUDE.md").read_text()
    assert "claude@global" in json.loads(manifest().read_text())["installs"]
    from rtk.commands import doctor

    doctor.main(["--agent", "claude"])
    assert "hook registered: yes" in capsys.readouterr().out
    assert init("--uninstall", "-g") == 0
    assert settings.read_bytes() == SETTINGS


def test_head_dash_one_keeps_the_first_line_and_the_install(tmp_path: Path) -> None:
    p = subprocess.run(
        f"{registry.launcher()} init --agent claude --agent gemini -g | head -1",
        shell=True,
        capture_output=True,
        text=True,
    )
    assert p.stdout.startswith("created  ~/.claude/settings.json") and p.stdout.count("\n") == 1
    installs = json.loads(manifest().read_text())["installs"]
    assert set(installs) == {"claude@global", "gemini@global"}


def test_the_manifest_is_saved_before_a_settings_file_is_written(monkeypatch: pytest.MonkeyPatch) -> None:
    from rtk.agents import _install

    seen: list[object] = []
    real_write = _install.write

    def spy(path: str, data: bytes | None, executable: bool = False) -> list[str]:
        doc = json.loads(manifest().read_text())
        seen.append((path, "claude@global" in doc["installs"], path in doc["files"]))
        return real_write(path, data, executable)

    monkeypatch.setattr(_install, "write", spy)
    assert init("--agent", "claude", "-g") == 0
    assert seen and all(recorded and listed for _, recorded, listed in seen)


def test_a_settings_path_that_cannot_be_read_is_skipped_not_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    (home() / ".claude" / "settings.json").mkdir(parents=True)
    assert init("--agent", "claude", "-g") == 1
    out, err = capsys.readouterr()
    assert "~/.claude/settings.json: cannot be read (Is a directory); not touched" in out
    assert "Traceback" not in out + err
    assert not (home() / ".claude" / "CLAUDE.md").exists()  # no awareness section without the hook (issue 17)
    assert init("--uninstall", "-g") == 0
    assert (home() / ".claude" / "settings.json").is_dir() and not (home() / ".claude" / "CLAUDE.md").exists()


def test_crlf_text_files_get_crlf_blocks_and_keep_their_bytes() -> None:
    md = home() / ".claude" / "CLAUDE.md"
    md.parent.mkdir()
    md.write_bytes(b"# Mine\r\n- tabs\r\n")
    codex = home() / ".codex" / "config.toml"
    codex.parent.mkdir()
    codex.write_bytes(b'model = "o3"\r\n\r\n[hooks]\r\n')
    assert init("--agent", "claude", "--agent", "codex", "-g") == 0
    for f in (md, codex):
        data = f.read_bytes()
        assert b"rtk:begin" in data and b"\n" not in data.replace(b"\r\n", b""), data
    assert init("--agent", "claude", "--agent", "codex", "-g") == 0  # twice: nothing changes, nothing outdated
    from rtk.agents import _status

    assert all(p.state == "ok" for r in _status.reports() for p in r.parts)
    md.write_bytes(md.read_bytes() + b"- more\r\n")
    assert init("--uninstall", "-g") == 0
    assert md.read_bytes() == b"# Mine\r\n- tabs\r\n- more\r\n"
    assert codex.read_bytes() == b'model = "o3"\r\n\r\n[hooks]\r\n'


_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)  # fmt: skip
_VALUES = st.recursive(
    _SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
)


@settings(max_examples=150, deadline=None)
@given(
    extra=st.dictionaries(st.text(max_size=6).filter(lambda k: k != "hooks"), _VALUES, max_size=4),
    groups=st.lists(_VALUES.filter(lambda v: not isinstance(v, dict)), min_size=1, max_size=3),
    indent=st.sampled_from([None, 2, 4, "\t"]),
    ascii=st.booleans(),
)
def test_add_and_strip_touch_only_rtks_entry(
    extra: dict[str, object], groups: list[object], indent: int | str | None, ascii: bool
) -> None:
    doc = dict(extra, hooks={"PreToolUse": groups})
    original = json.dumps(doc, indent=indent, ensure_ascii=ascii).encode()
    hook = claude_hook()
    added = hook.add(original)
    assert added is not None
    got = json.loads(added)
    assert got == dict(extra, hooks={"PreToolUse": [*groups, json.loads(hook.rendered_entry())[0]]})
    assert hook.strip(added) == original
