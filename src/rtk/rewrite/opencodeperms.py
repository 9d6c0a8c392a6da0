"""OpenCode's own ``permission`` rules for bash: a rewrite must never take a command out of an ask or deny pattern.

OpenCode (``opencode.ai/docs/permissions``) reads ``permission`` from its config files: a string
(``"ask"``: every tool), or an object whose ``"*"`` (every tool) and ``"bash"`` entries are an action
or, for ``bash``, an object of wildcard patterns (``*`` any characters, ``?`` one, the rest
literal) to actions, the last matching pattern winning. Agents can carry their own
``permission`` (``agent.NAME.permission``, ``mode.NAME.permission``; a markdown agent's YAML front matter
is not read: one setting ``permission`` keeps every line unchanged). OpenCode checks its patterns on the command the
plugin hands back, so ``git push`` under ``"git push*": "ask"`` rewritten to ``rtk git push``
would escape the pattern. ``rtk rewrite --host opencode`` (the plugin's call) keeps a line
unchanged when, for any rule set found (each file, each agent, ``OPENCODE_PERMISSION``), the
rewritten line or one of its rewritten segments would get a more permissive action than the
original: judged with OpenCode's default taken as allow and as ask, and a trailing `` *`` read
as required and as optional. A config file that cannot be read or parsed, or a permission of
an unexpected type, keeps every line unchanged (the host's own check then runs on it as written).
"""

from __future__ import annotations

import json
import os

from rtk.rewrite.hostperms import jsonc

_RANK = {"deny": 0, "ask": 1, "allow": 2}
_NAMES = ("opencode.json", "opencode.jsonc", "config.json")
Rules = list[tuple[str, str]]  # (pattern, action), in order


class Broken(Exception):
    """A config file rtk cannot judge: no rewrite."""


# Managed config (admin-controlled, read last by OpenCode): Linux, macOS.
MANAGED = ("/etc/opencode", "/Library/Application Support/opencode")


def config_files(cwd: str) -> list[str]:
    """OpenCode's config files that exist: the user's, ``OPENCODE_CONFIG``, ``OPENCODE_CONFIG_DIR``'s, every project
    one up from ``cwd``, and the managed ones (:data:`MANAGED`)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    found = [os.path.join(base, "opencode", n) for n in _NAMES]
    if os.environ.get("OPENCODE_CONFIG"):
        found.append(os.environ["OPENCODE_CONFIG"])
    for d in [os.environ.get("OPENCODE_CONFIG_DIR") or "", *MANAGED]:
        if d:
            found += [os.path.join(d, n) for n in _NAMES[:2]]
    d = os.path.abspath(cwd)
    while True:
        found += [os.path.join(d, n) for n in _NAMES[:2]]
        found += [os.path.join(d, ".opencode", n) for n in _NAMES[:2]]
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return [p for p in found if os.path.isfile(p)]


def agent_files(cwd: str) -> list[str]:
    """Markdown agents (``agent/`` or ``agents/`` beside a config file): their front matter may hold a
    ``permission`` rtk does not read (YAML)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    dirs = [os.path.join(base, "opencode"), os.environ.get("OPENCODE_CONFIG_DIR") or "", *MANAGED]
    d = os.path.abspath(cwd)
    while True:
        dirs.append(os.path.join(d, ".opencode"))
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    out: list[str] = []
    for top in filter(None, dirs):
        for sub in ("agent", "agents"):
            try:
                with os.scandir(os.path.join(top, sub)) as it:
                    out += [e.path for e in it if e.name.endswith(".md") and e.is_file()]
            except OSError:
                continue
    return out


def _sets_permission(path: str) -> bool:
    """Whether a markdown agent's front matter (between its first two ``---`` lines) has a ``permission`` key."""
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16).decode("utf-8", "replace")
    except OSError:
        return True  # unreadable: cannot be judged
    lines = head.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        return False
    for line in lines[1:]:
        if line.strip() == "---":
            return False
        if line.startswith(("permission:", '"permission":', "'permission':")):
            return True
    return True  # no end to the front matter in 64 KiB: cannot be judged


