"""Bounded reading for ``rtk read``: streams, head and tail windows, ``cat -n`` numbering, in fixed-size chunks."""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

CHUNK = 1 << 16  # one read; memory for any input is a few of these
SNIFF = 8192  # binary files: a NUL byte in the first 8 KiB
COMPACT = 32 << 20  # a tail spool is rewritten when this much of it is no longer needed


class Input:
    """An open input: the file, whether it can be read backwards (a regular file), its size, its kind."""

    __slots__ = ("file", "kind", "seekable", "size", "start")

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.size = -1
        self.start = 0
        self.seekable = False
        self.kind = "stream"
        try:
            st = os.fstat(file.fileno())
        except (OSError, ValueError, AttributeError):
            return
        mode = st.st_mode
        if stat.S_ISREG(mode):
            self.kind = "file"
            self.size = st.st_size
            try:
                self.start = file.tell()
            except OSError:
                return
            # /proc files say size 0 and are read like pipes, as tail does.
            self.seekable = self.start < self.size
        elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            self.kind = "device"
        elif stat.S_ISFIFO(mode):
            self.kind = "pipe"
        elif stat.S_ISSOCK(mode):
            self.kind = "socket"


def read_some(f: BinaryIO, size: int) -> bytes:
    """Up to ``size`` bytes; fewer only at the end of the input (pipes return short reads)."""
    parts: list[bytes] = []
    got = 0
    while got < size:
        b = f.read(size - got)
        if not b:
            break
        parts.append(b)
        got += len(b)
    return b"".join(parts)


def chunks(f: BinaryIO, first: bytes = b"") -> Iterator[bytes]:
    """``first``, then the rest of ``f`` in chunks of at most :data:`CHUNK` bytes."""
    if first:
        yield first
    while True:
        b = f.read(CHUNK)
        if not b:
            return
        yield b


def head(source: Iterator[bytes], n: int) -> Iterator[bytes]:
    """The first ``n`` lines of ``source`` (``head -n n``); stops reading after them."""
    if n <= 0:
        return
    for b in source:
        pos = -1
        while True:
            pos = b.find(b"\n", pos + 1)
            if pos < 0:
                break
            n -= 1
            if n == 0:
                yield b[: pos + 1]
                return
        yield b


def tail_start(f: BinaryIO, lo: int, end: int, n: int) -> int:
    """The offset in ``f`` where its last ``n`` lines between ``lo`` and ``end`` start, reading backwards."""
    if n <= 0 or end <= lo:
        return end
    f.seek(end - 1)
    pos = end - 1 if f.read(1) == b"\n" else end  # a final newline starts no line
    while pos > lo:
        step = min(CHUNK, pos - lo)
        pos -= step
        f.seek(pos)
        block = read_some(f, step)
        i = len(block)
        while True:
            i = block.rfind(b"\n", 0, i)
            if i < 0:
                break
            n -= 1
            if n == 0:
                return pos + i + 1
    return lo


def count_lines(f: BinaryIO, lo: int, hi: int) -> int:
    """Newlines in ``f`` between offsets ``lo`` and ``hi``."""
    f.seek(lo)
    count = 0
    left = hi - lo
    while left > 0:
        b = f.read(min(CHUNK, left))
        if not b:
            break
        count += b.count(b"\n")
        left -= len(b)
    return count


def tail_of_file(inp: Input, n: int, number: bool) -> tuple[Iterator[bytes], int]:
    """The last ``n`` lines of a regular file (read from its end) and the number of the first."""
    f = inp.file
    start = tail_start(f, inp.start, inp.size, n)
    first = count_lines(f, inp.start, start) + 1 if number else 1
    f.seek(start)
    return chunks(f), first


