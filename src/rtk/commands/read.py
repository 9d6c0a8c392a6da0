"""``rtk read FILE...``: print files like cat/head/tail, byte for byte; long logs folded, shorter views when asked."""

from __future__ import annotations

import sys
import time

from rtk import options
from rtk.commands import _window
from rtk.commands._own import parse, track
from rtk.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

HELP = """\
usage: rtk read [options] [FILE...]        (no FILE, or -: standard input)

Print files as cat, head and tail do. Source code, data (JSON, YAML, CSV...),
short files and other text are printed byte for byte (non-UTF-8 bytes included);
a long log-like file is folded (see below): --raw gives its exact bytes, and
--lines A-B any range of it byte for byte. Several files are concatenated.

options:
  -n, --number        number the lines as cat -n does ("%6d<TAB>line"); with a
                      window or a level the numbers are the lines' own numbers in
                      the file, so they can be used to edit it
  --head-lines N      only the first N lines (head -n N)
  --tail-lines N      only the last N lines (tail -n N)
  --lines A-B         only lines A to B (1-based, inclusive), byte for byte:
                      the exact lines behind a folded view's "(lines A-B)"
  --raw               never fold: the exact bytes of a long log too
  -l, --level LEVEL   none (default): no level view
                      minimal: comments and runs of blank lines removed, per
                        language (strings respected: "/*" in a string is code)
                      aggressive: imports, declarations and signatures kept,
                        bodies replaced by "... lines A-B elided"
  -h, --help          this help

With --head-lines/--tail-lines and several files, each file gets a
"==> FILE <==" header, as head and tail print. Binary files (a NUL byte in the
first 8 KiB) are not printed: one line on stdout says what they are and their
size, and the run records no tokens saved for them. Only what is printed is
read: a head window stops after its lines, a tail window reads a file from its
end, and memory stays small for any input (pipes and devices included). A file
that cannot be read is reported the way cat does (exit status 1) and the others
are still printed. What a level removed is reported on stderr, never in the
output; inputs over 4 MiB get no level view.

A log-like file (most lines start with a timestamp or a level, or one kind of
line covers most of them) longer than read.fold_min_lines (200) is folded:
each kind of line is printed once with its count and line range, warnings,
errors, tracebacks, rare lines and the last lines whole, under one header line
saying so. Source code, data (JSON, YAML, CSV...) and other text stay byte for
byte. A --tail-lines window of more than read.fold_min_lines lines of such a
file is folded the same way (tail -n 300 app.log), its line ranges the file's
own line numbers (numbering reads the file before the window, so a window that
starts past 64 MiB is printed exact). Standard input that is such a log is folded
too when its bytes fit in a recovery file, which the header names for --lines A-B.
--raw, --head-lines, --lines, -n or a level turn folding off for a call;
read.fold = false in the config turns it off.

rtk -v read prints on stderr what each file was printed as (folded and why,
why a long file was not, binary: why 0 tokens saved are recorded) and the
run's tokens before and after, as every rtk command does with -v."""

OPTIONS = {
    "-n": ("number", False),
    "--number": ("number", False),
    "--head-lines": ("head_lines", True),
    "--tail-lines": ("tail_lines", True),
    "--lines": ("lines", True),
    "--raw": ("raw", False),
    "-l": ("level", True),
    "--level": ("level", True),
}

LEVELS = ("none", "minimal", "aggressive")

_MAGIC = (
    (b"\x89PNG", "PNG image"), (b"\xff\xd8\xff", "JPEG image"), (b"GIF8", "GIF image"), (b"%PDF", "PDF document"),
    (b"PK\x03\x04", "zip archive"), (b"\x1f\x8b", "gzip data"), (b"\x7fELF", "ELF executable"),
    (b"SQLite format 3", "SQLite database"), (b"\xfe\xed\xfa", "Mach-O binary"), (b"MZ", "Windows executable"),
    (b"\x00asm", "WebAssembly module"), (b"BZh", "bzip2 data"), (b"\xfd7zXZ", "xz data"), (b"7z\xbc\xaf", "7-zip archive"),
)  # fmt: skip


def is_binary(data: bytes) -> bool:
    return b"\x00" in data[:8192]


def kind_of(data: bytes) -> str:
    for magic, name in _MAGIC:
        if data.startswith(magic):
            return name
    return "binary data"


def _rows(rows: list[tuple[int | None, str]], number: bool, ended: bool) -> bytes:
    if number:
        lines = [f"{no:6d}\t{t}" if no is not None else f"{'':6}\t{t}" for no, t in rows]
    else:
        lines = [t for _, t in rows]
    text = "\n".join(lines) + ("\n" if lines and ended else "")
    return text.encode("utf-8", "surrogateescape")


