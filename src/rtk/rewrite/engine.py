"""The rewrite engine: the decision for a command line, and command classification.

API (used by ``rtk rewrite``, the agent hooks and history analysis)::

    decide(line, *, agent="claude", cwd=None, permissions=None) -> Decision
        Decision.rewritten   the rewritten line, or None when nothing is rewritten
        Decision.verdict     "allow" | "ask" | "deny" | "none"
        Decision.reason      one line saying why
        Decision.permission  the permission verdict alone: "allow" | "ask" | "deny"
        Decision.exit_code   the ``rtk rewrite`` contract: allow 0, none 1, deny 2, ask 3

    rewrite(line) -> str | None                  the rewrite alone, no permission check
    classify(command, *, active_only=True) -> Classification
        .kind "supported" | "unsupported" | "ignored"; for supported: .rtk ("rtk git"),
        .category, .savings (percent, 0 for passthrough), .status, .rule; .reason always
    classify_line(line) -> list[Classification]  one per segment of a compound line
    classify_segments(line) -> list[(text, words, Classification)]  the same, with each
        segment's text and its words as the shell passes them (history analysis)

``verdict`` is ``deny`` when a deny rule matches any segment (nothing is rewritten
then: rtk never turns a denied command into an allowed one), ``none`` when nothing
is rewritten, else ``allow`` when every segment of the line matches an allow rule
and the line can be attested statically, else ``ask``. ``agent="claude"`` reads the
Claude Code settings files (see :mod:`rtk.rewrite.permissions`); pass
``permissions=Permissions(allow=[...], ask=[...], deny=[...])`` to use another host's
rules, or ``agent=None`` for none (every rewrite is then ``ask``).

Rewriting only inserts ``rtk `` before a command word (after env assignments and
wrappers such as ``timeout 30``; inside ``uv run``/``poetry run``/``bundle exec``/
``pnpm exec`` right before the tool), except three forms that rtk's ``read``
command serves byte-faithfully: ``cat [-n] FILE``, ``head -N FILE``, ``tail -N FILE``.
Everything else on the line is copied as it was.
"""

from __future__ import annotations

import os

from rtk.rewrite import rules as _rules
from rtk.shell import segments as _seg
from rtk.shell.lexer import ANSI_C, CMDSUB, EXPAND, GLOB, PROCSUB

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtk.rewrite.permissions import Permissions
    from rtk.rewrite.rules import Rule
    from rtk.shell.lexer import Token

MAX_LINE = 131072  # the kernel's limit for one argument (MAX_ARG_STRLEN)
EXIT_CODES = {"allow": 0, "none": 1, "deny": 2, "ask": 3}


class Decision:
    """What to do with a command line (see the module docstring)."""

    __slots__ = ("permission", "reason", "rewritten", "verdict")

    def __init__(self, rewritten: str | None, verdict: str, reason: str, permission: str = "ask") -> None:
        self.rewritten = rewritten
        self.verdict = verdict
        self.reason = reason
        self.permission = permission

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]

    def as_tuple(self) -> tuple[str | None, str, str]:
        return self.rewritten, self.verdict, self.reason

    def __repr__(self) -> str:
        return f"Decision({self.rewritten!r}, {self.verdict!r}, {self.reason!r})"


class Classification:
    """How rtk relates to one command (see the module docstring)."""

    __slots__ = ("category", "kind", "reason", "rtk", "rule", "savings", "status", "sub", "tool")

    def __init__(
        self,
        kind: str,
        reason: str,
        rule: Rule | None = None,
        sub: str = "",
        tool: str = "",
        status: str = "",
    ) -> None:
        self.kind = kind
        self.reason = reason
        self.rule = rule
        self.sub = sub
        self.tool = tool
        self.rtk = rule.rtk if rule is not None else ("rtk " + tool if tool and kind == "supported" else "")
        self.category = rule.category if rule is not None else ("Other" if kind == "supported" else "")
        self.status = status or (rule.sub_status.get(sub, rule.status) if rule is not None else "")
        if rule is None:
            self.savings = 60 if kind == "supported" else 0
        elif self.status == "passthrough":
            self.savings = 0
        else:
            self.savings = rule.sub_savings.get(sub, rule.savings)

    def __repr__(self) -> str:
        return f"Classification({self.kind!r}, {self.rtk!r}, {self.reason!r})"


# ---------------------------------------------------------------------------
# What is registered in this build
# ---------------------------------------------------------------------------


class Registry:
    """The rtk targets that exist: filter families, rtk's own commands, TOML filters."""

    def family(self, word: str) -> bool:
        from rtk.filters import FAMILIES

        return word in FAMILIES

    def command(self, word: str) -> bool:
        from rtk import COMMANDS

        return word in COMMANDS

    def toml(self, argv: list[str]) -> bool:
        try:
            return bool(_has_filter()(argv))
        except Exception:  # a broken TOML filter set must not break the hook
            return False

    def registered(self, word: str) -> bool:
        return self.family(word) or self.command(word)


