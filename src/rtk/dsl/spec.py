"""A TOML filter as a runner ``Spec``: the pipeline's result, and one line saying what it hid.

The runner treats it like any whole-output filter: never worse than raw, raw
output kept and named when lines were hidden or the command failed. When the
filter leaves nothing to show (and the command failed, so no success message
applies), the raw output is printed.
"""

from __future__ import annotations

from rtk.dsl import engine
from rtk.filterapi import Filtered, Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.dsl.lookup import Match


APPLY_LIMIT = 3.0  # seconds a user or project filter may take over one output (rtk.dsl.deadline)


def footer(name: str, res: engine.Result) -> str:
    """``[rtk] NAME: 12 of 40 lines hidden`` (and how many were shortened), or ''."""
    parts = []
    if res.dropped:
        parts.append(f"{res.dropped} of {res.total} lines hidden")
    if res.shortened:
        parts.append(f"{res.shortened} long line{'s' if res.shortened != 1 else ''} shortened")
    return f"[rtk] {name}: {', '.join(parts)}" if parts else ""


def run_filter(d: dict[str, Any], output: str, exit_code: int, limit: float = 0.0) -> Filtered | None:
    """Apply definition ``d`` (stopped after ``limit`` seconds when given); None (show raw) when nothing is left."""
    if limit:
        from rtk.dsl import deadline

        res = deadline.limited(limit, engine.apply, d, output, exit_code)
    else:
        res = engine.apply(d, output, exit_code)
    if not res.text.strip():
        return None
    extra = footer(str(d["name"]), res)
    text = res.text + ("\n" + extra if extra else "")
    return Filtered(text, cut=res.cut)


def spec_for_match(m: Match) -> Spec:
    d = m.definition
    if d.get("fold_stream"):  # a follow mode: runs live, folded as it streams (rtk.fold.live)
        from rtk.fold import live as foldstream

        window = int(d.get("fold_lines") or 50)
        factory = foldstream.factory(window, foldstream.FOLLOW_IDLE)
        return Spec(str(d["name"]), stream=factory, merge_stderr=bool(d.get("filter_stderr")))

    # A user or project file's regexes are the user's (or a checkout's): a catastrophic one is stopped.
    limit = 0.0 if m.tier == "builtin" else APPLY_LIMIT

    def run(argv: list[str], output: str, exit_code: int) -> Filtered | None:
        return run_filter(d, output, exit_code, limit)

    return Spec(str(d["name"]), run, merge_stderr=bool(d.get("filter_stderr")))


def spec_for(argv: list[str]) -> Spec | None:
    """The Spec of the TOML filter that handles ``argv`` (notices printed), or None."""
    from rtk.dsl import lookup

    m = lookup.find(argv, report=True)
    return spec_for_match(m) if m is not None else None
