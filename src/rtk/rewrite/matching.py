"""Matching a command's words: its rtk rule, the flags that block a rewrite, and its resolved forms.

``resolved_forms`` is the one resolver behind ``hooks.exclude_commands`` and the permission
rules: env assignments and wrappers peeled (by the caller), the tool's path reduced to its
name, ``python -m``/``uv run``/``npx``-style wrappers resolved to the tool they run, and
the tool's global options (``git -C dir``, ``git --no-pager``, ``kubectl -n ns``...) stripped.
"""

from __future__ import annotations

import os

from rtk.rewrite import rules as _rules
from rtk.shell import segments as _seg

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtk.rewrite.rules import Rule


# ---------------------------------------------------------------------------
# Configuration (read only when the config file exists)
# ---------------------------------------------------------------------------


class Settings:
    """``hooks.exclude_commands`` and ``hooks.transparent_prefixes``."""

    __slots__ = ("exclude", "regexes", "transparent")

    def __init__(self, exclude: list[str], transparent: list[str]) -> None:
        self.exclude = [" ".join(e.split()) for e in exclude if not e.startswith("^") and e.strip()]
        self.regexes: list[Callable[[str], object]] = []
        pats = [e for e in exclude if e.startswith("^")]
        if pats:
            import re

            for p in pats:
                try:
                    self.regexes.append(re.compile(p).search)
                except re.error:
                    continue
        self.transparent = tuple(tuple(p.split()) for p in transparent if p.split())

    def excluded(self, forms: list[str]) -> bool:
        for f in forms:
            for e in self.exclude:
                if f == e or f.startswith(e + " "):
                    return True
            for rx in self.regexes:
                if rx(f):
                    return True
        return False


_settings: list[Settings] = []


def settings() -> Settings:
    """The hook settings from the config file (defaults when there is none)."""
    if not _settings:
        from rtk import paths

        if os.path.exists(paths.config_file()):
            from rtk import config

            values = config.load(report=False)
            _settings.append(Settings(values["hooks.exclude_commands"], values["hooks.transparent_prefixes"]))
        else:
            _settings.append(Settings([], []))
    return _settings[0]


def reset() -> None:
    """Forget cached settings (tests, long-running hosts)."""
    _settings.clear()


# ---------------------------------------------------------------------------
# Rule matching
# ---------------------------------------------------------------------------


_GLUED = frozenset(("-o", "-F", "-f", "-c"))  # short options often written with their value: -ojson, -c3


def _flag_present(args: list[str], flags: tuple[str, ...]) -> str:
    """The first of ``flags`` present in ``args`` (before ``--``), or "" (``--output=json``: with that value)."""
    for i, a in enumerate(args):
        if a == "--":
            return ""
        if len(a) < 2 or a[0] != "-":
            continue
        for f in flags:
            if a == f:
                return f
            if "=" in f and a == f.split("=", 1)[0] and args[i + 1 : i + 2] == [f.split("=", 1)[1]]:
                return f
            if f.startswith("--"):
                if a.startswith(f + "="):
                    return f
            elif len(f) == 2 and not a.startswith("--"):
                if 2 < len(a) <= 4 and a[1:].isalpha() and f[1] in a[1:]:
                    return f  # in a cluster: -it, -ip
                if f in _GLUED and a.startswith(f):
                    return f
    return ""


def _words_after_opts(tool: str, args: list[str], count: int) -> list[str]:
    """The first ``count`` non-option words of ``args`` (skipping tool global options)."""
    opts = _rules.GLOBAL_OPTS.get(tool, frozenset())
    out: list[str] = []
    i = 0
    n = len(args)
    while i < n and len(out) < count:
        a = args[i]
        if a.startswith("-") and a != "-":
            if a == "--":
                break
            i += 2 if (a in opts and "=" not in a) else 1
            continue
        if a.startswith("+") and tool == "cargo" and not out:
            i += 1
            continue
        out.append(a)
        i += 1
    return out


