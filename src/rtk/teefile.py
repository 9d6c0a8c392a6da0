"""Large recovery files: the output spooled to disk gzip-compressed as it streams, and read back by line number.

An output up to ``tee.max_file_size`` is held in memory and kept as a plain ``.log`` file, as it always was.
A larger one goes, as it comes, to a temporary file in the recovery directory (created new, owner-only),
compressed (zlib level 1: a few percent of the run's CPU time, a build log shrinks ten times); at the end it is
renamed into place as ``<epoch>_<program>_<id>.log.gz``. Up to ``tee.max_file_mb`` on disk every byte is kept;
past it the head (whole lines) and the last ``max_file_size/2`` bytes (whole lines), and the range of lines
between them is named as lost (in the hint, in ``rtk recall``), never given back as if it were there.

The file is plain gzip (``zcat`` reads it): member 1 holds the head (every byte when nothing is lost), member 2
the tail when something was lost, and a last, empty member carries in its comment field what ``rtk recall``
needs without reading the rest: the SHA-256 of the whole output, its size and line count, and the lost range.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # zlib loads when an output is first spooled past tee.max_file_size, not with the runner
    import zlib
    from collections.abc import Iterator

GZ = ".log.gz"
LEVEL = 1  # zlib's fastest: ~300 MB/s, a tenth of the size for a build log
CHUNK = 1 << 16
LAG = 1 << 17  # compressed bytes zlib may hold back before it writes them (and one piece of input)
_TAG = b"rtk-recovery "
# The empty last member: FCOMMENT set, mtime 0, OS unknown; after the comment an empty deflate block, CRC and size 0.
_HEAD = b"\x1f\x8b\x08\x10\x00\x00\x00\x00\x00\xff"
_EMPTY = b"\x03\x00" + bytes(8)


class Info:
    """What the last member of a compressed recovery file says about the output it holds."""

    __slots__ = ("head", "lines", "lost", "lost_bytes", "sha", "size", "tail")

    def __init__(
        self, sha: str, size: int, lines: int, head: int, tail: int = 0, lost: tuple[int, int] | None = None,
        lost_bytes: int = 0,
    ) -> None:  # fmt: skip
        self.sha = sha  # SHA-256 (hex) of every byte of the output, the lost ones too
        self.size = size  # bytes of the output
        self.lines = lines  # lines of the output
        self.head = head  # bytes of member 1 that are output lines 1.. (the rest of it is not kept)
        self.tail = tail  # the number of the first line member 2 holds (0: no member 2)
        self.lost = lost  # (A, B): lines A to B are not in the file
        self.lost_bytes = lost_bytes

    def comment(self) -> bytes:
        words = [f"sha256={self.sha}", f"bytes={self.size}", f"lines={self.lines}", f"head={self.head}"]
        if self.tail:
            words.append(f"tail={self.tail}")
        if self.lost is not None:
            words += [f"lost={self.lost[0]}-{self.lost[1]}", f"lostbytes={self.lost_bytes}"]
        return _TAG + " ".join(words).encode("ascii")


def trailer(info: Info) -> bytes:
    return _HEAD + info.comment() + b"\x00" + _EMPTY


def info(path: str) -> Info | None:
    """The :class:`Info` of a compressed recovery file (read from its last bytes); None for any other file."""
    if not path.endswith(GZ):
        return None
    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(size - 1024, 0))
            end = f.read()
    except OSError:
        return None
    at = end.rfind(_HEAD + _TAG)
    if at < 0 or not end.endswith(b"\x00" + _EMPTY) or end.find(b"\x00", at + len(_HEAD)) != len(end) - 11:
        return None
    fields = dict(
        w.partition("=")[::2] for w in end[at + len(_HEAD) + len(_TAG) : -11].decode("ascii", "replace").split()
    )
    try:
        lost = None
        if "lost" in fields:
            a, _, b = fields["lost"].partition("-")
            lost = (int(a), int(b))
        return Info(fields["sha256"], int(fields["bytes"]), int(fields["lines"]), int(fields["head"]),
                    int(fields.get("tail", 0)), lost, int(fields.get("lostbytes", 0)))  # fmt: skip
    except (KeyError, ValueError):
        return None


class Damaged(ValueError):
    """A ``.log.gz`` in the recovery directory that no rtk run wrote as it is (cut short, or crafted)."""


def _inflate(path: str, limit: int) -> Iterator[tuple[int, bytes]]:
    """(member number from 0, decompressed bytes) of a gzip file, in pieces of at most 256 KiB; :class:`Damaged`
    past ``limit`` bytes in all (a crafted file inflates no further than the output it says it holds)."""
    import zlib

    d = zlib.decompressobj(31)
    member = 0
    buf = b""
    total = 0
    with open(path, "rb") as f:
        while True:
            if not buf:
                buf = f.read(CHUNK)
                if not buf:
                    return
            out = d.decompress(buf, 1 << 18)
            buf = d.unconsumed_tail
            if out:
                total += len(out)
                if total > limit:
                    raise Damaged(f"inflates past the {limit:,} bytes its last member names")
                yield member, out
            if d.eof:
                buf = d.unused_data
                member += 1
                d = zlib.decompressobj(31)


def segments(path: str) -> Iterator[tuple[int, bytes]]:
    """(number of the first line, bytes) pieces of the kept output, in order: a piece starts where the one
    before ended, except after a lost range (where the number jumps past it). A plain file is one segment.
    A ``.log.gz`` without rtk's last member, or with more than it names, is :class:`Damaged`."""
    meta = info(path)
    if meta is None:
        if path.endswith(GZ):
            raise Damaged("no rtk trailer (cut short, or not written by rtk)")
        with open(path, "rb") as f:
            while b := f.read(CHUNK):
                yield 1, b
        return
    left = meta.head
    for member, data in _inflate(path, meta.size):
        if member == 0:
            if left <= 0:
                continue
            data = data[:left]
            left -= len(data)
            yield 1, data
        elif member == 1 and meta.tail:
            yield meta.tail, data
        else:  # only the last member (empty) follows the head, or the tail
            raise Damaged("a member past the output it holds")


