"""The agents ``rtk init`` knows: names, detection, what each installs, and the rtk command written into hooks."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from rtk.agents._artifacts import Artifact, Options, Scope


class Integration:
    """One agent: its module (``rtk.agents.<module>``), how it is detected and what it installs."""

    def __init__(self, name: str, title: str, module: str, hook: str | None, kind: str, fn: str = "artifacts") -> None:
        self.name = name
        self.title = title
        self.module = module
        self.hook = hook  # the `rtk hook <name>` it registers (None: plugin or rules only)
        self.kind = kind  # "hook" | "plugin" | "rules"
        self.fn = fn

    def _mod(self) -> Any:
        import importlib

        return importlib.import_module(f"rtk.agents.{self.module}")

    def artifacts(self, scope: Scope, opts: Options) -> list[Artifact]:
        fn: Callable[[Scope, Options], list[Artifact]] = getattr(self._mod(), self.fn)
        return fn(scope, opts)

    @property
    def binaries(self) -> tuple[str, ...]:
        return tuple(getattr(self._mod(), "VSCODE_BINARIES" if self.name == "vscode" else "BINARIES"))

    @property
    def scopes(self) -> tuple[str, ...]:
        """Where the agent can be set up: ``global``, ``project`` or both (what its host is confirmed to read)."""
        return tuple(getattr(self._mod(), "SCOPES", ("global", "project")))

    @property
    def scope_note(self) -> str:
        """Why a scope is missing from :attr:`scopes` (empty when both are supported)."""
        return str(getattr(self._mod(), "SCOPE_NOTE", ""))

    @property
    def note(self) -> str:
        return str(getattr(self._mod(), "VSCODE_NOTE" if self.name == "vscode" else "NOTE"))

    def config_dir(self) -> str:
        if self.name == "vscode":
            return os.path.join(os.path.expanduser("~"), ".vscode")
        fn: Callable[[], str] = self._mod().config_dir
        return fn()

    def detected(self) -> str:
        """Why the agent looks installed ("" when it does not): a binary on PATH or its config directory."""
        import shutil

        for b in self.binaries:
            found = shutil.which(b)
            if found:
                return f"{b} on PATH ({found})"
        d = self.config_dir()
        return f"{d} exists" if os.path.isdir(d) else ""


INTEGRATIONS: list[Integration] = [
    Integration("claude", "Claude Code", "claude", "claude", "hook"),
    Integration("vscode", "GitHub Copilot in VS Code", "copilot", "vscode", "hook", "artifacts_vscode"),
    Integration("copilot", "GitHub Copilot CLI", "copilot", "copilot", "hook"),
    Integration("cursor", "Cursor", "cursor", "cursor", "hook"),
    Integration("gemini", "Gemini CLI", "gemini", "gemini", "hook"),
    Integration("codex", "Codex CLI", "codex", "codex", "hook"),
    Integration("qwen", "Qwen Code", "qwen", "qwen", "hook"),
    Integration("droid", "Factory Droid", "droid", "droid", "hook"),
    Integration("opencode", "OpenCode", "opencode", None, "plugin"),
    Integration("pi", "Pi", "pi", None, "plugin"),
    Integration("hermes", "Hermes Agent", "hermes", None, "plugin"),
    Integration("cline", "Cline", "cline", "cline", "rules"),
    Integration("windsurf", "Windsurf", "windsurf", "windsurf", "rules"),
    Integration("kiro", "Kiro", "kiro", "kiro", "rules"),
    Integration("vibe", "Mistral Vibe", "vibe", "vibe", "hook"),
    Integration("kilocode", "Kilo Code", "kilocode", None, "rules"),
    Integration("antigravity", "Google Antigravity", "antigravity", None, "rules"),
    Integration("trae", "Trae", "trae", None, "rules"),
    Integration("amp", "Amp", "amp", None, "rules"),
]
BY_NAME = {i.name: i for i in INTEGRATIONS}


def _template(name: str) -> str:
    from importlib.resources import files

    return files("rtk.agents").joinpath("templates", name).read_text(encoding="utf-8")


def awareness(shared: bool = False) -> str:
    """The awareness text (at most 15 lines) for hosts whose hook rewrites commands; ``shared``: the
    wording for a project file everyone reads, true whether or not rtk is installed for the reader."""
    return _template("awareness_shared.md" if shared else "awareness.md")


def agents_md() -> str:
    """The one section of a project's ``AGENTS.md`` (Codex and Amp both write it, and every agent reads it):
    true whether or not rtk is installed for the reader and whether or not a hook rewrites commands."""
    return _template("agents_shared.md")


def rules_text() -> str:
    """The rules text (at most 15 lines) for hosts that cannot rewrite: the model prefixes rtk itself."""
    return _template("rules.md")


def plugin_source(name: str, opts: Options) -> str:
    """A TypeScript plugin with the absolute rtk launcher and rtk's version written in."""
    import json
    import shlex

    from rtk import __version__

    argv = shlex.split(opts.command)
    src = _template(name).replace("__RTK_VERSION__", __version__)
    marker = 'const RTK: string = "rtk"'
    if len(argv) == 1:
        return src.replace(marker, f"const RTK: string = {json.dumps(argv[0])}")
    return src  # "python -m rtk": the plugin runs a bare rtk from PATH


def launcher() -> str:
    """The absolute path of the ``rtk`` launcher of this installation, or ``""``.

    Looked for next to the interpreter, in the scripts directories of this Python
    (user scheme included), then on PATH; it must be a script run by this
    interpreter, so the hook runs the same rtk as ``rtk init``.
    """
    import shutil
    import sysconfig

    cands = [os.path.join(os.path.dirname(sys.executable), "rtk")]
    for scheme in (None, f"{os.name}_user"):
        try:
            d = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
        except KeyError:
            continue
        cands.append(os.path.join(d, "rtk"))
    cands.append(shutil.which("rtk") or "")
    for c in cands:
        if c and os.path.isfile(c) and os.access(c, os.X_OK) and _runs_this_python(c):
            return os.path.abspath(c)
    return ""


def _runs_this_python(script: str) -> bool:
    try:
        with open(script, "rb") as f:
            first = f.readline(4096).decode("utf-8", "replace").strip()
    except OSError:
        return False
    if not first.startswith("#!"):
        return False
    interp = first[2:].split()[0] if first[2:].split() else ""
    try:
        return os.path.samefile(interp, sys.executable)
    except OSError:
        return False


def rtk_command() -> str:
    """The rtk command written into hooks: the launcher's absolute path, quoted for a shell."""
    import shlex

    exe = launcher()
    if exe:
        return shlex.quote(exe)
    return f"{shlex.quote(os.path.abspath(sys.executable))} -P -m rtk"  # -P: never import from the cwd


def detect() -> list[tuple[Integration, str]]:
    return [(i, why) for i in INTEGRATIONS if (why := i.detected())]
