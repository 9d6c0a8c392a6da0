"""The rewrite engine: the decision for a command line, and command classification.

API (``decide``, ``rewrite``, ``classify``, ``classify_line``, ``classify_segments``) and
the rules it applies are documented in docs/rewrite.md. In short: ``decide(line)`` gives a
:class:`Decision` (``rewritten``, ``verdict`` allow/ask/deny/none, ``reason``,
``permission``, ``exit_code``); a deny rule on any segment means nothing is rewritten;
``allow`` needs an allow rule for every segment and a line that can be attested
statically. Rewriting only inserts ``rtk `` before a command word (after env assignments
and wrappers), except the ``cat``/``head``/``tail`` forms that ``rtk read`` serves
byte-faithfully; everything else on the line is copied as it was.
"""

from __future__ import annotations

import os

from rtk.rewrite import launch as _launch
from rtk.rewrite import rules as _rules
from rtk.rewrite.matching import (  # noqa: F401  (match, reset, Settings: part of this module's API)
    UNSAFE_WORD,
    Settings,
    _blocked,
    _flag_present,
    _read_form,
    consumers_display_only,
    match,
    reset,
    resolved_forms,
    script_form,
    settings,
    uv_script,
)
from rtk.shell import segments as _seg

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtk.rewrite.permissions import Permissions
    from rtk.rewrite.rules import Rule

MAX_LINE = 131072  # the kernel's limit for one argument (MAX_ARG_STRLEN)
EXIT_CODES = {"allow": 0, "none": 1, "deny": 2, "ask": 3}


class Decision:
    """What to do with a command line (see the module docstring)."""

    __slots__ = ("permission", "permission_reason", "reason", "rewritten", "verdict")

    def __init__(
        self, rewritten: str | None, verdict: str, reason: str, permission: str = "ask", permission_reason: str = ""
    ) -> None:
        self.rewritten = rewritten
        self.verdict = verdict
        self.reason = reason
        self.permission = permission
        self.permission_reason = (
            permission_reason  # why ``permission`` (an ask rule...) when ``reason`` says something else
        )

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
# One segment
# ---------------------------------------------------------------------------

_UNSAFE_WORD = UNSAFE_WORD
# Where the cat/head/tail that rtk read stands in for live; another path (./cat, bin/head) is the
# user's own program, which rtk read must not replace.
_SYSTEM_BIN = frozenset(("/bin", "/usr/bin"))


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
    if at == len(values) and values[-1] == "env" and at > 0:
        at -= 1  # a bare `env` is not a wrapper: it prints the environment (rtk env)
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
    script = script_form(word, values[at + 1 :])  # python3 x.py, bash ./deploy.sh, ./run.sh: rtk run
    if (tool in _rules.IGNORED_PREFIXES and not script) or (tool, nxt) in _rules.IGNORED_PAIRS:
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
    if tool == "uv" and res.kind and uv_script(values, res):
        inner = match(_seg.tool_name(res.tool), values[res.rest :])  # uv run pytest keeps its tool's rule
        if not inner or (inner[0].requires and not _flag_present(values[res.rest :], inner[0].requires)):
            return _script(role, values, at, res, conf, tw.start, tool)  # uv run x.py / node x.js: as python3 x.py

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
        if script:
            return _script(role, values, at, res, conf, tw.start, tool)
        return _Plan(Classification("unsupported", f"no rtk rule for {tool}", tool=tool))

    first: Classification | None = None
    for rule, sub, idx in cands:
        rule_args = values[idx + 1 :]
        cls = Classification("supported", rule.id, rule, sub, tool)
        if first is None:
            first = cls
        why = _blocked(rule, sub, rule_args)
        if why and script and rule.requires and not _flag_present(rule_args, rule.requires):
            return _script(role, values, at, res, conf, tw.start, tool)  # node x.js: a script, not node --test
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
            if "/" in word and os.path.dirname(word) not in _SYSTEM_BIN:
                return _Plan(Classification("unsupported", f"{word} is not the system {tool}", rule, sub, tool))
            edit = _read_form(seg, line, words, values, at, tool)
            if edit is None and tool == "tail" and _flag_present(rule_args, ("-f", "-F", "--follow")):
                follow = _rules.TAIL_FOLLOW  # tail -f: live, folded as it streams (a TOML filter)
                if not active_only or active(follow, values[at:]):
                    cls = Classification("supported", follow.id, follow, "", tool)
                    return _finish(cls, values, at, res, conf, (tw.start, tw.start, "rtk "))
            if edit is None:
                return _Plan(Classification("unsupported", f"{tool} with options rtk read does not model", rule))
            if active_only and not active(rule, values[at:]):
                return _Plan(Classification("unsupported", "rtk read is not built yet", rule, sub, tool))
            if role == "producer" and "--head-lines" not in edit[2]:
                # cat a.log | head: head and tail show the file's own lines, never a folded view of them
                edit = (edit[0], edit[1], "rtk read --raw" + edit[2][len("rtk read") :])
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