def _has_filter() -> Callable[[list[str]], bool]:
    """``rtk.dsl.lookup.has_filter``, imported only when no Python rule served a command."""
    from rtk.dsl.lookup import has_filter

    return has_filter


registry = Registry()


def active(rule: Rule, argv: list[str]) -> bool:
    """Is ``rule`` served in this build for ``argv`` (the command as rtk would get it)?

    ``rtk read`` forms need the ``read`` command; every other rule needs a filter
    family for the command word (the runner uses it whatever the rule's kind), the
    rule's ``alt`` command, or a TOML filter matching ``argv``.
    """
    if rule.kind == "command":
        return registry.command(rule.rtk.split()[1])
    word = _seg.tool_name(argv[0]) if argv else ""
    if registry.family(word) or (rule.alt and registry.registered(rule.alt)):
        return True
    return registry.toml(argv)


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
    """The first of ``flags`` present in ``args`` (before ``--``), or ""."""
    for a in args:
        if a == "--":
            return ""
        if len(a) < 2 or a[0] != "-":
            continue
        for f in flags:
            if a == f:
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
            if f:
                return f"{f} asks for native output"
    if rule.requires and not _flag_present(args, rule.requires):
        return f"{rule.id} without {rule.requires[0]} is interactive"
    return ""


# ---------------------------------------------------------------------------
# One segment
# ---------------------------------------------------------------------------

_UNSAFE_WORD = EXPAND | CMDSUB | GLOB | PROCSUB | ANSI_C


class _Plan:
    """The edit for one segment, or why there is none."""

    __slots__ = ("cls", "edit")

    def __init__(self, cls: Classification, edit: tuple[int, int, str] | None = None) -> None:
        self.cls = cls
        self.edit = edit


def _plan(seg: _seg.Segment, role: str, conf: Settings, line: str, active_only: bool = True) -> _Plan:
    """Decide one segment. ``role``: alone, producer, final, middle."""
    if seg.opaque:
        return _Plan(Classification("unsupported", f"{seg.opaque} block is left as written"))
    words = seg.words
    if not words:
        return _Plan(Classification("ignored", "no command"))
    values = [w.value for w in words]
    simple = _seg.peel(values, conf.transparent)
    at = simple.at
    if simple.why:
        return _Plan(Classification("unsupported", simple.why))
    if at >= len(values):
        return _Plan(Classification("ignored", "no command"))
    tw = words[at]
    word = tw.value
    tool = _seg.tool_name(word)
    if tw.flags & _UNSAFE_WORD or not tool:
        return _Plan(Classification("unsupported", "the command word is not literal"))
    nxt = values[at + 1] if at + 1 < len(values) else ""
    if tool == "rtk":
        return _Plan(Classification("ignored", "already rtk"))
    if tool in _rules.IGNORED_PREFIXES or (tool, nxt) in _rules.IGNORED_PAIRS:
        return _Plan(Classification("ignored", f"{tool} is never rewritten"))
    if simple.disabled:
        return _Plan(Classification("ignored", "RTK_DISABLED=1"))
    if seg.stdout_to_file():
        return _Plan(Classification("unsupported", "output goes to a file"))
    if role == "middle":
        return _Plan(Classification("unsupported", "middle of a pipeline"))
    res = _seg.resolve(values, at)
    if res.kind and res.tool == "rtk":
        return _Plan(Classification("ignored", "already rtk"))

    # Candidates in order of preference: (rule, sub, index where rtk goes, rule args).
    cands: list[tuple[Rule, str, int]] = []
    if not res.kind:
        m = match(tool, values[at + 1 :])
        if m:
            cands.append((m[0], m[1], at))
    else:
        m = match(_seg.tool_name(res.tool), values[res.rest :])
        if m:
            # python -m pytest / npx tsc: served by rtk <wrapper> ..., so rtk goes in front;
            # uv run pytest: rtk goes right before the tool (or before python -m).
            cands.append((m[0], m[1], at if res.kind == "launcher" else res.index))
        m = match(tool, values[at + 1 :])
        if m:
            cands.append((m[0], m[1], at))

    if not cands:
        if not res.kind and (not active_only or registry.toml(values[at:])):
            # A TOML filter knows this command.
            if role == "final":
                return _Plan(Classification("unsupported", "pipeline consumer"))
            cls = Classification("supported", "TOML filter", tool=tool)
            return _finish(cls, values, at, res, conf, (tw.start, tw.start, "rtk "))
        return _Plan(Classification("unsupported", f"no rtk rule for {tool}", tool=tool))

    first: Classification | None = None
    for rule, sub, idx in cands:
        rule_args = values[idx + 1 :]
        cls = Classification("supported", rule.id, rule, sub, tool)
        if first is None:
            first = cls
        why = _blocked(rule, sub, rule_args)
        if why:
            return _Plan(Classification("unsupported", why, rule, sub, tool))
        if role == "producer" and rule.pipe not in ("producer", "both"):
            return _Plan(Classification("unsupported", f"{rule.id} output must stay raw in a pipeline", rule, sub))
        if role == "final":
            if rule.pipe not in ("final", "both"):
                return _Plan(Classification("unsupported", "pipeline consumer", rule, sub, tool))
            if _flag_present(rule_args, ("-f", "--file")):
                return _Plan(Classification("unsupported", "patterns from a file", rule, sub, tool))
        if rule.kind == "command":  # cat / head / tail -> rtk read
            if res.kind:
                continue
            edit = _read_form(seg, line, words, values, at, tool)
            if edit is None:
                return _Plan(Classification("unsupported", f"{tool} with options rtk read does not model", rule))
            if active_only and not active(rule, values[at:]):
                return _Plan(Classification("unsupported", "rtk read is not built yet", rule, sub, tool))
            return _finish(cls, values, at, res, conf, edit)
        argv = values[idx:]
        if not active_only or active(rule, argv):
            pos = words[idx].start
            text = "rtk "
            if rule.alt and not registry.family(_seg.tool_name(argv[0])) and registry.registered(rule.alt):
                text = f"rtk {rule.alt} "
            return _finish(cls, values, at, res, conf, (pos, pos, text))
    assert first is not None
    target = first.rtk if first.rule is None or first.rule.kind != "toml" else "a TOML filter"
    return _Plan(Classification("unsupported", f"{target} is not built yet", first.rule, first.sub, tool))


