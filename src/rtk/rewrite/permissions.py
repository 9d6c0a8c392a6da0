"""Permission verdicts from the agent host's rules (Claude Code ``permissions`` in settings files).

Sources for ``agent="claude"``, when they exist: the project's ``.claude/settings.json``
and ``.claude/settings.local.json`` (project = ``$CLAUDE_PROJECT_DIR``, else the working
directory), the user's ``settings.json`` and ``settings.local.json`` in
``$CLAUDE_CONFIG_DIR`` (default ``~/.claude``), and the managed
``/etc/claude-code/managed-settings.json``. Only ``Bash`` entries of
``permissions.allow``/``ask``/``deny`` count: ``Bash`` or ``Bash(*)`` (every command),
``Bash(git status)`` (exactly), ``Bash(git push:*)`` (prefix), ``Bash(git * main)``
(glob; a trailing `` *`` also matches no arguments).

The settings are parsed with ``json`` only when one of them changed: the extracted
rules are cached in ``<data dir>/permissions.cache`` (marshal), keyed by each file's
path, mtime and size.

Evaluation (``evaluate``), on every segment of the line (and the commands inside
``$(...)``, subshells and blocks), against the original text, the text without env
prefixes and wrappers, the resolved tool form, and the rewritten segment:
deny > ask > allow > default, and the default is ask. ``allow`` needs every
top-level segment to match an allow rule, and a line that cannot be attested
statically (command or process substitution, backticks, ``$'...'``, output to a
file, here-documents, subshells and control blocks) is never allowed.
"""

from __future__ import annotations

import os

from rtk.shell import segments as _seg
from rtk.shell.lexer import ANSI_C, CMDSUB, EXPAND, PROCSUB, WORD, _backtick, _Bad, _balanced

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.rewrite.engine import _Plan

_CACHE_VERSION = 1


class Permissions:
    """Bash permission patterns (the text inside ``Bash(...)``; ``*`` for a bare ``Bash``)."""

    __slots__ = ("allow", "ask", "broken", "deny")

    def __init__(
        self,
        allow: list[str] | tuple[str, ...] = (),
        ask: list[str] | tuple[str, ...] = (),
        deny: list[str] | tuple[str, ...] = (),
        broken: str = "",
    ) -> None:
        self.allow = tuple(allow)
        self.ask = tuple(ask)
        self.deny = tuple(deny)
        self.broken = broken  # a settings file that could not be read: never allow

    def __repr__(self) -> str:
        return f"Permissions(allow={self.allow!r}, ask={self.ask!r}, deny={self.deny!r})"


NONE = Permissions()


def sources(cwd: str | None = None) -> list[str]:
    """The Claude Code settings files that may hold rules, most specific first."""
    project = os.environ.get("CLAUDE_PROJECT_DIR") or cwd
    if not project:
        try:
            project = os.getcwd()
        except OSError:
            project = ""
    user = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    out: list[str] = []
    if project:
        d = os.path.join(project, ".claude")
        out += [os.path.join(d, "settings.json"), os.path.join(d, "settings.local.json")]
    for p in (os.path.join(user, "settings.json"), os.path.join(user, "settings.local.json")):
        if p not in out:
            out.append(p)
    out.append("/etc/claude-code/managed-settings.json")
    return out


def load(agent: str | None = "claude", cwd: str | None = None) -> Permissions:
    """The permission rules of ``agent`` (only ``claude`` has files; others get none)."""
    if agent != "claude":
        return NONE
    key: list[tuple[str, int, int]] = []
    for path in sources(cwd):
        try:
            st = os.stat(path)
        except OSError:
            continue
        key.append((path, st.st_mtime_ns, st.st_size))
    if not key:
        return NONE
    import marshal

    from rtk import paths

    cache = os.path.join(paths.data_dir(), "permissions.cache")
    tkey = tuple(key)
    try:
        with open(cache, "rb") as f:
            data = marshal.load(f)
        if data[0] == _CACHE_VERSION and data[1] == tkey:
            return Permissions(data[2], data[3], data[4], data[5])
    except (OSError, EOFError, ValueError, TypeError, IndexError):
        pass
    perms = _parse([k[0] for k in key])
    try:
        paths.ensure_dir(paths.data_dir())
        tmp = f"{cache}.{os.getpid()}"
        with open(tmp, "wb") as f:
            marshal.dump((_CACHE_VERSION, tkey, perms.allow, perms.ask, perms.deny, perms.broken), f)
        os.replace(tmp, cache)
    except OSError:
        pass
    return perms


