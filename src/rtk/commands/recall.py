"""``rtk recall``: list the raw outputs rtk kept (recovery files) and print one back, byte-exact."""

from __future__ import annotations

import os
import time
from collections import deque

from rtk import config, tee
from rtk.commands._own import parse, write
from rtk.errors import RtkError, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

HELP = """\
usage: rtk recall [-n N]                       list the kept raw outputs, newest first
       rtk recall ID [--full | --lines A-B | --grep PATTERN]

When rtk cuts an output it keeps the raw bytes and ends its output with
`[rtk] full output: rtk recall ID`. ID is the start of the output's content
hash (SHA-256, at least 4 hex digits) or the run number shown by the list.

  --full           every byte, exactly as the command wrote it
  --lines A-B      lines A to B (1-based, inclusive; A- to the end, or one line A)
  --grep PATTERN   the lines matching a regular expression, as LINE:text
  -n N             list at most N outputs (default 20)

Without an option a short output is printed whole; a long one shows its first
and last lines and names the --lines range left out. Exit 1 when ID matches
no kept output (or --grep matches no line)."""

OPTIONS = {
    "--full": ("full", False),
    "--lines": ("lines", True),
    "--grep": ("grep", True),
    "-n": ("n", True),
}
MIN_ID = 4


class Kept:
    """One recovery file."""

    __slots__ = ("command", "mtime", "path", "run", "size")

    def __init__(self, path: str, mtime: float, size: int) -> None:
        self.path = path
        self.mtime = mtime
        self.size = size
        self.command = ""
        self.run: int | None = None


def kept_files() -> list[Kept]:
    """Every recovery file, newest first, with its run and command from the tracking database when known."""
    d = tee.directory()
    found: list[Kept] = []
    try:
        entries = list(os.scandir(d))
    except OSError:
        return []
    for e in entries:
        if not e.name.endswith(".log"):
            continue
        try:
            st = e.stat()
        except OSError:
            continue
        found.append(Kept(e.path, st.st_mtime, st.st_size))
    found.sort(key=lambda k: (k.mtime, k.path), reverse=True)
    _attach_runs(found)
    for k in found:
        if not k.command:  # the file name: <epoch>_<program>_<id>.log (older: <epoch>_<command slug>.log)
            k.command = _named(os.path.basename(k.path)[:-4].partition("_")[2])
    return found


def _named(stem: str) -> str:
    """The command a file name stands for: its program (the content id and a same-second number dropped)."""
    words = stem.split("_")
    if len(words) > 2 and words[-1].isdigit() and len(words[-1]) <= 2:
        words.pop()
    if len(words) > 1 and len(words[-1]) == tee.ID_LEN and all(c in "0123456789abcdef" for c in words[-1]):
        words.pop()
    return " ".join(words)


def _attach_runs(found: list[Kept]) -> None:
    """The most recent tracked run that kept each file (fail open: no database, no run numbers)."""
    if not found:
        return
    try:
        from rtk.tracking import db as trackdb

        db = trackdb.open_for_reading()
        try:
            for k in found:
                row = db.execute(
                    "SELECT id, original_cmd FROM commands WHERE tee_path = ? ORDER BY id DESC LIMIT 1", (k.path,)
                ).fetchone()
                if row:
                    k.run, k.command = int(row[0]), str(row[1])
        finally:
            db.close()
    except Exception:
        return


def find(ident: str) -> tuple[Kept, str]:
    """The kept output named by ``ident`` (hash prefix or run number) and its content id."""
    files = kept_files()
    low = ident.lower()
    if len(low) >= MIN_ID and all(c in "0123456789abcdef" for c in low):
        hits = []
        for k in files:
            cid = _full_hash(k.path)
            if cid is not None and cid.startswith(low):
                hits.append((k, cid[: tee.ID_LEN]))
        if len(hits) > 1 and len({h[1] for h in hits}) > 1:
            raise RtkError(f"recall: {ident} names {len(hits)} kept outputs; give more digits")
        if hits:
            return hits[0]
    if ident.isdigit():
        for k in files:
            if k.run == int(ident):
                return k, tee.content_id(k.path) or "?"
    raise RtkError(f"recall: no kept output {ident} (list them with `rtk recall`)")


