"""``rtk session``: the most recent agent sessions, each with its shell commands, rtk adoption and tokens saved.

Tokens saved are the tracking database's own figures for the rtk runs of that
session (each transcript command matched to its tracked run); rtk runs with no
tracked row (tracking off, another machine) are counted but add nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rtk.commands import _history as H
from rtk.history import Problems, scan
from rtk.history.analyze import Analysis
from rtk.history.tracked import Tracked


def _parser() -> argparse.ArgumentParser:
    p = H.Parser(
        prog="rtk session",
        description="The most recent agent sessions: shell commands run, how many went through rtk, tokens saved.",
        epilog=f"{H.ESTIMATE_NOTE}; {H.PRIVACY_NOTE}.",
    )
    H.add_scope_flags(p, since_default=None)
    p.add_argument("-n", "--limit", type=int, default=10, metavar="N", help="sessions to show (default 10)")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
    return p


def recent_files(sc: scan.Scope, limit: int) -> list[Any]:
    """The files of the ``limit`` sessions written to most recently (a session's subagent files included)."""
    groups: dict[tuple[str, str], list[Any]] = {}
    latest: dict[tuple[str, str], float] = {}
    for mod, sf in scan.session_files(sc):
        k = (sf.agent, sf.session)
        groups.setdefault(k, []).append((mod, sf))
        latest[k] = max(latest.get(k, 0.0), sf.mtime)
    keep = sorted(latest, key=lambda k: -latest[k])[:limit]
    out: list[Any] = []
    for k in keep:
        out += sorted(groups[k], key=lambda ms: ms[1].subagent)  # the main file first
    return out


def collect(sc: scan.Scope, limit: int, problems: Problems) -> list[dict[str, Any]]:
    tracked = Tracked.open()
    try:
        a = Analysis(tracked, sessions=True)
        for call in scan.calls_from(sc, problems, recent_files(sc, limit)):
            a.add(call)
    finally:
        tracked.close()
    rows = [s.as_dict() for s in a.sessions.values()]
    for r in rows:  # a measured rate at or below 0 saves nothing: nothing was missed (never a negative figure)
        r["missed_est_saved_tokens"] = max(0, r["missed_est_saved_tokens"])
    rows.sort(key=lambda r: r["end"] or r["start"], reverse=True)
    return rows[:limit]


def main(args: list[str]) -> int:
    ns = _parser().parse_args(args)
    if ns.limit < 1:
        _parser().error("--limit must be at least 1")
    sc = H.scope(ns)
    problems = Problems()
    rows = collect(sc, ns.limit, problems)
    if ns.format == "json":
        doc = {"scope": {"project": sc.project, "since": sc.since}, "sessions": rows, "problems": problems.lines(50)}
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render(rows, sc))
    problems.print("session")
    return 0


def render(rows: list[dict[str, Any]], sc: scan.Scope) -> str:
    if not rows:
        out = [f"rtk session ({H.scope_words(sc)})"]
        out.append("  no agent sessions found in this scope; try --all")
        return "\n".join(out) + "\n"
    which = "the most recent session" if len(rows) == 1 else f"the {len(rows)} most recent sessions"
    out = [f"rtk session ({H.scope_words(sc)}, {which})"]
    table = []
    for r in rows:
        sub = f" ({r['subagent_shell_commands']} sub)" if r["subagent_shell_commands"] else ""
        table.append(
            [
                (r["start"] or "?")[:16].replace("T", " "),
                r["agent"],
                H.clip(r["session"], 10),
                _left_clip(_short(r["project"]), 32),
                f"{r['shell_commands']}{sub}",
                f"{r['via_rtk']}/{r['rewritable']}",
                f"{r['adoption_pct']:.0f}%",
                H.n(r["saved_tokens"]) + ("*" if r["untracked_rtk_runs"] else ""),
                H.n(r["missed_est_saved_tokens"]),
            ]
        )
    out += H.table(
        ["started (UTC)", "agent", "session", "project", "shell", "rtk", "adoption", "saved", "missed (est.)"],
        table,
        {4, 5, 6, 7, 8},
    )
    out.append("")
    out.append(
        "  rtk = commands that went through rtk / commands rtk serves; saved = measured by rtk's tracking for those"
        " runs; missed = estimated tokens the raw ones would have saved"
    )
    if any(r["untracked_rtk_runs"] for r in rows):
        out.append(
            "  * some rtk runs of this session have no tracked row (tracking off, or run elsewhere): not counted"
        )
    out.append(f"  ({H.ESTIMATE_NOTE})")
    return "\n".join(out) + "\n"


def _short(path: str) -> str:
    import os

    home = os.path.expanduser("~")
    return "~" + path[len(home) :] if path and path.startswith(home + "/") else path or "?"


def _left_clip(s: str, width: int) -> str:
    return s if len(s) <= width else "…" + s[-(width - 1) :]
