"""eslint/biome/oxlint: every location of a rule up to limits.lint_budget tokens (was the first 50 per
rule, limits.lint_max_per_rule); above it each rule whole or counted exactly, the rarest first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtk.filterapi import Filtered
from rtk.filters import findings
from rtk.filters.js import lint

RAW = (Path(__file__).parent.parent / "fixtures" / "eslint" / "rules-151.raw").read_text()
ROW = re.compile(r"^\s+(\d+):(\d+)\s+(?:error|warning)\s+.*?\s{2,}(\S+)$")


def located() -> list[tuple[str, str]]:
    """(file:line:col relative to src/, rule) of every problem in the capture."""
    out, file = [], ""
    for ln in RAW.splitlines():
        if ln.startswith("/"):
            file = ln.split("/src/", 1)[1]
        m = ROW.match(ln)
        if m:
            out.append((f"{file}:{m[1]}:{m[2]}", m[3]))
    return out


def filtered() -> str:
    res = lint.eslint(["eslint", "src"], RAW, 1)
    assert isinstance(res, Filtered)
    return res.text


def test_every_location_of_a_rule_past_the_old_cap_is_listed() -> None:
    probs = located()
    assert len(probs) == 151 and sum(r == "no-unused-vars" for _, r in probs) == 60
    text = filtered()
    for loc, _ in probs:  # the old filter cut each rule at 50: '+10 more no-unused-vars', ', +10 more'
        assert re.search(rf"(?:^  |, |: ){re.escape(loc)}(?:[ ,]|$)", text, re.M), loc
    assert "more" not in text.replace("potentially", "")


def test_above_the_budget_big_rules_are_counted_and_the_rare_one_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(findings, "budget", lambda: 900)
    res = lint.eslint(["eslint", "src"], RAW, 1)
    assert isinstance(res, Filtered)
    lines = res.text.splitlines()
    assert "lib/undef.js:1:27 'missingGlobal' is not defined" in res.text  # the rare rule, shown whole
    counted = {m[1]: int(m[2]) for ln in lines if (m := re.fullmatch(r"(\S+)  \((\d+) problems\)", ln))}
    assert counted and set(counted) <= {"no-unused-vars", "eqeqeq", "prefer-const"}
    assert all(n == 60 or (r == "prefer-const" and n == 30) for r, n in counted.items())
    assert res.cut == sum(counted.values())
