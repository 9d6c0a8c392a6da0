"""The 8-stage pipeline of a TOML filter, in the normative order.

1. strip_ansi (then rtk's ``table_cells``: an aligned table's cells joined by tabs)  2. replace (per line, chained)  3. match_output (whole-output
short-circuit, with ``unless``)  4. strip_lines_matching / keep_lines_matching
5. truncate_lines_at  6. fold_lines, else (rtk's ``listing``: whole up to a token budget, above it grouped
with exact counts, else) head_lines / tail_lines  7. max_lines  8. on_empty.

One rule of rtk's own on top: a short-circuit message or ``on_empty`` claims
success, so neither applies when the command failed (exit code not 0): the
stages then fall through, and an empty result means "show the raw output".
Regexes are compiled once per process, on first use.
"""

from __future__ import annotations

import re

from rtk.text import split_lines, strip_ansi

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_compiled: dict[str, re.Pattern[str]] = {}
_replacements: dict[str, str] = {}


def rx(pattern: str) -> re.Pattern[str]:
    p = _compiled.get(pattern)
    if p is None:
        p = _compiled[pattern] = re.compile(pattern)
    return p


def python_replacement(repl: str) -> str:
    """A replacement with ``$1``/``${1}``/``${name}`` backreferences (``$$`` = ``$``) in ``re.sub`` syntax."""
    got = _replacements.get(repl)
    if got is not None:
        return got
    out: list[str] = []
    i = 0
    n = len(repl)
    while i < n:
        c = repl[i]
        if c == "\\":
            out.append("\\\\")
        elif c == "$" and i + 1 < n:
            nxt = repl[i + 1]
            if nxt == "$":
                out.append("$")
                i += 1
            elif nxt.isdigit():
                j = i + 1
                while j < n and repl[j].isdigit():
                    j += 1
                out.append(f"\\g<{repl[i + 1 : j]}>")
                i = j - 1
            elif nxt == "{" and "}" in repl[i + 2 :]:
                j = repl.index("}", i + 2)
                out.append(f"\\g<{repl[i + 2 : j]}>")
                i = j
            else:
                out.append("$")
        else:
            out.append(c)
        i += 1
    got = _replacements[repl] = "".join(out)
    return got


class _Marker(str):
    """An omission marker line (not content)."""

    __slots__ = ()


class Result:
    """What the pipeline made of one output."""

    __slots__ = ("dropped", "short_circuit", "shortened", "text", "total")

    def __init__(self, text: str, total: int, dropped: int, shortened: int, short_circuit: bool) -> None:
        self.text = text  # the filtered output, no trailing newline
        self.total = total  # non-blank lines in the input
        self.dropped = dropped  # non-blank input lines not in the output
        self.shortened = shortened  # lines cut by truncate_lines_at
        self.short_circuit = short_circuit  # match_output or on_empty replaced the output

    @property
    def cut(self) -> int:
        return self.dropped + self.shortened


def _nonblank(lines: list[str]) -> int:
    return sum(1 for ln in lines if ln.strip() and not isinstance(ln, _Marker))


