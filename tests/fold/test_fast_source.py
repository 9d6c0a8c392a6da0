"""The fold's fast path for lines naming a source location (``(response.c.203)``): taken, and keyed by the location."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtk.fold.folder import Folder
from rtk.fold.mask import source_places

DATA = Path(__file__).resolve().parent.parent / "logdata"


def _slow_takes(lines: list[str]) -> tuple[list[str], int, Folder]:
    """Fold ``lines`` by block; the output, how many lines went the whole way (tokenised and masked), the folder."""
    f = Folder()
    n = 0
    take = f._take

    def counting(no: int, line: str, shape: bytes | None = None, counted: bool = False) -> None:
        nonlocal n
        n += 1
        take(no, line, shape, counted)

    f._take = counting  # type: ignore[method-assign]
    out = f.feed_lines(lines) + f.finish()
    return out, n, f


def _by_line(lines: list[str]) -> list[str]:
    f = Folder()
    return [o for ln in lines for o in f.feed(ln)] + f.finish()


def test_lighttpd_debug_lines_take_the_fast_path() -> None:
    # Every line of this log names a source location: before, each one was tokenised and masked (2,609 of 2,614).
    lines = (DATA / "lighttpd-debug.log").read_text(encoding="utf-8").split("\n")
    out, slow, _ = _slow_takes(lines)
    assert slow < len(lines) // 10
    assert out == _by_line(lines)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("(response.c.420)", "(response.c.421)"),  # the same file, another line of it
        ("(mod_h2.c.153)", "(mod_h3.c.153)"),  # a digit in the file's name
    ],
)
def test_two_source_lines_of_one_shape_never_share_an_entry(a: str, b: str) -> None:
    lines = []
    for i in range(200):
        where = a if i % 3 else b
        lines.append(f"2026-11-25 01:58:{i % 60:02d}: {where} -- parsed Request-URI {i}")
    out, slow, f = _slow_takes(lines)
    assert slow < 10  # the rest by their shape and location
    assert out == _by_line(lines)
    folds = [ln for ln in out if ln.startswith("…")]
    assert len(folds) == 2  # one template per source line, each counted apart
    assert any(a in ln for ln in folds) and any(b in ln for ln in folds)
    templates = {e[0].id: e[2] for e in f._fast.values()}
    assert len(templates) == 2
    assert sorted(sig[2] for sig in templates.values()) == sorted([a, b])


def test_only_source_locations_key_the_shape() -> None:
    raw = ["2026-11-25", "(response.c.420)", "part1", "x"]
    assert source_places(("<time>", "(response.c.420)", "part", "<n>"), raw) == [1]
    assert source_places(("<time>", "(response.c.420)", "part1", "<n>"), raw) is None  # part1: not by shape
    assert source_places(("<time>", "word", "<n>"), raw[:3]) == []
