"""Hermes Agent: the generated plugin (TV-HERMES-1, the section 3 negative vectors, the rewrite contract), the
``plugins.enabled`` edit of config.yaml, and, when hermes-agent is installed, the plugin loaded by Hermes' own loader.

The config.yaml files in hermes_configs/ were written by hermes-agent 0.19.0 itself
(``hermes_cli.config.save_config``), with ``plugins.enabled`` set to ``[disk-cleanup]`` and ``[]``.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hookcases import VECTORS, rtk_bin

from rtk.agents._artifacts import Options
from rtk.agents._json_edit import EditError
from rtk.agents._permline import sentence
from rtk.agents._yaml_list import YamlListItem
from rtk.agents.hermes import plugin_init
from rtk.commands import init_cmd

CONFIGS = Path(__file__).parent / "hermes_configs"
RTK = str(Path(rtk_bin()) / "rtk")


@pytest.fixture(autouse=True)
def on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", rtk_bin() + os.pathsep + os.environ["PATH"])
    monkeypatch.chdir(tmp_path)


_n = 0


def load_plugin(tmp_path: Path, rtk: str = RTK) -> ModuleType:
    """The plugin's ``__init__.py`` as rtk init writes it, imported as a module."""
    global _n
    _n += 1
    path = tmp_path / f"hermes_rtk_{_n}.py"
    path.write_text(plugin_init(Options(shlex.quote(rtk))))
    spec = importlib.util.spec_from_file_location(f"hermes_rtk_{_n}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def fake_rtk(tmp_path: Path, body: str) -> str:
    exe = tmp_path / "fake-rtk"
    exe.write_text("#!/bin/sh\n" + f'echo "$@" >> "{tmp_path}/calls"\n' + body + "\n")
    exe.chmod(0o755)
    return str(exe)


def both(mod: ModuleType, tool: str, args: Any) -> tuple[Any, Any]:
    """The arguments after the pre_tool_call hook, and those the tool_request middleware hands back (None: kept)."""
    hooked = copy.deepcopy(args)
    assert mod.pre_tool_call(tool_name=tool, args=hooked, task_id="t_01") is None
    before = copy.deepcopy(args)
    ret = mod.tool_request(tool_name=tool, args=args, original_args=before, task_id="t_01")
    assert args == before  # the middleware never changes what it was given
    return hooked, None if ret is None else ret["args"]


def test_tv_hermes_1_with_the_real_rtk(tmp_path: Path) -> None:
    call, expected = VECTORS["TV-HERMES-1"]
    mod = load_plugin(tmp_path)
    args = copy.deepcopy(call["args"])
    assert mod.pre_tool_call(**dict(call, args=args)) is None
    assert args == expected == {"command": "rtk git status", "timeout": 180}
    ret = mod.tool_request(**copy.deepcopy(call))
    assert ret["args"] == expected and ret["source"] == "rtk"


def test_plugin_registers_middleware_and_falls_back_to_the_hook(tmp_path: Path) -> None:
    mod = load_plugin(tmp_path)

    class Ctx:
        def __init__(self) -> None:
            self.got: list[tuple[str, str, Any]] = []

        def register_hook(self, name: str, fn: Any) -> None:
            self.got.append(("hook", name, fn))

    class MiddlewareCtx(Ctx):
        def register_middleware(self, kind: str, fn: Any) -> None:
            self.got.append(("middleware", kind, fn))

    new, old = MiddlewareCtx(), Ctx()
    mod.register(new)
    mod.register(old)
    assert new.got == [("middleware", "tool_request", mod.tool_request)]
    assert old.got == [("hook", "pre_tool_call", mod.pre_tool_call)]


def test_plugin_is_stdlib_only_and_names_the_launcher(tmp_path: Path) -> None:
    src = plugin_init(Options(shlex.quote("/opt/my rtk/bin/rtk")))
    assert 'RTK: list[str] = ["/opt/my rtk/bin/rtk"]' in src and "rtk init" in src
    assert 'RTK: list[str] = ["python3", "-m", "rtk"]' in plugin_init(Options("python3 -m rtk"))
    imports = [ln.split()[1] for ln in src.splitlines() if ln.startswith(("import ", "from "))]
    assert set(imports) <= {"__future__", "subprocess", "typing"}


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("read_file", {"path": "x", "command": "git status"}),  # NEG-1: not the shell tool
        ("terminal", {"command": "rtk git status"}),  # NEG-2
        ("terminal", {"command": "  rtk git status"}),  # NEG-2
        ("terminal", {"command": "echo hi"}),  # NEG-3: nothing rtk shortens
        ("terminal", {"command": ""}),  # NEG-4: empty or malformed input
        ("terminal", {"command": 5}),
        ("terminal", {"command": ["git", "status"]}),
        ("terminal", {}),
        ("terminal", None),
        ("terminal", "git status"),
        (None, {"command": "git status"}),
    ],
)
def test_negative_vectors_leave_the_call_alone(tool: Any, args: Any, tmp_path: Path) -> None:
    mod = load_plugin(tmp_path)
    hooked, replaced = both(mod, tool, copy.deepcopy(args))
    assert hooked == args and replaced is None


