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


def test_unreadable_backtrace_goes_a_readable_one_stays() -> None:
    raw = "TS2304 [ERROR]: Cannot find name 'x'.\n    at file:///p/a.ts:1:1\n\nFound 1 error.\n\nerror: Type checking failed.\n"
    empty = raw + "\nStack backtrace:\n   0: <unknown>\n   1: <unknown>\n"
    out = deno.diagnostics(["deno", "check"], empty, 1)
    assert out is not None and "Stack backtrace" not in out and "error: Type checking failed." in out
    named = raw + "\nStack backtrace:\n   0: deno::main\n"
    out = deno.diagnostics(["deno", "check"], named, 1)
    assert out is not None and "0: deno::main" in out
