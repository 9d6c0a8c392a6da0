"""``rtk discover``: what past agent sessions ran raw that rtk would have shortened, and what it could learn to.

Reads Claude Code and Codex CLI transcripts (see :mod:`rtk.history`), classifies
every shell command with the rewrite engine, and reports missed commands with
estimated savings, the adoption rate, commands no rule covers yet, and per filter
the re-run signal. The tracking database, when there is one, tells which commands a
hook sent through rtk and gives measured savings rates.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rtk.commands import _history as H
from rtk.history import Problems, scan
from rtk.history.analyze import RERUN_WINDOW, Analysis
from rtk.history.tracked import Tracked


def _parser() -> argparse.ArgumentParser:
    p = H.Parser(
        prog="rtk discover",
        description="Commands past agent sessions ran raw that rtk would have shortened, the adoption rate,"
        " candidates for new filters, and filters whose output was re-run raw.",
        epilog=f"{H.ESTIMATE_NOTE}; {H.PRIVACY_NOTE}.",
    )
    H.add_scope_flags(p)
    p.add_argument("-l", "--limit", type=int, default=15, metavar="N", help="rows per table (default 15)")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
    return p


def collect(sc: scan.Scope, limit: int = 15, problems: Problems | None = None) -> dict[str, Any]:
    """Scan the sessions in ``sc`` and return the report (also used by ``rtk gain --html``)."""
    problems = problems if problems is not None else Problems()
    tracked = Tracked.open()
    try:
        a = Analysis(tracked)
        for call in scan.calls(sc, problems):
            a.add(call)
        report = _positive_missed(a.report(10**9), limit)
        report["tracked_runs_matched"] = tracked.matched
        report["tracking_db"] = tracked.db is not None
    finally:
        tracked.close()
    report["scope"] = {"project": sc.project, "since": sc.since, "agents": list(sc.agents)}
    report["estimate"] = H.ESTIMATE_NOTE
    report["rerun_window"] = RERUN_WINDOW
    report["problems"] = problems.lines(50)
    return report


def _positive_missed(report: dict[str, Any], limit: int) -> dict[str, Any]:
    """Missed commands: only those with a positive estimated saving (a measured rate of 0 or less saves
    nothing); the others are counted in ``missed_no_saving``. Every other table is cut to ``limit``."""
    every = report["missed"]
    missed = [m for m in every if m["est_saved_tokens"] > 0]
    report["missed"] = missed[:limit]
    report["missed_total"] = {
        "commands": len(missed),
        "runs": sum(m["runs"] for m in missed),
        "output_tokens": sum(m["output_tokens"] for m in missed),
        "est_saved_tokens": sum(m["est_saved_tokens"] for m in missed),
    }
    report["missed_no_saving"] = {"commands": len(every) - len(missed), "runs": sum(m["runs"] for m in every) -
                                  report["missed_total"]["runs"]}  # fmt: skip
    for key in ("candidates", "ignored"):
        report[key] = report[key][:limit]
    return report


def main(args: list[str]) -> int:
    ns = _parser().parse_args(args)
    if ns.limit < 1:
        _parser().error("--limit must be at least 1")
    sc = H.scope(ns)
    problems = Problems()
    report = collect(sc, ns.limit, problems)
    if ns.format == "json":
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render(report, sc))
    problems.print("discover")
    return 0


def _sources(report: dict[str, Any]) -> str:
    from rtk.history import claude, codex

    labels = {claude.NAME: claude.LABEL, codex.NAME: codex.LABEL}
    parts = []
    for agent, f in sorted(report["sources"].items()):
        extra = f" (+{f['subagent_files']} subagent)" if f["subagent_files"] else ""
        parts.append(f"{labels.get(agent, agent)} {f['files']} file{'s' if f['files'] != 1 else ''}{extra}")
    return ", ".join(parts)


def render(r: dict[str, Any], sc: scan.Scope) -> str:
    out = [f"rtk discover ({H.scope_words(sc)})"]
    if not r["sessions"]:
        from rtk.history import claude, codex

        where = ", ".join([*(root + "/projects" for root in claude.roots()), *codex.roots()[:1]])
        out.append(f"  no agent sessions found in this scope (looked in {where})")
        out.append("  try --all (every project) or --since all")
        return "\n".join(out) + "\n"
    span = f" ({r['first'][:10]} .. {r['last'][:10]})" if r["first"] else ""
    out.append(f"  scanned {_sources(r)}: {r['sessions']} sessions, {H.n(r['shell_commands'])} shell commands{span}")
    a = r["adoption"]
    out.append(
        f"  adoption: {H.n(a['via_rtk'])} of {H.n(a['rewritable'])} commands rtk serves went through rtk"
        f" ({a['rate_pct']:.1f}%): {a['via_hook']} via a hook, {a['explicit']} written as rtk"
        + (f"; {a['raw_on_purpose']} kept raw on purpose (rtk proxy, RTK_DISABLED=1)" if a["raw_on_purpose"] else "")
    )
    out += _missed(r)
    out += _candidates(r)
    out += _reruns(r)
    out += _tail(r)
    out.append("")
    out.append(f"({H.ESTIMATE_NOTE}; {H.PRIVACY_NOTE})")
    return "\n".join(out) + "\n"


def _missed(r: dict[str, Any]) -> list[str]:
    out = ["", "missed: ran raw, rtk would have shortened them"]
    if not r["missed"]:
        none = r.get("missed_no_saving", {}).get("commands", 0)
        return [*out, "  none" + (f" with a positive estimated saving ({none} ran raw)" if none else "")]
    rows = [
        [
            m["command"],
            H.n(m["runs"]),
            H.n(m["output_tokens"]),
            H.n(m["est_saved_tokens"]),
            f"{m['rate_pct']:.0f}%",
            m["source"],
        ]
        for m in r["missed"]
    ]
    t = r["missed_total"]
    more = t["commands"] - len(r["missed"])
    rows.append(
        [
            f"total ({t['commands']} commands)" if more else "total",
            H.n(t["runs"]),
            H.n(t["output_tokens"]),
            H.n(t["est_saved_tokens"]),
            f"{(t['est_saved_tokens'] * 100 / t['output_tokens']) if t['output_tokens'] else 0:.0f}%",
            "",
        ]
    )
    out += H.table(["command", "runs", "output tok", "est. saved", "rate", "basis"], rows, {1, 2, 3, 4})
    if more:
        out.append(f"  +{more} more commands (--limit)")
    none = r.get("missed_no_saving", {}).get("commands", 0)
    if none:
        out.append(f"  ({none} more command{'s' if none != 1 else ''} ran raw with no estimated saving: a passthrough"
                   " form, or a measured rate of 0% or less; not listed)")  # fmt: skip
    out.append(
        "  est. saved = output tokens x rate. basis: measured = the weighted rate of your own rtk runs of that"
        " filter; rule = the rule table's estimate; passthrough = rtk would run that form unfiltered (0);"
        " a+b: runs of both kinds"
    )
    return out


def _candidates(r: dict[str, Any]) -> list[str]:
    out = ["", "no rtk filter yet: candidates for new filters (largest output first)"]
    if not r["candidates"]:
        return [*out, "  none"]
    rows = [[c["command"], H.n(c["runs"]), H.n(c["output_tokens"]), c["why"]] for c in r["candidates"]]
    out += H.table(["command", "runs", "output tok", "why"], rows, {1, 2})
    more = r["candidates_total"]["commands"] - len(r["candidates"])
    if more:
        out.append(f"  +{more} more commands (--limit)")
    none = r.get("missed_no_saving", {}).get("commands", 0)
    if none:
        out.append(f"  ({none} more command{'s' if none != 1 else ''} ran raw with no estimated saving: a passthrough"
                   " form, or a measured rate of 0% or less; not listed)")  # fmt: skip
    return out


def _reruns(r: dict[str, Any]) -> list[str]:
    out = [
        "",
        f"re-runs after rtk: the same command run raw, or its recovery file read, within {r['rerun_window']}"
        " commands (a sign the filter lost something)",
    ]
    rows = r["reruns"]
    if not rows:
        return [*out, "  no command went through rtk in these sessions"]
    out += H.table(
        ["filter", "rtk runs", "re-run raw", "recovery reads", "signal"],
        [
            [x["filter"], H.n(x["rtk_runs"]), H.n(x["raw_reruns"]), H.n(x["recovery_reads"]), f"{x['signal_pct']:.1f}%"]
            for x in rows
        ],
        {1, 2, 3, 4},
    )
    for x in rows:
        for ex in x["examples"]:
            from rtk.tracking import mask_command

            out.append(f"  {x['filter']}: re-run as `{H.clip(mask_command(ex), 80)}`")
    return out


def _tail(r: dict[str, Any]) -> list[str]:
    out: list[str] = [""]
    if r["by_design"]:
        total = sum(x["runs"] for x in r["by_design"])
        parts = ", ".join(f"{x['why']} {x['runs']}" for x in r["by_design"][:5])
        out.append(f"left raw by design: {H.n(total)} ({parts})")
    if r["ignored"]:
        parts = ", ".join(f"{x['command']} {x['runs']} ({H.n(x['output_tokens'])} tok)" for x in r["ignored"][:6])
        out.append(f"never rewritten (shell built-ins, sed, awk...): {parts}")
    if r["not_shell"] or r["file_reads"]:
        other = dict(r["not_shell"])
        if r["file_reads"]:
            other["Read"] = other.get("Read", 0) + r["file_reads"]
        parts = ", ".join(f"{k} {v}" for k, v in sorted(other.items(), key=lambda kv: -kv[1])[:8])
        out.append(f"not visible to rtk (the agent's own tools, not the shell): {parts}")
    extra = []
    if r["failed"]:
        extra.append(f"{r['failed']} failed")
    if r["cancelled"]:
        extra.append(f"{r['cancelled']} never ran (refused or cancelled)")
    if extra:
        out.append("shell commands: " + ", ".join(extra))
    if r["problems"]:
        out.append(f"{len(r['problems'])} transcript file(s) could not be read completely (listed on stderr)")
    return out