def rule_sets(cwd: str) -> list[Rules]:
    """Every bash rule list OpenCode may apply (raises :class:`Broken` for a config rtk cannot judge)."""
    docs: list[object] = []
    for path in config_files(cwd):
        try:
            with open(path, "rb") as f:
                docs.append(json.loads(jsonc(f.read(1 << 20).decode("utf-8-sig"))))
        except (OSError, ValueError) as e:
            raise Broken(f"{path}: {type(e).__name__}") from None
    for var in ("OPENCODE_CONFIG_CONTENT", "OPENCODE_PERMISSION"):
        text = os.environ.get(var)
        if text:
            try:
                doc = json.loads(jsonc(text))
            except ValueError:
                raise Broken(f"${var} is not JSON") from None
            docs.append({"permission": doc} if var == "OPENCODE_PERMISSION" else doc)
    for path in agent_files(cwd):
        if _sets_permission(path):
            raise Broken(f"{path}: a markdown agent's permission (YAML, not read)")
    out: list[Rules] = []
    for doc in docs:
        if not isinstance(doc, dict):
            raise Broken("a config file is not a JSON object")
        perms = [doc.get("permission")]
        for key in ("agent", "mode"):  # ("mode": the older name, still read beside "agent")
            agents = doc.get(key) or {}
            if not isinstance(agents, dict):
                raise Broken(f"{key} is not an object")
            perms += [a.get("permission") for a in agents.values() if isinstance(a, dict)]
        out += [_rules(p) for p in perms if p is not None]
    return out


def _rules(perm: object) -> Rules:
    if isinstance(perm, str):
        return [("*", _action(perm))]
    if not isinstance(perm, dict):
        raise Broken("permission is neither an action nor an object")
    out: Rules = [("*", _action(perm["*"]))] if "*" in perm else []
    bash = perm.get("bash")
    if isinstance(bash, str):
        out.append(("*", _action(bash)))
    elif isinstance(bash, dict):
        out += [(str(k), _action(v)) for k, v in bash.items()]
    elif bash is not None:
        raise Broken("permission.bash is neither an action nor an object")
    return out


def _action(value: object) -> str:
    if value not in _RANK:
        raise Broken(f"unknown permission action {value!r}")
    return str(value)


def wildcard(pattern: str, text: str) -> bool:
    """OpenCode's pattern match: ``*`` any run of characters, ``?`` one, the whole text."""
    p = t = 0
    star = -1
    mark = 0
    while t < len(text):
        if p < len(pattern) and (pattern[p] == "?" or pattern[p] == text[t]) and pattern[p] != "*":
            p += 1
            t += 1
        elif p < len(pattern) and pattern[p] == "*":
            star, mark = p, t
            p += 1
        elif star >= 0:
            p = star + 1
            mark += 1
            t = mark
        else:
            return False
    return all(c == "*" for c in pattern[p:])


def action(rules: Rules, command: str, default: str, optional_tail: bool) -> str:
    """The action of the last rule matching ``command`` (``default`` when none does)."""
    out = default
    for pattern, act in rules:
        if wildcard(pattern, command) or (optional_tail and pattern.endswith(" *") and command == pattern[:-2]):
            out = act
    return out


def widens(pairs: list[tuple[str, str]], sets: list[Rules]) -> str:
    """The first (original, rewritten) pair whose rewritten form some rule set treats more permissively, else ""."""
    for rules in sets:
        for default in ("allow", "ask"):
            for tail in (False, True):
                for old, new in pairs:
                    a, b = action(rules, old, default, tail), action(rules, new, default, tail)
                    if _RANK[b] > _RANK[a]:
                        return f"OpenCode's permission for `{old}` is {a}, for `{new}` it would be {b}"
    return ""
