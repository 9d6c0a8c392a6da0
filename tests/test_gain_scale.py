"""`rtk gain --failures` over a large history: re-runs and recalls found from the few proxy runs and recalls."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from rtk.tracking import db, queries


def insert(conn: sqlite3.Connection, ts: str, cmd: str, filt: str, rtk_cmd: str = "", tee: str = "") -> None:
    conn.execute(
        "INSERT INTO commands (timestamp, original_cmd, rtk_cmd, filter, input_tokens, output_tokens, saved_tokens,"
        " savings_pct, exec_time_ms, project_path, exit_code, tee_path) VALUES (?,?,?,?,100,10,90,90.0,5,'/p',0,?)",
        (ts, cmd, rtk_cmd or "rtk " + cmd, filt, tee),
    )


def test_reruns_do_not_search_once_per_filtered_run() -> None:
    """A million runs took 30 s: the old query searched for a proxy re-run and a recall once per filtered run."""
    conn = db.connect()
    plans: list[str] = []
    conn.set_trace_callback(lambda sql: plans.append(sql) if "rerun" in sql else None)
    queries.reruns(conn, queries.Scope())
    (sql,) = plans
    plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql)]
    assert not any("CORRELATED" in step for step in plan), plan
    assert any("idx_commands_proxy_runs" in step for step in plan), plan
    assert any("idx_commands_tee_path" in step for step in plan), plan


def test_recalls_within_the_window_only(tmp_path: Path) -> None:
    conn = db.connect()
    insert(conn, "2026-03-01T10:00:00Z", "make", "make", tee="/t/a.log")
    insert(conn, "2026-03-01T11:00:00Z", "make", "make", tee="/t/b.log")
    insert(conn, "2026-03-01T12:00:00Z", "make", "make", tee="/t/c.log")
    insert(conn, "2026-03-01T12:05:00Z", "make", "", rtk_cmd="rtk proxy make")  # re-run of the 12:00 run
    for ts, path in (
        ("2026-03-01T10:09:59Z", "/t/a.log"),  # within 10 minutes: recalled
        ("2026-03-01T11:10:01Z", "/t/b.log"),  # too late
        ("2026-03-01T09:59:00Z", "/t/c.log"),  # before the run
    ):
        conn.execute("INSERT INTO recalls (timestamp, tee_path, how) VALUES (?, ?, 'recall')", (ts, path))
    got = queries.reruns(conn, queries.Scope())
    assert got == [{"filter": "make", "runs": 3, "reruns": 1, "recalls": 1, "last": "2026-03-01T12:00:00Z"}]
    assert queries.reruns(conn, queries.Scope(since="2026-03-01T10:30:00Z"))[0]["recalls"] == 0
