"""A live fold decides a group 200 lines after its head; lines rare in the whole output come at its end (issue 15)."""

from __future__ import annotations

import pytest

from rtk.fold import late as late_mod
from rtk.fold.folder import fold_lines
from rtk.fold.live import FoldStream

PROCESSING = "Processing /tmp/wheels/pkg{0}-1.{0}.0-py3-none-any.whl (from pkg{0}>=1.0)"


def _build(total: int) -> list[str]:
    """A pip-like output: 6 ``Processing`` lines early (5 after the first), then ``total`` lines of other kinds."""
    lines: list[str] = []
    for i in range(6):
        lines.append(PROCESSING.format(i))
        lines += [f"  Added pkg{i}-dep{j} to build tracker '/tmp/pip-build-{i}{j}'" for j in range(12)]
    n = 0
    while len(lines) < total:
        lines.append(f"  Removed build tracker: '/tmp/pip-build-tracker-{n}'")
        lines.append(f"Skipping link: not a file: https://pypi.org/simple/pkg{n}/")
        n += 1
    return lines[:total]


def _live(lines: list[str], idle_at: int = 0) -> list[str]:
    fs = FoldStream(["python3", "x.py"])
    out: list[str | None] = []
    for no, ln in enumerate(lines, 1):
        out.append(fs.feed(ln))
        if no == idle_at:
            out.append(fs.idle())  # a quiet spell: the next folder carries what the fold kept
    out.append(fs.finish(0))
    return "\n".join(o for o in out if o is not None).splitlines()


@pytest.mark.parametrize("idle_at", [0, 700])
def test_lines_rare_in_a_long_output_are_printed_at_the_end(idle_at: int) -> None:
    lines = _build(2100)  # 2,100 lines: a template with at most 7 lines after its first is rare
    whole = fold_lines(lines)[0]
    want = [PROCESSING.format(i) for i in range(6)]
    assert all(w in whole for w in want)  # the whole fold shows them (5 <= 2100 // 300)
    out = _live(lines, idle_at)
    assert all(w in out for w in want)  # before: 5 folded, decided when 4 was the limit
    at = out.index("[rtk] rare in the whole output, folded above (lines 14-66):")
    assert out[at + 1 : at + 6] == want[1:]
    assert any(o.startswith("… 5 more like: Processing") for o in out)  # the fold printed live stays


def test_lines_not_rare_in_a_short_output_stay_folded() -> None:
    lines = _build(900)  # 900 lines: at most 4 after the first, as when the live fold decided
    whole = fold_lines(lines)[0]
    out = _live(lines)
    assert PROCESSING.format(3) not in whole and PROCESSING.format(3) not in out
    assert not any(o.startswith("[rtk] rare in the whole output") for o in out)


def test_lines_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(late_mod, "LATE", 3)  # fewer than the group's 5: not kept, folded as before
    out = _live(_build(2100))
    assert PROCESSING.format(3) not in out
    keep = late_mod.Late()
    keep.keep(1, [(1, "a"), (2, "b")])
    keep.keep(2, [(5, "c"), (6, "d")])  # over the bound: not kept
    assert keep.n == 2 and list(keep.keys) == [1]
