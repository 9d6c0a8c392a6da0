"""ruff/mypy diagnostics: whole up to limits.lint_budget tokens, above it counted by code, rarest shown first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtk.filters import findings
from rtk.filters.files.paths import Unit, fit
from rtk.filters.python import mypy


def diags(code: str, n: int, start: int = 1) -> list[tuple[str, str, int]]:
    return [(code, f"src/app/mod{i % 9}.py:{i}:1: {code} a message about line {i}", 1) for i in range(start, start + n)]


def test_under_the_budget_the_caller_lists_everything() -> None:
    assert findings.by_code(diags("E501", 300), limit=100_000) is None  # past the old count cap of 200


def test_above_the_budget_the_largest_codes_are_counted_and_rare_ones_kept() -> None:
    items = [*diags("E501", 300), *diags("F821", 1, 900), *diags("B023", 2, 950), *diags("D102", 40, 1000)]
    got = findings.by_code(items, limit=1200)
    assert got is not None
    lines, cut = got
    text = "\n".join(lines)
    assert "E501  (300 diagnostics)" in lines and cut >= 300
    # the rare codes come after the large one in the output, yet are shown whole
    assert "src/app/mod0.py:900:1: F821" in text and "src/app/mod5.py:950:1: B023" in text
    # every diagnostic is shown or counted, exactly
    counted = sum(int(n) for n in re.findall(r"^\S+  \((\d+) diagnostics?\)$", text, re.M))
    assert counted == cut and counted + sum(1 for ln in lines if ": " in ln) == len(items)


def test_fit_smallest_first_keeps_the_order_of_the_units() -> None:
    units = [Unit("big", "\n".join(["x" * 40] * 50), 50, ""), Unit("small", "y" * 40, 1, "")]
    in_order, _ = fit(units, 60, ("line", "lines"), "group")
    smallest, cut = fit(units, 60, ("line", "lines"), "group", smallest_first=True)
    assert smallest == ["big  (50 lines)", "y" * 40] and cut == 50
    assert in_order[0] == "big  (50 lines)"  # unchanged default: order of the units


def test_mypy_above_the_budget_names_file_and_line_of_every_shown_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(findings, "budget", lambda: 1500)
    raw = (Path(__file__).parent.parent / "fixtures" / "mypy" / "strict-drain3.raw").read_text()
    res = mypy.run(["mypy", "--strict", "drain3"], raw, 1)
    assert res is not None and not isinstance(res, str)
    text = res.text
    assert "no-untyped-def  (148 diagnostics)" in text  # the largest code counted, exactly
    assert 'drain3/drain.py:36: Signature of "get" incompatible with supertype "cachetools.cache.Cache"' in text
    assert "drain3/template_miner.py:236: Untyped decorator" in text
    assert text.rstrip().endswith("Found 268 errors in 19 files (checked 11 source files)")
