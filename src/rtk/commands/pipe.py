"""``rtk pipe [-f FILTER]``: filter standard input with a named (or detected) filter, for pipelines."""

from __future__ import annotations

import os
import sys
import time

from rtk.commands._own import parse
from rtk.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filterapi import Spec

HELP = """\
usage: cargo test 2>&1 | rtk pipe -f cargo-test
       some-command 2>&1 | rtk pipe            (the filter is detected from the content)

Filter standard input as `rtk <command>` would filter that command's output.
-f takes a filter id (as `rtk -v` and `rtk gain` name them: cargo-test,
git-status, pytest...) or a quoted command ("cargo test"). Without -f the
filter is guessed from the first 64 KiB; unknown content goes through the
generic path (whole when short, folded when long).

rtk pipe cannot know the exit code of the command that wrote its input, so it
treats it as failed (the filter gets exit code 1): it never prints a success
line it cannot back, keeps failure details, and keeps the raw input for
`rtk recall`. rtk pipe itself exits 0 (use `set -o pipefail` to get the
producer's exit code). Streaming filters stream; memory stays bounded."""

UNKNOWN_EXIT = 1  # what the filter is told: the producer may have failed
PEEK = 65536

# Content signatures -> the command whose filter reads that output (first match wins).
SIGNATURES: tuple[tuple[tuple[str, ...], list[str]], ...] = (
    (("test result: ", "running "), ["cargo", "test"]),
    (("test session starts",), ["pytest"]),
    (("=== RUN",), ["go", "test"]),
    (("--- FAIL:",), ["go", "test"]),
    (("diff --git ",), ["git", "diff"]),
    (("On branch ",), ["git", "status"]),
    (("HEAD detached",), ["git", "status"]),
    ((": error TS",), ["tsc"]),
    (("Compiling ", "error["), ["cargo", "build"]),
    (("Compiling ", "Finished "), ["cargo", "build"]),
    (("Found ", " error", " in ", " file"), ["mypy"]),
)


def detect(head: str) -> list[str] | None:
    """The command whose filter reads output like ``head``, or None."""
    for needles, argv in SIGNATURES:
        if all(n in head for n in needles):
            return list(argv)
    return None


def spec_for_name(name: str) -> tuple[list[str], Spec]:
    """The argv and Spec of filter ``name`` (a filter id or a quoted command); a usage error if unknown."""
    import shlex

    from rtk import filters

    if " " in name:
        try:
            argv = shlex.split(name)
        except ValueError as e:
            raise UsageError(f"pipe: -f {name!r}: {e}") from None
        spec = filters.resolve(argv) if argv else None
        if spec is None or spec.live:
            raise UsageError(f"pipe: no filter for {name!r} (rtk filters list; rtk --help lists tools)")
        return argv, spec
    parts = name.split("-")
    for argv in _splits(parts):
        for cand in (argv, [argv[0], *("--" + w for w in argv[1:])]):
            try:
                spec = filters.resolve(cand)
            except Exception:
                spec = None
            if spec is not None and spec.name == name and not spec.live:
                return cand, spec
    raise UsageError(f"pipe: unknown filter {name!r} (give a filter id such as cargo-test, or a quoted command)")


def _splits(parts: list[str]) -> list[list[str]]:
    """Every way to rejoin hyphen-split ``parts`` into words, fewest words last: cargo-test -> [cargo, test]..."""
    if len(parts) == 1:
        return [parts]
    out = []
    for rest in _splits(parts[1:]):
        out.append([parts[0], *rest])
        out.append([parts[0] + "-" + rest[0], *rest[1:]])
    return out


class _Stdin:
    """Stands in for runner.Child: the output is our stdin (or a pipe replaying a peeked head, then stdin)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pid = 0

    def close_output(self) -> None:
        self.fd = -1

    def wait(self) -> int:
        return UNKNOWN_EXIT


def _replay(head: bytes) -> int:
    """A read fd that yields ``head`` and then the rest of stdin (copied by a thread, bounded memory)."""
    import threading

    r, w = os.pipe()

    def copy() -> None:
        try:
            view = memoryview(head)
            while view:
                view = view[os.write(w, view) :]
            while chunk := os.read(0, 65536):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(w, view) :]
        except OSError:
            pass
        finally:
            os.close(w)

    threading.Thread(target=copy, daemon=True).start()
    return r


def _peek() -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size < PEEK:
        b = os.read(0, PEEK - size)
        if not b:
            break
        chunks.append(b)
        size += len(b)
    return b"".join(chunks)


def main(args: list[str]) -> int:
    a = parse("pipe", args, {"-f": ("filter", True), "--filter": ("filter", True)})
    if a.help:
        print(HELP)
        return 0
    if a.pos:
        raise UsageError(f"pipe: unexpected argument {a.pos[0]!r} (rtk pipe reads standard input; -f FILTER)")
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("pipe: standard input is a terminal; pipe a command's output in: cmd 2>&1 | rtk pipe")
    from rtk import run
    from rtk.commands.run_cmd import generic
    from rtk.filterapi import Spec

    started = time.monotonic()
    name = a.text("filter")
    spec: Spec | None
    if name:
        argv, spec = spec_for_name(name)
        fd = 0
    else:
        from rtk.text import clean, decode

        head = _peek()
        found = detect(clean(decode(head)))
        spec = None
        if found is not None:
            from rtk import filters

            try:
                spec = filters.resolve(found)
            except Exception:
                spec = None
        if spec is None or spec.live:
            argv, spec = ["pipe"], Spec("pipe", generic)
        else:
            assert found is not None
            argv = found
        fd = _replay(head)
    assert spec is not None
    child = _Stdin(fd)
    if spec.stream is not None:
        run._run_stream(spec, argv, child, started)  # type: ignore[arg-type]
    else:
        run._run_buffered(spec, argv, child, started)  # type: ignore[arg-type]
    return 0