def _finish(
    cls: Classification,
    values: list[str],
    at: int,
    res: _seg.Resolved,
    conf: Settings,
    edit: tuple[int, int, str],
) -> _Plan:
    """The single choke point every rewrite passes: ``hooks.exclude_commands``."""
    if conf.exclude or conf.regexes:
        forms = [" ".join(values[at:])]
        tool = _seg.tool_name(values[at])
        args = values[at + 1 :]
        if res.kind:
            forms.append(" ".join([_seg.tool_name(res.tool), *values[res.rest :]]))
        opts = _rules.GLOBAL_OPTS.get(tool)
        stripped: list[str] = []
        i = 0
        while opts is not None and i < len(args) and args[i].startswith("-"):
            i += 2 if (args[i] in opts and "=" not in args[i]) else 1
        stripped = args[i:]
        forms.append(" ".join([tool, *stripped]))
        if conf.excluded(forms):
            return _Plan(Classification("ignored", "excluded by hooks.exclude_commands", cls.rule, cls.sub, cls.tool))
    return _Plan(cls, edit)


def _read_form(
    seg: _seg.Segment, line: str, words: list[Token], values: list[str], at: int, tool: str
) -> tuple[int, int, str] | None:
    """``cat``/``head``/``tail`` of one file as an exact ``rtk read`` (None: leave it)."""
    args = values[at + 1 :]
    argw = words[at + 1 :]
    tw = words[at]
    if not args:
        return None
    if tool == "cat":
        numbered = args[0] == "-n"
        files = argw[1:] if numbered else argw
        if not files or any(w.value.startswith("-") or not w.value for w in files):
            return None
        if numbered and (len(files) != 1 or files[0].flags & _UNSAFE_WORD):
            return None
        return tw.start, tw.end, "rtk read"
    n = "10"
    file: Token | None = None
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-n", "--lines") and i + 1 < len(args):
            n = args[i + 1]
            i += 2
            continue
        if a.startswith("--lines="):
            n = a[8:]
        elif a.startswith("-n") and len(a) > 2:
            n = a[2:]
        elif a.startswith("-") and a[1:].isdigit():
            n = a[1:]
        elif a.startswith("-") or a.startswith("+"):
            return None
        elif file is not None:
            return None  # several files: head prints headers
        else:
            file = argw[i]
        i += 1
    if file is None or not n.isdigit() or int(n) <= 0 or file.flags & _UNSAFE_WORD or not file.value:
        return None
    end = words[-1].end
    for op, _target in seg.redirs:
        if tw.start < op.start < end:
            return None
    line_file = line[file.start : file.end]
    flag = "--head-lines" if tool == "head" else "--tail-lines"
    return tw.start, end, f"rtk read {line_file} {flag} {int(n)}"


# ---------------------------------------------------------------------------
# Lines
# ---------------------------------------------------------------------------


def _consumers_display_only(segs: list[_seg.Segment]) -> bool:
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


