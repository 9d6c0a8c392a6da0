"""``rtk cc-economics``: Claude Code tokens and cost per period and model, beside rtk's savings for the same periods.

Spend comes from the ``message.usage`` of Claude Code transcripts (input, output,
5-minute and 1-hour cache writes, cache reads, each at its own price; see
:mod:`rtk.history.economics`). rtk's side comes from its tracking database (tokens
saved, signed) minus what raw re-runs after rtk cost (found in the same transcripts).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from typing import Any

from rtk.commands import _history as H
from rtk.history import Call, Problems, Usage, scan
from rtk.history.analyze import Analysis
from rtk.history.economics import Ledger, period_of, price_for, price_table
from rtk.history.tracked import Tracked

NOTES = [
    "cost: input, output, 5-minute and 1-hour cache writes and cache reads, each at its model's price"
    " (USD per million tokens; built-in list prices, override with economics.prices in the config);"
    " models without a price are listed, not guessed",
    "rtk's savings are estimates: character classes weighted to match o200k/cl100k (older runs: ceil(characters / 4))"
    " of the shell output rtk kept out of the context, not billed tokens; negative savings count; raw re-runs after rtk (and recovery-file reads) are subtracted",
    "value: each net saved token once, at the cache-write price of the period's main model; an output that stays"
    " in context is also re-read at the cache-read price on every later request, which this leaves out",
    "Claude Code writes usage while a reply streams; the largest value per request is used (older versions can"
    " still under-report output tokens)",
]


def _parser() -> argparse.ArgumentParser:
    p = H.Parser(
        prog="rtk cc-economics",
        description="Claude Code tokens and cost per day (or week, month) and model, from local transcripts,"
        " beside what rtk saved in the same periods.",
        epilog=H.PRIVACY_NOTE + ".",
    )
    g = p.add_mutually_exclusive_group()
    g.add_argument("-d", "--daily", action="store_const", dest="period", const="daily", help="per day (default)")
    g.add_argument(
        "-w", "--weekly", action="store_const", dest="period", const="weekly", help="per week (Sunday to Saturday)"
    )
    g.add_argument("-m", "--monthly", action="store_const", dest="period", const="monthly", help="per month")
    scope = p.add_mutually_exclusive_group()
    scope.add_argument(
        "-p", "--project", nargs="?", const=".", metavar="DIR", help="only sessions run in DIR (default: here) or below"
    )
    scope.add_argument("-a", "--all", action="store_true", help="every project (the default)")
    p.add_argument("-s", "--since", metavar="WHEN", default="30d", help="7d, 12h, 2w, YYYY-MM-DD or all (default 30d)")
    p.add_argument("-f", "--format", choices=("text", "json", "csv"), default="text")
    p.set_defaults(period="daily")
    return p


def collect(ns: argparse.Namespace, problems: Problems) -> dict[str, Any]:
    project = os.path.abspath(os.path.expanduser(ns.project)) if ns.project else None
    sc = scan.Scope(project, H.since_iso(ns.since), ("claude",))
    table = price_table()
    ledger = Ledger(ns.period)
    tracked = Tracked.open()
    try:
        a = Analysis(tracked)
        for rec in scan.records(sc, problems, usage=True):
            if isinstance(rec, Usage):
                ledger.add(rec)
            elif isinstance(rec, Call):
                a.add(rec)
        rtk_rows: list[dict[str, Any]] = []
        if tracked.db is not None:
            from rtk.tracking import queries

            rtk_rows = queries.by_period(tracked.db, queries.Scope(sc.since, project), ns.period)
    finally:
        tracked.close()
    spend = ledger.report(table)
    reruns: dict[str, list[int]] = {}
    for d in a.report()["rerun_daily"]:
        r = reruns.setdefault(period_of(d["day"], ns.period), [0, 0])
        r[0] += d["count"]
        r[1] += d["tokens"]
    saved = {r["period"]: r for r in rtk_rows}
    rows = []
    for per in spend["periods"]:
        rows.append(_rtk_row(per, saved.get(per["period"]), reruns.get(per["period"], [0, 0]), table))
    # rtk periods with no Claude Code usage still show (rtk ran, the agent was another one)
    for p in sorted(set(saved) - {x["period"] for x in spend["periods"]}):
        rows.append(_rtk_row({"period": p, "cost": 0.0, "main_model": ""}, saved[p], reruns.get(p, [0, 0]), table))
    rows.sort(key=lambda r: r["period"])
    total_cost = sum(per["cost"] for per in spend["periods"])
    total_value = sum(r["value"] for r in rows if r["value"] is not None)
    unpriced = sum(r["net_tokens"] for r in rows if r["value"] is None)
    return {
        "scope": {"project": project, "since": sc.since, "period": ns.period},
        "spend": spend,
        "rtk": rows,
        "totals": {
            "cost": round(total_cost, 4),
            "rtk_saved_tokens": sum(r["saved_tokens"] for r in rows),
            "rerun_tokens": sum(r["rerun_tokens"] for r in rows),
            "net_tokens": sum(r["net_tokens"] for r in rows),
            "value": round(total_value, 4) if len(rows) > len([r for r in rows if r["value"] is None]) else None,
            "unpriced_net_tokens": unpriced,  # rtk's net on days with no Claude Code usage: no price to apply
            "share_of_spend_pct": round(total_value * 100 / total_cost, 2) if total_cost else None,
        },
        "notes": NOTES,
        "problems": problems.lines(50),
    }


def _rtk_row(per: dict[str, Any], tracked: dict[str, Any] | None, rerun: list[int], table: Any) -> dict[str, Any]:
    saved = int(tracked["saved"]) if tracked else 0
    net = saved - rerun[1]
    price = 0.0
    model = per.get("main_model") or ""
    match = price_for(model, table) if model else None
    if match is not None:
        price = match[1]["cache_write"]
    value = round(net * price / 1e6, 4) if match is not None else None  # no usage that day: nothing to price
    return {
        "period": per["period"],
        "rtk_commands": int(tracked["commands"]) if tracked else 0,
        "saved_tokens": saved,
        "reruns": rerun[0],
        "rerun_tokens": rerun[1],
        "net_tokens": net,
        "priced_as": model,
        "price_per_mtok": price,
        "value": value,
        "cost": per["cost"],
        "share_of_spend_pct": round(value * 100 / per["cost"], 2) if per["cost"] and value is not None else None,
    }


def main(args: list[str]) -> int:
    ns = _parser().parse_args(args)
    problems = Problems()
    report = collect(ns, problems)
    if ns.format == "json":
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif ns.format == "csv":
        sys.stdout.write(render_csv(report))
    else:
        sys.stdout.write(render(report))
    problems.print("cc-economics")
    return 0


def _usd(v: float | None) -> str:
    if v is None:
        return "n/a"
    return f"-${-v:,.2f}" if v < 0 else f"${v:,.2f}"


def render(r: dict[str, Any]) -> str:
    s = r["scope"]
    where = f"project {s['project']}" if s["project"] else "all projects"
    when = f"since {s['since'][:10]}" if s["since"] else "all time"
    out = [f"rtk cc-economics (Claude Code, {where}, {when}, {s['period']})"]
    spend = r["spend"]
    if not spend["periods"] and not r["rtk"]:
        out.append("  no Claude Code usage found in this scope; try --since all")
        return "\n".join(out) + "\n"
    rows = []
    for per in spend["periods"]:
        for i, m in enumerate(per["models"]):
            rows.append(
                [
                    per["period"] if i == 0 else "",
                    H.clip(m["model"], 28),
                    H.n(m["requests"]),
                    H.n(m["input"]),
                    H.n(m["output"]),
                    H.n(m["cache_write_5m"] + m["cache_write_1h"]),
                    H.n(m["cache_read"]),
                    _usd(m["cost"]),
                ]
            )
        if len(per["models"]) > 1:
            rows.append(["", "  all models", "", "", "", "", "", _usd(per["cost"])])
    rows.append(["total", "", "", "", "", "", "", _usd(r["totals"]["cost"])])
    out.append("")
    if spend["periods"]:
        out += H.table(
            ["period", "model", "requests", "input", "output", "cache write", "cache read", "cost"],
            rows,
            {2, 3, 4, 5, 6, 7},
        )
    else:
        out.append("  no Claude Code usage in this scope (rtk's savings below are not priced)")
    if spend["unpriced_models"]:
        out.append(f"  no price for: {', '.join(spend['unpriced_models'])} (add them to economics.prices)")
    out.append("")
    out.append("rtk in the same periods (tokens)")
    t = r["totals"]
    rows = [
        [
            x["period"],
            H.n(x["saved_tokens"]),
            H.n(-x["rerun_tokens"]) if x["rerun_tokens"] else "0",
            H.n(x["net_tokens"]),
            _usd(x["value"]),
            "n/a" if x["share_of_spend_pct"] is None else f"{x['share_of_spend_pct']:.1f}%",
        ]
        for x in r["rtk"]
    ]
    rows.append(
        [
            "total",
            H.n(t["rtk_saved_tokens"]),
            H.n(-t["rerun_tokens"]) if t["rerun_tokens"] else "0",
            H.n(t["net_tokens"]),
            _usd(t["value"]),
            "n/a" if t["share_of_spend_pct"] is None else f"{t['share_of_spend_pct']:.1f}%",
        ]
    )
    out += H.table(["period", "rtk saved", "re-runs", "net", "value", "of spend"], rows, {1, 2, 3, 4, 5})
    net = t["net_tokens"]
    unpriced = t.get("unpriced_net_tokens", 0)
    if t["value"] is None:  # no Claude Code usage on any day rtk saved: no price, and no "$0.00"
        worth = " (no Claude Code usage on those days to price them)"
    elif unpriced:
        worth = f", worth about {_usd(t['value'])} on the days with Claude Code usage ({H.n(unpriced)} not priced)"
    else:
        worth = f", worth about {_usd(t['value'])}"
    verdict = (
        f"net: rtk kept about {H.n(net)} tokens out of the context{worth}"
        if net >= 0
        else f"net: rtk cost about {H.n(-net)} tokens more than it saved{worth}"
    )
    out.append("")
    out.append(verdict + (f", against {_usd(t['cost'])} spent" if t["cost"] else ""))
    out.append("")
    out += [f"- {note}" for note in r["notes"]]
    if spend["duplicate_requests_skipped"]:
        out.append(f"- {spend['duplicate_requests_skipped']} requests seen in more than one file were counted once")
    return "\n".join(out) + "\n"


def render_csv(r: dict[str, Any]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        ["period", "model", "requests", "input", "output", "cache_write_5m", "cache_write_1h", "cache_read", "cost_usd"]
    )
    for per in r["spend"]["periods"]:
        for m in per["models"]:
            w.writerow(
                [
                    per["period"], m["model"], m["requests"], m["input"], m["output"], m["cache_write_5m"],
                    m["cache_write_1h"], m["cache_read"], "" if m["cost"] is None else m["cost"],
                ]
            )  # fmt: skip
    for x in r["rtk"]:
        w.writerow([x["period"], "rtk", x["rtk_commands"], "", "", "", "", "", ""])
    return buf.getvalue()
