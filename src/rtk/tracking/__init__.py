"""Savings tracking. This module is the command path: append one record to a journal.

Each run appends one line to ``<db>.pending`` with a single ``O_APPEND`` write
under a lock; ``rtk.tracking.db`` moves pending lines into SQLite when a reader
(``rtk gain``...) needs them, or when the journal grows. A run never imports
``sqlite3`` and a broken database can never slow down or break a command.
The ingester takes the same lock, copies the journal's rows to a file of its own
and empties the journal, so writers always append to one file and never lose or
interleave rows (a writer that finds the file replaced under it reopens the path).
"""

from __future__ import annotations

import os
import sys
import time

from rtk import config, paths

FORMAT = "1"
INGEST_AT_BYTES = 256 * 1024  # a journal this large is moved into SQLite on the next run

_warned = False


def db_path() -> str:
    """``RTK_DB_PATH``, else ``tracking.database_path``, else ``<data dir>/history.db``."""
    p = os.environ.get("RTK_DB_PATH")
    if p:
        return p
    p = config.get("tracking.database_path")
    return p or os.path.join(paths.data_dir(), "history.db")


def pending_path() -> str:
    return db_path() + ".pending"


def enabled() -> bool:
    if os.environ.get("RTK_TRACKING") == "0":
        return False
    return bool(config.get("tracking.enabled"))


def _esc(v: object) -> str:
    s = str(v)
    if "\\" in s or "\t" in s or "\n" in s or "\r" in s:
        s = s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    return s


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def mask_command(cmd: str) -> str:
    """``cmd`` with credential-looking values masked (cheap pre-check first)."""
    low = cmd.lower()
    for needle in _SUSPECT:
        if needle in low:
            from rtk.tracking.mask import mask

            return mask(cmd)
    return cmd


# Every form rtk.tracking.mask masks contains one of these (lower case); tests hold it to that.
_SUSPECT = (
    "pass", "pwd", "token", "secret", "key", "auth", "cred", "bearer", "cookie", "session", "private", "jwt",
    "sig", "@", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat", "sk-", "sk_", "rk-", "rk_", "pk_", "glpat", "xox", "akia", "asia", "aiza", "npm_", "hf_",
    "pypi-", "eyj", "mysql", "maria", "mydumper", "myloader", "redis", "login", "curl", "wget", "http", "xh",
    "aria2c", "mongo", "openssl", "zip", "7z", "sqlcmd", "bcp", "ldap", "smb", "rpcclient", "lftp", "twine",
    "sqlplus", "rman", "exp", "imp", "sqlldr", "dgmgrl", "sudo", "otp", "vercel", "_pw", "_pat", "_sk", "_pin",
    "literal", "jdbc", "identified", "doctl",
)  # fmt: skip


def append(kind: str, *fields: object) -> bool:
    """Append one record; True when the journal is due for ingestion (``rtk.tracking.db.ingest``,
    which the caller runs: this module never imports the database). Never raises (one warning
    line per process on failure)."""
    global _warned
    try:
        if not enabled():
            return False
        line = "\t".join([FORMAT, kind, *(_esc(f) for f in fields)]) + "\n"
        data = line.encode("utf-8", "replace")
        path = pending_path()
        return _locked_append(path, data) >= INGEST_AT_BYTES
    except Exception as e:  # tracking must never break the command
        if not _warned:
            _warned = True
            print(f"rtk: tracking disabled for this run: {e}", file=sys.stderr)
        return False


def append_raw(data: bytes) -> None:
    """Append complete journal lines as they are (rows handed back by an ingester)."""
    _locked_append(pending_path(), data)


LOCK_WAIT_S = 2.0  # longest wait for the journal lock (its holders keep it for one copy or one write)


def lock(fd: int) -> None:
    """Take the journal lock on ``fd``; OSError after :data:`LOCK_WAIT_S`: a holder that was stopped
    (``rtk gain`` suspended with Ctrl-Z) or is stuck must never keep a command from ending."""
    lockf = getattr(os, "lockf", None)  # POSIX record lock; os.lockf needs no extra import
    if lockf is None:
        return
    deadline = time.monotonic() + LOCK_WAIT_S
    delay = 0.001
    while True:
        try:
            lockf(fd, os.F_TLOCK, 0)
            return
        except (BlockingIOError, PermissionError):  # EAGAIN / EACCES: held by another process
            if time.monotonic() >= deadline:
                raise OSError(f"the journal is locked by another process (waited {LOCK_WAIT_S:g} s)") from None
            time.sleep(delay)
            delay = min(delay * 2, 0.05)


def open_journal(path: str, flags: int) -> int:
    """``os.open`` of the journal, refusing anything but a regular file (OSError): a FIFO in its place
    would block the open, a device like /dev/zero would feed the ingester forever."""
    import stat

    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o600)  # a FIFO with no reader: ENXIO at once
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path} is not a regular file")
    return fd


def _locked_append(path: str, data: bytes) -> int:
    """Append under the journal lock; return the file size afterwards."""
    paths.ensure_dir(os.path.dirname(path) or ".")
    lockf = getattr(os, "lockf", None)
    for _ in range(5):
        fd = open_journal(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            if lockf is not None:
                lock(fd)
                try:
                    same = os.stat(path).st_ino == os.fstat(fd).st_ino
                except FileNotFoundError:
                    same = False
                if not same:
                    continue  # the ingester renamed it away between open and lock
            os.write(fd, data)
            return os.fstat(fd).st_size
        finally:
            os.close(fd)  # releases the lock
    raise OSError("journal kept moving while writing")


def record_command(
    *,
    original: str,
    rtk_cmd: str,
    filter_name: str,
    input_tokens: int,
    output_tokens: int,
    exec_ms: int,
    exit_code: int,
    cut: int = 0,
    tee_path: str = "",
    restored: int = 0,
) -> bool:
    """Record one rtk run (``restored``: raw lines the fact guard put back); True when ingestion is due."""
    original = mask_command(original)
    rtk_cmd = mask_command(rtk_cmd)
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = ""
    return append(
        "C", now_iso(), original, rtk_cmd, filter_name, input_tokens, output_tokens,
        exec_ms, cwd, exit_code, cut, tee_path, restored,
    )  # fmt: skip


def record_failure(*, command: str, filter_name: str, error: str, fallback_ok: bool = True) -> None:
    """Record a filter that raised or did not recognise its input."""
    # The error may quote the output it could not read: masked like the command.
    append("F", now_iso(), mask_command(command), filter_name, mask_command(error), 1 if fallback_ok else 0)


def record_recall(tee_path: str, how: str) -> bool:
    """Record that a kept raw output was asked back (``how``: recall or read): a sign its filter lost
    something. True when ingestion is due (the caller runs it, as after ``record_command``)."""
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = ""
    return append("R", now_iso(), tee_path, how, cwd)
