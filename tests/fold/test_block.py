"""A block taken at once (rtk.fold.block): plain lines routed in C fold exactly as lines fed one by one."""

from __future__ import annotations

from itertools import pairwise

import pytest

import rtk.fold.folder as folder_mod
from rtk.fold import Folder


def _per_line(lines: list[str], hold: int | None = None) -> list[str]:
    f = Folder(hold=hold)
    f.dropped = []
    out: list[str] = []
    for ln in lines:
        out.extend(f.feed(ln))
    out.extend(f.finish())
    return [*out, "-- dropped --", *f.dropped]


def _blocks(lines: list[str], size: int, hold: int | None = None) -> list[str]:
    f = Folder(hold=hold)
    f.dropped = []
    out: list[str] = []
    for i in range(0, len(lines), size):
        out.extend(f.feed_lines(lines[i : i + size]))
    out.extend(f.finish())
    return [*out, "-- dropped --", *f.dropped]


def _mixed() -> list[str]:
    """Access-log lines (some failing), a job log whose ids grow a digit, markers with their locations, tracebacks."""
    lines: list[str] = []
    for i in range(3000):
        status = 500 if i % 97 == 5 else 404 if i % 61 == 3 else 200
        lines.append(
            f'10.0.0.{i % 9} - - [24/Nov/2026:07:00:{i % 60:02d} +0000] "GET /p/{i % 13} HTTP/1.1" {status} 12'
        )
        # ids 7..10006: a new shape (one digit more) while older shapes of the same group keep coming
        lines.append(f"2026-11-24 07:00:{i % 60:02d} INFO job {7 + i * 3 + (i % 2) * 9000} done in {i % 17}ms")
        if i % 41 == 0:
            lines.append(f"2026-11-24 07:00:{i % 60:02d} WARN job {i} slow")
            lines.append(f"  --> src/jobs.rs:{i % 50}:9")  # goes with the marker before it, wherever a block ends
        elif i % 2:
            lines.append(f"  --> src/jobs.rs:{i % 50}:9")  # the same kind of line alone: it folds
        if i % 230 == 0:
            lines += ["Traceback (most recent call last):", f'  File "w.py", line {i % 7}, in run', "KeyError: 'x'"]
    return lines


@pytest.mark.parametrize("size", [1, 2, 3, 5, 64, 1000, 100_000])
def test_plain_lines_fold_as_line_feeding(size: int) -> None:
    lines = _mixed()
    want = _per_line(lines)
    got = _blocks(lines, size)
    assert got == want
    shown = got[: got.index("-- dropped --")]
    assert sum(" 500 12" in ln for ln in shown) == sum(" 500 12" in ln for ln in lines)  # failed requests whole
    after = [b for a, b in pairwise(lines) if " WARN job " in a]
    assert len(after) == 74 and all(ln in shown for ln in after)  # every location after its marker
    assert any(ln.startswith("… access log: 3,000 requests; status 200 ×") for ln in shown)


def test_live_hold_keeps_every_fact() -> None:
    # Live output (a block's folds may print later than line by line): every failed request, marker and
    # location is shown, each once, and every other line is shown or dropped (none lost, none twice).
    lines = _mixed()
    got = _blocks(lines, 333, hold=200)
    cut = got.index("-- dropped --")
    shown, dropped = got[:cut], got[cut + 1 :]
    for fact in (" 500 12", " 404 12", " WARN job "):
        assert sum(fact in ln for ln in shown) == sum(fact in ln for ln in lines)
    assert all(b in shown for a, b in pairwise(lines) if " WARN job " in a)
    assert sorted([ln for ln in shown if not ln.startswith("… ")] + dropped) == sorted(lines)


def test_shape_cache_starting_again_mid_block(monkeypatch: pytest.MonkeyPatch) -> None:
    # Tiny caches: the shape cache starts again inside blocks, so the rest of a block goes line by line.
    monkeypatch.setattr(folder_mod, "FAST", 7)
    monkeypatch.setattr(folder_mod, "CACHE", 40)
    monkeypatch.setattr(folder_mod, "DUPS", 5)
    lines = _mixed()
    want = _per_line(lines)
    for size in (5, 500, 100_000):
        assert _blocks(lines, size) == want


def test_a_new_shape_of_a_folding_group_is_counted_in_line_order() -> None:
    # The group folds in the first block; the last block brings a new shape of it (one digit more)
    # before a line of the old shape: the fold ends at the old-shape line, the last one of the group.
    lines = [f"2026-11-24 07:00:00 INFO job {10 + i % 90} done" for i in range(200)]
    lines += ["2026-11-24 07:00:00 INFO job 100 done", "2026-11-24 07:00:00 INFO job 101 done"]
    lines += ["2026-11-24 07:00:00 INFO job 55 done", *[f"summary line {c}" for c in "abcdef"]]
    want = _per_line(lines)
    assert _blocks(lines, 100) == want
    assert any(ln.startswith("… ") and "(lines 2-203)" in ln for ln in want)
