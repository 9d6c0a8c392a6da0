"""The live fold reports to the stream fact guard exactly the lines it left out, and loses nothing by it.

A line the fold printed whole is in the output as it came, so each of its facts is there: the
guard need not read it. Checked here: every line not reported was printed (as many times as it
came), on the real logs, every fixture, Hypothesis mutations, at several block sizes and with
quiet spells; the guard of the reported lines restores what a guard of every line restores; and a
line the fold wrongly left out still comes back through ``rtk run``.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fixturelib import all_fixtures, load
from mutations import mutate
from rtk import config, facts, fold, run
from rtk.factguard import StreamGuard
from rtk.filterapi import Spec
from rtk.fold import live
from rtk.fold.live import FoldStream
from rtk.text import clean, decode

LOGDATA = Path(__file__).resolve().parents[1] / "logdata"
LOGS = sorted(LOGDATA.glob("*.log"))


def lines_of(raw: bytes) -> list[str]:
    """The lines the runner feeds a filter: no empty line after the last newline."""
    text = clean(decode(raw))
    return text.removesuffix("\n").split("\n") if text else []


RAWS = [lines_of(p.read_bytes()) for p in LOGS]
FIXTURE_RAWS = [lines_of(load(p).raw) for p in all_fixtures()]
FOREIGN = sorted({ln for raw in FIXTURE_RAWS for ln in raw if facts.is_marker(ln) and ln.strip()})[:200]


@pytest.fixture(autouse=True)
def _defaults() -> None:
    config.reset()


def stream(
    lines: list[str], size: int, window: int = 50, idle_every: int = 0
) -> tuple[list[str], list[str], StreamGuard, StreamGuard, str]:
    """``lines`` through a live fold as the runner feeds it (blocks of ``size``, a quiet spell every ``idle_every``
    blocks): the printed lines, the reported ones, a guard of those and a guard of every line, the summary."""
    filt = FoldStream(["x"], window)
    assert filt.reports
    filt.unvouched = []  # as the runner enables it
    printed: list[str] = []
    reported: list[str] = []
    mine, every = StreamGuard(), StreamGuard()
    for n, i in enumerate(range(0, len(lines), size), 1):
        block = lines[i : i + size]
        r = filt.feed_block(block) if size > 1 else filt.feed(block[0])
        parts = [r + "\n"] if r is not None else []
        got = run._for_guard(filt, block)
        reported += got
        mine.feed(got, parts)
        every.feed(block, parts)
        printed += r.split("\n") if r is not None else []
        if idle_every and n % idle_every == 0:
            r = filt.idle()
            parts = [r + "\n"] if r else []
            got = run._for_guard(filt, [])
            reported += got
            mine.feed(got, parts)
            every.feed([], parts)
            printed += r.split("\n") if r else []
    summary = filt.finish(0)
    got = run._for_guard(filt, [])
    reported += got
    mine.feed(got, [])
    printed += summary.split("\n") if summary else []
    return printed, reported, mine, every, summary


def unreported_are_printed(lines: list[str], printed: list[str], reported: list[str]) -> None:
    left = Counter(lines) - Counter(reported)
    assert left - Counter(printed) == Counter()  # each line not reported was printed, as often as it came
    assert Counter(reported) - Counter(lines) == Counter()  # and only input lines are reported


@pytest.mark.parametrize("path", LOGS, ids=[p.name for p in LOGS])
def test_every_line_the_fold_did_not_print_is_reported(path: Path) -> None:
    lines = RAWS[LOGS.index(path)]
    for size, idle in ((1, 0), (7, 5), (64, 0), (600, 2)):
        printed, reported, *_ = stream(lines, size, idle_every=idle)
        unreported_are_printed(lines, printed, reported)
        if len(lines) > 300 and size == 64:
            assert reported  # the log was folded: lines were left out, and reported


def test_data_lines_left_out_are_reported_and_json_is_not() -> None:
    rows = ["id,name,qty"] + [f"{i},n{i},{i % 9}" for i in range(1, 1000)]
    printed, reported, *_ = stream(rows, 64, window=200)
    assert reported == rows[50:850]  # the exact rows the head and tail left out
    unreported_are_printed(rows, printed, reported)
    ndjson = [f'{{"id": {i}, "name": "n{i}"}}' for i in range(1, 1001)]
    printed, reported, *_ = stream(ndjson, 64, window=200)
    assert reported == [] and printed == ndjson


def test_reading_the_reported_lines_restores_what_reading_every_line_restores() -> None:
    for lines in [*RAWS, *FIXTURE_RAWS]:
        for size in (7, 64):
            printed, reported, mine, every, summary = stream(lines, size)
            unreported_are_printed(lines, printed, reported)
            assert mine.finish(summary, True) == every.finish(summary, True)


@st.composite
def mutated(draw: st.DrawFn, lines: list[str]) -> list[str]:
    return mutate(draw, lines, FOREIGN)


@pytest.mark.parametrize("path", LOGS[:6], ids=[p.name for p in LOGS[:6]])
def test_mutated_logs_report_and_restore_alike(path: Path) -> None:
    lines = RAWS[LOGS.index(path)][:1500]

    @settings(
        max_examples=int(os.environ.get("RTK_FUZZ_EXAMPLES", "4")),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(mutated(lines), st.sampled_from([1, 5, 97]), st.sampled_from([0, 3]))
    def prop(case: list[str], size: int, idle: int) -> None:
        printed, reported, mine, every, summary = stream(case, size, idle_every=idle)
        unreported_are_printed(case, printed, reported)
        assert mine.finish(summary, True) == every.finish(summary, True)

    prop()


def test_rtk_run_restores_a_line_the_fold_wrongly_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """The guard reads what the fold reports: a fold that (wrongly) drops an error line has it restored."""

    class Lossy(fold.Folder):
        def feed_lines(self, lines: list[str]) -> list[str]:
            keep = [ln for ln in lines if "ERROR" not in ln]
            if self.dropped is not None:
                self.dropped += [ln for ln in lines if "ERROR" in ln]
            return super().feed_lines(keep)

    monkeypatch.setattr(fold.folder, "Folder", Lossy)
    monkeypatch.setenv("RTK_DATA_DIR", str(tmp_path / "data"))
    script = tmp_path / "imp.sh"
    script.write_text(
        'i=0; while [ $i -lt 3000 ]; do echo "INFO import batch $i rows=500 ok"; i=$((i+1)); done\n'
        "echo 'ERROR row 77 rejected: bad date'\n"
        'i=0; while [ $i -lt 3000 ]; do echo "INFO import batch $i rows=500 ok"; i=$((i+1)); done\n'
    )
    assert run.run_spec(["sh", str(script)], _fold_spec()) == 0
    out = capfd.readouterr().out.splitlines()
    assert "[rtk] restored 1 line the filter dropped:" in out
    assert out.count("ERROR row 77 rejected: bad date") == 1


def _fold_spec() -> Spec:
    return Spec("run", stream=live.factory(200))


def test_rtk_run_cleans_escapes_and_redraws_as_it_streams(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """A block holding colour codes or a carriage return is cleaned line by line; one without is used as read."""
    monkeypatch.setenv("RTK_DATA_DIR", str(tmp_path / "data"))
    script = tmp_path / "col.sh"
    script.write_text(
        'i=0; while [ $i -lt 2000 ]; do echo "step $i done"; i=$((i+1)); done\n'
        "printf 'loading 10%%\\rloading 100%%\\n'\n"
        "i=0; while [ $i -lt 2000 ]; do printf '\\033[32mINFO\\033[0m batch %d ok\\n' $i; i=$((i+1)); done\n"
    )
    assert run.run_spec(["sh", str(script)], _fold_spec()) == 0
    out = capfd.readouterr().out
    assert "\x1b" not in out and "\r" not in out
    assert "loading 100%" in out.splitlines()
    assert "INFO batch 0 ok" in out.splitlines()