def _full_hash(path: str) -> str | None:
    import hashlib

    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 16):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def _range(text: str) -> tuple[int, int | None]:
    a, dash, b = text.partition("-")
    if not a.isdigit() or (b and not b.isdigit()) or int(a) < 1:
        raise UsageError(f"recall: --lines needs A-B, A- or A (line numbers from 1), not {text!r}")
    start = int(a)
    end = (int(b) if b else None) if dash else start
    if end is not None and end < start:
        raise UsageError(f"recall: --lines {text}: the range ends before it starts")
    return start, end


def _lines(path: str) -> BinaryIO:
    """The file opened for reading its lines as bytes (newline kept), in bounded memory."""
    try:
        return open(path, "rb")
    except OSError as e:
        raise RtkError(f"recall: {path}: {e.strerror}") from None


def print_lines(path: str, start: int, end: int | None) -> int:
    with _lines(path) as f:
        for n, line in enumerate(f, 1):
            if end is not None and n > end:
                break
            if n >= start:
                write(line)
    return 0


def print_full(path: str) -> int:
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 16):
                write(chunk)
    except OSError as e:
        raise RtkError(f"recall: {path}: {e.strerror}") from None
    return 0


def print_grep(path: str, pattern: str) -> int:
    import re

    try:
        rx = re.compile(pattern.encode("utf-8", "surrogateescape"))
    except re.error as e:
        raise UsageError(f"recall: bad --grep pattern {pattern!r}: {e}") from None
    found = 0
    with _lines(path) as f:
        for n, line in enumerate(f, 1):
            if rx.search(line):
                found += 1
                write(b"%d:" % n + line + (b"" if line.endswith(b"\n") else b"\n"))
    return 0 if found else 1


def print_default(path: str, cid: str) -> int:
    """Whole when short; else the first and last lines and the --lines range left out (two bounded passes)."""
    limit = max(int(config.get("limits.passthrough_max_lines")), 4)
    with _lines(path) as f:
        total = sum(1 for _ in f)
    if total <= limit:
        return print_full(path)
    head = limit // 4
    tail_n = limit - head
    tail: deque[bytes] = deque(maxlen=tail_n)
    with _lines(path) as f:
        for n, line in enumerate(f, 1):
            if n <= head:
                write(line)
            else:
                tail.append(line)
    first, last = head + 1, total - tail_n
    write(
        f"[rtk] ... lines {first}-{last} of {total} left out: rtk recall {cid} --lines {first}-{last}"
        f" (or --full, --grep PATTERN) ...\n"
    )
    for line in tail:
        write(line)
    return 0


def listing(n: int) -> int:
    files = kept_files()
    if not files:
        print(f"rtk recall: no kept outputs (in {tee.directory()})")
        return 0
    print(f"{'id':<{tee.ID_LEN}}  {'run':>6}  {'when':<16}  {'bytes':>9}  command")
    for k in files[:n]:
        cid = tee.content_id(k.path) or "?"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(k.mtime))
        run = str(k.run) if k.run is not None else "-"
        cmd = k.command if len(k.command) <= 60 else k.command[:59] + "…"
        print(f"{cid:<{tee.ID_LEN}}  {run:>6}  {when:<16}  {k.size:>9,}  {cmd}")
    if len(files) > n:
        print(f"({len(files) - n} older; rtk recall -n {len(files)})")
    return 0


def main(args: list[str]) -> int:
    a = parse("recall", args, OPTIONS)
    if a.help:
        print(HELP)
        return 0
    modes = [m for m in ("full", "lines", "grep") if m in a.values]
    if len(modes) > 1:
        raise UsageError("recall: give only one of --full, --lines, --grep")
    if not a.pos:
        if modes:
            raise UsageError(f"recall: --{modes[0]} needs an ID (list them with `rtk recall`)")
        return listing(a.number("recall", "n", 20) or 20)
    if len(a.pos) > 1:
        raise UsageError("recall: give one ID")
    rng = _range(a.text("lines")) if "lines" in a.values else None
    k, cid = find(a.pos[0])
    from rtk import tracking

    # A recall is a sign the filtered output was not enough (rtk gain --failures).
    if tracking.record_recall(k.path, "recall"):
        from rtk.tracking import db

        db.ingest(quiet=True)
    if a.flag("full"):
        return print_full(k.path)
    if rng is not None:
        return print_lines(k.path, *rng)
    if "grep" in a.values:
        return print_grep(k.path, a.text("grep"))
    return print_default(k.path, cid)
