"""Facts the filters lost on the unseen4 captures (issue 14): cargo's fix command, node --test skips and locations."""

from __future__ import annotations

from rtk import filters
from rtk.filterapi import Filtered


def _stream(argv: list[str], text: str, exit_code: int) -> str:
    spec = filters.resolve(argv)
    assert spec is not None and spec.stream is not None
    f = spec.stream(argv)
    out = [r for r in (f.feed(ln) for ln in text.split("\n")) if r is not None]
    out.append(f.finish(exit_code))
    return "\n".join(out)


def _whole(argv: list[str], text: str, exit_code: int) -> str:
    spec = filters.resolve(argv)
    assert spec is not None and spec.filter is not None
    res = spec.filter(argv, text, exit_code)
    return res.text if isinstance(res, Filtered) else str(res)


WARN = """\
warning: unused variable: `x`
 --> src/lib.rs:2:9
  |
2 |     let x = 1;
  |         ^ help: if this is intentional, prefix it with an underscore: `_x`
  |
  = note: `#[warn(unused_variables)]` on by default

warning: `calc` (lib) generated 1 warning (run `cargo fix --lib -p calc` to apply 1 suggestion)
"""


def test_cargo_keeps_the_command_that_applies_its_suggestions() -> None:
    out = _stream(["cargo", "build"], WARN + "    Finished `dev` profile [unoptimized] target(s) in 0.1s\n", 0)
    assert "cargo build: ok (1 warning)" in out
    assert "run `cargo fix --lib -p calc` to apply 1 suggestion" in out
    assert "generated 1 warning" not in out  # the per-crate count is ours


def test_cargo_keeps_the_fix_command_when_the_build_fails_too() -> None:
    err = "error[E0425]: cannot find value `y` in this scope\n --> src/lib.rs:3:5\n\nerror: could not compile `calc` (lib) due to 1 previous error; 1 warning emitted\n"
    out = _stream(["cargo", "clippy"], WARN + err, 101)
    assert "FAILED (exit 101)" in out
    assert "run `cargo fix --lib -p calc` to apply 1 suggestion" in out


def test_cargo_without_suggestions_adds_nothing() -> None:
    plain = WARN.replace(" (run `cargo fix --lib -p calc` to apply 1 suggestion)", "")
    out = _stream(["cargo", "build"], plain + "    Finished `dev` profile [unoptimized] target(s) in 0.1s\n", 0)
    assert "run `" not in out and "suggestion" not in out


TAP = """\
TAP version 13
# Subtest: adds
ok 1 - adds
  ---
  duration_ms: 0.5
  ...
# Subtest: divides
not ok 2 - divides
  ---
  duration_ms: 1.2
  location: '/p/test/math.test.js:10:1'
  failureType: 'testCodeFailure'
  error: 'expected 2, got 3'
  code: 'ERR_ASSERTION'
  stack: |-
    TestContext.<anonymous> (/p/test/math.test.js:11:10)
  ...
# Subtest: needs a db
ok 3 - needs a db # SKIP no DATABASE_URL
  ---
  duration_ms: 0.1
  ...
# Subtest: bare skip
ok 4 - bare skip # SKIP
  ---
  duration_ms: 0.1
  ...
# Subtest: rounding
ok 5 - rounding # TODO decide on banker's rounding
  ---
  duration_ms: 0.1
  ...
1..5
# tests 5
# suites 0
# pass 2
# fail 1
# cancelled 0
# skipped 2
# todo 1
# duration_ms 10.5
"""


def test_node_tap_names_skipped_and_todo_tests_with_their_reasons() -> None:
    out = _whole(["node", "--test"], TAP, 1)
    assert "skipped tests (2): needs a db (no DATABASE_URL); bare skip" in out
    assert "todo tests (1): rounding (decide on banker's rounding)" in out


def test_node_tap_passing_run_names_its_skips_too() -> None:
    ok = (
        TAP.replace("not ok 2 - divides", "ok 2 - divides")
        .replace("# pass 2", "# pass 3")
        .replace("# fail 1", "# fail 0")
    )
    out = _whole(["node", "--test"], ok, 0)
    assert out.startswith("node --test: 3 passed, 2 skipped, 1 todo")
    assert "needs a db (no DATABASE_URL)" in out


def test_node_tap_keeps_the_test_location_beside_a_frame_of_another_line() -> None:
    out = _whole(["node", "--test"], TAP, 1)
    assert "test/math.test.js:10:1" in out  # where the test is declared
    assert "test/math.test.js:11:10" in out  # where it failed


def test_node_tap_location_not_repeated_when_a_frame_holds_that_line() -> None:
    same = TAP.replace("math.test.js:11:10", "math.test.js:10:1")
    out = _whole(["node", "--test"], same, 1)
    assert out.count("math.test.js:10:1") == 1


SPEC = """\
✔ adds (0.4ms)
﹣ needs a db (0.1ms) # no DATABASE_URL
✔ rounding (0.1ms) # TODO
ℹ tests 3
ℹ suites 0
ℹ pass 2
ℹ fail 0
ℹ cancelled 0
ℹ skipped 1
ℹ todo 1
ℹ duration_ms 5.1
"""


def test_node_spec_names_skipped_and_todo_tests() -> None:
    out = _whole(["node", "--test", "--test-reporter=spec"], SPEC, 0)
    assert "skipped tests (1): needs a db (no DATABASE_URL)" in out
    assert "todo tests (1): rounding" in out