def _parse(files: list[str]) -> Permissions:
    import json

    allow: list[str] = []
    ask: list[str] = []
    deny: list[str] = []
    broken = ""
    for path in files:
        try:
            with open(path, "rb") as f:
                doc = json.loads(f.read().decode("utf-8-sig"))
        except (OSError, ValueError) as e:
            broken = broken or f"{path}: {type(e).__name__}"
            continue
        perms = doc.get("permissions") if isinstance(doc, dict) else None
        if not isinstance(perms, dict):
            continue
        for name, out in (("allow", allow), ("ask", ask), ("deny", deny)):
            entries = perms.get(name)
            if not isinstance(entries, list):
                continue
            for entry in entries:
                p = bash_pattern(entry) if isinstance(entry, str) else None
                if p is not None:
                    out.append(p)
    return Permissions(allow, ask, deny, broken)


def bash_pattern(entry: str) -> str | None:
    """``Bash(git push:*)`` -> ``git push:*``; ``Bash`` -> ``*``; other tools -> None."""
    e = entry.strip()
    if e == "Bash":
        return "*"
    if e.startswith("Bash(") and e.endswith(")"):
        inner = " ".join(e[5:-1].split())
        return inner or "*"
    return None


def matches(pattern: str, command: str, *, broad: bool = False) -> bool:
    """Does a ``Bash(...)`` pattern match ``command`` (whitespace already normalised)?

    ``broad`` (used for deny and ask) lets ``prefix:*`` match without a word boundary,
    so ``Bash(git push:*)`` also denies ``git push-all``.
    """
    if pattern == "*":
        return True
    if pattern.endswith(":*"):
        pre = pattern[:-2].rstrip()
        if broad:
            return command.startswith(pre)
        return command == pre or command.startswith(pre + " ")
    if "*" not in pattern:
        return command == pattern
    if pattern.endswith(" *") and command == pattern[:-2]:
        return True
    parts = pattern.split("*")
    if not command.startswith(parts[0]):
        return False
    pos = len(parts[0])
    last = parts[-1]
    for mid in parts[1:-1]:
        j = command.find(mid, pos)
        if j < 0:
            return False
        pos = j + len(mid)
    return len(command) - len(last) >= pos and command.endswith(last)


# ---------------------------------------------------------------------------
# Evaluation
# ---------------------------------------------------------------------------


def _norm(parts: list[str]) -> str:
    return " ".join(" ".join(parts).split())


def _forms(line: str, seg: _seg.Segment) -> list[str]:
    """Texts a rule is matched against for one simple segment."""
    raw = _norm([line[t.start : t.end] for t in seg.tokens])
    values = [w.value for w in seg.words]
    forms = [raw, _norm(values)]
    if values:
        simple = _seg.peel(values)
        if simple.at < len(values):
            peeled = values[simple.at :]
            forms.append(_norm(peeled))
            tool = _seg.tool_name(peeled[0])
            forms.append(_norm([tool, *peeled[1:]]))
            res = _seg.resolve(values, simple.at)
            if res.kind:
                forms.append(_norm([_seg.tool_name(res.tool), *values[res.rest :]]))
    return forms


def _nested(text: str, depth: int) -> list[list[str]]:
    """Commands inside ``$(...)``/backticks in ``text`` (as value lists), recursively."""
    out: list[list[str]] = []
    if depth > 4:
        return out
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        try:
            if c == "$" and text.startswith("$(", i):
                end = _balanced(text, i + 2, n)
                out += commands(text[i + 2 : end - 1], depth + 1)
                i = end
                continue
            if c == "`":
                end = _backtick(text, i + 1, n)
                out += commands(text[i + 1 : end - 1], depth + 1)
                i = end
                continue
            if c in "<>" and text.startswith("(", i + 1):
                end = _balanced(text, i + 2, n)
                out += commands(text[i + 2 : end - 1], depth + 1)
                i = end
                continue
        except _Bad:
            return out
        i += 1
    return out


