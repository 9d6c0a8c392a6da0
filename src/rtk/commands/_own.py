"""Plumbing shared by rtk's own text commands (read, json, deps, log, smart): flags, input, output, tracking."""

from __future__ import annotations

import sys
import time

from rtk.errors import RtkError, UsageError
from rtk.text import join

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

# option -> (destination, takes a value)
Options = dict[str, tuple[str, bool]]


class Args:
    """Parsed command line: option values by destination, and the positional arguments."""

    __slots__ = ("help", "pos", "values")

    def __init__(self) -> None:
        self.values: dict[str, str | bool] = {}
        self.pos: list[str] = []
        self.help = False

    def flag(self, dest: str) -> bool:
        return bool(self.values.get(dest, False))

    def text(self, dest: str, default: str = "") -> str:
        v = self.values.get(dest, default)
        return v if isinstance(v, str) else default

    def number(self, prog: str, dest: str, default: int | None = None) -> int | None:
        v = self.values.get(dest)
        if not isinstance(v, str):
            return default
        if not v.isdigit():
            raise UsageError(f"{prog}: {dest.replace('_', '-')} must be a whole number, not {v!r}")
        return int(v)


def parse(prog: str, args: list[str], options: Options) -> Args:
    """Read ``args`` against ``options``; an unknown option is a one-line usage error."""
    out = Args()
    i = 0
    only = False
    while i < len(args):
        a = args[i]
        i += 1
        if only or a == "-" or not a.startswith("-"):
            out.pos.append(a)
            continue
        if a == "--":
            only = True
            continue
        if a in ("-h", "--help"):
            out.help = True
            continue
        name, eq, val = a.partition("=") if a.startswith("--") else (a[:2], "", a[2:])
        if not a.startswith("--") and val and name in options and not options[name][1]:
            # a cluster of short flags: -nv
            for c in a[1:]:
                spec = options.get("-" + c)
                if spec is None or spec[1]:
                    raise UsageError(f"{prog}: unknown option -{c} (see rtk {prog} --help)")
                out.values[spec[0]] = True
            continue
        spec = options.get(name)
        if spec is None:
            raise UsageError(f"{prog}: unknown option {a} (see rtk {prog} --help)")
        dest, takes = spec
        if takes:
            if not (eq or val):
                if i >= len(args):
                    raise UsageError(f"{prog}: option {name} needs a value")
                val = args[i]
                i += 1
            out.values[dest] = val
        else:
            if eq:
                raise UsageError(f"{prog}: option {name} takes no value")
            out.values[dest] = True
    return out


def read_input(prog: str, name: str) -> bytes:
    """The bytes of file ``name`` (``-`` is stdin); a one-line error naming it otherwise."""
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        with open(name, "rb") as f:
            return f.read()
    except OSError as e:
        raise RtkError(f"{prog}: {name}: {e.strerror}") from None


def pass_through_if_over(prog: str, name: str, limit: int) -> tuple[bytes, int | None]:
    """The bytes of ``name`` (``-``: stdin) if at most ``limit``; else (b"", characters) once all of it
    was copied to stdout as it is read (bounded memory: a document too large to hold is shown raw)."""
    if name == "-":
        f = sys.stdin.buffer
        head = f.read(limit + 1)
        if len(head) <= limit:
            return head, None
        return b"", _copy(head, f)
    try:
        with open(name, "rb") as g:
            head = g.read(limit + 1)
            if len(head) <= limit:
                return head, None
            return b"", _copy(head, g)
    except OSError as e:
        raise RtkError(f"{prog}: {name}: {e.strerror}") from None


def _copy(head: bytes, f: BinaryIO) -> int:
    """Write ``head`` and the rest of ``f`` to stdout in pieces; return the bytes written."""
    out = sys.stdout.buffer
    n = 0
    data = head
    while data:
        out.write(data)
        n += len(data)
        data = f.read(1 << 20)
    out.flush()
    return n


def write(data: bytes | str) -> None:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    sys.stdout.buffer.write(data)
    sys.stdout.flush()


def track(
    name: str,
    args: list[str],
    raw_tokens: int,
    out_tokens: int,
    started: float,
    code: int,
    cut: int = 0,
    mode: str = "",
) -> None:
    """Record one run of an rtk command: what the plain command would have printed against what we printed.

    Both figures are ``tokens.estimate_shaped`` (or its streaming ``tokens.Tally``), as for every
    filtered command; with ``-v`` the same line as theirs goes to stderr (``mode``: what was printed).
    """
    from rtk import options, tokens, tracking

    if options.verbose:
        sys.stdout.flush()
        pct = tokens.savings_pct(raw_tokens, out_tokens)
        print(
            f"rtk: {name} [{mode or name}]: {raw_tokens} -> {out_tokens} tokens ({pct:.1f}% saved, {tokens.METHOD})",
            file=sys.stderr,
        )
    cmd = join(["rtk", name, *args])
    due = tracking.record_command(
        original=cmd,
        rtk_cmd=cmd,
        filter_name=name,
        input_tokens=raw_tokens,
        output_tokens=out_tokens,
        exec_ms=int((time.monotonic() - started) * 1000),
        exit_code=code,
        cut=cut,
    )
    if due:  # the journal passed its size: move it into SQLite now (never raises)
        from rtk.tracking import db

        db.ingest(quiet=True)
