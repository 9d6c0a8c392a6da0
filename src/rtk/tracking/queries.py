"""Read-only queries over the tracking database for ``rtk gain`` and the analytics commands."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

RECALLS = "recalls"
# A filtered run counts as re-run when, within this many minutes, the same command ran again through
# `rtk proxy`/`rtk bypass` in the same project, or its recovery file was asked back (rtk recall / rtk read).
RERUN_WINDOW_MINUTES = 10


class Scope:
    """Which rows a report covers: since a time, and under a project directory."""

    def __init__(self, since: str | None = None, project: str | None = None) -> None:
        self.since = since
        self.project = project

    def where(self, table: str = "commands") -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        if self.since:
            clauses.append("timestamp >= ?")
            params.append(self.since)
        if self.project and table in ("commands", "untrusted_filter_skips", RECALLS):
            # GLOB, not LIKE: '_' and '%' in paths must match literally.
            clauses.append("(project_path = ? OR project_path GLOB ?)")
            params += [self.project, _glob_escape(self.project.rstrip("/")) + "/*"]
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def _glob_escape(s: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in s)


def parse_since(text: str, now: float | None = None) -> str:
    """``7d``, ``12h``, ``2w``, ``30m`` or a date ``2026-11-01`` -> RFC 3339 UTC lower bound."""
    now = time.time() if now is None else now
    t = text.strip()
    units = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
    if len(t) >= 2 and t[-1] in units and t[:-1].isdigit():
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - int(t[:-1]) * units[t[-1]]))
    try:
        parsed = time.strptime(t, "%Y-%m-%d")
    except ValueError:
        raise ValueError(f"cannot read --since {text!r}: use 7d, 12h, 2w or YYYY-MM-DD") from None
    return time.strftime("%Y-%m-%dT00:00:00Z", parsed)


def summary(db: sqlite3.Connection, scope: Scope) -> dict[str, Any]:
    where, params = scope.where()
    row = db.execute(
        "SELECT COUNT(*), COALESCE(SUM(input_tokens),0), COALESCE(SUM(output_tokens),0),"
        " COALESCE(SUM(saved_tokens),0), COALESCE(SUM(exec_time_ms),0), MIN(timestamp), MAX(timestamp),"
        " COALESCE(SUM(CASE WHEN filter = '' THEN 1 ELSE 0 END),0),"
        # exit_code -1: unknown (rtk pipe cannot see its producer's), never counted as failed
        " COALESCE(SUM(CASE WHEN exit_code > 0 THEN 1 ELSE 0 END),0)"
        f" FROM commands{where}",
        params,
    ).fetchone()
    n, tin, tout, saved, ms, first, last, passthrough, failed = row
    return {
        "total_commands": n,
        "total_input": tin,
        "total_output": tout,
        "total_saved": saved,
        "savings_pct": round(saved * 100.0 / tin, 1) if tin else 0.0,
        "total_time_ms": ms,
        "avg_time_ms": round(ms / n) if n else 0,
        "passthrough_commands": passthrough,
        "failed_commands": failed,
        "first": first,
        "last": last,
    }


def by_command(db: sqlite3.Connection, scope: Scope, limit: int = 10) -> list[dict[str, Any]]:
    where, params = scope.where()
    rows = db.execute(
        "SELECT CASE WHEN filter = '' THEN 'raw: ' || substr(original_cmd, 1, instr(original_cmd || ' ', ' ') - 1)"
        " ELSE filter END AS label, COUNT(*), SUM(input_tokens), SUM(output_tokens), SUM(saved_tokens),"
        " AVG(exec_time_ms)"
        f" FROM commands{where} GROUP BY label ORDER BY SUM(saved_tokens) DESC, COUNT(*) DESC LIMIT ?",
        [*params, limit],
    ).fetchall()
    return [
        {
            "command": label,
            "count": n,
            "input": tin,
            "output": tout,
            "saved": saved,
            "savings_pct": round(saved * 100.0 / tin, 1) if tin else 0.0,
            "avg_time_ms": round(ms or 0),
        }
        for label, n, tin, tout, saved, ms in rows
    ]


_PERIOD = {
    "daily": "strftime('%Y-%m-%d', timestamp)",
    # Weeks run Sunday to Saturday, labelled by their Sunday.
    "weekly": "date(timestamp, '-6 days', 'weekday 0')",
    "monthly": "strftime('%Y-%m', timestamp)",
}


def by_period(db: sqlite3.Connection, scope: Scope, period: str) -> list[dict[str, Any]]:
    where, params = scope.where()
    expr = _PERIOD[period]
    rows = db.execute(
        f"SELECT {expr} AS p, COUNT(*), SUM(input_tokens), SUM(output_tokens), SUM(saved_tokens),"
        f" SUM(exec_time_ms) FROM commands{where} GROUP BY p ORDER BY p",
        params,
    ).fetchall()
    return [
        {
            "period": p,
            "commands": n,
            "input": tin,
            "output": tout,
            "saved": saved,
            "savings_pct": round(saved * 100.0 / tin, 1) if tin else 0.0,
            "time_ms": ms,
        }
        for p, n, tin, tout, saved, ms in rows
    ]


def history(db: sqlite3.Connection, scope: Scope, limit: int = 20) -> list[dict[str, Any]]:
    where, params = scope.where()
    rows = db.execute(
        "SELECT timestamp, rtk_cmd, filter, input_tokens, output_tokens, saved_tokens, exit_code, exec_time_ms"
        f" FROM commands{where} ORDER BY timestamp DESC, id DESC LIMIT ?",
        [*params, limit],
    ).fetchall()
    return [
        {
            "timestamp": ts,
            "command": cmd,
            "filter": f,
            "input": tin,
            "output": tout,
            "saved": saved,
            "savings_pct": round(saved * 100.0 / tin, 1) if tin else 0.0,
            "exit_code": code,
            "time_ms": ms,
        }
        for ts, cmd, f, tin, tout, saved, code, ms in rows
    ]


def failures(db: sqlite3.Connection, scope: Scope, limit: int = 10) -> list[dict[str, Any]]:
    where, params = scope.where("parse_failures")
    rows = db.execute(
        "SELECT filter, COUNT(*), MAX(timestamp), error_message FROM parse_failures"
        f"{where} GROUP BY filter ORDER BY COUNT(*) DESC LIMIT ?",
        [*params, limit],
    ).fetchall()
    return [{"filter": f, "count": n, "last": last, "last_error": err} for f, n, last, err in rows]


def restorations(db: sqlite3.Connection, scope: Scope, limit: int = 10) -> list[dict[str, Any]]:
    """Per filter: runs where the fact guard restored lines the filter dropped, and how many lines."""
    where, params = scope.where()
    where = (where + " AND" if where else " WHERE") + " restored > 0"
    rows = db.execute(
        f"SELECT filter, COUNT(*), SUM(restored), MAX(timestamp) FROM commands{where}"
        " GROUP BY filter ORDER BY COUNT(*) DESC LIMIT ?",
        [*params, limit],
    ).fetchall()
    return [{"filter": f, "runs": n, "lines": lines, "last": last} for f, n, lines, last in rows]


def reruns(db: sqlite3.Connection, scope: Scope, limit: int = 10) -> list[dict[str, Any]]:
    """Per filter: its runs in scope, how many were re-run raw soon after, and how many had their raw output recalled.

    Only filters with at least one re-run or recall are listed (see ``RERUN_WINDOW_MINUTES``).
    """
    where, params = scope.where()
    where = (where + " AND" if where else " WHERE") + " c.filter != ''"
    minutes = int(RERUN_WINDOW_MINUTES)

    def until(t: str) -> str:
        return f"strftime('%Y-%m-%dT%H:%M:%SZ', {t}.timestamp, '+{minutes} minutes')"

    # Found from the few proxy runs and recalls (their partial indexes, migration m008), not by a search per
    # filtered run: a million runs took 30 s. `since` widens the index range by a minute; the exact window
    # conditions decide.
    since = f"strftime('%Y-%m-%dT%H:%M:%SZ', {{}}.timestamp, '-{minutes + 1} minutes')"
    rows = db.execute(
        "WITH rerun AS (SELECT DISTINCT c.id FROM commands p CROSS JOIN commands c"
        " ON c.project_path = p.project_path AND c.original_cmd = p.original_cmd"
        f" AND c.timestamp <= p.timestamp AND c.timestamp >= {since.format('p')}"
        " WHERE p.filter = '' AND substr(p.rtk_cmd, 1, 10) = 'rtk proxy '"
        f" AND p.id > c.id AND c.filter != '' AND p.timestamp <= {until('c')}),"
        " recalled AS (SELECT DISTINCT c.id FROM recalls r CROSS JOIN commands c"
        " ON c.tee_path = r.tee_path AND c.tee_path != ''"
        f" AND c.timestamp <= r.timestamp AND c.timestamp >= {since.format('r')}"
        f" WHERE r.timestamp <= {until('c')})"
        " SELECT filter, COUNT(*), SUM(rerun), SUM(recalled), MAX(CASE WHEN rerun OR recalled THEN timestamp END)"
        " FROM (SELECT c.filter AS filter, c.timestamp AS timestamp,"
        " c.id IN (SELECT id FROM rerun) AS rerun, c.id IN (SELECT id FROM recalled) AS recalled"
        f" FROM commands c{where})"
        " GROUP BY filter HAVING SUM(rerun) + SUM(recalled) > 0"
        " ORDER BY SUM(rerun) + SUM(recalled) DESC, filter LIMIT ?",
        [*params, limit],
    ).fetchall()
    return [{"filter": f, "runs": n, "reruns": rr, "recalls": rc, "last": last} for f, n, rr, rc, last in rows]


def untrusted_skips(db: sqlite3.Connection, scope: Scope, limit: int = 10) -> list[dict[str, Any]]:
    """Project TOML filters that matched a command but were not applied (untrusted or changed)."""
    where, params = scope.where("untrusted_filter_skips")
    rows = db.execute(
        "SELECT filter, file, COUNT(*), MAX(timestamp), reason FROM untrusted_filter_skips"
        f"{where} GROUP BY filter, file ORDER BY COUNT(*) DESC LIMIT ?",
        [*params, limit],
    ).fetchall()
    return [{"filter": f, "file": p, "count": n, "last": last, "reason": r} for f, p, n, last, r in rows]


# ---------------------------------------------------------------------------
# History analysis (rtk discover / session / cc-economics, rtk gain --html)
# ---------------------------------------------------------------------------


def filter_rates(db: sqlite3.Connection, scope: Scope) -> dict[str, dict[str, int]]:
    """Per filter: runs, input and saved tokens (for weighted savings rates; passthrough excluded)."""
    where, params = scope.where()
    where = (where + " AND" if where else " WHERE") + " filter != ''"
    rows = db.execute(
        f"SELECT filter, COUNT(*), SUM(input_tokens), SUM(saved_tokens) FROM commands{where} GROUP BY filter",
        params,
    ).fetchall()
    return {f: {"runs": n, "input": tin or 0, "saved": saved or 0} for f, n, tin, saved in rows}


def time_bounds(db: sqlite3.Connection) -> tuple[str | None, str | None]:
    """The first and last timestamps recorded."""
    row = db.execute("SELECT MIN(timestamp), MAX(timestamp) FROM commands").fetchone()
    return row[0], row[1]


def runs_between(db: sqlite3.Connection, original: str, start: str, end: str) -> list[dict[str, Any]]:
    """rtk runs of ``original`` (as tracked: the command after ``rtk``) recorded between two times."""
    rows = db.execute(
        "SELECT id, timestamp, filter, input_tokens, saved_tokens, tee_path, project_path FROM commands"
        " WHERE timestamp >= ? AND timestamp <= ? AND original_cmd = ? ORDER BY timestamp, id LIMIT 20",
        (start, end, original),
    ).fetchall()
    return [
        {"id": i, "timestamp": ts, "filter": f, "input": tin, "saved": saved, "tee_path": tee, "project": proj}
        for i, ts, f, tin, saved, tee, proj in rows
    ]


def tee_owner(db: sqlite3.Connection, path: str) -> str | None:
    """The filter of the run whose raw output was kept in recovery file ``path``."""
    row = db.execute("SELECT filter FROM commands WHERE tee_path = ? ORDER BY id DESC LIMIT 1", (path,)).fetchone()
    return row[0] if row else None
