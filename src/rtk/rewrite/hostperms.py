"""Permission rules from each agent host's own settings (Cursor, Gemini CLI, Qwen Code, Droid, Codex), and the one sentence that says what the hook will do.

Claude Code's files are read by :mod:`rtk.rewrite.permissions`. The other hosts' formats
are not in the protocol reference (``agent-hooks.md`` documents hooks, not permission
files); they follow each vendor's documentation and are unconfirmed here (no host runs in
this environment). Every entry becomes a pattern of the ``Bash(...)`` language, so the one
matcher (:func:`rtk.rewrite.permissions.evaluate`) judges every host:

- Gemini CLI: ``tools.allowed`` / ``allowedTools`` (allow) and ``tools.exclude`` /
  ``excludeTools`` (deny) in ``.gemini/settings.json``, the user's and the system's;
  ``run_shell_command(git)`` (or ``ShellTool(git)``) is a prefix: ``git`` and ``git ...``.
- Qwen Code: ``permissions.allow``/``ask``/``deny`` (``Bash(...)``, ``run_shell_command(...)``,
  ``Shell(...)``, Claude pattern syntax) and the legacy ``tools.allowed``/``tools.exclude``.
- Cursor: ``permissions.allow``/``deny`` with ``Shell(git)`` entries (prefix) in the CLI's
  ``~/.cursor/cli-config.json`` and ``.cursor/cli.json``, and ``terminalAllowlist`` (prefix)
  in ``~/.cursor/permissions.json`` and ``.cursor/permissions.json``.
- Factory Droid: ``commandAllowlist`` (allow), ``commandDenylist`` (always asks) and
  ``commandBlocklist`` (deny), prefixes, in ``.factory/settings(.local).json`` and the user's.
- VS Code (Copilot's local agent): ``chat.tools.terminal.autoApprove`` (true: allow, false:
  ask; prefixes and ``/regex/`` keys) in the user's and the workspace's ``settings.json``
  (JSONC), read by :mod:`rtk.rewrite.vscodeperms`.
- Codex CLI: the execpolicy ``rules/*.rules`` files (``prefix_rule``: allow, prompt -> ask,
  forbidden -> deny), read without running them by :mod:`rtk.rewrite.codexrules`; and
  ``approval_policy = "never"`` in ``config.toml``: no command is asked about, so a rewrite of
  any command no rule forbids or prompts for grants nothing new. A project's ``.codex`` counts
  for allow and for the policy only when the user's ``config.toml`` trusts the project.

A wrongly typed setting makes its file "cannot be evaluated": nothing is auto-allowed.
For hosts whose rules are read, rtk's own ``[hooks] allow`` is not used (it could approve
what the host would ask about); ``[hooks] ask``/``deny`` still apply (to every hook but Claude Code's).
"""

from __future__ import annotations

import os

from rtk.rewrite.permissions import NONE, Permissions, cached

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# agent -> (project subpaths, env var naming the project dir)
_PROJECT: dict[str, tuple[tuple[str, ...], str]] = {
    "gemini": ((".gemini/settings.json",), "GEMINI_PROJECT_DIR"),
    "qwen": ((".qwen/settings.json",), "QWEN_PROJECT_DIR"),
    "cursor": ((".cursor/cli.json", ".cursor/permissions.json"), "CURSOR_PROJECT_DIR"),
    "droid": ((".factory/settings.json", ".factory/settings.local.json"), "FACTORY_PROJECT_DIR"),
    "vscode": ((".vscode/settings.json",), ""),
}
READS_HOST = frozenset(
    ("gemini", "qwen", "cursor", "droid", "codex", "vscode")
)  # hosts whose allow rules replace rtk's
# Payload ``permission_mode`` values in which the host runs every command it does not deny without asking.
# (Claude Code's ``bypassPermissions``: rtk.agents._adapt.UNASKED.)
UNASKED_MODES: dict[str, frozenset[str]] = {"qwen": frozenset(("yolo",))}


def _home(*parts: str) -> str:
    return os.path.join(os.path.expanduser("~"), *parts)