def view(name: str, data: bytes, level: str, number: bool, first: int) -> tuple[bytes, str]:
    """The ``minimal`` or ``aggressive`` view of ``data`` and a note saying what was removed."""
    from rtk.commands import _outline, _source

    text = data.decode("utf-8", "surrogateescape")
    ended = text.endswith("\n")
    body = text[:-1] if ended else text
    lang = _source.language(name, body[:200])
    total = body.count("\n") + 1 if body else 0
    if level == "aggressive" and lang is not None:
        res = _outline.outline(body, lang)
        if res is not None:
            rows, elided = res
            rows = [(None if no is None else no + first - 1, t) for no, t in rows]
            note = f"aggressive view ({lang.name}): {elided} of {total} lines elided in bodies, comments removed"
            return _rows(rows, number, ended), note
    if lang is None:
        rows = _blank_runs(body, first)
        note = f"no comment rules for this file type; {total - len(rows)} blank lines removed of {total}"
    else:
        kept, comments, blanks = _source.strip_comments(body, lang)
        rows = [(no + first - 1, t) for no, t in kept]
        note = f"minimal view ({lang.name}): {comments} comment and {blanks} blank lines removed of {total}"
        if level == "aggressive":
            note = f"no aggressive view for {lang.name}; " + note
    return _rows([(no, t) for no, t in rows], number, ended), note


def _blank_runs(body: str, first: int) -> list[tuple[int | None, str]]:
    rows: list[tuple[int | None, str]] = []
    for no, line in enumerate(body.split("\n") if body else [], first):
        if not line.strip() and (not rows or not rows[-1][1].strip()):
            continue
        rows.append((no, line))
    while rows and not rows[-1][1].strip():
        rows.pop()
    return rows


LEVEL_MAX = 4 << 20  # a level view holds its text in memory: larger inputs are printed as they are


class _Count:
    """The shaped token estimate (``tokens.Tally``) of a byte stream fed in pieces of any size."""

    __slots__ = ("decoder", "tally")

    def __init__(self) -> None:
        import codecs

        from rtk import tokens

        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")  # a character split over two reads
        self.tally = tokens.Tally()

    def add(self, data: bytes) -> None:
        text = self.decoder.decode(data)
        if text:
            self.tally.add(text)

    def total(self) -> int:
        rest = self.decoder.decode(b"", True)  # a truncated character at the very end
        if rest:
            self.tally.add(rest)
        return self.tally.total()


class _Out:
    """Writes to stdout and counts what the plain command printed against what rtk printed (shaped tokens)."""

    __slots__ = ("folded_raw", "modes", "out", "raw_count", "same")

    def __init__(self) -> None:
        self.raw_count = _Count()
        self.out = _Count()
        self.same = _Count()  # bytes printed as the plain command prints them: measured once for both sides
        self.folded_raw = 0  # tokens of the files shown folded (counted apart: a fold that gives way is re-read)
        self.modes: list[str] = []  # what each input was printed as: exact, folded, binary, minimal, aggressive

    def raw(self, data: bytes) -> None:
        self.raw_count.add(data)

    def write(self, data: bytes) -> None:
        if data:
            sys.stdout.buffer.write(data)
            self.out.add(data)

    def copy(self, data: bytes) -> None:
        """Print bytes exactly as the plain command would."""
        if data:
            sys.stdout.buffer.write(data)
            self.same.add(data)

    def mode(self, what: str) -> None:
        if what not in self.modes:
            self.modes.append(what)

    def tokens(self) -> tuple[int, int]:
        """Estimated tokens of the plain command's output and of rtk's."""
        same = self.same.total()
        return self.raw_count.total() + self.folded_raw + same, self.out.total() + same


def _say(name: str, note: str) -> None:
    """A ``-v`` diagnostic about one input, on stderr."""
    if options.verbose:
        sys.stdout.flush()
        print(f"rtk: read: {name}: {note}", file=sys.stderr)


def _binary_line(name: str, inp: _window.Input, sniffed: bytes) -> bytes:
    size = f"{inp.size - inp.start} bytes" if inp.kind == "file" else f"{inp.kind}, size unknown"
    return f"rtk read: {name}: binary ({kind_of(sniffed)}, {size}); not printed\n".encode("utf-8", "surrogateescape")


