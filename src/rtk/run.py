"""``rtk <tool> [args]``: find the filter, run the tool, print the compact output, track it.

The exit code returned is always the child's (128+N if a signal killed it, 127
if the tool is not found). Unknown tools, ``live`` filters and ``rtk proxy``
run with every stream inherited, untouched, and are tracked as 0/0 tokens.
"""

from __future__ import annotations

import os
import sys
import time

from rtk import config, filters, options, pipeline, runner, tee, tokens
from rtk.text import clean, clean_line, join, utf8_end

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filterapi import LineFilter, Spec

# A streaming filter holds its output back until this much raw output was seen or
# this much time passed: short outputs then get the exact never-worse check, long
# ones stream.
HOLD_CHARS = 4096
HOLD_SECONDS = 1.0


class Out:
    """Our stdout. A closed pipe (``rtk git log | head -1``) ends output quietly."""

    __slots__ = ("broken", "chars", "tally")

    def __init__(self) -> None:
        self.broken = False
        self.chars = 0
        self.tally: tokens.Tally | None = None  # what was printed, in estimated tokens (streams, passthrough)

    def write(self, text: str) -> None:
        if self.broken or not text:
            return
        self.chars += len(text)
        if self.tally is not None:
            self.tally.add(text)
        self.write_bytes(text.encode("utf-8", "replace"))

    def write_bytes(self, data: bytes) -> None:
        if self.broken or not data:
            return
        try:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
        except BrokenPipeError:
            self.broken = True
            # Point fd 1 at /dev/null so the interpreter's final flush stays quiet.
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                os.close(devnull)
            except OSError:
                pass


def _say(level: int, msg: str) -> None:
    if options.verbose >= level:
        print(msg, file=sys.stderr)


def _track(
    argv: list[str],
    filter_name: str,
    raw_tokens: int,
    out_tokens: int,
    started: float,
    code: int,
    cut: int = 0,
    tee_path: str | None = None,
    restored: int = 0,
    via: str = "",
) -> None:
    from rtk import tracking

    cmd = join(argv)
    due = tracking.record_command(
        original=cmd,
        rtk_cmd="rtk " + via + cmd,
        filter_name=filter_name,
        input_tokens=raw_tokens,
        output_tokens=out_tokens,
        exec_ms=int((time.monotonic() - started) * 1000),
        exit_code=code,
        cut=cut,
        tee_path=tee_path or "",
        restored=restored,
    )
    if due:  # the journal passed its size: move it into SQLite now (never raises)
        from rtk.tracking import db

        db.ingest(quiet=True)


def proxy(argv: list[str]) -> int:
    """Run a command raw (streams inherited) and track it as passthrough."""
    started = time.monotonic()
    code = runner.run_inherited(argv)
    # "rtk proxy ": the raw output asked for on purpose (a re-run, when a filtered run of it came just before)
    _track(argv, "", 0, 0, started, code, via="proxy ")
    return code


def run_tool(argv: list[str]) -> int:
    """Run ``argv`` through its filter; return the child's exit code."""
    started = time.monotonic()
    try:
        spec = filters.resolve(argv)
    except Exception as e:  # a broken filter module or TOML file must not stop the command
        _say(1, f"rtk: filter lookup failed for {argv[0]} ({type(e).__name__}: {e}); running raw")
        spec = None
    return run_spec(argv, spec, started)


def run_spec(argv: list[str], spec: Spec | None, started: float | None = None) -> int:
    """Run ``argv`` with a given Spec (None: unfiltered); used by ``run_tool`` and ``rtk test/err/summary``."""
    if started is None:
        started = time.monotonic()
    if spec is not None and spec.name in config.get("filters.disabled"):
        _say(1, f"rtk: filter {spec.name} is disabled in config; running raw")
        spec = None
    if spec is None or spec.live:
        if options.verbose:
            from rtk.tracking import mask_command

            _say(
                1,
                f"rtk: no filter for this {mask_command(argv[0])} command; passthrough"  # no argument: any may be a secret
                if spec is None
                else f"rtk: {spec.name}: live",
            )
        code = runner.run_inherited(argv, spec.env if spec else None)
        _track(argv, spec.name if spec else "", 0, 0, started, code)
        return code
    run_argv = spec.run_argv or argv
    held = runner.Held()  # a Ctrl-C during the start reaches the child once it runs
    try:
        child = runner.spawn(run_argv, capture=True, merge_stderr=spec.merge_stderr, env=spec.env)
    except runner.SpawnError as e:
        held.release()
        print(e, file=sys.stderr)
        return e.code
    except BaseException:
        held.release()
        raise
    child.relay_signals(held)
    if spec.stream is not None:
        return _run_stream(spec, argv, child, started)
    return _run_buffered(spec, argv, child, started)


