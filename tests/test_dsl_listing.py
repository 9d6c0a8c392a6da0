"""TOML filters' ``listing``: whole up to limits.listing_budget, above it grouped with exact counts (issue 14)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rtk.dsl import engine, listing, schema


def make(**fields: Any) -> dict[str, Any]:
    d, problems = schema.validate_filter("t", {"match_command": "^tool(\\s|$)", **fields}, "test.toml")
    assert d is not None, problems
    return d


def du_tree(packages: int = 40) -> list[str]:
    """A du listing (children before their parent): ``project/pkgNN/{a..f}`` and each package."""
    lines = []
    for i in range(1, packages + 1):
        lines += [f"{i * 4}K\tproject/pkg{i:02d}/{s}" for s in "abcdef"]
        lines.append(f"{i * 24 + 4}K\tproject/pkg{i:02d}")
    lines.append("9M\tproject")
    return lines


def omitted(text: str) -> int:
    return sum(int(n) for n in re.findall(r"^\.\.\. \((\d+) lines? omitted under ", text, re.M))


def test_under_the_budget_every_line_stays_where_head_tail_would_cut() -> None:
    rows = [f"{i}K\tsrc/dir{i:03d}" for i in range(100)]
    d = make(listing="paths", head_lines=30, tail_lines=10)
    assert engine.apply(d, "\n".join(rows)).text == "\n".join(rows)
    d = make(listing="rows", listing_key=[1], head_lines=5)
    users = [f"user{i % 7} pts/{i} host Mon Nov 24 10:{i % 60:02d}" for i in range(90)]
    assert engine.apply(d, "\n".join(users)).text == "\n".join(users)
    # without `listing`, the same filter still cuts
    assert "lines omitted" in engine.apply(make(head_lines=30, tail_lines=10), "\n".join(rows)).text


def test_du_above_the_budget_keeps_the_levels_that_fit_and_the_largest_next() -> None:
    lines = du_tree()
    assert not listing.fits(lines, 800)
    out = listing.by_depth(lines, 800)
    assert out is not None and listing.fits(out, 800)
    text = "\n".join(out)
    # every package line (depth 1) and the total stay; of the depth-2 lines, the largest
    for i in range(1, 41):
        assert f"{i * 24 + 4}K\tproject/pkg{i:02d}\n" in text + "\n"
    assert text.endswith("9M\tproject")
    assert "160K\tproject/pkg40/f" in text and "4K\tproject/pkg01/a" not in text
    # every line is shown or counted, exactly, under its own package, before the package's line
    shown = sum(1 for ln in out if not ln.startswith("... ("))
    assert shown + omitted(text) == len(lines)
    assert "... (6 lines omitted under project/pkg01/)\n28K\tproject/pkg01\n" in text
    # a smaller budget: the largest packages, the others counted under project/
    out = listing.by_depth(lines, 600)
    assert out is not None and listing.fits(out, 600)
    text = "\n".join(out)
    assert "964K\tproject/pkg40" in text and "28K\tproject/pkg01" not in text
    assert re.search(r"^\.\.\. \(\d+ lines omitted under project/\)\n9M\tproject$", text, re.M)
    assert sum(1 for ln in out if not ln.startswith("... (")) + omitted(text) == len(lines)


def test_du_error_lines_always_stay_and_nothing_fits_falls_back() -> None:
    lines = ["du: cannot read directory 'project/x': Permission denied", *du_tree()]
    out = listing.by_depth(lines, 600)
    assert out is not None and out[0].startswith("du: cannot read")
    assert listing.by_depth(["no tab here"], 600) is None
    assert listing.by_depth(du_tree(), 5) is None  # not even the top level fits


def test_du_sizes_read_in_every_unit() -> None:
    assert listing.size("4") == 4 and listing.size("1.5M") == 1.5 * (1 << 20) and listing.size("12K") == 12 * 1024
    assert listing.size("1,5G") == 1.5 * (1 << 30) and listing.size("x") == -1


def test_rows_grouped_by_cells_with_exact_counts() -> None:
    head = "COMMAND PID USER FD TYPE NAME"
    rows = [f"python3 1 root {i}w REG /tmp/f{i:03d}.log" for i in range(200)]
    rows += [f"python3 1 root {i}u IPv4 127.0.0.1:{i}" for i in range(30)] + ["python3 1 root 4r FIFO pipe"]
    out = listing.by_key([head, *rows], [1, 5], 200)
    assert out is not None
    text = "\n".join(out)
    assert out[0] == head
    assert "python3 REG  (200 lines)" in text  # the large group counted
    assert "python3 IPv4  (30 lines)" in text and "FIFO pipe" in text  # what fits whole, the rest counted
    # one group only, or one holding 90% of the rows: a count says less than the filter's cut, so no grouping
    assert listing.by_key([head, *rows[:200]], [1, 5], 200) is None
    assert listing.by_key([head, *rows[:200], rows[-1]], [1, 5], 200) is None


def test_engine_falls_back_to_head_tail_when_grouping_cannot_help(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listing, "budget", lambda: 100)
    d = make(listing="rows", listing_key=[1], head_lines=3, tail_lines=2)
    same = [f"proc {i} REG /tmp/f{i}" for i in range(80)]
    res = engine.apply(d, "\n".join(same))
    assert "lines omitted" in res.text and res.text.startswith("proc 0 ")
    d = make(listing="rows", head_lines=3)  # no key
    assert engine.apply(d, "\n".join(same)).text.endswith("... (77 lines omitted)")


@pytest.mark.parametrize(
    ("key", "value"),
    [("listing", "list"), ("listing", 1), ("listing_key", 1), ("listing_key", [0]), ("listing_key", [True])],
)
def test_schema_rejects_bad_listing_values(key: str, value: Any) -> None:
    d, problems = schema.validate_filter("t", {"match_command": "^tool(\\s|$)", key: value}, "test.toml")
    assert d is None and any(key in p.message for p in problems)


def test_builtin_du_and_last_are_bounded_when_grouping_cannot_help(monkeypatch: pytest.MonkeyPatch) -> None:
    # Over the budget, rows all at one depth (du -s *) or one user's logins beside `reboot` and the wtmp line
    # cannot be grouped usefully: the built-in filters fall back to their first and last lines, counted (before,
    # du printed 3,000 lines whole and last printed `alice (3000 lines)` with no login at all).
    from rtk.dsl._builtin import FILTERS as filters

    monkeypatch.setattr(listing, "budget", lambda: 500)
    du = engine.apply(filters["du"], "\n".join(f"{i}K\tdir{i:04d}" for i in range(3000))).text
    assert len(du.splitlines()) < 50 and "dir0000" in du and "dir2999" in du
    logins = [
        f"alice    pts/{i % 9:<9} 10.0.0.{i % 250:<12} Mon Nov 24 10:{i % 60:02d}   still logged in"
        for i in range(3000)
    ]
    logins += ["reboot   system boot  6.1.0-28-amd64   Mon Nov 24 09:00   still running"] * 3
    logins += ["", "wtmp begins Mon Nov  3 08:00:01 2026"]
    out = engine.apply(filters["last"], "\n".join(logins)).text
    assert "wtmp begins" in out and out.count("alice") >= 20 and len(out.splitlines()) < 40
