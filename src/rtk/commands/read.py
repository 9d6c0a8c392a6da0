"""``rtk read FILE...``: print files like cat/head/tail, byte for byte; shorter views only when asked."""

from __future__ import annotations

import sys
import time

from rtk.commands._own import parse, track, write
from rtk.errors import UsageError

HELP = """\
usage: rtk read [options] [FILE...]        (no FILE, or -: standard input)

Print files as cat, head and tail do: by default the exact bytes, nothing added,
nothing changed (non-UTF-8 bytes included). Several files are concatenated.

options:
  -n, --number        number the lines as cat -n does ("%6d<TAB>line"); with a
                      window or a level the numbers are the lines' own numbers in
                      the file, so they can be used to edit it
  --head-lines N      only the first N lines (head -n N)
  --tail-lines N      only the last N lines (tail -n N)
  -l, --level LEVEL   none (default): the exact content
                      minimal: comments and runs of blank lines removed, per
                        language (strings respected: "/*" in a string is code)
                      aggressive: imports, declarations and signatures kept,
                        bodies replaced by "... lines A-B elided"
  -h, --help          this help

With --head-lines/--tail-lines and several files, each file gets a
"==> FILE <==" header, as head and tail print. Binary files (a NUL byte in the
first 8 KiB) are not printed: a line on stderr says what they are. A file that
cannot be read is reported the way cat does (exit status 1) and the others are
still printed. What a level removed is reported on stderr, never in the output."""

OPTIONS = {
    "-n": ("number", False),
    "--number": ("number", False),
    "--head-lines": ("head_lines", True),
    "--tail-lines": ("tail_lines", True),
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


def head_bytes(data: bytes, n: int) -> bytes:
    """The first ``n`` lines, exactly as ``head -n n`` prints them."""
    pos = -1
    for _ in range(n):
        pos = data.find(b"\n", pos + 1)
        if pos < 0:
            return data
    return data[: pos + 1]


def tail_bytes(data: bytes, n: int) -> tuple[bytes, int]:
    """The last ``n`` lines as ``tail -n n`` prints them, and the number of the first one."""
    if n == 0 or not data:
        return b"", 1
    body, end = (data[:-1], b"\n") if data.endswith(b"\n") else (data, b"")
    parts = body.split(b"\n")
    sel = parts[-n:]
    return b"\n".join(sel) + end, len(parts) - len(sel) + 1


def number_lines(data: bytes, first: int = 1) -> bytes:
    """``data`` with line numbers exactly as ``cat -n`` writes them."""
    if not data:
        return b""
    parts = data.split(b"\n")
    last = parts.pop()  # b"" when data ends with a newline
    out = [b"%6d\t%s\n" % (first + i, p) for i, p in enumerate(parts)]
    if last:
        out.append(b"%6d\t%s" % (first + len(parts), last))
    return b"".join(out)


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
    if head is not None and tail is not None:
        raise UsageError("read: give --head-lines or --tail-lines, not both")
    number = a.flag("number")
    files = a.pos or ["-"]
    windowed = head is not None or tail is not None
    code = 0
    raw_chars = out_chars = 0
    stream: list[bytes] = []  # plain cat (-n numbers continue across files, as cat's do)
    for idx, name in enumerate(files):
        try:
            if name == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(name, "rb") as f:
                    data = f.read()
        except OSError as e:
            sys.stdout.flush()
            print(f"rtk: read: {name}: {e.strerror}", file=sys.stderr)
            code = 1
            continue
        out = b""
        if windowed and len(files) > 1:
            out += (b"\n" if idx else b"") + f"==> {name} <==\n".encode("utf-8", "surrogateescape")
        if is_binary(data):
            raw_chars += len(data.decode("utf-8", "replace"))
            sys.stdout.flush()
            print(f"rtk: read: {name}: {kind_of(data)}, {len(data)} bytes; not printed", file=sys.stderr)
            write(out)
            out_chars += len(out.decode("utf-8", "replace"))
            continue
        first = 1
        if head is not None:
            data = head_bytes(data, head)
        elif tail is not None:
            data, first = tail_bytes(data, tail)
        raw_chars += len(data.decode("utf-8", "replace"))
        if level != "none":
            body, note = view(name, data, level, number, first)
            out += body
            sys.stdout.flush()
            print(f"rtk: read: {name}: {note}", file=sys.stderr)
        elif number and not windowed:
            stream.append(data)
            continue
        else:
            out += number_lines(data, first) if number else data
        write(out)
        out_chars += len(out.decode("utf-8", "replace"))
    if stream:
        out = number_lines(b"".join(stream))
        write(out)
        out_chars += len(out.decode("utf-8", "replace"))
    track("read", args, (raw_chars + 3) // 4, (out_chars + 3) // 4, started, code)
    return code