class _Spool:
    """The end of a stream kept in an unnamed temporary file, enough of it for the last ``n`` lines."""

    def __init__(self, n: int) -> None:
        import tempfile

        self.n = n
        self.file: BinaryIO = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the spool
        self.marks: list[tuple[int, int]] = []  # (offset in file, newlines) per chunk kept
        self.head = 0  # index of the first chunk still needed
        self.lines = 0  # newlines in the needed chunks
        self.dropped = 0  # newlines before them
        self.end = 0

    def add(self, b: bytes) -> None:
        self.file.write(b)
        nl = b.count(b"\n")
        self.marks.append((self.end, nl))
        self.end += len(b)
        self.lines += nl
        # Drop chunks while the rest still holds the n + 1 newlines the window may need.
        while self.head < len(self.marks) - 1 and self.lines - self.marks[self.head][1] > self.n:
            self.lines -= self.marks[self.head][1]
            self.dropped += self.marks[self.head][1]
            self.head += 1
        lo = self.marks[self.head][0]
        if lo > COMPACT and lo > self.end - lo:
            self._compact(lo)

    def _compact(self, lo: int) -> None:
        import tempfile

        new: BinaryIO = tempfile.TemporaryFile()  # noqa: SIM115 - replaces self.file
        self.file.seek(lo)
        while True:
            b = self.file.read(CHUNK)
            if not b:
                break
            new.write(b)
        self.file.close()
        self.file = new
        self.marks = [(off - lo, nl) for off, nl in self.marks[self.head :]]
        self.head = 0
        self.end -= lo

    def window(self, number: bool) -> tuple[Iterator[bytes], int]:
        f = self.file
        f.flush()
        lo = self.marks[self.head][0] if self.marks else 0
        start = tail_start(f, lo, self.end, self.n)
        first = self.dropped + count_lines(f, lo, start) + 1 if number else 1
        f.seek(start)
        return _closing(f), first


def _closing(f: BinaryIO) -> Iterator[bytes]:
    with f:
        yield from chunks(f)


def tail_of_stream(source: Iterator[bytes], n: int, number: bool) -> tuple[Iterator[bytes], int]:
    """The last ``n`` lines of a stream (kept on disk, a bounded part of it) and the number of the first."""
    if n <= 0:
        return iter(()), 1
    spool = _Spool(n)
    for b in source:
        spool.add(b)
    return spool.window(number)


class Numbering:
    """``cat -n`` over a stream of chunks: ``%6d<TAB>`` before every line, numbers continuing across files."""

    __slots__ = ("at_start", "next")

    def __init__(self, first: int = 1) -> None:
        self.next = first
        self.at_start = True

    def feed(self, b: bytes) -> bytes:
        lines = b.split(b"\n")
        last = lines.pop()  # what follows the last newline: b"" when the chunk ends one
        no = self.next
        out: list[bytes] = []
        start = self.at_start
        if lines:
            if start:
                out.append(b"%6d\t" % no)
                no += 1
            out.append(lines[0] + b"\n")
            out.extend([b"%6d\t%s\n" % pair for pair in zip(range(no, no + len(lines) - 1), lines[1:], strict=True)])
            no += len(lines) - 1
            start = True
        if last:
            if start:
                out.append(b"%6d\t" % no)
                no += 1
            out.append(last)
            start = False
        self.next = no
        self.at_start = start
        return b"".join(out)


def line_range(source: Iterator[bytes], a: int, b: int) -> Iterator[bytes]:
    """Lines ``a`` to ``b`` (1-based, inclusive) of ``source``, byte for byte; stops reading after line ``b``."""
    line = 1  # the number of the line the next byte belongs to
    for chunk in source:
        start = 0 if line >= a else -1
        pos = -1
        while line < a or start < 0:
            pos = chunk.find(b"\n", pos + 1)
            if pos < 0:
                break
            line += 1
            if line == a:
                start = pos + 1
        if start < 0:
            continue
        pos = start - 1
        while True:
            pos = chunk.find(b"\n", pos + 1)
            if pos < 0:
                break
            if line == b:
                yield chunk[start : pos + 1]
                return
            line += 1
        yield chunk[start:]
