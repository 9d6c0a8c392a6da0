"""Schema migrations for the tracking database: ordered, named, each in its own transaction.

Append a new ``mNNN_name`` function to add a change; never rename or reorder
existing ones (their names are what ``_rtk_migrations`` records).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[Migration] = []


def migration(fn: Migration) -> Migration:
    if any(m.__name__ == fn.__name__ for m in MIGRATIONS):
        raise ValueError(f"duplicate migration name {fn.__name__}")
    MIGRATIONS.append(fn)
    return fn


@migration
def m001_commands(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE commands (
            id            INTEGER PRIMARY KEY,
            timestamp     TEXT    NOT NULL,            -- RFC 3339, UTC
            original_cmd  TEXT    NOT NULL,            -- what the agent asked for: git status
            rtk_cmd       TEXT    NOT NULL,            -- what ran: rtk git status
            filter        TEXT    NOT NULL DEFAULT '', -- filter id, '' for passthrough
            input_tokens  INTEGER NOT NULL,            -- estimate of the raw output
            output_tokens INTEGER NOT NULL,            -- estimate of what was printed
            saved_tokens  INTEGER NOT NULL,            -- input - output, may be negative
            savings_pct   REAL    NOT NULL,
            exec_time_ms  INTEGER NOT NULL DEFAULT 0,
            project_path  TEXT    NOT NULL DEFAULT '',
            exit_code     INTEGER NOT NULL DEFAULT 0
        )
        """
    )
    db.execute("CREATE INDEX idx_commands_timestamp ON commands(timestamp)")
    db.execute("CREATE INDEX idx_commands_project ON commands(project_path, timestamp)")


@migration
def m002_parse_failures(db: sqlite3.Connection) -> None:
    db.execute(
        """
        CREATE TABLE parse_failures (
            id                 INTEGER PRIMARY KEY,
            timestamp          TEXT NOT NULL,
            raw_command        TEXT NOT NULL,
            filter             TEXT NOT NULL DEFAULT '',
            error_message      TEXT NOT NULL DEFAULT '',
            fallback_succeeded INTEGER NOT NULL DEFAULT 1
        )
        """
    )
    db.execute("CREATE INDEX idx_parse_failures_timestamp ON parse_failures(timestamp)")


@migration
def m003_recovery_columns(db: sqlite3.Connection) -> None:
    # How much the filter left out, and where the raw output was kept.
    db.execute("ALTER TABLE commands ADD COLUMN cut_items INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE commands ADD COLUMN tee_path TEXT NOT NULL DEFAULT ''")


@migration
def m004_untrusted_filter_skips(db: sqlite3.Connection) -> None:
    # Runs where a project TOML filter matched but was not applied (never trusted, or changed).
    db.execute(
        """
        CREATE TABLE untrusted_filter_skips (
            id           INTEGER PRIMARY KEY,
            timestamp    TEXT NOT NULL,
            command      TEXT NOT NULL,
            filter       TEXT NOT NULL,
            file         TEXT NOT NULL,
            reason       TEXT NOT NULL,            -- untrusted | changed
            project_path TEXT NOT NULL DEFAULT ''
        )
        """
    )
    db.execute("CREATE INDEX idx_untrusted_skips_timestamp ON untrusted_filter_skips(timestamp)")


@migration
def m005_mask_stored_commands(db: sqlite3.Connection) -> None:
    # Rows written before the masker knew every credential form: mask them in place.
    from rtk.tracking import mask_command

    for table, column in (("commands", "original_cmd"), ("commands", "rtk_cmd"), ("parse_failures", "raw_command"),
                          ("parse_failures", "error_message"), ("untrusted_filter_skips", "command")):  # fmt: skip
        for rowid, text in db.execute(f"SELECT id, {column} FROM {table}").fetchall():
            masked = mask_command(text)
            if masked != text:
                db.execute(f"UPDATE {table} SET {column} = ? WHERE id = ?", (masked, rowid))


@migration
def m006_restored_lines(db: sqlite3.Connection) -> None:
    # Raw lines the fact guard put back because the filter dropped a fact (a filter bug).
    db.execute("ALTER TABLE commands ADD COLUMN restored INTEGER NOT NULL DEFAULT 0")


@migration
def m007_recalls(db: sqlite3.Connection) -> None:
    # Raw outputs asked back after a filtered run (`rtk recall ID`, `rtk read <recovery file>`): a re-run signal.
    db.execute(
        """
        CREATE TABLE recalls (
            id           INTEGER PRIMARY KEY,
            timestamp    TEXT NOT NULL,
            tee_path     TEXT NOT NULL,            -- the recovery file (commands.tee_path of the run)
            how          TEXT NOT NULL DEFAULT '', -- recall | read
            project_path TEXT NOT NULL DEFAULT ''
        )
        """
    )
    db.execute("CREATE INDEX idx_recalls_tee_path ON recalls(tee_path, timestamp)")


@migration
def m008_lookup_indexes(db: sqlite3.Connection) -> None:
    # Partial indexes over the few rows each lookup wants (cheap to keep): `rtk recall` finds a recovery file's
    # run by tee_path, and `rtk gain --failures` looks for an `rtk proxy` re-run of every filtered run (a
    # million runs took 30 s without). The re-run query repeats the proxy condition word for word so SQLite
    # can use the index (queries.reruns).
    db.execute("CREATE INDEX idx_commands_tee_path ON commands(tee_path) WHERE tee_path != ''")
    db.execute(
        "CREATE INDEX idx_commands_proxy_runs ON commands(original_cmd, project_path, timestamp)"
        " WHERE filter = '' AND substr(rtk_cmd, 1, 10) = 'rtk proxy '"
    )


def applied(db: sqlite3.Connection) -> set[str]:
    db.execute("CREATE TABLE IF NOT EXISTS _rtk_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    return {row[0] for row in db.execute("SELECT name FROM _rtk_migrations")}


def migrate(db: sqlite3.Connection, upto: str | None = None) -> list[str]:
    """Apply every pending migration (or those up to ``upto``); return their names.

    The connection must be in autocommit mode (``isolation_level=None``).
    """
    done = applied(db)
    ran: list[str] = []
    for m in MIGRATIONS:
        if m.__name__ not in done:
            # BEGIN IMMEDIATE: two processes opening a fresh DB must not both migrate.
            db.execute("BEGIN IMMEDIATE")
            try:
                if db.execute("SELECT 1 FROM _rtk_migrations WHERE name = ?", (m.__name__,)).fetchone():
                    db.execute("ROLLBACK")
                else:
                    m(db)
                    db.execute(
                        "INSERT INTO _rtk_migrations (name, applied_at)"
                        " VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))",
                        (m.__name__,),
                    )
                    db.execute("COMMIT")
                    ran.append(m.__name__)
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        if m.__name__ == upto:
            break
    return ran


def create_in_transaction(db: sqlite3.Connection) -> None:
    """Apply every migration inside the caller's open transaction (a schema made from nothing)."""
    applied(db)
    for m in MIGRATIONS:
        m(db)
        db.execute(
            "INSERT INTO _rtk_migrations (name, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ','now'))",
            (m.__name__,),
        )