def test_other_tools_do_not_even_call_rtk(tmp_path: Path) -> None:
    mod = load_plugin(tmp_path, fake_rtk(tmp_path, "echo 'rtk git status'"))
    assert both(mod, "read_file", {"command": "git status"}) == ({"command": "git status"}, None)
    assert not (tmp_path / "calls").exists()


def test_extra_keys_are_kept(tmp_path: Path) -> None:  # NEG-6
    args = {"command": "git status", "background": False, "workdir": "/srv/app", "x_unknown": {"a": 1}}
    hooked, replaced = both(load_plugin(tmp_path), "terminal", args)
    assert hooked == replaced == dict(args, command="rtk git status")


@pytest.mark.parametrize(
    ("body", "rewritten"),
    [
        ("echo 'rtk git status'; exit 0", True),  # allowed
        ("echo 'rtk git status'; exit 3", True),  # rewritten, Hermes asks as its own rules say
        ("exit 1", False),  # nothing to rewrite
        ("echo 'rtk git status'; exit 2", False),  # denied: the original goes to Hermes
        ("echo 'Traceback (most recent call last)' >&2; exit 70", False),  # NEG-8: rtk crashed
        ("exit 0", False),  # exit 0 with no output
        ("printf 'rtk git status\\r\\n'; exit 0", True),  # a CRLF line end is not part of the command
        ("printf '\\377\\376'; exit 0", False),  # not UTF-8
    ],
)
def test_plugin_follows_the_rewrite_contract(body: str, rewritten: bool, tmp_path: Path) -> None:
    mod = load_plugin(tmp_path, fake_rtk(tmp_path, body))
    hooked, replaced = both(mod, "terminal", {"command": "git status"})
    want = "rtk git status" if rewritten else "git status"
    assert hooked["command"] == want
    assert replaced == (None if not rewritten else {"command": want})
    assert (tmp_path / "calls").read_text() == "rewrite -- git status\n" * 2


def test_missing_or_hanging_rtk_leaves_the_command(tmp_path: Path) -> None:
    mod = load_plugin(tmp_path, str(tmp_path / "no-such-rtk"))
    assert both(mod, "terminal", {"command": "git status"}) == ({"command": "git status"}, None)
    mod = load_plugin(tmp_path, fake_rtk(tmp_path, "sleep 20; echo 'rtk git status'"))
    t0 = time.monotonic()
    assert both(mod, "terminal", {"command": "git status"}) == ({"command": "git status"}, None)
    assert time.monotonic() - t0 < 10  # two calls, each stopped at the plugin's 2 s timeout


def test_plugin_behaves_as_its_sentence_says(tmp_path: Path) -> None:  # NEG-9 and issue 17's "Done when"
    said = sentence("hermes")
    assert "every command rtk can shorten is rewritten" in said and "Hermes' own approval" in said
    assert "a deny rule in Claude Code's settings, which rtk rewrite reads, leaves a command unchanged" in said
    home = Path(os.environ["HOME"])
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(git status)"], "deny": ["Bash(git push:*)"]}})
    )
    mod = load_plugin(tmp_path)
    assert both(mod, "terminal", {"command": "git status"})[0] == {"command": "rtk git status"}  # allowed
    assert both(mod, "terminal", {"command": "git log -3"})[0] == {"command": "rtk git log -3"}  # no rule
    assert both(mod, "terminal", {"command": "git push origin main"}) == ({"command": "git push origin main"}, None)


def test_init_ends_with_the_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert init_cmd.main(["--agent", "hermes", "--global"]) == 0
    assert capsys.readouterr().out.rstrip("\n").splitlines()[-1] == sentence("hermes")


def test_project_scope_is_refused() -> None:
    from rtk.errors import UsageError

    with pytest.raises(UsageError, match=r"cannot be set up per project: .*use --global"):
        init_cmd.main(["--agent", "hermes"])
    assert not Path(".hermes").exists()


# --- plugins.enabled in config.yaml ---------------------------------------------------------------------------

ITEM = YamlListItem("config.yaml", "plugins", "enabled", "rtk")


