"""``rtk gain``: what rtk saved, overall, per command, per period, as a graph or history."""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from typing import Any

from rtk import config, tokens
from rtk.commands._history import table
from rtk.errors import RtkError, UsageError
from rtk.text import visible
from rtk.tracking import db as trackdb
from rtk.tracking import queries
from rtk.tracking.queries import Scope

NOTE = (
    f"tokens are estimated from {tokens.METHOD} of the shell output (runs recorded before that estimate:"
    f" {tokens.METHOD_CHARS}), not billed tokens"
)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rtk gain",
        usage="%(prog)s [-p [DIR] | --all] [-s WHEN] [view options] [--reset [-y] | --watch [--interval SECS]]",
        description="Token savings recorded by rtk.",
        epilog=NOTE,
    )
    scope = p.add_mutually_exclusive_group()
    scope.add_argument(
        "-p", "--project", nargs="?", const=".", metavar="DIR", help="only commands run in DIR (default: here) or below"
    )
    scope.add_argument("--all", action="store_true", help="every project (the default)")
    p.add_argument("-s", "--since", metavar="WHEN", help="7d, 12h, 2w, YYYY-MM-DD or all (default: all)")
    p.add_argument("-g", "--graph", action="store_true", help="daily savings as a bar chart (last 30 days)")
    p.add_argument("-H", "--history", nargs="?", const=20, type=int, metavar="N", help="the N most recent commands")
    p.add_argument("-d", "--daily", action="store_true", help="per-day breakdown")
    p.add_argument("-w", "--weekly", action="store_true", help="per-week breakdown (Sunday to Saturday)")
    p.add_argument("-m", "--monthly", action="store_true", help="per-month breakdown")
    p.add_argument("-A", "--all-breakdowns", action="store_true", help="every breakdown, history and failures")
    p.add_argument(
        "-F", "--failures", action="store_true", help="filters that failed, did not recognise output, or lost facts"
    )
    p.add_argument("-n", "--top", type=int, default=10, metavar="N", help="commands in the top list (default 10)")
    p.add_argument("-f", "--format", choices=("text", "json", "csv"), default="text")
    p.add_argument(
        "--html",
        metavar="FILE",
        help="write a self-contained HTML report (charts; adoption and re-runs from agent transcripts) to FILE",
    )
    p.add_argument(
        "--reset",
        action="store_true",
        help="delete the recorded rows in the scope (--project, --since; default: every project), after a"
        " backup copy of the database next to it; asks first (non-interactive: needs --yes)",
    )
    p.add_argument("-y", "--yes", action="store_true", help="with --reset: do not ask")
    p.add_argument("--watch", action="store_true", help="redraw the report every --interval seconds until Ctrl-C")
    p.add_argument("--interval", default="2", metavar="SECS", help="with --watch: seconds between views (default 2)")
    return p


def _scope(ns: argparse.Namespace) -> Scope:
    since = None
    if ns.since and ns.since.strip().lower() not in ("all", "0"):
        try:
            since = queries.parse_since(ns.since)
        except ValueError as e:
            raise UsageError(str(e).replace("7d, 12h, 2w or YYYY-MM-DD", "7d, 12h, 2w, YYYY-MM-DD or all")) from None
    project = os.path.abspath(os.path.expanduser(ns.project)) if ns.project else None
    return Scope(since, project)


def collect(ns: argparse.Namespace) -> dict[str, Any]:
    scope = _scope(ns)
    db = trackdb.open_for_reading()
    try:
        report: dict[str, Any] = {
            "estimate": tokens.METHOD,
            "scope": {"since": scope.since, "project": scope.project},
            "summary": queries.summary(db, scope),
            "by_command": queries.by_command(db, scope, ns.top),
        }
        periods = [p for p in ("daily", "weekly", "monthly") if getattr(ns, p) or ns.all_breakdowns]
        if ns.graph and "daily" not in periods:
            periods.append("daily")
        for p in periods:
            report[p] = queries.by_period(db, scope, p)
        if ns.history or ns.all_breakdowns:
            report["history"] = queries.history(db, scope, ns.history or 20)
        if ns.failures or ns.all_breakdowns:
            report["failures"] = queries.failures(db, scope)
            report["restorations"] = queries.restorations(db, scope)
            report["reruns"] = queries.reruns(db, scope)
        report["untrusted_filters"] = queries.untrusted_skips(db, scope)
        return report
    finally:
        db.close()


def _n(v: int) -> str:
    return f"{v:,}"


def _dur(ms: int) -> str:
    s = ms / 1000
    if s < 60:
        return f"{s:.1f}s"
    m, s = divmod(int(s), 60)
    if m < 60:
        return f"{m}m {s}s"
    h, m = divmod(m, 60)
    return f"{h}h {m}m"