def match(tool: str, args: list[str]) -> tuple[Rule, str] | None:
    """The rule covering ``tool args`` and the subcommand it matched, or None."""
    cands = _rules.BY_TOOL.get(tool)
    if not cands:
        return None
    words: list[str] | None = None
    for rule in cands:
        if rule.subs is None:
            if words is None:
                words = _words_after_opts(tool, args, 2)
            return rule, (words[0] if words else "")
        for sub in rule.subs:
            if sub.startswith("-"):
                if args and args[0] == sub:
                    return rule, sub
                continue
            if words is None:
                words = _words_after_opts(tool, args, 2)
            parts = sub.split(" ")
            if len(words) < len(parts):
                continue
            ok = True
            for p, w in zip(parts, words, strict=False):
                if p.endswith("*"):
                    if not w.startswith(p[:-1]):
                        ok = False
                        break
                elif p != w:
                    ok = False
                    break
            if ok:
                return rule, sub
    return None


def _blocked(rule: Rule, sub: str, args: list[str]) -> str:
    """Why ``rule`` must not rewrite this invocation, or ""."""
    status = rule.sub_status.get(sub, rule.status)
    if status == "never":
        return f"{rule.id} {sub}: never rewritten".replace("  ", " ")
    for key in ("", sub) if sub else ("",):
        flags = rule.raw_flags.get(key)
        if flags:
            f = _flag_present(args, flags)
            if f and not (rule.views and _flag_present(args, rule.views)):
                return f"{f} asks for native output"
    if rule.requires and not _flag_present(args, rule.requires):
        return f"{rule.id} without {rule.requires[0]} is interactive"
    if rule.min_words and len(_words_after_opts(rule.tools[0], args, rule.min_words)) < rule.min_words:
        return f"{rule.id} without a command is interactive"
    if rule.id == "ssh":  # issue 16: ssh HOST alone is a login shell; only HOST COMMAND forms are filtered
        from rtk.filters.ssh.forms import remote_command

        if remote_command(args) is None:
            return "ssh without a remote command is interactive"
    return ""


# ---------------------------------------------------------------------------
# The resolved form (exclusions and permission rules)
# ---------------------------------------------------------------------------


def strip_global(tool: str, args: list[str]) -> list[str]:
    """``args`` without the tool's leading global options (``-C dir``, ``--no-pager``, ``-c k=v``)."""
    opts = _rules.GLOBAL_OPTS.get(tool)
    if opts is None:
        return args
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if (args[i] in opts and "=" not in args[i]) else 1
    return args[i:]


def resolved_forms(values: list[str], at: int, res: _seg.Resolved) -> list[str]:
    """The command from ``values[at]`` as written, with its tool's global options stripped, and
    through its wrapper (``uv run pytest`` -> ``pytest``); the last one is the fully resolved form."""
    tool = _seg.tool_name(values[at])
    forms = [" ".join(values[at:]), " ".join([tool, *strip_global(tool, values[at + 1 :])])]
    if res.kind:
        inner = _seg.tool_name(res.tool)
        forms.append(" ".join([inner, *values[res.rest :]]))
        forms.append(" ".join([inner, *strip_global(inner, values[res.rest :])]))
    return forms


def consumers_display_only(segs: list[_seg.Segment]) -> bool:
    """Every pipeline consumer in ``segs`` only displays text (head, tail without -f, less, cat)."""
    for s in segs:
        if s.opaque or not s.words or s.stdout_to_file():
            return False
        values = [w.value for w in s.words]
        simple = _seg.peel(values)
        if simple.why or simple.at >= len(values):
            return False
        tool = _seg.tool_name(values[simple.at])
        args = values[simple.at + 1 :]
        if tool not in _rules.DISPLAY_ONLY:
            return False
        if tool == "cat" and any(a != "-" for a in args):
            return False
        if tool == "tail" and _flag_present(args, ("-f", "-F", "--follow", "--retry")):
            return False
    return True
