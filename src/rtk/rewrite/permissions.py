"""Permission verdicts from the agent host's rules (Claude Code ``permissions`` in settings files).

Sources for ``agent="claude"``, when they exist: the project's ``.claude/settings.json``
and ``.claude/settings.local.json`` (project = ``$CLAUDE_PROJECT_DIR``, else the nearest
directory from the working directory upwards holding one of them), the user's
``settings.json`` and ``settings.local.json`` in ``$CLAUDE_CONFIG_DIR`` (default
``~/.claude``), and the managed ``/etc/claude-code/managed-settings.json``. Only ``Bash``
entries of ``permissions.allow``/``ask``/``deny`` count: ``Bash`` or ``Bash(*)`` (every
command), ``Bash(git status)`` (exactly), ``Bash(git push:*)`` (prefix), ``Bash(git * main)``
(glob; a trailing `` *`` also matches no arguments). A permission setting of an unexpected
type makes its file "cannot be evaluated" (``broken``): nothing is auto-allowed.

The settings are parsed with ``json`` only when one of them changed: the extracted
rules are cached in ``<data dir>/permissions.cache`` (marshal), keyed by each file's
path, mtime and size.

Evaluation (``evaluate``): deny > ask > allow > default (ask). Deny and ask rules match
any form of any command on the line: literal (as written) or resolved (by the resolver of
``hooks.exclude_commands``, :func:`rtk.rewrite.matching.resolved_forms`), top-level or
nested in substitutions, blocks, here-document bodies and ``find -exec``/``fd -x``, or the
rewritten segment. An
allow needs every top-level segment's literal form and fully resolved form to match allow
rules, and a line that can be attested statically: nothing that can run code at any depth
(``lexer.EXECUTES``), no ``$'...'``, output to a file, here-document, subshell or block.
"""

from __future__ import annotations

import os

from rtk.shell import segments as _seg
from rtk.shell.lexer import ANSI_C, ARITH, BODY, CMDSUB, EVAL, EXPAND, PROCSUB, WORD, _backtick, _Bad, _balanced
from rtk.shell.simple import RUNS_BY_NAME

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Protocol

    class _Plan(Protocol):
        """What the engine planned for a segment (``rtk.rewrite.engine._Plan``): the edit, if any."""

        edit: tuple[int, int, str] | None


_Prefixes = tuple[tuple[str, ...], ...]  # hooks.transparent_prefixes, split into words
_CACHE_VERSION = 5  # 2: wrongly typed permission settings make the file broken; 3: regexes outside saferegex
CACHE_SIZE_MAX = 8 << 20  # bytes: a larger file is no cache rtk wrote
# refused; 4: a VS Code workspace approves nothing; 5: an empty approval approves nothing


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


def project_root(cwd: str) -> str:
    """The nearest directory from ``cwd`` upwards holding ``.claude/settings*.json`` (else ``cwd``).

    A hook may run in a subdirectory of the project; the home directory is not a project.
    """
    home = os.path.expanduser("~")
    d = cwd
    while d and d != home:
        if os.path.isfile(os.path.join(d, ".claude", "settings.json")) or os.path.isfile(
            os.path.join(d, ".claude", "settings.local.json")
        ):
            return d
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    return cwd


def sources(cwd: str | None = None) -> list[str]:
    """The Claude Code settings files that may hold rules, most specific first."""
    project = os.environ.get("CLAUDE_PROJECT_DIR") or ""
    if not project:
        if not cwd:
            try:
                cwd = os.getcwd()
            except OSError:
                cwd = ""
        project = project_root(cwd) if cwd else ""
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
    return cached("permissions.cache", tuple(key), _parse)


def cached(name: str, key: tuple[tuple[str, int, int], ...], parse: Callable[[list[str]], Permissions]) -> Permissions:
    """``parse(paths)``, cached in ``<data dir>/name`` (marshal) under ``key`` (path, mtime, size per file)."""
    import marshal

    from rtk import paths

    cache = os.path.join(paths.data_dir(), name)
    try:
        raw = paths.read_regular(cache, CACHE_SIZE_MAX)  # a FIFO planted there would block the hook
        data = marshal.loads(raw or b"")  # empty (None: not a regular file): EOFError
        if data[0] == _CACHE_VERSION and data[1] == key:
            return Permissions(data[2], data[3], data[4], data[5])
    except (OSError, EOFError, ValueError, TypeError, IndexError):
        pass
    perms = parse([k[0] for k in key])
    try:
        paths.ensure_dir(paths.data_dir())
        # A new temporary file: a symlink planted at its name is never written through.
        paths.replace_with(
            cache, marshal.dumps((_CACHE_VERSION, key, perms.allow, perms.ask, perms.deny, perms.broken))
        )
    except (OSError, ValueError):
        pass
    return perms


def _parse(files: list[str]) -> Permissions:
    from rtk.rewrite.claudefile import parse  # json: only when a settings file changed

    return Permissions(*parse(files))


def check(doc: object) -> list[str]:
    """Permission settings of an unexpected type in a parsed settings file (:func:`rtk.rewrite.claudefile.check`)."""
    from rtk.rewrite.claudefile import check as _check

    return _check(doc)


