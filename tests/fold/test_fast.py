"""The fold's fast path (issue 15, speed): block feeding gives the per-line result; rtk run folds a long output as it streams."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rtk.fold import Folder
from rtk.fold.mask import mask

DATA = Path(__file__).resolve().parent.parent / "logdata"
LOGS = sorted(p.name for p in DATA.glob("*.log"))


def _per_line(lines: list[str]) -> list[str]:
    f = Folder()
    f.dropped = []
    out: list[str] = []
    for ln in lines:
        out.extend(f.feed(ln))
    out.extend(f.finish())
    return [*out, "-- dropped --", *f.dropped]


def _blocks(lines: list[str], size: int) -> list[str]:
    f = Folder()
    f.dropped = []
    out: list[str] = []
    for i in range(0, len(lines), size):
        out.extend(f.feed_lines(lines[i : i + size]))
    out.extend(f.finish())
    return [*out, "-- dropped --", *f.dropped]


@pytest.mark.parametrize("log", LOGS)
def test_block_feeding_folds_as_line_feeding(log: str) -> None:
    lines = (DATA / log).read_text(encoding="utf-8").split("\n")
    want = _per_line(lines)
    assert _blocks(lines, len(lines)) == want
    assert _blocks(lines, 7) == want  # block edges anywhere, the tail of one block taken by the next


def test_shape_cache_keeps_digits_of_constant_tokens() -> None:
    # "part1" and "part2" are constant words (not ids): same shape, other template values.
    lines = [f"Compiling part{i % 2 + 1} v0.1.0 (/src/part)" for i in range(60)]
    f = Folder()
    out = f.feed_lines(lines) + f.finish()
    fold = next(ln for ln in out if ln.startswith("…"))
    assert "part1 ×" in fold and "part2 ×" in fold  # both values counted, none taken for the other


def test_block_feeding_keeps_markers_and_blocks_whole() -> None:
    lines = [f"2026-11-24 07:00:{i % 60:02d} INFO worker done job {i}" for i in range(300)]
    lines[100] = "2026-11-24 07:01:40 INFO worker job 100 timed out after 30s"
    lines[150:150] = ["Traceback (most recent call last):", '  File "x.py", line 3, in f', "KeyError: 'k'"]
    lines[200] = "W1124 07:01:40.123 worker.go:12] slow job"
    f = Folder()
    out = f.feed_lines(lines) + f.finish()
    for kept in (lines[100], lines[150], lines[151], lines[152], lines[200]):
        assert kept in out


def test_digits_with_punctuation_are_a_field() -> None:
    assert mask("14715#14715:") == "<n>:"  # nginx pid#tid
    assert mask("*123") == "<n>"  # nginx connection number
    assert mask("part1") == "part1" and mask("(0%)") == "(<pct>)"


def _rtk(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "rtk", *args], capture_output=True, timeout=120, env=env)


@pytest.fixture
def small_buffer(tmp_path: Path) -> dict[str, str]:
    cfg = tmp_path / "config.toml"
    cfg.write_text("[limits]\nbuffer_max_bytes = 20000\n")
    return {**os.environ, "RTK_CONFIG": str(cfg)}


def test_run_folds_a_long_output_as_it_streams(tmp_path: Path, small_buffer: dict[str, str]) -> None:
    log = tmp_path / "big.log"
    lines = [f"2026-11-24 07:00:{i % 60:02d} INFO [http] GET /api/items/{i} 200 {i % 7}ms" for i in range(1, 6001)]
    lines[2999] = "2026-11-24 07:00:59 ERROR [http] GET /api/items/3000 500 upstream refused"
    log.write_text("\n".join(lines) + "\n")
    p = _rtk("run", "-c", f"cat {log}; exit 3", env=small_buffer)
    assert p.returncode == 3
    out = p.stdout.decode().splitlines()
    assert len(out) < 40
    assert out[0] == lines[0] and lines[2999] in out and out[-2] == lines[-1]
    assert any(ln.startswith("… ") and "(lines 2-" in ln for ln in out)
    assert out[-1].startswith("[rtk] full output: rtk recall ")


def test_run_passes_long_json_through(tmp_path: Path, small_buffer: dict[str, str]) -> None:
    data = tmp_path / "big.json"
    body = "[\n" + ",\n".join(f'  {{"id": {i}, "name": "item {i}"}}' for i in range(3000)) + "\n]\n"
    data.write_text(body)
    p = _rtk("run", "-c", f"cat {data}", env=small_buffer)
    assert p.returncode == 0
    assert p.stdout.decode() == body  # data is never folded


def test_run_long_csv_keeps_header_and_ends(tmp_path: Path, small_buffer: dict[str, str]) -> None:
    data = tmp_path / "big.csv"
    rows = ["id,name,qty"] + [f"{i},item{i},{i % 9}" for i in range(1, 4001)]
    data.write_text("\n".join(rows) + "\n")
    p = _rtk("run", "-c", f"cat {data}", env=small_buffer)
    out = p.stdout.decode().splitlines()
    assert out[:50] == rows[:50]  # the header and the first rows
    assert out[50] == "[rtk] ... 3,801 lines omitted (lines 51-3851) ..."  # the exact range left out
    assert out[51:201] == rows[-150:]
    assert out[201].startswith("[rtk] full output: rtk recall ")


def test_held_lines_counted_at_once_fold_as_line_feeding() -> None:
    # A long run of one kind of line (its lines are counted a block at a time, column by column): the
    # slow requests among fast ones stay whole at their place, the counter's last line and the values
    # listed are those of line-by-line feeding, and so are the lines dropped (in line order).
    lines: list[str] = []
    for i in range(6000):
        ms = 5 + (i * 7) % 11 if i % 1500 != 777 else 4000
        lines.append(
            f"2026-11-24 07:{i // 60 % 60:02d}:{i % 60:02d} INFO GET /api/v{i % 3} {200 if i % 7 else 304} {ms}ms"
        )
        if i % 50 == 0:
            lines.append(f'worker "{i % 4}" idle {i}')
    want = _per_line(lines)
    for size in (len(lines), 997, 64):
        assert _blocks(lines, size) == want
    shown = want[: want.index("-- dropped --")]
    assert sum(" 4000ms" in ln for ln in shown) == 4  # every slow request, whole
    assert any("/api/v0 ×" in ln for ln in shown)