class Spool:
    """The raw bytes of one run: the first and last ``limit/2`` in memory (what a failing filter prints back,
    and all of a short output); past ``limit``, with ``directory`` given, every byte also goes compressed to a
    temporary file there, up to about ``cap`` bytes on disk (past it, the head and the tail: :meth:`seal`)."""

    __slots__ = ("cap", "directory", "fd", "fed", "half", "hash", "head", "head_end", "head_lines", "limit",
                 "lines", "stopped", "tail", "tmp", "total", "z", "zsize")  # fmt: skip

    def __init__(self, limit: int, cap: int = 0, directory: str | None = None) -> None:
        self.limit = max(limit, 2)
        self.half = self.limit // 2
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self.cap = max(cap, 4 * self.limit)  # room for the tail (at most ``half`` on disk) and a head
        self.directory = directory
        self.fd = -1
        self.tmp = ""
        self.z: zlib._Compress | None = None
        self.hash: object = None
        self.zsize = 0  # compressed bytes written
        self.fed = 0  # bytes given to the compressor (the head)
        self.lines = 0  # newlines seen (on disk only)
        self.head_end = 0  # bytes of the head up to its last newline
        self.head_lines = 0  # newlines in them
        self.stopped = False  # the head is full: from here only the tail in memory

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        if self.z is not None:
            self._disk(chunk)
        elif self.directory is not None and self.total > self.limit:
            self._start(bytes(self.head) + bytes(self.tail) + chunk)  # nothing was dropped yet: all of it
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
            if not chunk:
                return
        self.tail += chunk
        if len(self.tail) > 2 * self.half:
            del self.tail[: len(self.tail) - self.half]

    @property
    def complete(self) -> bool:
        """True when every byte is still held in memory."""
        return len(self.head) + len(self.tail) == self.total

    @property
    def on_disk(self) -> bool:
        return self.z is not None

    def data(self) -> bytes:
        """Everything held in memory; a marker line stands for the bytes dropped from the middle."""
        if self.complete:
            return bytes(self.head + self.tail)
        tail = bytes(self.tail[-self.half :])
        dropped = self.total - len(self.head) - len(tail)
        return (
            bytes(self.head) + (b"\n[rtk: %d bytes omitted from the middle of this recovery file]\n" % dropped) + tail
        )

    def _start(self, first: bytes) -> None:
        import hashlib

        from rtk import paths

        assert self.directory is not None
        try:
            paths.ensure_dir(self.directory)
            self.tmp = os.path.join(self.directory, f".rtk-{os.getpid()}-{os.urandom(6).hex()}.tmp")
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
            self.fd = os.open(self.tmp, flags, 0o600)
        except OSError:
            self.directory = None  # no recovery directory: the head and tail in memory, as before
            self.tmp = ""
            return
        import zlib

        self.z = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)
        self.hash = hashlib.sha256()
        self._disk(first)

    def _write(self, out: bytes) -> None:
        if not out or self.fd < 0:
            return
        self.zsize += len(out)
        try:
            view = memoryview(out)
            while view:
                view = view[os.write(self.fd, view) :]
        except OSError:  # a full disk: no recovery file (the run goes on)
            self.close()

    def _disk(self, chunk: bytes) -> None:
        self.hash.update(chunk)  # type: ignore[attr-defined]
        if self.stopped:
            self.lines += chunk.count(b"\n")
            return
        assert self.z is not None
        for i in range(0, len(chunk), CHUNK):  # the cap is checked every 64 KiB
            part = chunk[i : i + CHUNK]
            nl = part.count(b"\n")
            self.lines += nl
            if self.stopped:
                continue
            self._write(self.z.compress(part))
            self.fed += len(part)
            if nl:
                self.head_end = self.fed - len(part) + part.rfind(b"\n") + 1
                self.head_lines = self.lines
            if self.zsize + self.half + LAG >= self.cap:  # the tail must fit too, and what zlib still holds
                self._write(self.z.flush())
                self.stopped = True

    def seal(self) -> tuple[str, str] | None:
        """Finish the temporary file: (its path, the output's SHA-256); None when it could not be written."""
        if self.z is None or self.fd < 0:
            return None
        lost: tuple[int, int] | None = None
        lost_bytes = tail_first = 0
        total_lines = self.lines + (1 if self.total and not self._ends_with_newline() else 0)
        if not self.stopped:
            self._write(self.z.flush())
            head = self.total
        else:
            after = self.total - self.fed  # bytes past the head; the tail in memory holds the last of them
            t = bytes(self.tail[-min(self.half, after) :]) if after else b""
            if len(t) < after:  # the tail starts inside a line: from the next one
                cut = t.find(b"\n") + 1
                t = t[cut:] if cut else b""
            tail_lines = t.count(b"\n") + (1 if t and not t.endswith(b"\n") else 0)
            lost_bytes = self.total - self.head_end - len(t)
            if lost_bytes:
                lost = (self.head_lines + 1, total_lines - tail_lines)
            if t:
                tail_first = total_lines - tail_lines + 1
                import zlib

                z = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)
                self._write(z.compress(t) + z.flush())
            head = self.head_end
        sha = self.hash.hexdigest()  # type: ignore[attr-defined]
        self._write(trailer(Info(sha, self.total, total_lines, head, tail_first, lost, lost_bytes)))
        if self.fd < 0:
            return None
        fd, self.fd = self.fd, -1
        try:
            os.close(fd)  # (a network file system may say here that the disk is full)
        except OSError:
            self.close()
            return None
        return self.tmp, sha

    def _ends_with_newline(self) -> bool:
        return (self.tail or self.head).endswith(b"\n")

    def close(self) -> None:
        """Remove the temporary file (kept, it was renamed first: :func:`rtk.tee.write`)."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.tmp:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            self.tmp = ""

    def __del__(self) -> None:
        self.close()