def _run_buffered(
    spec: Spec, argv: list[str], child: runner.Child, started: float, track_code: int | None = None
) -> int:
    """Filter the whole output; ``track_code``: the exit code to record instead of the child's (rtk pipe)."""
    assert spec.filter is not None
    out = Out()
    limit = int(config.get("limits.buffer_max_bytes"))
    max_lines = int(config.get("limits.buffer_max_lines"))
    raw, over = runner.read_all(child, limit, max_lines)
    if over:
        # Too large to hold: what was read and the rest go through the live fold as they come (bounded memory,
        # line ranges named, the stream fact guard, the recovery file), as ``rtk run`` prints unknown output.
        from rtk.filterapi import Spec
        from rtk.fold import live as foldstream

        _say(1, f"rtk: {spec.name}: output over {limit} bytes or {max_lines} lines; folding it as it streams")
        fold = Spec(spec.name, stream=foldstream.factory())
        return _run_stream(fold, argv, child, started, track_code, first=raw)
    code = child.wait()
    res = pipeline.apply(spec.name, spec.filter, argv, raw, code)
    if res.data is not None:
        out.write_bytes(res.data)
    else:
        out.write(res.text)
    raw_tok, out_tok = res.raw_tokens, res.out_tokens
    _say(
        1,
        f"rtk: {spec.name} [{res.mode}]: {raw_tok} -> {out_tok} tokens ({tokens.savings_pct(raw_tok, out_tok):.1f}% saved, {tokens.METHOD})",
    )
    if res.error is not None:
        from rtk import tracking

        tracking.record_failure(command=join(argv), filter_name=spec.name, error=res.error)
    tracked = code if track_code is None else track_code
    _track(argv, spec.name, raw_tok, out_tok, started, tracked, res.cut, res.tee_path, res.restored)
    return code


LINE_PIECE = 1 << 20  # bytes of one unfinished line passed through at a time


def _for_guard(filt: LineFilter, lines: list[str]) -> list[str]:
    """The lines of a block the stream fact guard reads: all, or those the filter did not vouch for."""
    reported = filt.unvouched
    if reported is None:
        return lines
    filt.unvouched = []
    return reported


