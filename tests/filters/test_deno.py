"""deno: which forms are filtered, and the test summariser's edge cases."""

from __future__ import annotations

import pytest

from rtk import filters
from rtk.filterapi import Filtered, Unrecognized
from rtk.filters.js import deno


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["deno", "test"], "deno-test"),
        (["deno", "test", "-A", "src/"], "deno-test"),
        (["deno", "lint"], "deno-lint"),
        (["deno", "check", "main.ts"], "deno-check"),
        (["deno", "test", "--reporter=junit"], None),
        (["deno", "lint", "--json"], None),
        (["deno", "lint", "--compact"], None),
        (["deno", "test", "--watch"], None),
        (["deno", "run", "main.ts"], None),  # the program's own output
        (["deno"], None),
    ],
)
def test_select(argv: list[str], name: str | None) -> None:
    spec = filters.resolve(argv)
    assert (spec.name if spec else None) == name


def test_failure_not_shown_in_errors_is_kept() -> None:
    out = (
        "running 1 test from ./a_test.ts\nt ... FAILED (1ms)\n\n FAILURES \n\n"
        "t => ./a_test.ts:1:6\n\nFAILED | 0 passed | 1 failed (2ms)\n\nerror: Test failed\n"
    )
    res = deno.test(["deno", "test"], out, 1)
    text = res.text if isinstance(res, Filtered) else res
    assert "t => ./a_test.ts:1:6" in text
    assert "FAILED | 0 passed | 1 failed (2ms)" in text
    assert "error: Test failed" in text


def test_no_summary_prints_raw() -> None:
    out = 'error: Module not found "file:///x/nope.ts".\n'
    with pytest.raises(Unrecognized):
        deno.test(["deno", "test"], out, 1)
    with pytest.raises(Unrecognized):
        deno.diagnostics(["deno", "check", "x.ts"], out, 1)
