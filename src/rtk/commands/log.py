"""``rtk log FILE``: a log folded (each kind of line once, exact counts and line ranges), errors summarised."""

from __future__ import annotations

import re
import time

from rtk.commands._own import parse, track, write
from rtk.errors import RtkError
from rtk.text import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

    from rtk.teefile import Spool

HELP = """\
usage: rtk log [FILE...]                 (no FILE, or -: standard input)

Print a log folded: each kind of line (its template: the words that stay, with
numbers, ids, paths, addresses, timestamps and quoted strings as fields) is
shown once, followed by "… N more like: TEMPLATE  (lines A-B)" with the exact
count and line range (and the values of a field that takes few). Warnings,
errors, tracebacks and stack traces, rare lines and the last lines are always
shown whole. A header counts lines, kinds, errors and warnings (and where the
first error is). Exact lines: rtk read FILE --lines A-B, or for standard input
rtk recall ID --lines A-B (the recovery file). Past 8 MiB the input is folded
as it is read (bounded memory; a line is kept up to 1 MiB).

options:
  -h, --help   this help"""

_ERROR = re.compile(r"(?i)\b(?:error|err|fatal|critical|crit|panic|exception|traceback|failed|failure)\b")
_WARN = re.compile(r"(?i)\b(?:warn|warning)\b")
HOLD_MAX = 8 << 20  # bytes of input folded whole (the exact fact guard); past it, folded as it is read
LINE_MAX = 1 << 20  # bytes of one line kept when folding as it is read (the rest of it is skipped, marked)
CUT = b" [rtk: line cut at 1 MiB]"


def main(args: list[str]) -> int:
    started = time.monotonic()
    a = parse("log", args, {})
    if a.help:
        print(HELP)
        return 0
    from rtk import pipeline, tee
    from rtk.text import clean, decode, split_lines

    got, more = _held(a.pos or ["-"], HOLD_MAX)
    if more is not None:  # too large to hold: folded as it is read
        return _stream(args, a.pos, got, more, started)
    raw = b"".join(got)
    raw_text = clean(decode(raw))
    lines = split_lines(raw_text)
    from rtk.fold import Folder

    folder = Folder()
    body: list[str] = []
    n_err = n_warn = 0
    first_err = 0
    for no, ln in enumerate(lines, 1):
        if _ERROR.search(ln):
            n_err += 1
            first_err = first_err or no
        elif _WARN.search(ln):
            n_warn += 1
        body.extend(folder.feed(ln))
    body.extend(folder.finish())
    head = f"{plural(len(lines), 'line')}, {plural(len(folder.miner.templates), 'kind')}"
    head += f"; errors: {n_err} (first at line {first_err})" if n_err else "; no error lines"
    if n_warn:
        head += f"; warnings: {n_warn}"
    out = [head, *body]
    hidden_lines = folder.folded
    name = a.pos[0] if len(a.pos) == 1 else "-"

    def keep(argv: list[str], data: bytes) -> str | None:
        import os

        return os.path.abspath(name) if name != "-" else tee.write(argv, data)

    res = pipeline.finish(["log", *args], raw, raw_text, 0, "\n".join(out) + "\n", hidden_lines, keep)
    write(res.text)
    track("log", args, res.raw_tokens, res.out_tokens, started, 0, res.cut, res.mode)
    return 0


def _chunks(names: list[str]) -> Iterator[bytes]:
    """The bytes of the inputs in order (``-``: standard input), a piece at a time."""
    import sys

    for name in names:
        f: BinaryIO
        if name == "-":
            f = sys.stdin.buffer
        else:
            try:
                f = open(name, "rb")  # noqa: SIM115  (closed below)
            except OSError as e:
                raise RtkError(f"log: {name}: {e.strerror}") from None
        try:
            while b := f.read(1 << 20):
                yield b
        except OSError as e:
            raise RtkError(f"log: {name}: {e.strerror}") from None
        finally:
            if name != "-":
                f.close()


