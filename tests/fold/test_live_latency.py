"""The live fold's bound in time: a line held waits at most ``latency`` seconds, whatever the rate (clock injected)."""

from __future__ import annotations

import re
from pathlib import Path

from rtk.fold.live import LATENCY, FoldStream
from rtk.text import clean, decode

DATA = Path(__file__).resolve().parent.parent / "logdata"
EPS = 1e-6


def _lines(name: str) -> list[str]:
    return clean(decode((DATA / name).read_bytes())).splitlines()


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def drive(
    f: FoldStream, clock: Clock, blocks: list[tuple[float, list[str]]], end: float
) -> tuple[list[tuple[float, str]], int]:
    """Feed each block at its time as the runner does, waking for ``tick`` whenever ``due`` says so before the next.

    Before each block, checks that no line held arrived more than the bound ago. Returns the lines
    printed with the time they were printed at, and how many ticks printed something.
    """
    printed: list[tuple[float, str]] = []
    arrival: dict[int, float] = {}
    ticks = 0

    def emit(r: str | None) -> None:
        if r:
            printed.extend((clock.now, ln) for ln in r.split("\n"))

    for t, block in [*blocks, (end, [])]:
        while (d := f.due()) is not None and clock.now + max(d, 0.0) <= t:
            clock.now += max(d, 0.0)
            r = f.tick()
            ticks += r is not None
            emit(r)
        clock.now = t
        first = f.held_from()
        if first:  # the oldest line held came within the bound
            assert t - arrival[first] <= LATENCY + EPS, (first, arrival[first], t)
        if not block:
            break
        for i in range(f.seen + 1, f.seen + len(block) + 1):
            arrival[i] = t
        emit(f.feed_block(block))
    emit(f.finish(0))
    return printed, ticks


def _counted(printed: list[tuple[float, str]]) -> set[int]:
    """Line numbers named by count lines (``(lines a-b)``)."""
    got: set[int] = set()
    for _, ln in printed:
        for a, b in re.findall(r"\(lines (\d+)-(\d+)\)", ln):
            got.update(range(int(a), int(b) + 1))
    return got


def test_a_trickle_shows_each_line_within_the_bound() -> None:
    """A real service log arriving one line every 0.5 s (a tail -f): each line shows within 1 s, as itself or counted."""
    lines = _lines("python-service.log")[:600]
    clock = Clock()
    f = FoldStream(["tail", "-f", "app.log"], idle_after=2.0, clock=clock)
    printed, ticks = drive(f, clock, [(i * 0.5, [ln]) for i, ln in enumerate(lines)], len(lines) * 0.5 + 10)
    assert ticks >= len(lines) // 3  # it streamed: about one print a second, not one at the end
    when = {}
    for t, ln in printed:
        when.setdefault(ln, t)
    counted = _counted(printed)
    for i, ln in enumerate(lines):
        if ln in when:
            assert when[ln] - i * 0.5 <= LATENCY + EPS or lines.index(ln) < i, (i, ln)
        else:
            assert i + 1 in counted, (i, ln)  # folded: a count line names it
    out = "\n".join(ln for _, ln in printed)
    assert len(out) <= len("\n".join(lines))  # never larger than raw
    assert lines[:10] == [ln for _, ln in printed[:10]]  # the first lines as they came (the window: raw)


def test_ready_then_silence_shows_ready_within_the_bound() -> None:
    """``echo ready; sleep 10``: the one line held shows once it waited the bound, not when the command ends."""
    clock = Clock()
    f = FoldStream(["/bin/sh", "-c", "echo ready; sleep 10"], clock=clock)
    assert f.feed("ready") is None
    assert f.due() == LATENCY
    clock.now = 0.5
    assert f.tick() is None
    clock.now = LATENCY
    assert f.tick() == "ready"
    assert f.due() is None and f.tick() is None  # nothing held: no wake-up needed
    clock.now = 10.0
    assert f.finish(0) == "" and f.cut == 0


def test_no_bound_without_latency() -> None:
    clock = Clock()
    f = FoldStream(["x"], latency=None, clock=clock)
    f.feed("ready")
    clock.now = 100.0
    assert f.due() is None and f.tick() is None
    assert f.finish(0) == "ready"


def _blocks(lines: list[str], per_second: float) -> list[tuple[float, list[str]]]:
    """The lines in 64 KiB reads (as the runner reads ``cat``), each at the time its last line came."""
    out: list[tuple[float, list[str]]] = []
    block: list[str] = []
    size = 0
    for i, ln in enumerate(lines, 1):
        block.append(ln)
        size += len(ln.encode()) + 1
        if size >= 65536 or i == len(lines):
            out.append((i / per_second, block))
            block, size = [], 0
    return out


def test_a_fast_producer_folds_as_before() -> None:
    """Thousands of lines a second: lines go by count long before the bound, so the output is the same as without it."""
    for name in ("python-service.log", "make-j2-gcc.log", "cargo-build-vv.log"):
        lines = _lines(name)
        blocks = _blocks(lines, 5000.0)
        clock = Clock()
        f = FoldStream(["cat", name], clock=clock)
        printed, ticks = drive(f, clock, blocks, blocks[-1][0])  # ends with its last read
        plain = FoldStream(["cat", name], latency=None)
        want = [r for _, b in blocks if (r := plain.feed_block(b)) is not None]
        want.append(plain.finish(0))
        assert ticks == 0, name
        assert "\n".join(ln for _, ln in printed) == "\n".join(w for w in want if w), name
        assert f.cut == plain.cut > 0


def test_a_whole_file_at_once_never_triggers_the_bound() -> None:
    lines = _lines("make-j2-gcc.log")
    clock = Clock()
    f = FoldStream(["cat"], clock=clock)
    f.feed_block(lines)
    assert f.due() is not None and 0 < f.due() <= LATENCY  # type: ignore[operator]
    assert f.tick() is None


def test_a_csv_trickle_shows_every_row_within_the_bound() -> None:
    """Data is never folded: a slow CSV shows its rows as they come (no tail held until the end)."""
    rows = ["id,name,qty"] + [f"{i},n{i},{i % 9}" for i in range(1, 400)]
    clock = Clock()
    f = FoldStream(["x"], clock=clock)
    printed, _ = drive(f, clock, [(i * 0.5, [r]) for i, r in enumerate(rows)], len(rows) * 0.5 + 10)
    assert [ln for _, ln in printed] == rows and f.cut == 0
    for i, (t, ln) in enumerate(printed):
        assert t - rows.index(ln) * 0.5 <= LATENCY + EPS, (i, ln)


def test_a_burst_then_a_pause_prints_the_burst_raw_and_keeps_deciding() -> None:
    """Undecided when the bound fires: the lines held are printed as they came; the next ones still fold."""
    lines = _lines("python-service.log")[:1200]
    clock = Clock()
    f = FoldStream(["x"], clock=clock)
    blocks = [(0.0, lines[:50]), (3.0, lines[50:])]
    printed, ticks = drive(f, clock, blocks, 20.0)
    assert ticks >= 1
    assert [ln for t, ln in printed if t < 3.0] == lines[:50]  # at 1 s, raw
    assert f.cut > 0 and len(printed) < len(lines)