def render_text(report: dict[str, Any], graph: bool) -> str:
    s = report["summary"]
    out: list[str] = []
    scope = []
    if report["scope"]["project"]:
        scope.append(f"project {report['scope']['project']}")
    if report["scope"]["since"]:
        scope.append(f"since {report['scope']['since'][:10]}")
    title = "rtk gain" + (f" ({', '.join(scope)})" if scope else "")
    out.append(title)
    if not s["total_commands"]:
        out.append(
            "  no commands recorded yet"
            + (" in this scope" if scope else "")
            + ". Run a tool through rtk, e.g. `rtk git status`."
        )
        out.append(f"  ({NOTE})")
        out += _failures(report)
        out += _restorations(report)
        out += _untrusted(report)
        return "\n".join(out) + "\n"
    out.append(
        f"  commands      {_n(s['total_commands'])}  ({_n(s['passthrough_commands'])} passthrough, {_n(s['failed_commands'])} failed)  {s['first'][:10]} .. {s['last'][:10]}"
    )
    out.append(f"  input tokens  {_n(s['total_input'])}")
    out.append(f"  output tokens {_n(s['total_output'])}")
    out.append(f"  saved         {_n(s['total_saved'])}  ({s['savings_pct']:.1f}% of input, weighted)")
    out.append(f"  run time      {_dur(s['total_time_ms'])} total, {s['avg_time_ms']} ms average")
    out.append(f"  ({NOTE})")
    rows = [
        [
            c["command"],
            _n(c["count"]),
            _n(c["input"]),
            _n(c["saved"]),
            f"{c['savings_pct']:.1f}%",
            f"{c['avg_time_ms']}ms",
        ]
        for c in report["by_command"]
    ]
    if rows:
        out.append("")
        out.append(f"top {len(rows)} by tokens saved")
        out += table(["command", "runs", "input", "saved", "saved%", "avg time"], rows, {1, 2, 3, 4, 5})
    for p in ("daily", "weekly", "monthly"):
        if p not in report or (p == "daily" and graph and not report.get("_daily_table")):
            continue
        out.append("")
        out.append(p)
        out += table(
            ["period", "commands", "input", "saved", "saved%"],
            [
                [r["period"], _n(r["commands"]), _n(r["input"]), _n(r["saved"]), f"{r['savings_pct']:.1f}%"]
                for r in report[p]
            ],
            {1, 2, 3, 4},
        )
    if graph:
        out.append("")
        out += _graph(report.get("daily", []))
    if "history" in report:
        out.append("")
        out.append("recent commands")
        out += table(
            ["time (UTC)", "command", "saved", "saved%", "exit"],
            [
                [
                    h["timestamp"][:16].replace("T", " "),
                    _clip(h["command"], 48),
                    _n(h["saved"]),
                    f"{h['savings_pct']:.1f}%",
                    str(h["exit_code"]) if h["exit_code"] >= 0 else "?",
                ]
                for h in report["history"]
            ],
            {2, 3, 4},
        )
    out += _failures(report)
    out += _restorations(report)
    out += _untrusted(report)
    return "\n".join(out) + "\n"


def _untrusted(report: dict[str, Any]) -> list[str]:
    rows = report.get("untrusted_filters") or []
    if not rows:
        return []
    total = sum(r["count"] for r in rows)
    out = ["", f"untrusted project filters skipped ({total} runs ran without them; review, then `rtk trust`)"]
    return out + table(
        ["filter", "file", "runs", "last", "why"],
        [
            [visible(r["filter"]), _clip(visible(r["file"]), 50), str(r["count"]), r["last"][:10], r["reason"]]
            for r in rows
        ],
        {2},
    )


def _failures(report: dict[str, Any]) -> list[str]:
    if "failures" not in report:
        return []
    out = ["", "filter fallbacks (raw output shown instead)"]
    if not report["failures"]:
        return [*out, "  none"]
    return out + table(
        ["filter", "count", "last", "last error"],
        [[f["filter"], str(f["count"]), f["last"][:10], _clip(f["last_error"], 50)] for f in report["failures"]],
        {1},
    )