def _one(
    name: str, f: BinaryIO, header: bytes, o: _Out, head: int | None, tail: int | None, level: str,
    number: bool, numbering: _window.Numbering | None, span: tuple[int, int] | None = None, fold: int = 0,
) -> None:  # fmt: skip
    """Print one input, reading only what is printed (head windows stop, tail windows read from the end)."""
    inp = _window.Input(f)
    sniffed = _window.read_some(f, _window.SNIFF)
    if is_binary(sniffed):
        # Bytes that would never have been text are no saving: the line printed counts as the plain command's
        # output too, so the run records 0 tokens saved.
        line = header + _binary_line(name, inp, sniffed)
        o.copy(line)
        o.mode("binary")
        _say(name, "binary input, recorded as 0 tokens saved (not text an agent would read)")
        return
    first = 1
    body: Iterator[bytes]
    if span is not None:
        first = span[0]
        body = _window.line_range(_window.chunks(f, sniffed), *span)
    elif head is not None:
        body = _window.head(_window.chunks(f, sniffed), head)
    elif tail is not None and inp.seekable and fold and tail > fold:  # tail -n 300 app.log: folded like cat
        start = _window.tail_start(f, inp.start, inp.size, tail)
        f.seek(start)
        got = _folded(name, f, b"", o, header, fold, inp.start, start)
        if got is None:
            return
        body = got
    elif tail is not None and inp.seekable:
        body, first = _window.tail_of_file(inp, tail, number)
    elif tail is not None:
        body, first = _window.tail_of_stream(_window.chunks(f, sniffed), tail, number)
    elif fold and (inp.seekable or (name == "-" and _stdin_folds(f))):  # a piped log folds like a file
        got = _folded(name, f, sniffed, o, header, fold, inp.start, inp.start)
        if got is None:
            return
        body = got
    else:
        body = _window.chunks(f, sniffed)
    o.copy(header)  # head and tail print the same "==> FILE <==" headers
    if level != "none":
        kept: list[bytes] = []
        size = 0
        for b in body:
            kept.append(b)
            size += len(b)
            if size > LEVEL_MAX:
                break
        else:
            data = b"".join(kept)
            o.raw(_window.Numbering(first).feed(data) if number else data)  # what cat -n would have printed
            text, note = view(name, data, level, number, first)
            o.write(text)
            o.mode(level)
            sys.stdout.flush()
            print(f"rtk: read: {name}: {note}", file=sys.stderr)
            return
        sys.stdout.flush()
        print(f"rtk: read: {name}: over {LEVEL_MAX >> 20} MiB, printed as it is (no {level} view)", file=sys.stderr)
        body = _chain(kept, body)
    o.mode("exact")
    if number and numbering is None:
        numbering = _window.Numbering(first)
    for b in body:
        if numbering is None:
            o.copy(b)
        else:  # cat -n prints the same numbers: measured once for both sides
            o.copy(numbering.feed(b))


def _stdin_folds(f: BinaryIO) -> bool:
    """Standard input is folded only from a pipe or a file (not a terminal) and with recovery files on."""
    from rtk import tee

    return not f.isatty() and tee.enabled()


NUMBER_MAX = 64 << 20  # bytes before a tail window read to number its lines (only then is it folded)


def _folded(
    name: str, f: BinaryIO, sniffed: bytes, o: _Out, header: bytes, fold: int, lo: int, start: int
) -> Iterator[bytes] | None:
    """Print the folded view of a long log-like file read from offset ``start`` (None: done), else its bytes.

    ``lo``: where the file's content starts; the fold's line ranges count from there, so a
    tail window's ranges are the file's own line numbers (``rtk read FILE --lines A-B``).
    """
    got = [sniffed] if sniffed else []
    try:  # fail open: a broken fold (a damaged install, a bug) prints the file's exact bytes
        from rtk.commands import _readfold

        got, long = _readfold.sample(f, sniffed, fold)
        folds = long and _readfold.decide(name, got)
    except Exception as e:  # any failure of the fold's own code
        _say(name, f"the fold failed ({type(e).__name__}: {e}): printed exact")
        return _chain(got, _window.chunks(f))
    if not long:
        return _chain(got, _window.chunks(f))
    if not folds:
        _say(name, f"over read.fold_min_lines ({fold}) lines but source code, data or not log-like: not folded")
        return _chain(got, _window.chunks(f))
    first = 1
    if start - lo > NUMBER_MAX:  # numbering the window would read the whole file before it: shown exact
        _say(name, f"tail window starts past {NUMBER_MAX >> 20} MiB: its line numbers are unknown, not folded")
        return _chain(got, _window.chunks(f))
    if start > lo:
        at = f.tell()
        first = _window.count_lines(f, lo, start) + 1
        f.seek(at)
    todo = [header] if header else []

    def write(b: bytes) -> None:
        if todo:  # the "==> FILE <==" header of several files goes before the fold's own header line
            o.copy(todo.pop())
        o.write(b)

    raw = _Count()
    held = _readfold.Held(got, f) if name == "-" else None  # standard input: read once, so what is read is kept

    def counted() -> Iterator[bytes]:
        for b in _chain(got, _window.chunks(f)) if held is None else held.chunks():
            raw.add(b)
            yield b

    try:  # the fold prints nothing before it is done: on a failure the exact bytes follow
        if held is None:
            done, _ = _readfold.fold(name, counted(), write, first)
        else:
            done, _ = _readfold.fold("stdin", counted(), write, 1, held.recover)
    except Exception as e:  # any failure of the fold's own code
        _say(name, f"the fold failed ({type(e).__name__}: {e}): printed exact")
        if held is not None:
            return held.replay()
        f.seek(start)
        return _window.chunks(f)
    again = "--raw, or --lines A-B" if held is None else "the recovery file named in the header, with --lines A-B"
    if done:
        o.folded_raw += raw.total()
        o.mode("folded")
        _say(name, f"folded: log-like and over read.fold_min_lines ({fold}) lines; exact text: {again} for the lines")
        return None
    _say(
        name,
        "log-like, but not folded: the folded view would not be clearly smaller (or a NUL byte or a line over 1 MiB"
        + (", or more than a recovery file keeps)" if held else ")"),
    )
    if held is not None:
        return held.replay()
    f.seek(start)
    return _window.chunks(f)