def _held(names: list[str], limit: int) -> tuple[list[bytes], Iterator[bytes] | None]:
    """The inputs' bytes if they hold at most ``limit``; else what was read and the rest to come."""
    source = _chunks(names)
    got: list[bytes] = []
    size = 0
    for b in source:
        got.append(b)
        size += len(b)
        if size > limit:
            return got, source
    return got, None


def _lines(source: Iterator[bytes]) -> Iterator[list[str]]:
    """The cleaned lines of ``source`` in blocks; a line past ``LINE_MAX`` keeps its start (numbers stay exact)."""
    from rtk.text import clean_line, decode

    carry = b""
    skipping = False  # inside a line too long to hold: up to its newline
    for b in source:
        if skipping:
            nl = b.find(b"\n")
            if nl < 0:
                continue
            b, skipping = b[nl:], False  # its newline ends the start kept
        data = carry + b
        cut = data.rfind(b"\n") + 1
        carry = data[cut:]
        if len(carry) > LINE_MAX:
            carry, skipping = carry[:LINE_MAX] + CUT, True
        if cut:
            block = decode(data[: cut - 1])
            lines = block.split("\n")
            if "\r" in block or "\x1b" in block:
                lines = [clean_line(ln) for ln in lines]
            yield lines
    if carry:
        yield [clean_line(decode(carry))]


def _stream(args: list[str], names: list[str], got: list[bytes], more: Iterator[bytes], started: float) -> int:
    """``rtk log`` of an input too large to hold: lines folded a block at a time, the folded view spooled (past
    8 MiB to a temporary file), the fact guard of a stream, the raw bytes of standard input to a recovery file."""
    from itertools import chain

    from rtk import tee, tokens
    from rtk.commands._readfold import _Spool
    from rtk.factguard import StreamGuard
    from rtk.fold import Folder

    name = names[0] if len(names) == 1 else "-"
    kept: Spool | None = tee.spool() if name == "-" else None
    size = 0

    def source() -> Iterator[bytes]:
        nonlocal size
        for b in chain(got, more):
            size += len(b)
            if kept is not None:
                kept.add(b)
            yield b

    folder = Folder()
    folder.dropped = []
    guard = StreamGuard()
    body = _Spool(8 << 20)
    raw_tally, out_tally = tokens.Tally(), tokens.Tally()
    n_err = n_warn = first_err = 0
    try:
        for lines in _lines(source()):
            raw_tally.add_lines(lines)
            no = folder.lines
            for i, ln in enumerate(lines, no + 1):
                if _ERROR.search(ln):
                    n_err += 1
                    first_err = first_err or i
                elif _WARN.search(ln):
                    n_warn += 1
            shown = folder.feed_lines(lines)
            guard.feed(folder.dropped, ["\n".join(shown) + "\n"] if shown else [])
            folder.dropped.clear()
            if shown:
                body.write(("\n".join(shown) + "\n").encode("utf-8", "surrogateescape"))
        shown = folder.finish()
        guard.feed(folder.dropped, ["\n".join(shown) + "\n"] if shown else [])
        if shown:
            body.write(("\n".join(shown) + "\n").encode("utf-8", "surrogateescape"))
        lost, _ = guard.finish("", True)
        head = f"{plural(folder.lines, 'line')}, {plural(len(folder.miner.templates), 'kind')}"
        head += f"; errors: {n_err} (first at line {first_err})" if n_err else "; no error lines"
        if n_warn:
            head += f"; warnings: {n_warn}"
        import os

        where = None
        if kept is not None:
            where = tee.write(["log", *args], kept) if tee.wanted(0, folder.folded, size) else None
        elif folder.folded:
            where = os.path.abspath(name)
        end = lost + (tee.hint(where) + "\n" if where is not None else "")
        if folder.folded and where is None:
            end += "[rtk] (recovery file could not be written: the folded lines cannot be read back)\n"
        write(head + "\n")
        out_tally.add(head + "\n")
        for b in body.chunks():
            text = b.decode("utf-8", "surrogateescape")
            out_tally.add(text)
            write(text)
        write(end)
        out_tally.add(end)
    finally:
        body.close()
        if kept is not None:
            kept.close()
    track("log", args, raw_tally.total(), out_tally.total(), started, 0, folder.folded, "folded-stream")
    return 0
