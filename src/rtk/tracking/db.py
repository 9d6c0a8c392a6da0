"""The tracking database: open it (WAL, busy timeout, migrations) and ingest the journal.

A corrupt database file is moved aside and recreated; a locked one is retried
later (the journal keeps the rows meanwhile). Nothing here ever raises into a
command run.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import time

from rtk import config, paths, tracking
from rtk.errors import RtkError
from rtk.tracking import foreign
from rtk.tracking.migrations import migrate

BUSY_TIMEOUT_MS = 5000

# Field names of each journal record kind, after the format and kind columns.
COMMAND_FIELDS = (
    "timestamp", "original_cmd", "rtk_cmd", "filter", "input_tokens", "output_tokens",
    "exec_time_ms", "project_path", "exit_code", "cut_items", "tee_path",
)  # fmt: skip
# Fields added later: optional in the journal (rows written by an older rtk lack them).
COMMAND_EXTRA = ("restored",)
FAILURE_FIELDS = ("timestamp", "raw_command", "filter", "error_message", "fallback_succeeded")
UNTRUSTED_FIELDS = ("timestamp", "command", "filter", "file", "reason", "project_path")
RECALL_FIELDS = ("timestamp", "tee_path", "how", "project_path")


class Unavailable(RtkError, sqlite3.OperationalError):
    """The database path cannot be opened (a directory, a missing parent): one line naming it, never a traceback."""


def connect(path: str | None = None) -> sqlite3.Connection:
    """Open (creating and migrating if needed) the database in autocommit mode."""
    path = path or tracking.db_path()
    if os.path.isdir(path):
        raise Unavailable(
            f"tracking database {path} is a directory, not a database file (RTK_DB_PATH, tracking.database_path)"
        )
    if os.path.exists(path) and not os.path.isfile(path):  # a FIFO or a device: SQLite says "disk I/O error"
        raise Unavailable(f"tracking database {path} is not a regular file (RTK_DB_PATH, tracking.database_path)")
    try:
        paths.ensure_dir(os.path.dirname(path) or ".")
    except OSError as e:
        raise Unavailable(f"tracking database {path}: cannot create its directory ({e.strerror or e})") from None
    try:
        return _open(path)
    except sqlite3.DatabaseError as e:
        if "unable to open" in str(e):
            raise Unavailable(f"tracking database {path}: cannot open it ({e})") from None
        if not _is_corrupt(e):
            raise
        aside = _aside_name(f"{path}.corrupt-{int(time.time())}")
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.replace(path + suffix, aside + suffix)
        print(f"rtk: tracking database was corrupt; moved it to {aside} and started a new one", file=sys.stderr)
        return _open(path)


def _aside_name(base: str) -> str:
    """``base``, or ``base.N``: a name no earlier copy has, reserved by creating it (O_EXCL)."""
    for n in range(1000):
        name = base if n == 0 else f"{base}.{n}"
        try:
            os.close(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            return name
        except FileExistsError:
            continue
        except OSError:
            break
    return f"{base}.{os.getpid()}.{time.monotonic_ns()}"


def _is_corrupt(e: sqlite3.DatabaseError) -> bool:
    msg = str(e).lower()
    return "not a database" in msg or "malformed" in msg or "corrupt" in msg


def _open(path: str) -> sqlite3.Connection:
    new = not os.path.exists(path)
    db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not new and foreign.is_foreign(db):
            db = foreign.adopt(db, path, BUSY_TIMEOUT_MS / 1000)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        migrate(db)
    except BaseException:
        db.close()
        raise
    if new:
        with contextlib.suppress(OSError):
            os.chmod(path, 0o600)
    return db


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _int(s: str) -> int:
    try:
        return int(s)
    except ValueError:
        return 0


def _claim(pending: str) -> list[str]:
    """Move the journal's rows (and files left by crashed ingesters) aside; return what we own.

    The journal itself is never renamed: under its lock the rows are copied to a file of
    ours and the journal is truncated, so a writer always appends to the same file and
    never has to retry (renaming it made writers lose the race under load and drop rows).
    A crash between the copy and the truncation can ingest rows twice, never lose them.
    """
    claimed: list[str] = []
    d = os.path.dirname(pending) or "."
    base = os.path.basename(pending)
    mine = f"{pending}.{os.getpid()}.{time.monotonic_ns()}.ingest"
    lockf = getattr(os, "lockf", None)
    for _ in range(10):
        try:
            fd = tracking.open_journal(pending, os.O_RDWR)  # a POSIX write lock needs a writable fd
        except OSError:  # gone, or not a regular file
            break
        try:
            if lockf is not None:
                tracking.lock(fd)  # waits for a writer in the middle of a line (OSError past a bound)
                # The file may have been replaced while we waited (an older rtk renamed it):
                # only take rows from the file we actually hold the lock on.
                if os.fstat(fd).st_ino != os.stat(pending).st_ino:
                    continue
            if _move_rows(fd, mine):
                claimed.append(mine)
            break
        except OSError:
            break  # rows that could not be copied stay in the journal for the next attempt
        finally:
            os.close(fd)  # releases the lock
    # Leftovers of an ingester that died: claim them by renaming (only one process wins).
    try:
        names = os.listdir(d)
    except OSError:
        names = []
    for name in names:
        if name.startswith(base + ".") and name.endswith(".ingest") and os.path.join(d, name) != mine:
            full = os.path.join(d, name)
            try:
                if _owner_alive(name[len(base) + 1 :]) and time.time() - os.stat(full).st_mtime < 600:
                    continue  # another ingester at work
                taken = f"{pending}.{os.getpid()}.{time.monotonic_ns()}.ingest"
                os.rename(full, taken)
                claimed.append(taken)
            except OSError:
                pass
    return claimed


def _move_rows(fd: int, dest: str) -> bool:
    """Copy the locked journal ``fd`` to a new file ``dest`` and empty the journal; False when it was empty."""
    chunks: list[bytes] = []
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    if not chunks:
        return False
    out = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        for chunk in chunks:
            view = memoryview(chunk)
            while view:
                view = view[os.write(out, view) :]
    except BaseException:
        os.close(out)
        os.unlink(dest)  # the rows stay in the journal
        raise
    os.close(out)
    os.ftruncate(fd, 0)
    return True


def _owner_alive(suffix: str) -> bool:
    """Is the process named in a claimed file's suffix (``<pid>.<ns>.ingest``) still running?"""
    pid = suffix.split(".", 1)[0]
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def _give_back(path: str) -> None:
    """Return a claimed file's rows to the journal (the database could not take them now)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        if data:
            tracking.append_raw(data)
        os.unlink(path)
    except OSError:
        pass  # left in place; claimed again once this process has exited


Rows = list[tuple[object, ...]]


def _rows(path: str) -> tuple[Rows, Rows, Rows, Rows]:
    commands: Rows = []
    failures: Rows = []
    untrusted: Rows = []
    recalls: Rows = []
    with open(path, "rb") as f:
        for raw in f:
            if not raw.endswith(b"\n"):
                continue  # a torn write (crash mid-line): skip it
            parts = [_unescape(p) for p in raw[:-1].decode("utf-8", "replace").split("\t")]
            if len(parts) < 2 or parts[0] != tracking.FORMAT:
                continue
            kind, fields = parts[1], parts[2:]
            if kind == "C" and len(fields) >= len(COMMAND_FIELDS):
                ts, orig, rcmd, filt, tin, tout, ms, proj, code, cut, tee = fields[: len(COMMAND_FIELDS)]
                restored = _int(fields[len(COMMAND_FIELDS)]) if len(fields) > len(COMMAND_FIELDS) else 0
                i, o = _int(tin), _int(tout)
                pct = (i - o) * 100.0 / i if i > 0 else 0.0
                orig, rcmd = tracking.mask_command(orig), tracking.mask_command(rcmd)  # journals of older versions
                commands.append(
                    (ts, orig, rcmd, filt, i, o, i - o, pct, _int(ms), proj, _int(code), _int(cut), tee, restored)
                )
            elif kind == "F" and len(fields) >= len(FAILURE_FIELDS):
                ts, cmd, filt, err, ok = fields[: len(FAILURE_FIELDS)]
                failures.append((ts, tracking.mask_command(cmd), filt, tracking.mask_command(err), _int(ok)))
            elif kind == "U" and len(fields) >= len(UNTRUSTED_FIELDS):
                ts, cmd, *rest = fields[: len(UNTRUSTED_FIELDS)]
                untrusted.append((ts, tracking.mask_command(cmd), *rest))
            elif kind == "R" and len(fields) >= len(RECALL_FIELDS):
                recalls.append(tuple(fields[: len(RECALL_FIELDS)]))
    return commands, failures, untrusted, recalls


def ingest(db: sqlite3.Connection | None = None, *, quiet: bool = False) -> int:
    """Move pending journal rows into the database; return how many commands were added.

    Best effort: on any database problem the claimed journal files are left in
    place for the next attempt, and nothing is raised.
    """
    pending = tracking.pending_path()
    claimed = _claim(pending)
    if not claimed and db is None:
        return 0
    own = db is None
    added = 0
    try:
        if db is None:
            db = connect()
        for path in claimed:
            commands, failures, untrusted, recalls = _rows(path)
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(
                    "INSERT INTO commands (timestamp, original_cmd, rtk_cmd, filter, input_tokens,"
                    " output_tokens, saved_tokens, savings_pct, exec_time_ms, project_path, exit_code,"
                    " cut_items, tee_path, restored) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    commands,
                )
                db.executemany(
                    "INSERT INTO parse_failures (timestamp, raw_command, filter, error_message,"
                    " fallback_succeeded) VALUES (?,?,?,?,?)",
                    failures,
                )
                db.executemany(
                    "INSERT INTO untrusted_filter_skips (timestamp, command, filter, file, reason, project_path)"
                    " VALUES (?,?,?,?,?,?)",
                    untrusted,
                )
                db.executemany("INSERT INTO recalls (timestamp, tee_path, how, project_path) VALUES (?,?,?,?)", recalls)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            os.unlink(path)
            added += len(commands)
        _apply_retention(db)
    except (sqlite3.Error, OSError) as e:
        for path in claimed:
            if os.path.exists(path):
                _give_back(path)
        if not quiet:
            print(f"rtk: could not update the tracking database: {e}", file=sys.stderr)
    finally:
        if own and db is not None:
            db.close()
    return added


def _apply_retention(db: sqlite3.Connection) -> None:
    days = int(config.get("tracking.history_days"))
    if days <= 0:
        return
    try:
        cutoff = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - days * 86400))
    except (OverflowError, OSError, ValueError):
        return  # further back than the platform's clock reaches: nothing is that old
    db.execute("DELETE FROM commands WHERE timestamp < ?", (cutoff,))
    db.execute("DELETE FROM parse_failures WHERE timestamp < ?", (cutoff,))
    db.execute("DELETE FROM untrusted_filter_skips WHERE timestamp < ?", (cutoff,))
    db.execute("DELETE FROM recalls WHERE timestamp < ?", (cutoff,))


def open_for_reading() -> sqlite3.Connection:
    """A connection with every pending row ingested first (for gain and analytics)."""
    db = connect()
    ingest(db)
    return db