def _restorations(report: dict[str, Any]) -> list[str]:
    if "restorations" not in report:
        return []
    out = [
        "",
        "fact guard restorations and re-runs per filter (signs a filter lost something; docs/history.md)",
        f"  restored: runs where the fact guard put back lines the filter dropped (a filter bug); re-run: the"
        f" same command run again through `rtk proxy`/`bypass`, recalled: its raw output asked back"
        f" (`rtk recall`, `rtk read`), both within {queries.RERUN_WINDOW_MINUTES} min",
    ]
    merged: dict[str, list[Any]] = {}
    for r in report["restorations"]:
        merged[r["filter"]] = [r["runs"], r["lines"], 0, 0, r["last"]]
    for r in report.get("reruns", []):
        row = merged.setdefault(r["filter"], [0, 0, 0, 0, ""])
        row[2], row[3], row[4] = r["reruns"], r["recalls"], max(row[4], r["last"] or "")
    if not merged:
        return [*out, "  none"]
    rows = sorted(merged.items(), key=lambda kv: (-(kv[1][0] + kv[1][2] + kv[1][3]), kv[0]))
    return out + table(
        ["filter", "restored", "lines", "re-run", "recalled", "last"],
        [[f, str(a), str(b), str(c), str(d), e[:10]] for f, (a, b, c, d, e) in rows],
        {1, 2, 3, 4},
    )


def _clip(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _graph(daily: list[dict[str, Any]]) -> list[str]:
    width = max(int(config.get("display.max_width")) - 30, 10)
    days = daily[-30:]
    if not days:
        return ["daily savings: no data"]
    top = max(abs(d["saved"]) for d in days) or 1
    lines = ["daily tokens saved (last 30 days with activity)"]
    for d in days:
        n = round(abs(d["saved"]) * width / top)
        bar = ("#" if d["saved"] >= 0 else "-") * n
        lines.append(f"  {d['period']}  {bar} {_n(d['saved'])}")
    return lines


def render_csv(report: dict[str, Any]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    periods = [p for p in ("daily", "weekly", "monthly") if p in report]
    if periods:
        w.writerow(
            ["granularity", "period", "commands", "input_tokens", "output_tokens", "saved_tokens", "savings_pct"]
        )
        for p in periods:
            for r in report[p]:
                w.writerow([p, r["period"], r["commands"], r["input"], r["output"], r["saved"], r["savings_pct"]])
    else:
        w.writerow(["command", "count", "input_tokens", "output_tokens", "saved_tokens", "savings_pct", "avg_time_ms"])
        for c in report["by_command"]:
            w.writerow(
                [c["command"], c["count"], c["input"], c["output"], c["saved"], c["savings_pct"], c["avg_time_ms"]]
            )
    return buf.getvalue()


def write_html(ns: argparse.Namespace) -> int:
    """``--html FILE``: the report page, with adoption and re-runs from the transcripts in the same scope."""
    from rtk.commands import _gain_html, _history
    from rtk.commands import discover as _discover
    from rtk.history import Problems
    from rtk.history.scan import Scope as HistoryScope

    ns.daily = True
    report = collect(ns)
    since = report["scope"]["since"] or _history.since_iso("90d")
    problems = Problems()
    history = _discover.collect(HistoryScope(report["scope"]["project"], since), 50, problems)
    page = _gain_html.render(report, history, _history.now_iso().replace("T", " ")[:16])
    try:
        with open(ns.html, "w", encoding="utf-8") as f:
            f.write(page)
    except OSError as e:
        raise RtkError(f"gain: cannot write {ns.html}: {e.strerror or e}") from None
    problems.print("gain")
    print(f"wrote {ns.html} ({len(page.encode()):,} bytes)")
    return 0


def render(ns: argparse.Namespace, indent: int | None = 2) -> str:
    """The report for ``ns`` in its format."""
    report = collect(ns)
    report["_daily_table"] = ns.daily or ns.all_breakdowns
    if ns.format == "json":
        report.pop("_daily_table")
        return json.dumps(report, indent=indent) + "\n"
    if ns.format == "csv":
        return render_csv(report)
    return render_text(report, ns.graph)


def main(args: list[str]) -> int:
    ns = _parser().parse_args(args)
    modes = [m for m, on in (("--reset", ns.reset), ("--watch", ns.watch), ("--html", ns.html)) if on]
    if len(modes) > 1:
        raise UsageError(f"gain: {' and '.join(modes)} do not go together")
    if ns.yes and not ns.reset:
        raise UsageError("gain: --yes only goes with --reset")
    if ns.reset:
        from rtk.commands import _gain_ops

        return _gain_ops.reset(_scope(ns), ns.yes)
    if ns.watch:
        from rtk.commands import _gain_ops

        interval = _gain_ops.interval(ns.interval)
        if ns.format == "csv":
            raise UsageError("gain: --watch shows text or json (one line per view), not csv")
        tty = sys.stdout.isatty()
        _scope(ns)  # a bad --since fails before the first view
        return _gain_ops.watch(lambda: render(ns, 2 if tty else None), interval, tty=tty)
    if ns.html:
        return write_html(ns)
    sys.stdout.write(render(ns))
    return 0
