"""`rtk init` never loses the user's edits: byte-exact JSON edits, stale backups, symlinks, a closed stdout."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hookcases import rtk_bin

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
