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
    raw = "TS2304 [ERROR]: Cannot find name 'x'.\n    at file:///w/p/a.ts:1:1\n\nFound 1 error.\n\nerror: Type checking failed.\n"
    empty = raw + "\nStack backtrace:\n   0: <unknown>\n   1: <unknown>\n"
    out = deno.diagnostics(["deno", "check"], empty, 1)
    assert out is not None and "Stack backtrace" not in out and "error: Type checking failed." in out
    named = raw + "\nStack backtrace:\n   0: deno::main\n"
    out = deno.diagnostics(["deno", "check"], named, 1)
    assert out is not None and "0: deno::main" in out


# Unit inputs in deno's pretty shape (the fixtures deno-check/* and deno-lint/* hold real captures).
_CHECK = """Check main.ts
TS2345 [ERROR]: Argument of type 'x' is not assignable to parameter of type 'C'.
  Property 'r' is missing in type 'x' but required in type 'C'.
const a = area({ kind: "c" });
               ~~~~~~~~~~~
    at file:///w/p/src/main.ts:4:16

    'r' is declared here.
      r: number;
      ~
        at file:///w/p/lib/shapes.ts:3:3

TS2551 [ERROR]: Property 'trimEndd' does not exist on type 'string'.
  return s.trimEndd();
           ^
    at file:///w/p/src/util.ts:4:35

    'trimEnd' is declared here.
        trimEnd(): string;
        ~~~~~~~~~~~~~~~~~~
        at asset:///lib.es2019.string.d.ts:19:5

TS6133 [WARNING]: 'y' is declared but its value is never read.
    at file:///w/p/src/util.ts:9:7

Found 3 errors.

error: Type checking failed.
"""


def test_check_one_line_per_diagnostic_with_location_code_and_related_information() -> None:
    out = deno.diagnostics(["deno", "check", "src/main.ts"], _CHECK, 1)
    assert out is not None
    lines = out.splitlines()
    assert lines[0] == "(paths under file:///w/p/)"
    assert "src/main.ts:4:16 TS2345: Argument of type 'x' is not assignable to parameter of type 'C'." in lines
    assert "  Property 'r' is missing in type 'x' but required in type 'C'." in lines
    assert "  'r' is declared here. at lib/shapes.ts:3:3" in lines
    # a location outside the local files is printed whole; a category other than ERROR keeps its tag
    assert "  'trimEnd' is declared here. at asset:///lib.es2019.string.d.ts:19:5" in lines
    assert "src/util.ts:9:7 TS6133 [WARNING]: 'y' is declared but its value is never read." in lines
    assert lines[-2:] == ["Found 3 errors.", "error: Type checking failed."]
    # the quoted source, its markers and the Check line go
    assert "area({" not in out and "~" not in out and "trimEndd()" not in out and "Check main.ts" not in out


_LINT = """error[prefer-const]: `a` is never reassigned
 --> /w/app/a.ts:2:7
  |
2 |   let a = 1;
  |       ^
  = hint: Use `const` instead

  docs: https://docs.deno.com/lint/rules/prefer-const


error[no-unused-vars]: `b` is never used
 --> /w/app/sub/b.ts:3:7
  |
3 |   let b = 1;
  |       ^
  = hint: If this is intentional, prefix it with an underscore like `_b`

  docs: https://docs.deno.com/lint/rules/no-unused-vars


error[no-empty]: Empty block statement
   --> /w/app/sub/b.ts:3:18
    |
> 3 |   if (x) {
    |          ^
> 4 |   }
    |   ^
    = hint: Add code or comment to the empty block

  docs: https://docs.deno.com/lint/rules/no-empty


error[no-unused-vars]: `c` is never used
 --> /w/app/a.ts:5:7
  |
5 |   let c = 1;
  |       ^
  = hint: If this is intentional, prefix it with an underscore like `_c`

  docs: https://docs.deno.com/lint/rules/no-unused-vars


error[prefer-const]: `d` is never reassigned
 --> /w/app/a.ts:8:7
  |
8 |   let d = 1;
  |       ^
  = hint: Use `const` instead

  docs: https://docs.deno.com/lint/rules/prefer-const


Found 5 problems
Checked 2 files
"""


def test_lint_grouped_by_rule_every_location_message_and_hint_kept() -> None:
    out = deno.diagnostics(["deno", "lint"], _LINT, 1)
    assert out is not None
    assert out.splitlines() == [
        "(paths under /w/app/)",
        "error[prefer-const] (2):",
        "  a.ts:2:7 `a` is never reassigned",
        "  a.ts:8:7 `d` is never reassigned",
        "  hint: Use `const` instead",
        "error[no-unused-vars] (2):",
        "  sub/b.ts:3:7 `b` is never used (hint: If this is intentional, prefix it with an underscore like `_b`)",
        "  a.ts:5:7 `c` is never used (hint: If this is intentional, prefix it with an underscore like `_c`)",
        "error[no-empty]: Empty block statement",
        "  sub/b.ts:3:18",
        "  hint: Add code or comment to the empty block",
        "Found 5 problems",
        "Checked 2 files",
    ]