def _user_files(agent: str) -> list[str]:
    if agent == "gemini":
        base = os.environ.get("GEMINI_CLI_HOME")
        d = os.path.join(base, ".gemini") if base else _home(".gemini")
        return [os.path.join(d, "settings.json"), "/etc/gemini-cli/settings.json"]
    if agent == "qwen":
        return [_home(".qwen", "settings.json")]
    if agent == "cursor":
        xdg = os.environ.get("XDG_CONFIG_HOME")
        out = [_home(".cursor", "cli-config.json"), _home(".cursor", "permissions.json")]
        return out + ([os.path.join(xdg, "cursor", "cli-config.json")] if xdg else [])
    if agent == "droid":
        return [_home(".factory", "settings.json"), _home(".factory", "settings.local.json")]
    if agent == "vscode":
        return [_vscode_user_settings()]
    return []


def _vscode_user_settings() -> str:
    """VS Code's user ``settings.json`` (stable build: Insiders and VSCodium keep theirs elsewhere, not read)."""
    import sys

    if sys.platform == "darwin":
        return _home("Library", "Application Support", "Code", "User", "settings.json")
    if sys.platform == "win32":
        return os.path.join(os.environ.get("APPDATA") or _home("AppData", "Roaming"), "Code", "User", "settings.json")
    xdg = os.environ.get("XDG_CONFIG_HOME") or _home(".config")
    return os.path.join(xdg, "Code", "User", "settings.json")


def _project(agent: str, cwd: str | None) -> str:
    subs, env = _PROJECT[agent]
    if env and os.environ.get(env):
        return os.environ[env]
    if not cwd:
        try:
            cwd = os.getcwd()
        except OSError:
            return ""
    home = os.path.expanduser("~")
    d = cwd
    while d and d != home:
        if any(os.path.isfile(os.path.join(d, s)) for s in subs):
            return d
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    return ""


def sources(agent: str, cwd: str | None = None) -> list[str]:
    """The settings files of ``agent`` that may hold command rules, project first."""
    if agent == "codex":
        return _codex_sources(cwd)
    if agent not in _PROJECT:
        return []
    project = _project(agent, cwd)
    out = [os.path.join(project, s) for s in _PROJECT[agent][0]] if project else []
    return out + [p for p in _user_files(agent) if p not in out]


def _key(files: list[str]) -> tuple[tuple[str, int, int], ...]:
    key: list[tuple[str, int, int]] = []
    for path in files:
        try:
            st = os.stat(path)
        except OSError:
            continue
        key.append((path, st.st_mtime_ns, st.st_size))
    return tuple(key)


def host_rules(agent: str, cwd: str | None = None) -> Permissions:
    """The command rules found in ``agent``'s own settings (none when it has no readable format)."""
    if agent not in READS_HOST:
        return NONE
    key = _key(sources(agent, cwd))
    if not key:
        return NONE
    return cached(f"hostperms-{agent}.cache", key, lambda files: _parse(agent, files))


def load(agent: str, cwd: str | None = None) -> Permissions:
    """What the hook of ``agent`` judges with: the host's rules plus rtk's ``[hooks]`` ask/deny (and allow, for hosts not read)."""
    from rtk import config
    from rtk.rewrite.permissions import permission_problem

    conf = config.load(report=False)  # a config problem must not print on a hook's stderr
    broken = "; ".join(p for p in config.problems() if permission_problem(p))
    own = Permissions(conf["hooks.allow"], conf["hooks.ask"], conf["hooks.deny"], broken)
    if agent not in READS_HOST:
        return own
    host = host_rules(agent, cwd)
    why = "; ".join(b for b in (host.broken, own.broken) if b)
    return Permissions(host.allow, host.ask + own.ask, host.deny + own.deny, why)


def runs_unasked(agent: str, mode: str | None, cwd: str | None = None) -> bool:
    """Whether the host runs every command it does not deny without asking (bypass, YOLO, approval never)."""
    if mode is not None and mode in UNASKED_MODES.get(agent, ()):
        return True
    if agent == "codex":
        return _codex_never(cwd)
    return False


def allow_all(perms: Permissions) -> Permissions:
    """``perms`` with every command allowed: deny, ask, broken settings and unattested lines still win."""
    return Permissions(("*", *perms.allow), perms.ask, perms.deny, perms.broken)


# ---------------------------------------------------------------------------
# Codex's files (listed on every codex hook call: no import beyond os)
# ---------------------------------------------------------------------------


def codex_home() -> str:
    return os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")


