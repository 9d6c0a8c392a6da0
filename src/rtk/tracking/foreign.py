"""A tracking database that rtk did not create (upstream RTK's history.db): import its rows, keep the original.

Upstream RTK keeps ``~/.local/share/rtk/history.db`` too, with tables of the same
names and other columns. rtk recognises such a file (tables but no
``_rtk_migrations``), copies it to ``<db>.upstream-<epoch>`` as a backup, and,
in one transaction, moves its command and parse-failure rows into rtk's schema
and drops the foreign tables (imported rows get the filter id ``upstream``
when the file names none). A file whose rows cannot be read that way is moved
aside whole and rtk starts a file of its own. Either way one line on stderr says
so, once: afterwards the file is rtk's.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import time

from rtk.tracking.migrations import create_in_transaction

# Columns a foreign ``commands`` table needs for its rows to be imported.
_NEEDED = ("timestamp", "original_cmd", "rtk_cmd", "input_tokens", "output_tokens")
_TS = "COALESCE(strftime('%Y-%m-%dT%H:%M:%SZ', {0}), {0})"  # RFC 3339 with any offset -> rtk's UTC form


def _tables(db: sqlite3.Connection) -> list[str]:
    return [
        r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    ]


def is_foreign(db: sqlite3.Connection) -> bool:
    """True when the database has tables but none of rtk's migration records."""
    names = _tables(db)
    return bool(names) and "_rtk_migrations" not in names


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in db.execute(f'PRAGMA table_info("{table}")')}


def _backup_name(path: str) -> str:
    base = f"{path}.upstream-{int(time.time())}"
    name, n = base, 2
    while os.path.exists(name):
        name, n = f"{base}-{n}", n + 1
    return name


def adopt(db: sqlite3.Connection, path: str, timeout: float) -> sqlite3.Connection:
    """Turn the foreign database open in ``db`` into rtk's; the connection to use from now on (``timeout``: busy)."""
    backup = _backup_name(path)
    with contextlib.closing(sqlite3.connect(backup)) as copy:
        db.backup(copy)  # a consistent copy of the original (its WAL included), before anything changes
    with contextlib.suppress(OSError):
        os.chmod(backup, 0o600)
    db.execute("BEGIN IMMEDIATE")  # one process imports; the others find rtk's schema after it
    try:
        if not is_foreign(db):
            db.execute("COMMIT")
            with contextlib.suppress(OSError):
                os.unlink(backup)  # another process imported it meanwhile (and kept its own backup)
            return db
        imported = _import(db)
        if imported is None:
            db.execute("ROLLBACK")
        else:
            db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    if imported is not None:
        commands, failures = imported
        print(
            f"rtk: {path} was created by another program (upstream RTK?); imported {commands} commands and"
            f" {failures} parse failures into rtk's tables; the original is kept as {backup}",
            file=sys.stderr,
        )
        return db
    # Rows rtk cannot read: the original stays whole in the backup; rtk starts its own file.
    db.close()
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            os.unlink(path + suffix)
    print(
        f"rtk: {path} was created by another program and its rows cannot be imported; it is kept as {backup}"
        " and rtk uses a new file of its own there",
        file=sys.stderr,
    )
    return sqlite3.connect(path, timeout=timeout, isolation_level=None)


def _import(db: sqlite3.Connection) -> tuple[int, int] | None:
    """Move the foreign rows into rtk's schema (inside the open transaction); None when they cannot be read."""
    from rtk.tracking import mask_command

    names = _tables(db)
    if "commands" not in names or not set(_NEEDED) <= _columns(db, "commands"):
        return None
    has = _columns(db, "commands")

    def col(name: str, default: str) -> str:
        return f'"{name}"' if name in has else default

    empty = "''"
    select = ", ".join((_TS.format("timestamp"), "original_cmd", "rtk_cmd", col("filter", "'upstream'"), "input_tokens",
                        "output_tokens", col("exec_time_ms", "0"), col("project_path", empty), col("exit_code", "0")))  # fmt: skip
    commands = db.execute(f"SELECT {select} FROM commands ORDER BY rowid").fetchall()
    failures: list[tuple[object, ...]] = []
    if "parse_failures" in names and {"timestamp", "raw_command"} <= (fc := _columns(db, "parse_failures")):
        err = '"error_message"' if "error_message" in fc else "''"
        ok = '"fallback_succeeded"' if "fallback_succeeded" in fc else "1"
        failures = db.execute(
            f"SELECT {_TS.format('timestamp')}, raw_command, {err}, {ok} FROM parse_failures ORDER BY rowid"
        ).fetchall()
    for name in names:
        db.execute(f'DROP TABLE "{name}"')  # the backup holds them all
    create_in_transaction(db)
    rows = []
    for ts, orig, rcmd, filt, tin, tout, ms, proj, code in commands:
        i, o = _num(tin), _num(tout)
        pct = (i - o) * 100.0 / i if i > 0 else 0.0
        rows.append((str(ts), mask_command(str(orig)), mask_command(str(rcmd)), str(filt or ""), i, o, i - o, pct,
                     _num(ms), str(proj or ""), _num(code)))  # fmt: skip
    db.executemany(
        "INSERT INTO commands (timestamp, original_cmd, rtk_cmd, filter, input_tokens, output_tokens,"
        " saved_tokens, savings_pct, exec_time_ms, project_path, exit_code) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    db.executemany(
        "INSERT INTO parse_failures (timestamp, raw_command, filter, error_message, fallback_succeeded)"
        " VALUES (?,?,'',?,?)",
        [(str(ts), mask_command(str(cmd)), mask_command(str(e or "")), _num(ok)) for ts, cmd, e, ok in failures],
    )
    return len(rows), len(failures)


def _num(v: object) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return int(v)
    try:
        return int(str(v))
    except ValueError:
        return 0