def test_lint_same_message_lists_every_location_and_keeps_unknown_lines() -> None:
    raw = (
        "error[no-explicit-any]: `any` type is not allowed\n --> /w/p/a.ts:1:5\n  = hint: Use a specific type\n\n"
        "error[no-explicit-any]: `any` type is not allowed\n --> /w/p/b.ts:2:9\n  a line deno may add\n"
        "  = hint: Use a specific type\n\nFound 2 problems\nChecked 2 files\n"
    )
    out = deno.diagnostics(["deno", "lint"], raw, 1)
    assert out is not None
    assert "error[no-explicit-any] (2): `any` type is not allowed" in out
    assert "  a.ts:1:5" in out and "  b.ts:2:9" in out and "    a line deno may add" in out
    assert out.count("hint: Use a specific type") == 1


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["deno", "--quiet", "check", "main.ts"], "deno-check"),
        (["deno", "-q", "lint"], "deno-lint"),
        (["deno", "--log-level", "debug", "test", "-A"], "deno-test"),
        (["deno", "-L=info", "check", "main.ts"], "deno-check"),
        (["deno", "--unstable-kv", "test"], "deno-test"),
        (["deno", "-q", "test", "--reporter=junit"], None),
        (["deno", "-q", "run", "check.ts"], None),  # "check" is the program's argument here
        (["deno", "--log-level", "check"], None),  # "check" is the level: no subcommand
        (["deno", "--frobnicate", "check"], None),  # an unknown global option: run unfiltered
        (["deno", "-q"], None),
    ],
)
def test_select_past_global_options(argv: list[str], name: str | None) -> None:
    spec = filters.resolve(argv)
    assert (spec.name if spec else None) == name


@pytest.mark.parametrize("family", ["deno-check", "deno-lint", "deno-test"])
def test_global_options_before_the_subcommand_filter_the_real_output_the_same(family: str) -> None:
    """``deno --quiet check x.ts`` gets deno-check's filter and its output, on every real fixture of the family."""
    from pathlib import Path

    from fixturelib import load

    cases = sorted((Path(__file__).parent.parent / "fixtures" / family).glob("*.toml"))
    assert cases
    for meta in cases:
        fx = load(meta)
        flagged = [fx.argv[0], "--quiet", *fx.argv[1:]]
        plain, quiet = filters.resolve(fx.argv), filters.resolve(flagged)
        assert plain is not None and quiet is not None and quiet.name == plain.name == family, fx.name
        assert plain.filter is not None and quiet.filter is not None
        raw = fx.raw.decode()
        want = plain.filter(fx.argv, raw, fx.exit_code)
        got = quiet.filter(flagged, raw, fx.exit_code)
        assert isinstance(want, (str, Filtered)) and isinstance(got, type(want)), fx.name
        text = got.text if isinstance(got, Filtered) else got
        assert text == (want.text if isinstance(want, Filtered) else want) and len(text) < len(raw), fx.name


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("deno --log-level debug lint", "rtk deno --log-level debug lint"),
        ("deno -L info check main.ts", "rtk deno -L info check main.ts"),
        ("deno -q test", "rtk deno -q test"),
    ],
)
def test_the_hook_rewrites_past_deno_global_options(line: str, want: str) -> None:
    """The filter finds the subcommand past -L/--log-level; the rewrite must too, or the hook never sends it there."""
    from rtk.rewrite import engine

    assert engine.rewrite(line) == want


def test_the_backtrace_check_reads_each_line_once() -> None:
    """It read every line after each ``Stack backtrace:``: 5 MB of deno check output took 16 s of CPU."""
    calls = 0

    class Line(str):
        def strip(self, chars: str | None = None) -> str:
            nonlocal calls
            calls += 1
            return str.strip(self, chars)

    block = ["error: TS2322 x", "Stack backtrace:", "  0: main::f", ""]
    lines = [Line(x) for x in block * 2000]
    assert deno._no_backtrace(lines) == lines  # frames that say something: kept
    assert calls <= 2 * len(lines)
    tail = [*block[:1], "Stack backtrace:", "  0: <unknown>", "", "  1: <unknown>"]
    assert deno._no_backtrace(lines + tail) == lines + tail[:1]  # the last one, all unknown: goes
    assert deno._no_backtrace(["Stack backtrace:", ""]) == ["Stack backtrace:", ""]  # no frame under it