def commands(text: str, depth: int = 0) -> list[list[str]]:
    """Every simple command in ``text``, including inside blocks and substitutions."""
    parsed = _seg.parse(text)
    out: list[list[str]] = []
    for seg in parsed.segments():
        out += _commands_of(text, seg, depth)
    return out


def _commands_of(line: str, seg: _seg.Segment, depth: int) -> list[list[str]]:
    out: list[list[str]] = []
    if seg.opaque:
        # Split the block on operators, parens and keywords; each run of words is a command.
        cur: list[str] = []
        for t in seg.tokens:
            if t.kind == WORD and not (not cur and not t.flags and (t.value in _seg.OPENERS or t.value in _KEYWORDS)):
                cur.append(t.value)
            else:
                if cur:
                    out.append(cur)
                cur = []
            if t.kind == WORD and t.flags & (CMDSUB | PROCSUB):
                out += _nested(line[t.start : t.end], depth)
        if cur:
            out.append(cur)
        return out
    if seg.words:
        out.append([w.value for w in seg.words])
    for t in seg.tokens:
        if t.kind == WORD and t.flags & (CMDSUB | PROCSUB):
            out += _nested(line[t.start : t.end], depth)
    return out


_KEYWORDS = frozenset(("then", "do", "else", "elif", "fi", "done", "esac", "in", "}", "!", "time", "function"))


def _unattested(parsed: _seg.Line) -> str:
    if not parsed.ok:
        return "the line does not parse"
    f = parsed.flags
    if f & CMDSUB:
        return "command substitution"
    if f & PROCSUB:
        return "process substitution"
    if f & ANSI_C:
        return "$'...' quoting"
    if parsed.heredoc:
        return "here-document"
    for seg in parsed.segments():
        if seg.opaque:
            return f"{seg.opaque} block"
        if seg.stdout_to_file():
            return "output redirected to a file"
        if seg.words and seg.words[0].flags & EXPAND:
            return "the command word is a variable"
    return ""


def evaluate(
    perms: Permissions,
    parsed: _seg.Line,
    line: str,
    plans: list[tuple[_seg.Segment, _Plan]],
) -> tuple[str, str]:
    """``(verdict, reason)`` for ``line``: verdict is ``allow``, ``ask`` or ``deny``."""
    if not (perms.allow or perms.ask or perms.deny or perms.broken):
        return "ask", "no permission rule applies (default: ask)"
    tops: list[tuple[str, list[str]]] = []  # (segment text, forms)
    extra: list[str] = []  # forms that may deny or ask but never allow
    for seg, plan in plans:
        text = _norm([line[t.start : t.end] for t in seg.tokens])
        if seg.opaque:
            for cmd in _commands_of(line, seg, 0):
                extra += _value_forms(cmd)
            tops.append((text, []))
            continue
        forms = _forms(line, seg)
        for t in seg.tokens:
            if t.kind == WORD and t.flags & (CMDSUB | PROCSUB):
                for cmd in _nested(line[t.start : t.end], 0):
                    extra += _value_forms(cmd)
        if plan.edit is not None:
            start, end, new = plan.edit
            extra.append(_norm([line[seg.start : start] + new + line[end : seg.end]]))
        tops.append((text, forms))
    every = [f for _, forms in tops for f in forms] + extra
    for pat in perms.deny:
        for f in every:
            if matches(pat, f, broad=True):
                return "deny", f"deny rule Bash({pat}) matches `{f}`"
    for pat in perms.ask:
        for f in every:
            if matches(pat, f, broad=True):
                return "ask", f"ask rule Bash({pat}) matches `{f}`"
    if perms.broken:
        return "ask", f"settings file unreadable ({perms.broken}): never auto-allowed"
    why = _unattested(parsed)
    if why:
        return "ask", f"cannot be checked statically ({why}): never auto-allowed"
    for text, forms in tops:
        if not any(matches(p, f) for p in perms.allow for f in forms[:2]):
            return "ask", f"no allow rule for `{text}`"
    return "allow", "every segment matches an allow rule"


def _value_forms(values: list[str]) -> list[str]:
    if not values:
        return []
    forms = [_norm(values)]
    simple = _seg.peel(values)
    if 0 < simple.at < len(values):
        forms.append(_norm(values[simple.at :]))
    if simple.at < len(values):
        forms.append(_norm([_seg.tool_name(values[simple.at]), *values[simple.at + 1 :]]))
    return forms
