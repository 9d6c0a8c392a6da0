"""Data is not a log (issue 15): a table padded into columns is never folded into templates."""

from __future__ import annotations

from pathlib import Path

from rtk.fold import TABLE_WHOLE, data_kind, fold_output

TESTS = Path(__file__).resolve().parent.parent


def test_dpkg_list_over_ssh_passes_whole() -> None:
    lines = (TESTS / "fixtures" / "ssh" / "package-list.raw").read_text(encoding="utf-8").splitlines()
    assert data_kind(lines[:400]) == "table"
    assert fold_output(lines) == (lines, 0)  # every row (package and version) is a fact


def test_ps_listing_is_a_table() -> None:
    lines = (TESTS / "fixtures" / "ps" / "shared-ps-axu_ubuntu-18.04.raw").read_text(encoding="utf-8").splitlines()
    assert data_kind(lines[:400]) == "table"


def test_aligned_lines_that_are_not_tables() -> None:
    progress = (TESTS / "logdata" / "progress-import.log").read_text(encoding="utf-8").splitlines()
    assert data_kind(progress[:400]) is None  # columns align, but no header names them
    spring = [
        f"2026-11-24 07:00:{i % 60:02d}.123  INFO 4242 --- [           main] o.s.b.StartupInfoLogger   : step {i}"
        for i in range(100)
    ]
    assert data_kind(["  TIME  LEVEL  PID  THREAD  LOGGER  MESSAGE", *spring]) is None  # a log padded is a log
    for log in ("python-service.log", "postgres.log", "nginx-access.log", "jvm-ingest.log", "cargo-build-vv.log"):
        lines = (TESTS / "logdata" / log).read_text(encoding="utf-8").splitlines()
        assert data_kind(lines[:400]) is None, log


def test_a_very_long_table_keeps_header_and_ends() -> None:
    rows = ["NAME          READY   STATUS    RESTARTS   AGE"]
    rows += [f"web-{i:05d}     1/1     Running   0          {i % 50}d" for i in range(TABLE_WHOLE + 100)]
    out, left = fold_output(rows) or ([], 0)
    assert out[:6] == rows[:6] and out[-5:] == rows[-5:]
    assert left == len(rows) - 11
    assert out[6] == f"… {left:,} rows left out (lines 7-{len(rows) - 5}); every row is in the lines named"


def test_a_long_tsv_keeps_every_row_with_a_problem_and_counts_each_gap_exactly() -> None:
    """A tab-separated log (gh run view --log) looks like a TSV: its error rows are never cut."""
    from rtk.fold import fold_output

    rows = [f"test\tRun pytest\t2026-11-21T10:02:{i % 60:02d}Z collected item {i}" for i in range(1, 301)]
    rows[149] = "test\tRun pytest\t2026-11-21T10:02:29Z E       AssertionError: tokens 8.0 above burst 5"
    out, left = fold_output(rows) or ([], 0)
    assert out[:6] == rows[:6] and out[-5:] == rows[-5:]
    assert rows[149] in out
    assert "… 143 rows left out (lines 7-149); every row is in the lines named" in out
    assert "… 145 rows left out (lines 151-295); every row is in the lines named" in out
    assert left == 143 + 145
