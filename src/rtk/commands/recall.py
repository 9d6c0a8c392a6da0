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
    from collections.abc import Iterator

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
and last lines and names the --lines range left out. An output past
tee.max_file_size is kept compressed, every line up to tee.max_file_mb; past
that its head and tail, and the hint names the lines not kept (--lines of them
exits 1 saying so). Exit 1 when ID matches no kept output (or --grep matches
no line)."""

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


def kept_files(n: int | None = None) -> list[Kept]:
    """The ``n`` most recent recovery files (all when None), newest first, with their run and command."""
    return _newest(tee.directory(), n)[0]


def _newest(d: str, n: int | None) -> tuple[list[Kept], int]:
    """The ``n`` most recent recovery files of ``d`` and how many there are in all.

    Up to ``tee.FULL_SCAN`` files (or ``n``) every file is stat-ed, for the exact order by mtime; in a larger
    directory only that many of the newest by name (a name's epoch is when the file was made), so a listing
    costs the same however many files the directory holds.
    """
    import heapq

    names = tee.names(d)
    count = len(names)
    look = max(tee.FULL_SCAN, n or count)
    if count > look:
        names = heapq.nlargest(look, names, key=tee.epoch)
    found: list[Kept] = []
    for name in names:
        path = os.path.join(d, name)
        st = tee.regular(path)  # a symlink or FIFO planted under a recovery file's name is not one
        if st is not None:
            found.append(Kept(path, st.st_mtime, st.st_size))
    found.sort(key=lambda k: (k.mtime, k.path), reverse=True)
    total = count - (len(names) - len(found))  # less the names that are no recovery file
    if n is not None:
        del found[n:]
    _attach_runs(found)
    for k in found:
        if not k.command:  # the file name: <epoch>_<program>_<id>.log (older: <epoch>_<command slug>.log)
            k.command = _named(tee.stem(os.path.basename(k.path)).partition("_")[2])
    return found, total


def _named(stem: str) -> str:
    """The command a file name stands for: its program (the content id and a same-second number dropped)."""
    words = stem.split("_")
    if len(words) > 2 and words[-1].isdigit() and len(words[-1]) <= 2:
        words.pop()
    if len(words) > 1 and len(words[-1]) == tee.ID_LEN and all(c in "0123456789abcdef" for c in words[-1]):
        words.pop()
    return " ".join(words)


def _attach_runs(found: list[Kept]) -> None:
    """The most recent tracked run that kept each file, in one query (fail open: no database, no run numbers)."""
    if not found:
        return
    try:
        from rtk.tracking import db as trackdb

        db = trackdb.open_for_reading()
        try:
            by_path = {k.path: k for k in found}
            paths = list(by_path)
            for i in range(0, len(paths), 500):  # SQLite's bound on parameters per statement
                chunk = paths[i : i + 500]
                rows = db.execute(
                    "SELECT tee_path, MAX(id), original_cmd FROM commands"
                    f" WHERE tee_path != '' AND tee_path IN ({','.join('?' * len(chunk))}) GROUP BY tee_path",
                    chunk,
                ).fetchall()
                for path, run, cmd in rows:
                    k = by_path[str(path)]
                    k.run, k.command = int(run), str(cmd)
        finally:
            db.close()
    except Exception:
        return


def _run_file(d: str, run: int) -> str | None:
    """The recovery file tracked run ``run`` kept, when it is still in ``d`` (fail open: no database, None)."""
    try:
        from rtk.tracking import db as trackdb

        db = trackdb.open_for_reading()
        try:
            row = db.execute("SELECT tee_path FROM commands WHERE id = ?", (run,)).fetchone()
        finally:
            db.close()
    except Exception:
        return None
    path = str(row[0]) if row and row[0] else ""
    name = os.path.basename(path)
    if not path or path != os.path.join(d, name) or not tee._ours(name) or tee.regular(path) is None:
        return None
    return path


LEGACY = 500  # older names carry no content id: at most this many of the newest are hashed to find one


def find(ident: str) -> tuple[Kept, str]:
    """The kept output named by ``ident`` (hash prefix or run number) and its content id.

    Found by its name (``<epoch>_<program>_<id>.log``): only the files whose name has the id are read, to check
    a longer prefix than the name holds, never every file of the directory.
    """
    d = tee.directory()
    names = tee.names(d)
    low = ident.lower()
    if len(low) >= MIN_ID and all(c in "0123456789abcdef" for c in low):
        hits: list[tuple[Kept, str]] = []
        legacy: list[str] = []
        for name in names:
            nid = tee.name_id(name)
            if nid is None:
                legacy.append(name)
            elif nid.startswith(low[: tee.ID_LEN]):
                hits += _hit(os.path.join(d, name), low, nid if len(low) <= tee.ID_LEN else None)
        if len(legacy) > LEGACY:
            import heapq

            legacy = heapq.nlargest(LEGACY, legacy, key=tee.epoch)
        for name in legacy:
            hits += _hit(os.path.join(d, name), low, None)
        if len(hits) > 1 and len({h[1] for h in hits}) > 1:
            raise RtkError(f"recall: {ident} names {len(hits)} kept outputs; give more digits")
        if hits:
            return max(hits, key=lambda h: (h[0].mtime, h[0].path))  # the same bytes kept twice: the newest
    if ident.isdigit():
        path = _run_file(d, int(ident))
        st = tee.regular(path) if path else None
        if path and st is not None:
            k = Kept(path, st.st_mtime, st.st_size)
            k.run = int(ident)
            return k, tee.name_id(os.path.basename(path)) or tee.content_id(path) or "?"
    raise RtkError(f"recall: no kept output {ident} (list them with `rtk recall`)")


def _hit(path: str, prefix: str, cid: str | None) -> list[tuple[Kept, str]]:
    """``path`` as a match of ``prefix`` (its id ``cid`` from the name, else its content hashed)."""
    st = tee.regular(path)
    if st is None:
        return []
    if cid is None:
        full = _full_hash(path)
        if full is None or not full.startswith(prefix):
            return []
        cid = full[: tee.ID_LEN]
    return [(Kept(path, st.st_mtime, st.st_size), cid)]


def _full_hash(path: str) -> str | None:
    return tee.full_id(path)


def _range(text: str) -> tuple[int, int | None]:
    a, dash, b = text.partition("-")
    if not a.isdigit() or (b and not b.isdigit()) or int(a) < 1:
        raise UsageError(f"recall: --lines needs A-B, A- or A (line numbers from 1), not {text!r}")
    start = int(a)
    end = (int(b) if b else None) if dash else start
    if end is not None and end < start:
        raise UsageError(f"recall: --lines {text}: the range ends before it starts")
    return start, end


def _pieces(path: str) -> Iterator[tuple[int, bytes]]:
    """(number of its first line, bytes) pieces of the kept output (:func:`rtk.teefile.segments`)."""
    import zlib

    from rtk import teefile

    try:
        yield from teefile.segments(path)
    except OSError as e:
        raise RtkError(f"recall: {path}: {e.strerror}") from None
    except (zlib.error, EOFError, teefile.Damaged) as e:
        raise RtkError(f"recall: {path}: damaged ({e})") from None


LINE_CAP = 1 << 20  # bytes of one line the views (default, --grep) hold; --lines and --full copy every byte


def _numbered(path: str) -> Iterator[tuple[int, bytes]]:
    """(line number, line with its newline) of the kept output, in bounded memory (a line at a time).

    A line longer than ``LINE_CAP`` keeps its start and says how many bytes it left out (``--lines N-N`` has them).
    """
    seg = 0
    n = 0
    carry = bytearray()  # the start of a line longer than a piece: grown in place, up to LINE_CAP
    cut = 0  # bytes of the current line past LINE_CAP
    rid = (tee.name_id(os.path.basename(path)) or "ID").encode()

    def add(data: bytes) -> None:
        nonlocal cut
        room = LINE_CAP - len(carry)
        if room > 0:
            carry.extend(data[:room])
        cut += max(len(data) - max(room, 0), 0)

    def whole(end: bytes) -> bytes:
        nonlocal cut
        line = bytes(carry)
        if cut:
            line += b" [rtk: %d more bytes of line %d: rtk recall %s --lines %d-%d]" % (cut, n + 1, rid, n + 1, n + 1)
        cut = 0
        return line + end

    for first, data in _pieces(path):
        if first != seg:  # a new segment (after lost lines): starts on a line of its own
            if carry or cut:
                yield n + 1, whole(b"")
            seg, n, carry, cut = first, first - 1, bytearray(), 0
        parts = data.split(b"\n")
        if len(parts) == 1:
            add(data)
            continue
        if carry or cut:
            add(parts[0])
            parts[0] = whole(b"")
        tail = parts.pop()
        for line in parts:
            n += 1
            yield n, line + b"\n"
        carry = bytearray()
        add(tail)
    if carry or cut:
        yield n + 1, whole(b"")


def _lost(path: str) -> tuple[int, int, int] | None:
    """(A, B, lines in all) when lines A to B of the output are not in its recovery file."""
    from rtk import teefile

    meta = teefile.info(path)
    if meta is None or meta.lost is None:
        return None
    return meta.lost[0], meta.lost[1], meta.lines


def _after(data: bytes, pos: int, count: int) -> int:
    """The position just after the ``count``-th newline of ``data`` from ``pos`` (there are that many)."""
    for _ in range(count):
        pos = data.index(b"\n", pos) + 1
    return pos


def print_lines(path: str, start: int, end: int | None) -> int:
    """Lines ``start`` to ``end`` exactly; stops reading (and decompressing) at ``end``. Exit 1, with a line on
    stderr, when some of them are not kept (past ``tee.max_file_mb``)."""
    seg = 0
    n = 1  # the line the next byte belongs to
    for first, data in _pieces(path):
        if first != seg:
            seg = n = first
        if end is not None and n > end:
            break
        pos = 0
        if n < start:
            count = data.count(b"\n")
            if n + count < start:
                n += count
                continue
            pos, n = _after(data, 0, start - n), start
        count = data.count(b"\n", pos)
        if end is None or n + count <= end:
            write(data[pos:])
            n += count
            continue
        write(data[pos : _after(data, pos, end - n + 1)])
        break
    lost = _lost(path)
    if lost is not None and lost[0] <= (end or lost[2]) and start <= lost[1]:
        a, b, total = lost
        import sys

        sys.stdout.flush()
        print(f"rtk recall: lines {a:,}-{b:,} of {total:,} were not kept (past tee.max_file_mb)", file=sys.stderr)
        return 1
    return 0


def print_full(path: str) -> int:
    """Every byte kept; of an output past ``tee.max_file_mb`` a marker line stands for the lines not kept."""
    seg = 0
    for first, data in _pieces(path):
        if first != seg:
            if seg and (lost := _lost(path)) is not None:
                write(b"[rtk: lines %d-%d of this output were not kept (past tee.max_file_mb)]\n" % lost[:2])
            seg = first
        write(data)
    return 0


def print_grep(path: str, pattern: str) -> int:
    import re

    try:
        rx = re.compile(pattern.encode("utf-8", "surrogateescape"))
    except re.error as e:
        raise UsageError(f"recall: bad --grep pattern {pattern!r}: {e}") from None
    found = 0
    for n, line in _numbered(path):
        if rx.search(line):
            found += 1
            write(b"%d:" % n + line + (b"" if line.endswith(b"\n") else b"\n"))
    return 0 if found else 1


def print_default(path: str, cid: str) -> int:
    """Whole when short; else the first and last lines and the --lines range left out (two bounded passes;
    one for a compressed file, whose line count is in its last member)."""
    from rtk import teefile

    limit = max(int(config.get("limits.passthrough_max_lines")), 4)
    meta = teefile.info(path)
    total = meta.lines if meta is not None else sum(data.count(b"\n") for _, data in _pieces(path))
    if meta is None:
        with open(path, "rb") as f:  # a last line with no newline counts too
            size = f.seek(0, os.SEEK_END)
            if size:
                f.seek(size - 1)
                total += f.read(1) != b"\n"
    if total <= limit:
        return print_full(path)
    head = limit // 4
    tail_n = limit - head
    tail: deque[bytes] = deque(maxlen=tail_n)
    for n, line in _numbered(path):
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
    lost = _lost(path)
    if lost is not None:
        write(f"[rtk] lines {lost[0]:,}-{lost[1]:,} of {lost[2]:,} were not kept (past tee.max_file_mb)\n")
    return 0


def listing(n: int) -> int:
    files, total = _newest(tee.directory(), n)
    if not files:
        print(f"rtk recall: no kept outputs (in {tee.directory()})")
        return 0
    print(f"{'id':<{tee.ID_LEN}}  {'run':>6}  {'when':<16}  {'bytes':>9}  command")
    for k in files:
        cid = tee.name_id(os.path.basename(k.path)) or tee.content_id(k.path) or "?"
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(k.mtime))
        run = str(k.run) if k.run is not None else "-"
        cmd = k.command if len(k.command) <= 60 else k.command[:59] + "…"
        print(f"{cid:<{tee.ID_LEN}}  {run:>6}  {when:<16}  {k.size:>9,}  {cmd}")
    if total > len(files):
        print(f"({total - len(files)} older; rtk recall -n {total})")
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