def bash_pattern(entry: str) -> str | None:
    """``Bash(git push:*)`` -> ``git push:*`` (:func:`rtk.rewrite.claudefile.bash_pattern`)."""
    from rtk.rewrite.claudefile import bash_pattern as _bash_pattern

    return _bash_pattern(entry)


# A pattern starting with this is a regular expression searched in the command, ``\0(?flags)body``
# (VS Code's ``/regex/`` terminal rules; no host's own syntax can produce a NUL). ``re`` is imported
# only when such a pattern is matched, through :mod:`rtk.rewrite.saferegex` (bounded search time).
REGEX = "\0"


def regex_search(pattern: str, command: str, *, broad: bool = False) -> bool:
    """Whether the regex ``pattern`` (``REGEX`` + expression) is found in ``command``.

    One rtk cannot search in bounded time (refused, or ``command`` too long for it) matches a
    deny or ask (``broad``) and never an allow: it fails closed.
    """
    from rtk.rewrite import saferegex

    return saferegex.search(pattern[len(REGEX) :], command, fallback=broad)


def shown(pattern: str) -> str:
    """A pattern as a reason names it (a regex as ``/expression/``)."""
    return f"/{pattern[len(REGEX) :]}/" if pattern.startswith(REGEX) else pattern


def matches(pattern: str, command: str, *, broad: bool = False) -> bool:
    """Does a ``Bash(...)`` pattern match ``command`` (whitespace already normalised)?

    ``broad`` (used for deny and ask) lets ``prefix:*`` match without a word boundary,
    so ``Bash(git push:*)`` also denies ``git push-all``.
    """
    if pattern == "*":
        return True
    if pattern.startswith(REGEX):
        return regex_search(pattern, command, broad=broad)
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


def _forms(line: str, seg: _seg.Segment, transparent: _Prefixes, *, words: bool = False) -> tuple[list[str], list[str]]:
    """(literal forms, resolved forms) a rule is matched against for one simple segment.

    Literal: the segment as written, and with quotes removed. Resolved (the last one
    fully): env prefixes and wrappers peeled, the tool's path, wrapper and global
    options resolved, by the resolver ``hooks.exclude_commands`` uses. ``words`` (the
    forms an allow is matched on): a word that holds whitespace or is empty stays
    quoted, so no rule reads one argument as several (``ssh host "uptime && rm x"``
    is not ``ssh host uptime ...``).
    """
    raw = _norm([line[t.start : t.end] for t in seg.tokens])
    values = [w.value for w in seg.words]
    shown = [_word(v) for v in values] if words else values
    return [raw, _norm(shown)], _resolved(values, transparent, shown)


def _word(value: str) -> str:
    """``value`` as one word of a form: single-quoted when it is empty or holds whitespace."""
    if value and not any(c.isspace() for c in value):
        return value
    return "'" + value.replace("'", "'\\''") + "'"


def _resolved(values: list[str], transparent: _Prefixes, shown: list[str] | None = None) -> list[str]:
    """The resolved forms of ``values``, written with ``shown`` (the same words, maybe quoted)."""
    from rtk.rewrite.matching import resolved_forms

    simple = _seg.peel(values, transparent)
    if simple.at >= len(values):
        return []
    forms = resolved_forms(shown or values, simple.at, _seg.resolve(values, simple.at))
    return [_norm([f]) for f in forms]


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
                end, _ = _balanced(text, i + 2, n)
                out += commands(text[i + 2 : end - 1], depth + 1)
                i = end
                continue
            if c == "`":
                end = _backtick(text, i + 1, n)
                out += commands(text[i + 1 : end - 1], depth + 1)
                i = end
                continue
            if c in "<>" and text.startswith("(", i + 1):
                end, _ = _balanced(text, i + 2, n)
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


_EXECUTING: tuple[tuple[int, str], ...] = ((CMDSUB, "command substitution"), (PROCSUB, "process substitution"))
_EXECUTING += ((ARITH, "arithmetic expansion"), (EVAL, "indirect or prompt expansion"), (ANSI_C, "$'...' quoting"))


def _unattested(parsed: _seg.Line) -> str:
    from rtk.rewrite.matching import embedded_commands, option_programs, rtk_shell_line  # loaded already (engine)

    def runs(values: list[str]) -> list[list[str]]:  # what find -exec, rtk proxy CMD, rtk run -c LINE run
        return embedded_commands(values, commands) + commands(rtk_shell_line(values) or "", 1)

    if not parsed.ok:
        return "the line does not parse"
    for flag, what in _EXECUTING:  # at any depth: the lexer records nested constructs
        if parsed.flags & flag:
            return what
    if parsed.heredoc:
        return "here-document"
    for seg in parsed.segments():
        if seg.opaque:
            return f"{seg.opaque} block"
        if seg.stdout_to_file():
            return "output redirected to a file"
        if seg.words and seg.words[0].flags & EXPAND:
            return "the command word is a variable"
        if seg.words and (why := option_programs([w.value for w in seg.words], runs, commands)[0]):
            return f"runs a program named in an option: {why}"
    return ""


