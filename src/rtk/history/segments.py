"""What each part of an agent's command line means for rtk: the rewrite engine's classification, per segment.

Every segment of a command line gets one ``role``:

- ``rtk``: it already ran through rtk (``rtk git log``); ``proxy``: ``rtk proxy X``,
  which runs ``X`` raw on purpose; ``disabled``: ``RTK_DISABLED=1 X`` (raw on purpose);
- ``missed``: rtk has an active rule for it (``git status``) and it ran raw
  (unless the tracking database shows a hook rewrote it);
- ``candidate``: no rule covers it yet, or the rule's filter is not built yet: a
  candidate for a new filter;
- ``by_design``: a rule exists but this form stays raw (its output feeds another
  program, goes to a file, an interactive or machine-readable mode...);
- ``passthrough``: rtk would rewrite it but its filter does not shorten this form
  (``git status --short``, an explicit format flag): it would save nothing;
- ``ignored``: rtk never rewrites these (``cd``, ``echo``, ``sed``...).

``key`` groups segments the way reports show them: ``git status``, ``grep``, ``jq``;
``filter`` is the name rtk's tracking uses for the filter that serves it (``git-log``,
``read``), "" when none does.
Classifications are cached per command line (agents repeat themselves a lot); the
cache is bounded.
"""

from __future__ import annotations

from rtk.rewrite import engine
from rtk.rewrite import rules as _rules
from rtk.shell import segments as _seg
from rtk.text import join

MAX_CACHE = 8192
_RTK_FLAGS = frozenset(("-v", "--verbose", "--ultra-compact", "--skip-env"))
# rtk's management commands: running them is not running a tool through rtk.
MANAGEMENT = frozenset((
    "cc-economics", "config", "discover", "filters", "gain", "hook", "init", "learn", "rewrite", "session",
    "trust", "untrust", "verify", "telemetry", "recall",
))  # fmt: skip


class Seg:
    """One segment of a command line, classified (see the module docstring)."""

    __slots__ = ("argv", "cls", "filter", "key", "role", "savings", "text", "tool")

    def __init__(
        self, role: str, text: str, argv: list[str], key: str, tool: str, cls: engine.Classification, filt: str = ""
    ) -> None:
        self.role = role
        self.filter = filt
        self.text = text
        self.argv = argv  # the command's words without env prefixes and wrappers (for rtk: after `rtk`)
        self.key = key
        self.tool = tool
        self.cls = cls
        self.savings = cls.savings

    @property
    def original(self) -> str:
        """The command as rtk's tracking records it (``join(argv)``)."""
        return join(self.argv)

    def originals(self) -> list[str]:
        """Every form rtk's tracking may have recorded for this command: ``uv run pytest -x`` runs
        as ``uv run rtk pytest -x``, tracked as ``pytest -x``."""
        out = [join(self.argv)]
        rule = self.cls.rule
        if rule is not None:
            for i in range(1, len(self.argv)):
                if _seg.tool_name(self.argv[i]) in rule.tools:
                    out.append(join(self.argv[i:]))
                    break
        return out

    def __repr__(self) -> str:
        return f"Seg({self.role}, {self.key!r})"


_cache: dict[str, list[Seg]] = {}
_names: dict[str, str] = {}


def of(line: str) -> list[Seg]:
    """The segments of a command line (cached)."""
    hit = _cache.get(line)
    if hit is not None:
        return hit
    try:
        segs = [s for s in (_one(text, words, cls) for text, words, cls in engine.classify_segments(line)) if s]
    except Exception:  # a line the lexer cannot take is simply not analysed
        segs = []
    if len(_cache) >= MAX_CACHE:
        del _cache[next(iter(_cache))]
    _cache[line] = segs
    return segs


def key_of(cls: engine.Classification, tool: str, argv: list[str] | None = None) -> str:
    rule = cls.rule
    if rule is not None and rule.subs is not None and cls.sub and not cls.sub.startswith("-"):
        return f"{tool} {cls.sub}"
    if rule is None and argv and tool in _rules.BY_TOOL:
        # A tool rtk knows, in a subcommand no rule covers: `npm test`.
        for a in argv[1:]:
            if a.startswith("-"):
                continue
            if a.isascii() and a[:1].isalpha() and a.replace("-", "").replace(":", "").isalnum() and len(a) <= 24:
                return f"{tool} {a}"
            break
    return tool