def _script(role: str, values: list[str], at: int, res: _seg.Resolved, conf: Settings, pos: int, tool: str) -> _Plan:
    """A script run: ``rtk run`` goes before the interpreter (or the script's own path)."""
    if role == "final":
        return _Plan(Classification("unsupported", "pipeline consumer", _rules.SCRIPT, "", tool))
    cls = Classification("supported", "script", _rules.SCRIPT, "", tool)
    return _finish(cls, values, at, res, conf, (pos, pos, "rtk run "))


def _finish(
    cls: Classification,
    values: list[str],
    at: int,
    res: _seg.Resolved,
    conf: Settings,
    edit: tuple[int, int, str],
) -> _Plan:
    """The single choke point every rewrite passes: ``hooks.exclude_commands``."""
    if (conf.exclude or conf.regexes) and conf.excluded(resolved_forms(values, at, res)):
        return _Plan(Classification("ignored", "excluded by hooks.exclude_commands", cls.rule, cls.sub, cls.tool))
    return _Plan(cls, edit)


# ---------------------------------------------------------------------------
# Lines
# ---------------------------------------------------------------------------


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
                role = "producer" if consumers_display_only(segs[1:]) else "producer-raw"
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


def _resolvable(walk: _Walk, launch: _launch.Launch | None) -> _Walk:
    """Every inserted ``rtk`` becomes a command that resolves where it runs (:mod:`rtk.rewrite.launch`)."""
    fixed = _launch.settle(walk.line, [(s, p.edit) for s, p in walk.plans], launch or _launch.LIBRARY)
    for k, (edit, why) in enumerate(fixed):
        seg, p = walk.plans[k]
        if why:
            walk.plans[k] = (seg, _Plan(Classification("unsupported", why, p.cls.rule, p.cls.sub, p.cls.tool)))
        else:
            p.edit = edit
    return walk


def rewrite(line: str, *, launch: _launch.Launch | None = None) -> str | None:
    """The rewritten line, or None (no permission check; see :func:`decide`)."""
    if _bad_input(line) or os.environ.get("RTK_DISABLED", "") not in ("", "0"):
        return None
    return _apply(line, _resolvable(_walk(line), launch).plans)


def decide(
    line: str,
    *,
    agent: str | None = "claude",
    cwd: str | None = None,
    permissions: Permissions | None = None,
    launch: _launch.Launch | None = None,
) -> Decision:
    """The full decision for ``line``: rewrite plus permission verdict (``launch``: see :mod:`rtk.rewrite.launch`)."""
    bad = _bad_input(line)
    if bad:
        return Decision(None, "none", bad)
    if os.environ.get("RTK_DISABLED", "") not in ("", "0"):
        return Decision(None, "none", "RTK_DISABLED is set")
    walk = _resolvable(_walk(line), launch)
    from rtk.rewrite import permissions as _perm

    rules = permissions if permissions is not None else _perm.load(agent, cwd)
    new = _apply(line, walk.plans)
    perm, why = _perm.evaluate(rules, walk.parsed, line, walk.plans, settings().transparent)
    if perm == "deny":
        return Decision(None, "deny", why, perm)
    if new is None:
        reasons = [p.cls.reason for _, p in walk.plans if p.cls.kind != "ignored"] or [
            p.cls.reason for _, p in walk.plans
        ]
        return Decision(None, "none", reasons[0] if reasons else "nothing to rewrite", perm, why)
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
