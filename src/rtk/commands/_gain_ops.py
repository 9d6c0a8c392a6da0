"""``rtk gain --reset`` (scoped delete, confirmed, with a backup) and ``rtk gain --watch`` (a refreshing view)."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import TYPE_CHECKING

from rtk.errors import RtkError, UsageError

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable

    from rtk.tracking.queries import Scope

CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear screen
TICKS_ENV = "RTK_GAIN_WATCH_TICKS"  # test hook: stop after this many views


# ---------------------------------------------------------------------------
# --reset
# ---------------------------------------------------------------------------


def _counts(db: sqlite3.Connection, scope: Scope) -> dict[str, int]:
    """Rows the reset would delete, per table (parse_failures only when the scope is not a project)."""
    from rtk.tracking.queries import RECALLS

    out: dict[str, int] = {}
    for table in ("commands", "untrusted_filter_skips", RECALLS, "parse_failures"):
        if table == "parse_failures" and scope.project:
            continue  # fallbacks are not recorded per project: a project reset keeps them
        where, params = scope.where(table)
        out[table] = db.execute(f"SELECT COUNT(*) FROM {table}{where}", params).fetchone()[0]
    return out


def _what(scope: Scope) -> str:
    if scope.project and scope.since:
        return f"recorded under {scope.project} since {scope.since[:10]}"
    if scope.project:
        return f"recorded under {scope.project}"
    if scope.since:
        return f"recorded in every project since {scope.since[:10]}"
    return "recorded in every project, all time"


def describe(counts: dict[str, int], scope: Scope) -> str:
    """One line: what the reset deletes."""
    from rtk.tracking.queries import RECALLS

    def n(v: int, what: str) -> str:
        return f"{v:,} {what}{'' if v == 1 else 's'}"

    parts = [n(counts["commands"], "command run")]
    if counts.get("parse_failures"):
        parts.append(n(counts["parse_failures"], "filter fallback"))
    if counts.get("untrusted_filter_skips"):
        parts.append(n(counts["untrusted_filter_skips"], "untrusted-filter skip"))
    if counts.get(RECALLS):
        parts.append(n(counts[RECALLS], "recall"))
    kept = "; filter fallbacks are not per project and stay" if scope.project else ""
    return f"{', '.join(parts)} {_what(scope)}{kept}"


def backup(db: sqlite3.Connection, path: str) -> str:
    """Copy the database next to itself (``<db>.bak-<UTC time>``, never overwriting); return the copy's path."""
    import sqlite3

    from rtk.tracking.db import _aside_name

    name = _aside_name(f"{path}.bak-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}")
    dest = sqlite3.connect(name)
    try:
        db.backup(dest)
    finally:
        dest.close()
    return name


def confirm(question: str, ask: Callable[[str], str] | None = None) -> bool:
    """Ask on the terminal; only an explicit yes counts (end of input or Ctrl-C: no)."""
    sys.stderr.write(question)
    sys.stderr.flush()
    try:
        answer = (ask or (lambda _q: sys.stdin.readline()))(question)
    except (EOFError, KeyboardInterrupt):
        answer = ""
    if not answer.endswith("\n"):
        sys.stderr.write("\n")
    return answer.strip().lower() in ("y", "yes")


def reset(scope: Scope, yes: bool, interactive: bool | None = None) -> int:
    """Delete the rows in ``scope`` after a backup; ask first unless ``yes`` (refused when nobody can answer)."""
    from rtk import tracking
    from rtk.tracking import db as trackdb

    if interactive is None:
        interactive = bool(sys.stdin is not None and sys.stdin.isatty())
    path = tracking.db_path()
    if not os.path.exists(path) and not os.path.exists(tracking.pending_path()):
        print(f"rtk gain --reset: nothing recorded yet ({path} does not exist); nothing deleted")
        return 0
    db = trackdb.open_for_reading()
    try:
        counts = _counts(db, scope)
        what = describe(counts, scope)
        if not any(counts.values()):
            print(f"rtk gain --reset: nothing to delete ({what})")
            return 0
        if not yes:
            if not interactive:
                raise UsageError(f"gain --reset would delete {what}; add --yes to confirm (no terminal to ask)")
            if not confirm(f"rtk gain --reset: delete {what} from {path}? A backup is kept next to it. [y/N] "):
                print("rtk gain --reset: cancelled; nothing deleted")
                return 1
        try:
            copy = backup(db, path)
        except Exception as e:
            raise RtkError(f"gain --reset: could not back up {path} ({e}); nothing deleted") from None
        db.execute("BEGIN IMMEDIATE")
        try:
            for table in counts:
                where, params = scope.where(table)
                db.execute(f"DELETE FROM {table}{where}", params)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        with contextlib.suppress(Exception):
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the file alone holds the data: a copy back restores it
    finally:
        db.close()
    print(f"rtk gain --reset: deleted {what}")
    print(f"  backup of the database before the reset: {copy}")
    print(f"  (to undo: copy it back over {path} while no rtk command runs)")
    return 0


# ---------------------------------------------------------------------------
# --watch
# ---------------------------------------------------------------------------


def watch(
    render: Callable[[], str],
    interval: float,
    *,
    tty: bool | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    ticks: int | None = None,
) -> int:
    """Print ``render()`` every ``interval`` seconds until Ctrl-C (exit 0) or ``ticks`` views.

    On a terminal each view replaces the last (cursor home, clear screen); otherwise
    each view is printed after the previous one, under a time line, with no control codes.
    Views keep to the schedule (start + k * interval) however long rendering takes.
    """
    if tty is None:
        tty = sys.stdout.isatty()
    if ticks is None:
        env = os.environ.get(TICKS_ENV, "")
        ticks = int(env) if env.isdigit() and int(env) > 0 else None
    start = clock()
    n = 0
    try:
        while True:
            body = render()
            stamp = time.strftime("%H:%M:%S")
            if tty:
                head = f"rtk gain --watch: every {interval:g}s, Ctrl-C to stop (updated {stamp})\n\n"
                sys.stdout.write(CLEAR + head + body)
            else:
                sys.stdout.write(("\n" if n else "") + f"--- rtk gain at {stamp} ---\n" + body)
            sys.stdout.flush()
            n += 1
            if ticks is not None and n >= ticks:
                return 0
            now = clock()
            k = int((now - start) // interval) + 1  # the next slot of the schedule (late views are skipped)
            sleep(max(0.0, start + k * interval - now))
    except KeyboardInterrupt:
        if tty:
            sys.stdout.write("\n")
        return 0


def interval(text: str) -> float:
    """``--interval``: seconds, a positive number."""
    try:
        v = float(text)
    except ValueError:
        v = 0.0
    if not v > 0 or v == float("inf"):
        raise UsageError(f"gain: --interval must be a positive number of seconds, not {text!r}")
    return v