class _Walk:
    """A line, parsed, with a plan per simple segment."""

    __slots__ = ("line", "parsed", "plans")

    def __init__(self, line: str, parsed: _seg.Line, plans: list[tuple[_seg.Segment, _Plan]]) -> None:
        self.line = line
        self.parsed = parsed
        self.plans = plans


def _walk(line: str, active_only: bool = True, first_only: bool = False) -> _Walk:
    """Plan every segment (``first_only``: stop after the first that is not ignored)."""
    parsed = _seg.parse(line)
    conf = settings()
    plans: list[tuple[_seg.Segment, _Plan]] = []
    whole = ""
    if not parsed.ok:
        whole = parsed.reason
    elif parsed.heredoc:
        whole = "here-document on the line"
    elif parsed.arith:
        whole = "arithmetic expansion on the line"
    for pipe in parsed.pipelines:
        segs = pipe.segments
        k = len(segs)
        for j, seg in enumerate(segs):
            if whole:
                plans.append((seg, _Plan(Classification("unsupported", whole))))
                continue
            if k == 1:
                role = "alone"
            elif pipe.pipe_amp:
                role = "middle"
            elif j == 0:
                role = "producer" if _consumers_display_only(segs[1:]) else "producer-raw"
            elif j == k - 1:
                role = "final"
            else:
                role = "middle"
            if role == "producer-raw":
                plan = _plan(seg, "producer", conf, line, active_only)
                if plan.edit is not None:
                    plan = _Plan(Classification("unsupported", "output feeds a program", plan.cls.rule))
            else:
                plan = _plan(seg, role, conf, line, active_only)
            plans.append((seg, plan))
            if first_only and plan.cls.kind != "ignored":
                return _Walk(line, parsed, plans)
    return _Walk(line, parsed, plans)


def _apply(line: str, plans: list[tuple[_seg.Segment, _Plan]]) -> str | None:
    edits = sorted(p.edit for _, p in plans if p.edit is not None)
    if not edits:
        return None
    out: list[str] = []
    pos = 0
    for start, end, text in edits:
        out.append(line[pos:start])
        out.append(text)
        pos = end
    out.append(line[pos:])
    return "".join(out)


def _bad_input(line: object) -> str:
    if not isinstance(line, str):
        return "not a string"
    if not line.strip():
        return "empty command"
    if "\x00" in line:
        return "NUL byte in the command"
    if len(line) > MAX_LINE:
        return "command line too long"
    return ""


def rewrite(line: str) -> str | None:
    """The rewritten line, or None (no permission check; see :func:`decide`)."""
    if _bad_input(line) or os.environ.get("RTK_DISABLED", "") not in ("", "0"):
        return None
    return _apply(line, _walk(line).plans)


def decide(
    line: str,
    *,
    agent: str | None = "claude",
    cwd: str | None = None,
    permissions: Permissions | None = None,
) -> Decision:
    """The full decision for ``line``: rewrite plus permission verdict."""
    bad = _bad_input(line)
    if bad:
        return Decision(None, "none", bad)
    if os.environ.get("RTK_DISABLED", "") not in ("", "0"):
        return Decision(None, "none", "RTK_DISABLED is set")
    walk = _walk(line)
    from rtk.rewrite import permissions as _perm

    rules = permissions if permissions is not None else _perm.load(agent, cwd)
    new = _apply(line, walk.plans)
    perm, why = _perm.evaluate(rules, walk.parsed, line, walk.plans)
    if perm == "deny":
        return Decision(None, "deny", why, perm)
    if new is None:
        reasons = [p.cls.reason for _, p in walk.plans if p.cls.kind != "ignored"] or [
            p.cls.reason for _, p in walk.plans
        ]
        return Decision(None, "none", reasons[0] if reasons else "nothing to rewrite", perm)
    return Decision(new, perm, why, perm)


def classify(command: str, *, active_only: bool = True) -> Classification:
    """Classify one command (for a compound line, its first segment that is not ignored)."""
    if _bad_input(command):
        return Classification("ignored", _bad_input(command))
    found = [p.cls for _, p in _walk(command, active_only, first_only=True).plans]
    for c in found:
        if c.kind != "ignored":
            return c
    return found[0] if found else Classification("ignored", _bad_input(command) or "no command")


def classify_line(line: str, *, active_only: bool = True) -> list[Classification]:
    """One classification per segment of ``line``."""
    if _bad_input(line):
        return []
    return [p.cls for _, p in _walk(line, active_only).plans]


def classify_segments(line: str, *, active_only: bool = True) -> list[tuple[str, list[str], Classification]]:
    """``classify_line`` with each segment's text and words (quotes removed), for history analysis."""
    if _bad_input(line):
        return []
    out: list[tuple[str, list[str], Classification]] = []
    for seg, p in _walk(line, active_only).plans:
        text = line[seg.start : seg.end] if seg.start >= 0 else ""
        out.append((text, [w.value for w in seg.words], p.cls))
    return out