def project_dirs(cwd: str | None) -> list[str]:
    """The ``.codex`` directories of ``cwd`` and its parents (below the home directory), nearest first."""
    if not cwd:
        try:
            cwd = os.getcwd()
        except OSError:
            return []
    home = os.path.expanduser("~")
    out: list[str] = []
    d = cwd
    while d and d != home:
        if os.path.isdir(os.path.join(d, ".codex")):
            out.append(os.path.join(d, ".codex"))
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    return out


def rule_files(directory: str) -> list[str]:
    """``directory/rules/*.rules``, sorted."""
    rules = os.path.join(directory, "rules")
    try:
        names = sorted(n for n in os.listdir(rules) if n.endswith(".rules"))
    except OSError:
        return []
    return [os.path.join(rules, n) for n in names]


def trusted_dirs(user_config: str) -> list[str]:
    """The directories the user's ``config.toml`` marks ``trust_level = "trusted"`` (``[projects."/path"]``)."""
    import tomllib

    try:
        with open(user_config, "rb") as f:
            doc = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return []
    projects = doc.get("projects")
    if not isinstance(projects, dict):
        return []
    return [p for p, v in projects.items() if isinstance(v, dict) and v.get("trust_level") == "trusted"]


def is_trusted(codex_dir: str, trusted: list[str]) -> bool:
    """Whether the project holding ``codex_dir`` (a ``.codex`` directory) is, or is inside, a trusted one.

    Real paths on both sides: ``/trusted/../evil`` or a symlink in a trusted directory pointing
    out of it is the directory it resolves to.
    """
    project = os.path.realpath(os.path.dirname(codex_dir))
    for t in trusted:
        if not t:
            continue
        t = os.path.realpath(os.path.expanduser(t))
        if project == t or project.startswith(t.rstrip(os.sep) + os.sep):
            return True
    return False


def _codex_sources(cwd: str | None) -> list[str]:
    """Codex's ``config.toml`` and ``rules/*.rules`` files: the project's ``.codex`` layers (nearest first), the user's."""
    out: list[str] = []
    for d in [*project_dirs(cwd), codex_home()]:
        out += [os.path.join(d, "config.toml"), *rule_files(d)]
    return list(dict.fromkeys(out))


def _codex_never(cwd: str | None) -> bool:
    """Whether Codex's effective ``approval_policy`` (its profile's, if one is chosen) is ``never``."""
    files = [p for p in sources("codex", cwd) if p.endswith("config.toml") and os.path.isfile(p)]
    if not files:
        return False
    import tomllib

    user = os.path.join(codex_home(), "config.toml")
    trusted = trusted_dirs(user)
    policy = profile = None
    for path in reversed(files):  # the user's first, then project layers, the nearest last (it wins)
        if path != user and not is_trusted(os.path.dirname(path), trusted):
            continue  # Codex does not load an untrusted project's .codex
        try:
            with open(path, "rb") as f:
                doc = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError):
            return False
        policy = doc.get("approval_policy", policy)
        profile = doc.get("profile", profile)
        profiles = doc.get("profiles")
        chosen = profiles.get(profile) if isinstance(profiles, dict) and isinstance(profile, str) else None
        if isinstance(chosen, dict) and "approval_policy" in chosen:
            policy = chosen["approval_policy"]
    return policy == "never"


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------

_SHELL_TOOLS = ("run_shell_command", "ShellTool", "Shell", "Bash")


def shell_entry(entry: str, *, prefix: bool, allow: bool = False) -> str | None:
    """``run_shell_command(git)`` / ``Shell(git)`` -> ``git:*`` (prefix) or ``git`` (pattern); bare tool -> ``*``.

    For an ``allow`` list, an entry with nothing in its parentheses gives None: no host is known to
    read it as "every command" (Claude Code's rules need text there), so it approves nothing. In a
    deny or ask list the broader reading stays (it refuses more, never less).
    """
    e = entry.strip()
    for tool in _SHELL_TOOLS:
        if e == tool:
            return "*"
        if e.startswith(tool + "(") and e.endswith(")"):
            inner = " ".join(e[len(tool) + 1 : -1].split())
            if allow and not inner:
                return None
            return _prefix(inner) if prefix else (inner or "*")
    return None


def plain_entry(entry: str, *, allow: bool) -> str | None:
    """A prefix list's entry (Cursor's ``terminalAllowlist``, Droid's lists) as a pattern; in an ``allow``
    list an empty one is None (it approves nothing rather than every command)."""
    if allow and not entry.strip():
        return None
    return _prefix(entry)