def evaluate(
    perms: Permissions,
    parsed: _seg.Line,
    line: str,
    plans: Sequence[tuple[_seg.Segment, _Plan]],
    transparent: _Prefixes = (),
) -> tuple[str, str]:
    """``(verdict, reason)`` for ``line``: verdict is ``allow``, ``ask`` or ``deny``.

    Deny and ask rules match when they match any form of any command on the line (literal,
    resolved, rewritten, nested); an allow needs, for every top-level segment, an allow
    rule matching its literal form and one matching its fully resolved form.
    """
    try:
        return _evaluate(perms, parsed, line, plans, transparent)
    except (_TooDeep, RecursionError):
        return "ask", f"commands run by commands past depth {MAX_DEPTH}: not checked, never auto-allowed"


def _evaluate(
    perms: Permissions,
    parsed: _seg.Line,
    line: str,
    plans: Sequence[tuple[_seg.Segment, _Plan]],
    transparent: _Prefixes,
) -> tuple[str, str]:
    if not (perms.allow or perms.ask or perms.deny or perms.broken):
        return "ask", "no permission rule applies (default: ask)"
    tops: list[tuple[str, list[str], list[str]]] = []  # (segment text, literal forms, resolved forms)
    extra: list[str] = []  # forms that may deny or ask but never allow
    for seg, plan in plans:
        text = _norm([line[t.start : t.end] for t in seg.tokens])
        if seg.opaque:
            for cmd in _commands_of(line, seg, 0):
                extra += _value_forms(cmd, transparent)
            tops.append((text, [], []))
            continue
        literal, resolved = _forms(line, seg, transparent)
        extra += literal + resolved + _value_forms([w.value for w in seg.words], transparent)  # + find -exec CMD ;
        literal, resolved = _forms(line, seg, transparent, words=True)
        for t in seg.tokens:
            if t.kind == WORD and t.flags & (CMDSUB | PROCSUB):
                for cmd in _nested(line[t.start : t.end], 0):
                    extra += _value_forms(cmd, transparent)
        if plan.edit is not None:
            start, end, new = plan.edit
            extra.append(_norm([line[seg.start : start] + new + line[end : seg.end]]))
        tops.append((text, literal, resolved))
    if any(_seg.tool_name(w) in RUNS_BY_NAME for s in parsed.segments() for w in _leads(s)):
        from rtk.rewrite.runs import fed_to_shell  # echo 'rm x' | bash, bash <<< 'rm x'

        extra += [f for cmd in fed_to_shell(parsed, commands) for f in _value_forms(cmd, transparent)]
    for t in parsed.tokens:
        if t.kind == BODY:  # an unquoted here-document body runs its substitutions
            for cmd in _nested(t.value, 0):
                extra += _value_forms(cmd, transparent)
    every = [f for _, lit, res in tops for f in lit + res] + extra
    for pat in perms.deny:
        for f in every:
            if matches(pat, f, broad=True):
                return "deny", f"deny rule Bash({shown(pat)}) matches `{f}`"
    for pat in perms.ask:
        for f in every:
            if matches(pat, f, broad=True):
                return "ask", f"ask rule Bash({shown(pat)}) matches `{f}`"
    if perms.broken:
        return "ask", f"settings cannot be evaluated (unreadable or malformed: {perms.broken}): never auto-allowed"
    why = _unattested(parsed)
    if why:
        return "ask", f"cannot be checked statically ({why}): never auto-allowed"
    for text, literal, resolved in tops:
        if not any(matches(p, f) for p in perms.allow for f in literal):
            return "ask", f"no allow rule for `{text}`"
        if resolved and not any(matches(p, resolved[-1]) for p in perms.allow):
            return "ask", f"no allow rule for `{resolved[-1]}` (`{text}` resolved)"
    return "allow", "every segment matches an allow rule"


class _TooDeep(Exception):
    """Commands run by commands past :data:`MAX_DEPTH` (``sudo sudo ... rm``): not checked, never allowed."""


MAX_DEPTH = 12


def _leads(seg: _seg.Segment) -> list[str]:
    """The words of ``seg`` up to its command word (assignments, wrappers, the command)."""
    values = [w.value for w in seg.words]
    return values[: _seg.peel(values).at + 1]


def _value_forms(values: list[str], transparent: _Prefixes = (), depth: int = 0) -> list[str]:
    """The forms of one command and of those it runs (``find -exec CMD ;``, ``rtk CMD``, ``sudo CMD``...)."""
    from rtk.rewrite.matching import embedded_commands, rtk_shell_line

    out = [_norm(values), *_resolved(values, transparent)] if values else []
    inner = embedded_commands(values, commands) + commands(rtk_shell_line(values) or "")
    if inner and depth >= MAX_DEPTH:
        raise _TooDeep
    for cmd in inner:
        out += _value_forms(cmd, transparent, depth + 1)
    return out


def permission_problem(problem: str) -> bool:
    """A config problem that drops ``hooks.allow``/``ask``/``deny``: nothing is auto-allowed then."""
    return any(f"hooks.{k} must be" in problem for k in ("allow", "ask", "deny"))