def _filter_for(cls: engine.Classification, argv: list[str]) -> str:
    """The tracking name of what serves ``argv``: an rtk command (``read``) or a filter; "" for none."""
    rule = cls.rule
    if rule is not None and rule.kind == "command":
        return rule.rtk.split()[1]
    name = filter_name(argv)
    return "" if name.startswith("rtk ") else name


def _one(text: str, words: list[str], cls: engine.Classification) -> Seg | None:
    if not words:
        if cls.kind == "unsupported":
            return Seg("by_design", text, [], "(" + cls.reason.split(" ")[0] + ")", "", cls)
        return None
    at = _seg.peel(words).at
    argv = words[at:]
    if not argv:
        return None
    tool = _seg.tool_name(argv[0])
    if tool == "rtk":
        return _rtk(text, argv, cls)
    if cls.reason == "already rtk":  # uv run rtk pytest
        i = next((k for k, w in enumerate(argv) if _seg.tool_name(w) == "rtk"), -1)
        if i > 0:
            return _rtk(text, argv[i:], cls)
    if cls.kind == "ignored":
        if cls.reason == "RTK_DISABLED=1":
            inner = engine.classify(join(argv))
            return Seg("disabled", text, argv, key_of(inner, tool, argv), tool, inner, _filter_for(inner, argv))
        return Seg("ignored", text, argv, tool, tool, cls)
    if cls.kind == "supported":
        filt = _filter_for(cls, argv)
        return Seg("missed" if filt else "passthrough", text, argv, key_of(cls, tool), tool, cls, filt)
    reason = cls.reason
    if reason.startswith("no rtk rule for") or reason.endswith("is not built yet"):
        return Seg("candidate", text, argv, key_of(cls, tool, argv), tool, cls)
    return Seg("by_design", text, argv, key_of(cls, tool, argv), tool, cls)


def _rtk(text: str, argv: list[str], cls: engine.Classification) -> Seg:
    rest = argv[1:]
    while rest and (rest[0] in _RTK_FLAGS or (rest[0].startswith("-v") and set(rest[0][1:]) == {"v"})):
        rest = rest[1:]
    if rest and rest[0] == "proxy":
        inner_argv = rest[1:]
        inner = engine.classify(join(inner_argv)) if inner_argv else cls
        tool = _seg.tool_name(inner_argv[0]) if inner_argv else "proxy"
        return Seg(
            "proxy", text, inner_argv, key_of(inner, tool, inner_argv), tool, inner, _filter_for(inner, inner_argv)
        )
    if not rest or rest[0] in MANAGEMENT or rest[0].startswith("-"):
        return Seg("ignored", text, rest, "rtk", "rtk", cls)
    tool = _seg.tool_name(rest[0])
    from rtk import COMMANDS

    if tool in COMMANDS:  # rtk read / json / log...: the command is its own tracking name
        return Seg("rtk", text, rest, tool, tool, cls, tool)
    inner = engine.classify(join(rest), active_only=False)
    return Seg("rtk", text, rest, key_of(inner, tool, rest), tool, inner, filter_name(rest))


def filter_name(argv: list[str]) -> str:
    """The tracking name of the filter rtk would use for ``argv`` (``git-log``), else ``rtk <tool>``."""
    if not argv:
        return "rtk"
    k = join(argv)
    hit = _names.get(k)
    if hit is not None:
        return hit
    name = _resolve(argv) or f"rtk {_seg.tool_name(argv[0])}"
    if len(_names) >= MAX_CACHE:
        del _names[next(iter(_names))]
    _names[k] = name
    return name


def _resolve(argv: list[str]) -> str:
    try:
        from rtk import filters

        spec = filters.lookup(argv)
        if spec is not None:
            return spec.name
        if filters.tool_name(argv[0]) in filters.FAMILIES:
            return ""
        from rtk.dsl import lookup as toml

        m = toml.find(argv, report=False)
        if m is None:
            return ""
        from rtk.dsl.spec import spec_for_match

        return spec_for_match(m).name
    except Exception:  # a filter that cannot even select: name it by the tool
        return ""


def reset() -> None:
    _cache.clear()
    _names.clear()
