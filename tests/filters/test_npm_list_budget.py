"""npm/pnpm ls: every top-level package up to limits.listing_budget tokens (was the first 40,
limits.list_max_items); above it each family (scope or name prefix) whole or counted exactly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtk.filterapi import Filtered
from rtk.filters import names
from rtk.filters.js import packages

RAW = (Path(__file__).parent.parent / "fixtures" / "npm-list" / "ls-45-local.raw").read_text()
ROWS = re.findall(r"^[├└]── (\S+@\S+ -> \S+)$", RAW, re.M)


def filtered() -> Filtered:
    res = packages.listing(["npm", "ls"], RAW, 0)
    assert isinstance(res, Filtered)
    return res


def test_every_top_level_package_past_the_old_cap_of_40_is_listed() -> None:
    assert len(ROWS) == 45
    res = filtered()
    lines = res.text.splitlines()
    assert all(r in lines for r in ROWS)  # the old filter: the first 40, '+5 more packages'
    assert res.cut == 0 and "more" not in res.text


def test_above_the_budget_a_family_is_counted_exactly_and_small_ones_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(names, "budget", lambda: 400)
    res = filtered()
    lines = res.text.splitlines()
    counted = {m[1]: int(m[2]) for ln in lines if (m := re.fullmatch(r"(\S+)\*  \((\d+) packages\)", ln))}
    assert counted == {"lodash": 6} and res.cut == 6
    shown = [r for r in ROWS if r in lines]
    assert len(shown) == 45 - 6 and not any(r.startswith("lodash.") for r in shown)
    assert "@acme/ui@1.44.0 -> ./pkgs/_acme_ui" in lines


def test_a_problem_row_is_shown_whatever_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(names, "budget", lambda: 100)
    raw = RAW.replace("├── ws@1.23.0 -> ./pkgs/ws", "├── UNMET DEPENDENCY ws@^1.23.0")
    res = packages.listing(["npm", "ls"], raw, 1)
    assert isinstance(res, Filtered)
    assert "UNMET DEPENDENCY ws@^1.23.0" in res.text.splitlines()