def apply(d: dict[str, Any], text: str, exit_code: int = 0) -> Result:
    """Run filter definition ``d`` over ``text``; ``exit_code`` is the command's."""
    # 1. strip_ansi
    if d.get("strip_ansi"):
        text = strip_ansi(text)
    lines: list[str] = split_lines(text)
    total = _nonblank(lines)
    failed = exit_code != 0
    # 1b. (rtk) every aligned table: its cells, cut where all its lines are blank, joined by one tab
    if d.get("table_cells"):
        from rtk.dsl.table import table_cells

        lines = table_cells(lines, common=bool(d.get("table_common")))
    # 2. replace, line by line, rules chained
    for pattern, replacement in d.get("replace") or ():
        p = rx(pattern)
        r = python_replacement(replacement)
        lines = [p.sub(r, ln) for ln in lines]
    # 3. match_output: the first rule that matches (and whose `unless` does not) replaces everything
    if not failed and d.get("match_output"):
        blob = "\n".join(lines)
        for pattern, message, unless in d["match_output"]:
            if rx(pattern).search(blob) and not (unless and rx(unless).search(blob)):
                return Result(message, total, total, 0, True)
    # 4. strip or keep lines
    if d.get("strip_lines_matching"):
        pats = [rx(p) for p in d["strip_lines_matching"]]
        lines = [ln for ln in lines if not any(p.search(ln) for p in pats)]
    elif d.get("keep_lines_matching"):
        pats = [rx(p) for p in d["keep_lines_matching"]]
        lines = [ln for ln in lines if any(p.search(ln) for p in pats)]
    # 5. truncate long lines (characters, not bytes)
    shortened = 0
    width = d.get("truncate_lines_at")
    if width:
        out = []
        for ln in lines:
            if len(ln) > width:
                out.append(f"{ln[:width]}…(+{len(ln) - width} chars)")  # says how much went
                shortened += 1
            else:
                out.append(ln)
        lines = out
    # 6. a long output folded (each kind of line once, counts and line ranges, anomalies whole), else
    # head / tail with one omission marker
    head = d.get("head_lines") or 0
    tail = d.get("tail_lines") or 0
    limit = d.get("fold_lines") or 0
    if limit and len(lines) > limit:
        from rtk import fold

        folded = fold.fold_output(lines)
        # With a head/tail cut to fall back on, a fold that keeps more than half of the lines (and more than
        # the cut would) loses to it: a boot log (dmesg) is nearly all one-off lines, which a fold keeps whole.
        if (
            folded is not None
            and folded[1]
            and (not (head or tail) or len(folded[0]) <= max(len(lines) // 2, head + tail + 1))
        ):
            lines = folded[0]
            head = tail = 0
    # 6b. (rtk) a listing is whole up to limits.listing_budget tokens; above it grouped with exact counts
    kind = d.get("listing")
    if kind:
        from rtk.dsl import listing

        limit = listing.budget()
        if listing.fits(lines, limit):
            head = tail = 0
        else:
            if kind == "paths":
                grouped = listing.by_depth(lines, limit)
            else:
                grouped = (
                    listing.by_key(lines, list(d.get("listing_key") or ()), limit) if d.get("listing_key") else None
                )
            if grouped is not None:
                lines = grouped
                head = tail = 0
    if head and tail:
        if len(lines) > head + tail:
            lines = [*lines[:head], *_middle(lines[head:-tail], [*lines[:head], *lines[-tail:]]), *lines[-tail:]]
    elif head:
        if len(lines) > head:
            lines = [*lines[:head], _Marker(f"... ({len(lines) - head} lines omitted)")]
    elif tail and len(lines) > tail:
        lines = [_Marker(f"... ({len(lines) - tail} lines omitted)"), *lines[-tail:]]
    # 7. absolute cap
    cap = d.get("max_lines")
    if cap and len(lines) > cap:
        lines = [*lines[:cap], _Marker(f"... ({len(lines) - cap} lines truncated)")]
    kept = _nonblank(lines)
    result = "\n".join(lines)
    # 8. on_empty
    if not result.strip():
        if d.get("on_empty") is not None and not failed:
            return Result(d["on_empty"], total, total, 0, True)
        result = ""
    return Result(result, total, max(total - kept, 0), shortened, False)


def _middle(middle: list[str], shown: list[str]) -> list[str]:
    """The omitted middle of a head/tail cut: its problem lines that hold a fact, in place; the rest counted."""
    from rtk import factguard

    text = "\n".join(middle)
    lost = factguard.missing(text, "\n".join(shown), counted=True)
    keep = {text.count("\n", 0, at) for at in lost.values()}  # missing() gives character offsets
    out: list[str] = []
    n = 0
    for i, ln in enumerate(middle):
        if i in keep:
            if n:
                out.append(_Marker(f"... ({n} lines omitted)"))
            out.append(ln)
            n = 0
        else:
            n += 1
    if n:
        out.append(_Marker(f"... ({n} lines omitted)"))
    return out


def command_string(argv: list[str]) -> str:
    """What ``match_command`` is tested against: argv joined by spaces, argv[0] by its base name."""
    if not argv:
        return ""
    return " ".join([argv[0].rsplit("/", 1)[-1], *argv[1:]])


def matches(d: dict[str, Any], command: str) -> bool:
    return rx(d["match_command"]).search(command) is not None
