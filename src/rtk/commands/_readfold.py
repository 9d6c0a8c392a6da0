"""``rtk read`` of a long log-like file: the folded view, with one header line saying how to get exact lines."""

from __future__ import annotations

from rtk.commands import _window

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import BinaryIO

SAMPLE_MAX = 1 << 20  # the decision reads at most this much of a file
BLOCK = 1 << 18  # bytes of lines folded at a time
LINE_MAX = 1 << 20  # a longer line (or a NUL byte) means the file is not a log after all: printed as it is


class _NotLog(Exception):
    pass


class _Spool:
    """The folded view being written: in memory up to ``limit`` bytes, past it in an anonymous temporary file.

    (``tempfile`` and what it imports cost a few milliseconds: a short log never loads them.)
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        self.file: BinaryIO | None = None

    def write(self, b: bytes) -> None:
        self.size += len(b)
        if self.file is not None:
            self.file.write(b)
            return
        self.parts.append(b)
        if self.size > self.limit:
            import tempfile

            self.file = tempfile.TemporaryFile()  # noqa: SIM115  (closed by close())
            self.file.writelines(self.parts)
            self.parts = []

    def tell(self) -> int:
        return self.size

    def chunks(self) -> Iterator[bytes]:
        """What was written, in pieces."""
        if self.file is None:
            yield from self.parts
            return
        self.file.seek(0)
        while b := self.file.read(_window.CHUNK):
            yield b

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


class Held:
    """Standard input being folded: it cannot be read twice, so what the fold reads is kept.

    In memory, past 8 MiB in a temporary file, until the fold is known to be shorter; then its
    exact bytes go to a recovery file (named in the header: ``rtk read FILE --lines A-B`` of it
    gives back any range). Past what a recovery file keeps whole (``tee.max_file_size``) the
    fold gives way: what was held is printed, and the rest streams through (a pipe that never
    ends is not held). A fold that gives way prints what was held, then the rest, byte for byte.
    """

    def __init__(self, got: list[bytes], f: BinaryIO) -> None:
        from itertools import chain

        from rtk import config

        self.cap = int(config.get("tee.max_file_size"))
        self.kept = _Spool(8 << 20)
        self.source = chain(got, _window.chunks(f))

    def chunks(self) -> Iterator[bytes]:
        for b in self.source:
            self.kept.write(b)
            if self.kept.tell() > self.cap:
                raise _NotLog
            yield b

    def recover(self) -> str | None:
        """The recovery file now holding every byte read (None: none was written)."""
        from rtk import tee

        if not tee.wanted(0, 1, self.kept.tell()):
            return None
        kept = tee.write(["read", "-"], b"".join(self.kept.chunks()))
        if kept is not None:  # the fold is printed now: nothing is read back
            self.kept.close()
        return kept

    def replay(self) -> Iterator[bytes]:
        """What was read, then the rest of the input."""
        try:
            yield from self.kept.chunks()
        finally:
            self.kept.close()
        yield from self.source


def sample(f: BinaryIO, sniffed: bytes, min_lines: int) -> tuple[list[bytes], bool]:
    """The chunks read to decide (``sniffed`` first) and whether the file has more than ``min_lines`` lines."""
    got = [sniffed] if sniffed else []
    lines = sniffed.count(b"\n")
    size = len(sniffed)
    while lines <= min_lines and size < SAMPLE_MAX:
        b = f.read(_window.CHUNK)
        if not b:
            break
        got.append(b)
        lines += b.count(b"\n")
        size += len(b)
    return got, lines > min_lines


def decide(name: str, got: list[bytes]) -> bool:
    """Fold this file? Source code, data files and text that is not log-like stay byte-exact."""
    from rtk.fold import detect

    text = b"".join(got).decode("utf-8", "surrogateescape")
    if name.lower().endswith(detect.DATA_EXT):
        return False
    # A ``.log`` file is source code only by its shebang: the language tables are not loaded for it.
    if not name.lower().endswith(".log") or text.startswith("#!"):
        from rtk.commands import _source

        if _source.language(name, text[:200]) is not None:
            return False
    lines = text.split("\n")[:-1]  # whole lines only
    return detect.looks_like_log(lines[:2000])


def _blocks(source: Iterator[bytes]) -> Iterator[list[str]]:
    """The lines of ``source`` in blocks of about :data:`BLOCK` bytes (the fold works a block at a time)."""
    carry = b""
    got: list[bytes] = []
    size = 0
    for b in source:
        got.append(b)
        size += len(b)
        if size < BLOCK:
            continue
        data = carry + b"".join(got)
        got.clear()
        size = 0
        cut = data.rfind(b"\n") + 1  # whole lines are decoded at once (a UTF-8 sequence never holds a newline)
        carry = data[cut:]
        if len(carry) > LINE_MAX:
            raise _NotLog
        if cut:
            yield data[: cut - 1].decode("utf-8", "surrogateescape").split("\n")
    data = carry + b"".join(got)
    if len(data) > LINE_MAX and b"\n" not in data[-LINE_MAX:]:
        raise _NotLog
    if data:
        yield data.removesuffix(b"\n").decode("utf-8", "surrogateescape").split("\n")


def fold(
    name: str,
    source: Iterator[bytes],
    write: Callable[[bytes], None],
    first: int = 1,
    recover: Callable[[], str | None] | None = None,
) -> tuple[bool, int]:
    """Print the folded view of a file (header line first) unless it would not be smaller; bytes read.

    ``first``: the file's own number of the first line of ``source`` (a tail window): the
    line ranges printed are the file's, so ``rtk read FILE --lines A-B`` gives them back.
    ``recover``: for an input that cannot be read again (standard input), called once the fold
    is known to be shorter: the file that now holds its exact bytes (named in the header
    instead of ``name``), or None when there is none (then nothing is printed: not folded).
    """
    from rtk.factguard import StreamGuard
    from rtk.fold import Folder

    class _Guard(StreamGuard):
        KEEP = 2 << 20  # printed text kept for the presence checks (its word set is built once, at the end)

    folder = Folder()
    folder.base = first - 1
    raw = 0
    shown = 0
    spool = _Spool(8 << 20)
    try:

        def put(lines: list[str]) -> None:
            nonlocal shown
            if lines:
                shown += len(lines)
                spool.write(("\n".join(lines) + "\n").encode("utf-8", "surrogateescape"))

        def counted() -> Iterator[bytes]:
            nonlocal raw
            for b in source:
                raw += len(b)
                if b"\x00" in b:
                    raise _NotLog
                yield b

        guard = _Guard()  # the fact guard, as for any filter's output: lost lines come back at the end
        folder.dropped = []  # the lines the fold left out: only they can have lost a fact
        shown_now: list[str] = []

        def check() -> None:
            assert folder.dropped is not None
            guard.feed(folder.dropped, ["\n".join(shown_now) + "\n"] if shown_now else [])
            put(shown_now)
            folder.dropped.clear()
            shown_now.clear()

        try:
            for lines in _blocks(counted()):
                shown_now.extend(folder.feed_lines(lines))
                check()
        except _NotLog:
            return False, raw
        shown_now.extend(folder.finish())
        check()
        lost, n = guard.finish("", True)
        if n:
            shown += n + 1  # and the guard's header
            spool.write(lost.encode("utf-8", "surrogateescape"))
        if spool.tell() >= raw * 0.9 or not folder.folded:
            return False, raw
        again = name
        if recover is not None:
            kept = recover()
            if kept is None:
                return False, raw
            again = kept
        what = f"{folder.lines:,} lines"
        if first > 1:
            what = f"last {folder.lines:,} lines (lines {first:,}-{first + folder.lines - 1:,})"
        head = f"[rtk] {name}: {what} folded to {shown:,}; exact lines: rtk read {again} --lines A-B\n"
        write(head.encode("utf-8", "surrogateescape"))
        for b in spool.chunks():
            write(b)
        return True, raw
    finally:
        spool.close()