def roundtrip(before: bytes, after: bytes) -> None:
    assert ITEM.add(before) == after
    assert ITEM.add(after) == after  # twice: unchanged
    assert ITEM.extract(after) == "plugins.enabled: rtk" and ITEM.extract(before) is None
    assert ITEM.strip(after) == before


def test_hermes_written_configs() -> None:
    listed = (CONFIGS / "enabled_list.yaml").read_bytes()
    roundtrip(listed, listed.replace(b"    - disk-cleanup\n", b"    - disk-cleanup\n    - rtk\n", 1))
    empty = (CONFIGS / "enabled_empty.yaml").read_bytes()
    roundtrip(empty, empty.replace(b"  enabled: []\n", b"  enabled: [rtk]\n", 1))


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (b"model: x\n", b"model: x\n\nplugins:\n  enabled:\n    - rtk\n"),
        (b"model: x", b"model: x\n\nplugins:\n  enabled:\n    - rtk\n"),
        (
            b"plugins:\n    disabled:\n      - foo\n",
            b"plugins:\n    enabled:\n      - rtk\n    disabled:\n      - foo\n",
        ),
        (
            b"plugins:\n  enabled:\n  - a  # mine\n  - 'b'\nx: 1\n",
            b"plugins:\n  enabled:\n  - a  # mine\n  - 'b'\n  - rtk\nx: 1\n",
        ),
        (b'plugins:\n  enabled: [a, "b"]  # two\n', b'plugins:\n  enabled: [a, "b", rtk]  # two\n'),
        (b"plugins:\r\n  enabled:\r\n    - a\r\n", b"plugins:\r\n  enabled:\r\n    - a\r\n    - rtk\r\n"),
        (b"---\nplugins:\n  enabled:\n\n  # c\nz: 1\n", b"---\nplugins:\n  enabled:\n    - rtk\n\n  # c\nz: 1\n"),
    ],
)
def test_shapes_edited_line_by_line(before: bytes, after: bytes) -> None:
    yaml = pytest.importorskip("yaml")
    assert ITEM.add(before) == after
    doc = yaml.safe_load(after)
    assert "rtk" in doc["plugins"]["enabled"]
    old = (yaml.safe_load(before) or {}).get("plugins") or {}
    assert [n for n in doc["plugins"]["enabled"] if n != "rtk"] == (old.get("enabled") or [])
    stripped = ITEM.strip(after)
    assert stripped is not None and "rtk" not in ((yaml.safe_load(stripped)["plugins"] or {}).get("enabled") or [])


def test_already_enabled_is_unchanged_and_strip_leaves_an_empty_list() -> None:
    data = b'plugins:\n  enabled:\n    - "rtk"\n'
    assert ITEM.add(data) is data
    assert ITEM.strip(data) == b"plugins:\n  enabled: []\n"
    assert ITEM.empty(ITEM.strip(data)) and not ITEM.empty(b"model: x\nplugins:\n  enabled: []\n")
    assert ITEM.strip(b"plugins:\n  enabled: [a, rtk]\n") == b"plugins:\n  enabled: [a]\n"


@pytest.mark.parametrize(
    "data",
    [
        b"plugins:\n\tenabled: [a]\n",  # tabs
        b"plugins: {enabled: [a]}\n",  # flow mapping
        b"plugins: &p\n  enabled: [a]\n",  # anchor
        b"plugins:\n  enabled: *names\n",  # alias
        b"plugins:\n  <<: *base\n",  # merge key
        b"plugins:\n  enabled:\n    - name: a\n",  # not names
        b"plugins:\n  enabled: a\n",  # not a list
        b"plugins:\n  enabled: [a, [b]]\n",
        b"plugins:\n  enabled: []\nplugins:\n  enabled: []\n",  # duplicate key
        b"plugins:\n  enabled: []\n  enabled: []\n",
        b"a: 1\n---\nplugins: {}\n",  # several documents
        b"plugins:\n  - rtk\n",  # a list, not a mapping
        b"- a\n- b\n",  # not a mapping at all
        b'"plugins":\n  enabled: []\n',  # a quoted key
        b"\xff\xfe",
        # Line breaks a YAML reader sees and a split on LF does not: rtk saw no `plugins:` and appended
        # a second one, which replaced the user's (its `disabled: [rtk]` and other plugins lost).
        "model: x\u2028plugins:\u2028  disabled: [rtk]\u2028  enabled: [a]\n".encode(),
        b"model: x\rplugins:\r  enabled:\r    - a\n",
        "plugins:\n  enabled: []\x85x: 1\n".encode(),
        "a: 1\u2029plugins: {}\n".encode(),
    ],
)
def test_unsafe_shapes_are_refused(data: bytes) -> None:
    with pytest.raises(EditError):
        ITEM.add(data)