def _chain(kept: list[bytes], rest: Iterator[bytes]) -> Iterator[bytes]:
    yield from kept
    yield from rest


def main(args: list[str]) -> int:
    started = time.monotonic()
    a = parse("read", args, OPTIONS)
    if a.help:
        print(HELP)
        return 0
    level = a.text("level", "none")
    if level not in LEVELS:
        raise UsageError(f"read: --level must be one of {', '.join(LEVELS)}, not {level!r}")
    head = a.number("read", "head_lines")
    tail = a.number("read", "tail_lines")
    span = _span(a.text("lines", ""))
    if head is not None and tail is not None:
        raise UsageError("read: give --head-lines or --tail-lines, not both")
    if span is not None and (head is not None or tail is not None):
        raise UsageError("read: give --lines or --head-lines/--tail-lines, not both")
    number = a.flag("number")
    files = a.pos or ["-"]
    windowed = head is not None or tail is not None or span is not None
    fold = 0
    if not (head is not None or span is not None or number or level != "none" or a.flag("raw")):
        from rtk import config

        if config.get("read.fold"):
            fold = int(config.get("read.fold_min_lines"))
    code = 0
    o = _Out()
    # plain cat -n: the numbers continue across files, as cat's do
    numbering = _window.Numbering() if number and not windowed and level == "none" else None
    for idx, name in enumerate(files):
        header = b""
        if windowed and len(files) > 1:
            header = (b"\n" if idx else b"") + f"==> {name} <==\n".encode("utf-8", "surrogateescape")
        try:
            if name == "-":
                _one(name, sys.stdin.buffer, header, o, head, tail, level, number, numbering, span, fold)
            else:
                with open(name, "rb") as f:
                    _one(name, f, header, o, head, tail, level, number, numbering, span, fold)
        except BrokenPipeError:
            raise
        except OSError as e:
            sys.stdout.flush()
            print(f"rtk: read: {name}: {e.strerror}", file=sys.stderr)
            code = 1
        sys.stdout.flush()
    raw_tokens, out_tokens = o.tokens()
    track("read", args, raw_tokens, out_tokens, started, code, mode="+".join(o.modes) or "nothing read")
    _note_recalls(files)
    return code


def _note_recalls(files: list[str]) -> None:
    """Reading a recovery file asks back a filtered run's raw output: record it as ``rtk recall`` does."""
    import os

    from rtk import tee, tracking

    try:
        kept = os.path.realpath(tee.directory())
        for name in files:
            if name == "-" or not name.endswith(".log") or os.path.dirname(os.path.realpath(name)) != kept:
                continue
            if tracking.record_recall(os.path.join(tee.directory(), os.path.basename(name)), "read"):
                from rtk.tracking import db

                db.ingest(quiet=True)
    except Exception:  # tracking never breaks the command
        pass


def _span(text: str) -> tuple[int, int] | None:
    """``A-B`` (or ``A``) as a 1-based inclusive line range."""
    if not text:
        return None
    lo, sep, hi = text.partition("-")
    if lo.isdigit() and (hi.isdigit() or not sep) and 0 < int(lo) <= int(hi or lo):
        return int(lo), int(hi or lo)
    raise UsageError(f"read: --lines wants A-B with 1 <= A <= B, not {text!r}")