def _run_stream(
    spec: Spec,
    argv: list[str],
    child: runner.Child,
    started: float,
    track_code: int | None = None,
    first: bytes = b"",
) -> int:
    """Feed the output to a LineFilter as it arrives (``track_code`` as in ``_run_buffered``).

    ``first``: output already read (by ``_run_buffered``), taken as the first reads, with no wait.
    A line longer than ``LINE_PIECE`` is printed as it comes, in pieces, exactly (no newline added): the
    filter prints what it holds first and is told the line went by (``passed``), never fed it.
    """
    import select

    from rtk.factguard import StreamGuard
    from rtk.text import decode

    assert spec.stream is not None
    out = Out()
    guard = StreamGuard()
    restored = 0
    spool = tee.spool()  # past tee.max_file_size on disk, compressed: the recovery file holds every line
    filt: LineFilter | None
    error: str | None = None
    try:
        filt = spec.stream(argv)
    except Exception as e:
        filt, error = None, f"{type(e).__name__}: {e}"
    if filt is not None and filt.reports:
        filt.unvouched = []  # the guard reads what the filter did not vouch for (LineFilter.unvouched)
    held: list[str] = []
    live = False
    raw_whole = False  # the filter failed before printing anything: the raw output is all there is
    deadline = time.monotonic() + HOLD_SECONDS
    raw_chars = 0
    raw_tally = tokens.Tally()
    out.tally = shown_tally = tokens.Tally()
    pending = b""
    fd = child.fd

    def emit(text: str) -> None:
        if live:
            out.write(text)
        else:
            held.append(text)

    def fail(e: BaseException) -> None:
        # Fail open mid-stream: from here on, print the raw output as it comes.
        nonlocal filt, error, live, raw_whole
        from rtk.filterapi import Unrecognized

        if isinstance(e, Unrecognized):  # a streaming reading decided at the end that it does not apply
            what, error = f"{spec.name}: output not recognised", f"unrecognized: {e}"
        else:
            what, error = f"filter {spec.name} failed", f"{type(e).__name__}: {e}"
        _say(1, f"rtk: {what} ({error}); raw output follows")
        filt = None
        if not live:
            held.clear()  # nothing was printed yet: the raw output replaces it all
            raw_whole = True
        else:
            out.write(f"[rtk] {what}; raw output follows\n")
        live = True
        # Everything read so far, except the unfinished last line (it is printed when complete).
        seen = spool.data()
        if pending and spool.complete:
            seen = seen[: len(seen) - len(pending)]
        out.write(pipeline.ensure_newline(clean(decode(seen))))

    # A filter with ``idle_after`` (the live fold) prints what it holds once the command goes quiet, and one with
    # ``due`` once a line held has waited its bound in time, whatever the rate (``FoldStream.due``/``tick``).
    idle_after: float | None = getattr(filt, "idle_after", None)
    due = getattr(filt, "due", None)
    fresh = False  # lines came since the last quiet spell
    ahead = memoryview(first)  # output read before the loop: its reads, in order, before any wait
    inline = False  # a line too long to hold is being printed as it comes (its start was printed)

    def piece(text: str, end: str = "") -> None:
        """Part of a long line printed as it is; ``end`` "\n" for its last part: the filter counts the line."""
        nonlocal raw_chars
        raw_chars += len(text) + len(end)
        raw_tally.add(text + end)
        out.write(text + end)
        if end and filt is not None and (went := getattr(filt, "passed", None)) is not None:
            try:
                went(1)  # line numbers stay those of the recovery file
            except Exception as e:
                fail(e)

    def flush() -> None:
        """Before a long line: go live and print what the filter holds (its folds so far)."""
        nonlocal live, fresh
        if not live:
            live = True
            out.write("".join(held))
            held.clear()
        if filt is not None and (idle := getattr(filt, "idle", None)) is not None:
            fresh = False
            try:
                r = idle()
            except Exception as e:
                return fail(e)
            out.write("" if r is None else r + "\n")
            guard.feed(_for_guard(filt, []), [] if r is None else [r + "\n"])

    def _lines(data: bytes) -> None:
        """Whole lines of output, through the filter."""
        nonlocal raw_chars, fresh
        block = decode(data)
        lines = block.split("\n")
        if "\r" in block or "\x1b" in block:  # else clean_line gives each line back as it is
            lines = [clean_line(ln) for ln in lines]
        if block.endswith("\n"):
            lines.pop()
        raw_chars += sum(map(len, lines)) + len(lines)
        fresh = True
        raw_tally.add_lines(lines)
        if filt is None:
            emit("".join(ln + "\n" for ln in lines))
        else:
            parts = []
            try:
                feed_block = getattr(filt, "feed_block", None)  # a filter's fast path for many lines
                if feed_block is not None:
                    r = feed_block(lines)
                    if r is not None:
                        parts.append(r + "\n")
                else:
                    for ln in lines:
                        r = filt.feed(ln)
                        if r is not None:
                            parts.append(r + "\n")
            except Exception as e:
                fail(e)
                parts = []
            if parts:
                emit("".join(parts))
            if filt is not None:
                guard.feed(_for_guard(filt, lines), parts)

    while True:
        b = b""
        if ahead:
            b, ahead = bytes(ahead[:65536]), ahead[65536:]
        elif not live:
            wait = deadline - time.monotonic()
            if wait <= 0 or raw_chars > HOLD_CHARS:
                live = True
                out.write("".join(held))
                held.clear()
                continue  # a quiet command: the idle check below may print what the filter holds
            else:
                try:
                    ready, _, _ = select.select([fd], [], [], wait)
                except (OSError, ValueError):
                    ready = [fd]
                if not ready:
                    continue
        elif filt is not None and ((fresh and idle_after is not None) or due is not None):
            nap = idle_after if fresh else None
            bound: float | None = None
            if due is not None:
                try:
                    bound = due()  # seconds until a held line's bound in time; None: no line held
                except Exception as e:
                    fail(e)
                    continue
            timed = bound is not None and (nap is None or bound < nap)
            if timed:
                nap = bound
            ready = [fd]
            if nap is not None and nap <= 0:
                ready = []  # overdue: printed before reading more (a steady stream is never quiet)
            elif nap is not None:
                try:
                    ready, _, _ = select.select([fd], [], [], nap)
                except (OSError, ValueError):
                    ready = [fd]
            if not ready:
                try:
                    if timed:
                        r = filt.tick()  # type: ignore[attr-defined]
                    else:
                        fresh = False
                        r = filt.idle()  # type: ignore[attr-defined]
                except Exception as e:
                    fail(e)
                    r = None
                if r is not None:  # "" is one blank line held (not nothing)
                    emit(r + "\n")
                if filt is not None:  # what it printed, and the lines it left out meanwhile (a reporting filter)
                    guard.feed(_for_guard(filt, []), [r + "\n"] if r is not None else [])
                continue
        if not b:
            b = os.read(fd, 65536)
            if not b:
                break
        spool.add(b)
        start = len(pending)  # what was pending holds no newline: only the new bytes are searched
        pending += b
        if inline:
            nl = pending.find(b"\n", start)
            if nl >= 0:  # the long line ends here
                piece(clean_line(decode(pending[:nl])), "\n")
                pending, start, inline = pending[nl + 1 :], 0, False
        cut = 0 if inline else pending.rfind(b"\n", start) + 1
        if cut:
            data, pending = pending[:cut], pending[cut:]  # pending first: ``fail`` prints what was read but it
            _lines(data)
        if len(pending) >= LINE_PIECE and (cr := pending.rfind(b"\r")) > 0:
            pending = pending[cr:]  # redraws (a progress bar): a terminal shows what follows the last CR
        if len(pending) >= LINE_PIECE and not out.broken:  # a line too long to hold: printed in pieces, as it is
            if not inline:
                flush()
                inline = True
            while len(pending) >= LINE_PIECE:
                end = utf8_end(pending)
                piece(clean_line(decode(pending[:end])))
                pending = pending[end:]
        if out.broken:
            child.close_output()
            break
    if inline and not out.broken:  # the output ended inside the long line
        piece(clean_line(decode(pending)), "\n")
        pending = b""
    if pending and not out.broken:
        tail = clean_line(decode(pending))
        raw_chars += len(tail) + 1
        raw_tally.add_lines([tail])
        if filt is None:
            emit(tail + "\n")
        else:
            try:
                r = filt.feed(tail)
                if r is not None:
                    emit(r + "\n")
                guard.feed(_for_guard(filt, [tail]), [r + "\n"] if r is not None else [])
            except Exception as e:
                fail(e)
    code = child.wait()
    summary = ""
    cut_items = 0
    if filt is not None:
        try:
            summary = filt.finish(code)
            cut_items = filt.cut
            guard.feed(_for_guard(filt, []), [])  # lines a reporting filter left out at the end
        except Exception as e:
            fail(e)
    if summary and not summary.endswith("\n"):
        summary += "\n"
    raw_bytes = spool.data()
    if not live:
        # Everything is still held: decide exactly, as a whole-output filter would.
        text = "".join(held) + summary
        raw_text = clean(decode(raw_bytes))  # as pipeline.apply: trailing blank lines included
        keep = tee.write if not spool.on_disk else (lambda a, _raw: tee.write(a, spool))  # all of it, not the held
        if filt is None:
            res = pipeline.bounded_raw(argv, raw_bytes, raw_text, code, keep, "raw-error", error)
        else:
            res = pipeline.finish(argv, raw_bytes, raw_text, code, text, cut_items, keep)
        out.write(res.text)
        raw_tok, out_tok, cut_items, tee_path, restored = (
            res.raw_tokens, res.out_tokens, res.cut, res.tee_path, res.restored
        )  # fmt: skip
    else:
        if filt is not None and not raw_whole:
            extra, restored = guard.finish(summary, cut_items > 0)  # what the stream lost, before its summary
            summary = extra + summary
        tee_path = tee.write(argv, spool) if tee.wanted(code, cut_items, spool.total) else None
        if cut_items > 0 and tee_path is None and filt is not None:
            summary += "[rtk] (recovery file could not be written; rerun with rtk proxy for the raw output)\n"
        if tee_path is not None and not raw_whole and (cut_items > 0 or code != 0):
            summary += tee.hint(tee_path) + "\n"
        out.write(summary)
        raw_tok, out_tok = raw_tally.total(), shown_tally.total()
    spool.close()  # a temporary file no recovery file was made of
    _say(
        1,
        f"rtk: {spec.name} [stream]: {raw_tok} -> {out_tok} tokens ({tokens.savings_pct(raw_tok, out_tok):.1f}% saved, {tokens.METHOD})",
    )
    if error is not None:
        from rtk import tracking

        tracking.record_failure(command=join(argv), filter_name=spec.name, error=error)
    tracked = code if track_code is None else track_code
    _track(argv, spec.name, raw_tok, out_tok, started, tracked, cut_items, tee_path, restored)
    return code