def _prefix(command: str) -> str:
    c = " ".join(command.split())
    if not c or c == "*":
        return "*"
    return c if "*" in c else f"{c}:*"


def _get(doc: dict[str, Any], dotted: str) -> object:
    cur: object = doc
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


# agent -> [(key, verdict, kind)]: kind "tool" (ToolName(prefix)), "rule" (Claude syntax), "plain" (a prefix)
_KEYS: dict[str, list[tuple[str, str, str]]] = {
    "gemini": [
        ("tools.allowed", "allow", "tool"),
        ("allowedTools", "allow", "tool"),
        ("tools.exclude", "deny", "tool"),
        ("excludeTools", "deny", "tool"),
    ],
    "qwen": [
        ("permissions.allow", "allow", "rule"),
        ("permissions.ask", "ask", "rule"),
        ("permissions.deny", "deny", "rule"),
        ("tools.allowed", "allow", "tool"),
        ("tools.exclude", "deny", "tool"),
    ],
    "cursor": [
        ("permissions.allow", "allow", "tool"),
        ("permissions.deny", "deny", "tool"),
        ("terminalAllowlist", "allow", "plain"),
    ],
    "droid": [
        ("commandAllowlist", "allow", "plain"),
        ("commandDenylist", "ask", "plain"),
        ("commandBlocklist", "deny", "plain"),
    ],
}


def _parse(agent: str, files: list[str]) -> Permissions:
    import json

    out: dict[str, list[str]] = {"allow": [], "ask": [], "deny": []}
    broken: list[str] = []
    if agent == "codex":
        from rtk.rewrite import codexrules

        home = codex_home()
        user = os.path.join(home, "config.toml")
        trusted = trusted_dirs(user) if user in files else []
        out, broken = codexrules.parse_files(files, lambda d: d == home or is_trusted(d, trusted))
        files = []
    enabled = True
    for path in files:
        try:
            with open(path, "rb") as f:
                doc = json.loads(jsonc(f.read().decode("utf-8-sig")))
        except (OSError, ValueError) as e:
            broken.append(f"{path}: {type(e).__name__}")
            continue
        if not isinstance(doc, dict):
            broken.append(f"{path}: the file is a JSON {type(doc).__name__}, not an object")
            continue
        if agent == "vscode":
            from rtk.rewrite import vscodeperms

            enabled = vscodeperms.read(doc, path, ".vscode" not in path.split(os.sep), out, broken) and enabled
            continue
        for key, verdict, kind in _KEYS[agent]:
            entries = _get(doc, key)
            if entries is None:
                continue
            if isinstance(entries, str) and verdict != "allow":
                entries = [entries]  # a malformed deny or ask still denies or asks
                broken.append(f"{path}: {key} is a str, not a list")
            if not isinstance(entries, list):
                broken.append(f"{path}: {key} is a {type(entries).__name__}, not a list")
                continue
            for entry in entries:
                if not isinstance(entry, str):
                    broken.append(f"{path}: {key} holds an entry that is not a string")
                    continue
                if kind == "plain":
                    p = plain_entry(entry, allow=verdict == "allow")
                else:
                    p = shell_entry(entry, prefix=kind == "tool", allow=verdict == "allow")
                if p is not None:
                    out[verdict].append(p)
    return Permissions(out["allow"] if enabled else [], out["ask"], out["deny"], "; ".join(broken))


def jsonc(text: str) -> str:
    """JSON with comments and trailing commas (VS Code's settings, Cursor's permissions.json) as strict JSON."""
    text = _strip_comments(text)
    if "," not in text:
        return text
    res: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = _string_end(text, i)
            res.append(text[i:j])
            i = j
            continue
        if c == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n and text[j] in "]}":
                i += 1  # a trailing comma
                continue
        res.append(c)
        i += 1
    return "".join(res)


def _string_end(text: str, i: int) -> int:
    """The index just after the JSON string that opens at ``text[i]`` (escapes skipped)."""
    j, n = i + 1, len(text)
    while j < n and text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _strip_comments(text: str) -> str:
    """JSONC (Cursor's permissions.json): ``//`` and ``/* */`` comments outside strings removed."""
    if "/" not in text:
        return text
    res: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = _string_end(text, i)
            res.append(text[i:j])
            i = j
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            res.append(c)
            i += 1
    return "".join(res)