def test_unsafe_config_gets_the_line_to_add_and_a_partial_install(capsys: pytest.CaptureFixture[str]) -> None:
    cfg = Path(os.environ["HOME"]) / ".hermes" / "config.yaml"
    cfg.parent.mkdir(parents=True)
    cfg.write_bytes(b"plugins: {enabled: [a]}\n")
    assert init_cmd.main(["--agent", "hermes", "--global"]) == 1
    out = capsys.readouterr().out
    assert "config.yaml: plugins is not a plain block mapping; not touched. Add this by hand:" in out
    assert "plugins:\n  enabled:\n    - rtk\n" in out and "only partly set up for Hermes Agent" in out
    assert cfg.read_bytes() == b"plugins: {enabled: [a]}\n"
    assert (cfg.parent / "plugins" / "rtk" / "__init__.py").is_file()


# --- Hermes' own loader --------------------------------------------------------------------------------------


def hermes_python() -> str | None:
    """A Python with hermes-agent installed: $RTK_TEST_HERMES_PYTHON, or this one."""
    for py in (os.environ.get("RTK_TEST_HERMES_PYTHON"), sys.executable):
        if py and subprocess.run([py, "-c", "import hermes_cli.plugins"], capture_output=True).returncode == 0:
            return py
    return None


LOADER = """
import json
from hermes_cli.plugins import discover_plugins, get_plugin_manager, invoke_hook
from hermes_cli.middleware import apply_tool_request_middleware
discover_plugins(force=True)
pm = get_plugin_manager()
p = pm._plugins["rtk"]
out = {"enabled": p.enabled, "error": p.error, "middleware": p.middleware_registered}
out["terminal"] = apply_tool_request_middleware("terminal", {"command": "git status", "timeout": 180}).payload
out["read_file"] = apply_tool_request_middleware("read_file", {"command": "git status"}).payload
out["echo"] = apply_tool_request_middleware("terminal", {"command": "echo hi"}).payload
pm._middleware.clear()  # a Hermes without middleware: the pre_tool_call hook, called by Hermes
pm._hooks.setdefault("pre_tool_call", []).append(p.module.pre_tool_call)
args = {"command": "git status"}
invoke_hook("pre_tool_call", tool_name="terminal", args=args, task_id="t_01")
out["hook"] = args
print(json.dumps(out))
"""


def test_hermes_loads_the_plugin_and_rewrites(tmp_path: Path) -> None:
    py = hermes_python()
    if py is None:
        pytest.skip("hermes-agent is not installed (set RTK_TEST_HERMES_PYTHON to a Python that has it)")
    shutil_home = Path(os.environ["HOME"])
    assert init_cmd.main(["--agent", "hermes", "--global"]) == 0
    env = dict(os.environ, HERMES_HOME=str(shutil_home / ".hermes"))
    p = subprocess.run([py, "-c", LOADER], capture_output=True, text=True, env=env, timeout=180, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert (out["enabled"], out["error"], out["middleware"]) == (True, None, ["tool_request"])
    assert out["terminal"] == {"command": "rtk git status", "timeout": 180}
    assert out["read_file"] == {"command": "git status"} and out["echo"] == {"command": "echo hi"}
    assert out["hook"] == {"command": "rtk git status"}
    # Uninstalled: Hermes finds no plugin and the command goes through unchanged.
    assert init_cmd.main(["--uninstall", "--agent", "hermes", "--global"]) == 0
    p = subprocess.run([py, "-c", LOADER], capture_output=True, text=True, env=env, timeout=180, cwd=tmp_path)
    assert p.returncode != 0 and "KeyError: 'rtk'" in p.stderr


@pytest.mark.parametrize("command", ["git status\r", "echo hi\r", "ls\r\r", "make test\r\n\r"])
def test_a_trailing_carriage_return_reaches_the_shell_as_written(command: str, tmp_path: Path) -> None:
    """An rtk that hands the line back unchanged (exit 0) leaves it byte-identical: its CR is the command's."""
    mod = load_plugin(tmp_path, fake_rtk(tmp_path, 'printf "%s\\n" "$3"; exit 0'))
    assert both(mod, "terminal", {"command": command}) == ({"command": command}, None)


def test_a_rewritten_line_keeps_the_carriage_return_rtk_kept(tmp_path: Path) -> None:
    """cat names a file whose name ends in CR; the rtk form must read that file, not notes.txt."""
    mod = load_plugin(tmp_path)
    hooked, replaced = both(mod, "terminal", {"command": "cat notes.txt\r"})
    assert hooked == {"command": "rtk read notes.txt\r"} and replaced == hooked
