"""``rtk pipe [-f FILTER]``: filter standard input with a named (or detected) filter, for pipelines."""

from __future__ import annotations

import os
import sys
import time

from rtk.commands._own import parse
from rtk.errors import UsageError
from rtk.filterapi import Filtered, LineFilter, Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

HELP = """\
usage: cargo test 2>&1 | rtk pipe -f cargo-test
       some-command 2>&1 | rtk pipe            (the filter is detected from the content)

Filter standard input as `rtk <command>` would filter that command's output.
-f takes a filter id (as `rtk -v` and `rtk gain` name them: cargo-test,
git-status, pytest...) or a quoted command ("cargo test"). Without -f the
filter is guessed from the first 64 KiB; unknown content goes through the
generic path (whole when short, folded when long).

rtk pipe cannot know the exit code of the command that wrote its input. The
filter reads the input as it would a failed run's (failure details kept, the
raw input kept for `rtk recall`), and where it would state an exit code or a
verdict drawn from it, rtk pipe says "exit code unknown" instead: it never
reports a success or a failure that did not happen. rtk pipe itself exits 0
(use `set -o pipefail` to get the producer's exit code); the run is recorded
with an unknown exit code. Streaming filters stream; memory stays bounded."""

UNKNOWN_EXIT = 1  # what the filter is told: the producer may have failed (keep failure details)
TRACKED_EXIT = -1  # what tracking records: unknown (never counted as a failed run)
UNKNOWN = "exit code unknown"
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
            raise UsageError(f"pipe: no filter for {name!r}{_close(name)} (rtk filters list; rtk --help lists tools)")
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
    raise UsageError(
        f"pipe: unknown filter {name!r}{_close(name)} (give a filter id such as cargo-test, or a quoted command)"
    )


# Subcommand words tried on every family to list filter ids close to an unknown one (error path only).
_PROBE = (
    "add", "branch", "build", "check", "checkout", "ci", "clippy", "commit", "compose", "describe", "diff", "doc",
    "fetch", "fmt", "get", "images", "install", "lint", "list", "log", "logs", "ls", "nextest", "outdated", "ps",
    "pull", "push", "run", "show", "stash", "status", "test", "vet", "worktree",
)  # fmt: skip


def known_ids() -> list[str]:
    """Filter ids reachable by name: every family probed with common subcommands, and the TOML filters."""
    from rtk import filters

    ids: set[str] = set()
    for word in filters.FAMILIES:
        for argv in ([word], *([word, sub] for sub in _PROBE)):
            try:
                spec = filters.lookup(argv)
            except Exception:
                continue
            if spec is not None and not spec.live:
                ids.add(spec.name)
    try:
        from rtk.dsl import catalog

        for src in catalog.all_sources():
            ids.update(str(d["name"]) for d in src.defs)
    except Exception:
        pass
    return sorted(ids)


def _close(name: str) -> str:
    """``; close: a, b`` naming filter ids like ``name``, or nothing."""
    import difflib

    want = name.replace(" ", "-")
    ids = known_ids()
    near = difflib.get_close_matches(want, ids, n=4, cutoff=0.6)
    if not near:
        near = [i for i in ids if i.startswith(want.split("-", 1)[0] + "-")][:4]
    return f"; close: {', '.join(near)}" if near else ""


def _splits(parts: list[str]) -> list[list[str]]:
    """Every way to rejoin hyphen-split ``parts`` into words, fewest words last: cargo-test -> [cargo, test]..."""
    if len(parts) == 1:
        return [parts]
    out = []
    for rest in _splits(parts[1:]):
        out.append([parts[0], *rest])
        out.append([parts[0] + "-" + rest[0], *rest[1:]])
    return out


_rx: tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]] | None = None
RAW_EXIT_LINES = 10000  # raw lines mentioning "exit" remembered (they are never rewritten)


def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    global _rx
    if _rx is None:
        import re

        _rx = (
            re.compile(r"\b(?:FAILED|failed) \(exit 1\)(?: although the summary reports no failure)?"),
            re.compile(r"\(exit 1\)"),
            re.compile(r"\bexit 1\b"),
            re.compile(r"\bexited with code 1 although\b"),  # a line that only contrasts the code with the output
        )
    return _rx


def unclaim(text: str, raw: set[str]) -> str:
    """``text`` with the exit status the filter was told (1) reworded as unknown, on lines it wrote itself.

    Lines found in the input (``raw``: its lines that mention "exit") are the producer's and stay as they are.
    """
    if "exit" not in text:
        return text
    failed, paren, bare, contrast = _patterns()
    out: list[str] = []
    for line in text.split("\n"):
        if "exit" in line and line not in raw:
            if contrast.search(line):
                continue
            line = bare.sub(UNKNOWN, paren.sub(f"({UNKNOWN})", failed.sub(UNKNOWN, line)))
        out.append(line)
    return "\n".join(out)


def _exit_lines(text: str) -> set[str]:
    return {ln for ln in text.split("\n") if "exit" in ln}


class _Unclaiming(LineFilter):
    """A streaming filter whose own lines never state the exit code it was told."""

    def __init__(self, inner: LineFilter) -> None:
        super().__init__(inner.argv)
        self.inner = inner
        self.raw: set[str] = set()

    def feed(self, line: str) -> str | None:
        if "exit" in line and len(self.raw) < RAW_EXIT_LINES:
            self.raw.add(line)
        r = self.inner.feed(line)
        return None if r is None else unclaim(r, self.raw | {line})

    def finish(self, exit_code: int) -> str:
        text = self.inner.finish(exit_code)
        self.cut = self.inner.cut  # read by the runner after finish
        return unclaim(text, self.raw)


def unclaiming(spec: Spec) -> Spec:
    """``spec`` with its filter's statements about the (unknown) exit code reworded."""
    if spec.stream is not None:
        factory = spec.stream

        def stream(argv: list[str]) -> LineFilter:
            return _Unclaiming(factory(argv))

        return Spec(spec.name, stream=stream, run_argv=spec.run_argv, env=spec.env, merge_stderr=spec.merge_stderr)
    func = spec.filter
    assert func is not None

    def filt(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
        res = func(argv, output, exit_code)
        if isinstance(res, str):
            return unclaim(res, _exit_lines(output))
        if isinstance(res, Filtered):
            res.text = unclaim(res.text, _exit_lines(output))
        return res

    return Spec(spec.name, filt, run_argv=spec.run_argv, env=spec.env, merge_stderr=spec.merge_stderr)


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
    spec = unclaiming(spec)
    child = _Stdin(fd)
    if spec.stream is not None:
        run._run_stream(spec, argv, child, started, TRACKED_EXIT)  # type: ignore[arg-type]
    else:
        run._run_buffered(spec, argv, child, started, TRACKED_EXIT)  # type: ignore[arg-type]
    return 0
