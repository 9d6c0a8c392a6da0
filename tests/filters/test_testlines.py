"""The generic test-result recogniser (rtk.filters.testlines) and where it is used (issue 14, defect 2)."""

from __future__ import annotations

import pytest

from rtk.filters import testlines
from rtk.filters.cc.cc import CcBuild
from rtk.filters.cc.cmake import CTest, select


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("ok 1 - adds", "pass"),
        ("not ok 3 - multiplies", "fail"),
        ("ok 4 - divides # SKIP not written yet", "skip"),
        ("not ok 4 - folds # TODO unicode", "todo"),
        ("1..5", "plan"),
        ("PASS test_x", "pass"),
        ("FAIL test_q (tests/a.c:8): expected 3, got 4", "fail"),
        ("FAIL: test_y (mod.T.test_y)", "fail"),
        ("ERROR: test_z (mod.T.test_z)", "error"),
        ("  ✓ slug trims", "pass"),
        ("  ✗ slug drops punctuation", "fail"),
        ("  × renders", "fail"),
        ("test_x (m.C.test_x) ... ok", "pass"),
        ("test_y (m.C.test_y) ... FAIL", "fail"),
        ("test_foo: PASS", "pass"),
        ("[       OK ] Suite.Works (0 ms)", "pass"),
        ("[  FAILED  ] Suite.Breaks (1 ms)", "fail"),
        ("# Subtest: adds", "noise"),
    ],
)
def test_shapes(line: str, kind: str) -> None:
    assert testlines.classify(line) == kind


@pytest.mark.parametrize(
    "line",
    [
        "okay then",
        "ok so the build is done",
        "checking for gcc... gcc",
        "make: *** [Makefile:9: test] Error 1",
        "x.c:3:4: error: expected ';'",
        "[  PASSED  ] 3 tests.",
        "[  FAILED  ] 1 test, listed below:",
        "Result: PASS",
        "OK (skipped=1)",
        "10 tests, 8 passed, 2 failed",
    ],
)
def test_not_a_test_result(line: str) -> None:
    """Summary lines and build chatter are not tests: never folded away as a pass, never counted."""
    assert testlines.classify(line) is None


def test_compact_folds_passes_keeps_failure_blocks() -> None:
    lines = [
        "TAP version 13",
        "ok 1 - a",
        "  ---",
        "  duration_ms: 1.2",
        "  ...",
        "not ok 2 - b",
        "  ---",
        "  duration_ms: 3.4",
        "  location: 'x.test.mjs:5:1'",
        "  stack: |-",
        "    fn (file:///p/x.test.mjs:5:35)",
        "    Test.run (node:internal/test_runner/test:796:25)",
        "  ...",
        "1..2",
    ]
    res = testlines.compact(lines, 1)
    assert res is not None
    out, _ = res
    text = "\n".join(out)
    assert "ok 1 - a" not in text and "duration_ms" not in text and "node:internal" not in text
    assert "not ok 2 - b" in text and "x.test.mjs:5:1" in text and "x.test.mjs:5:35" in text
    assert out[-1] == "tests: 1 passed, 1 failed (exit 1)"


def test_compact_none_without_test_lines() -> None:
    assert testlines.compact(["building", "done"], 0) is None


def test_fail_with_exit_0_is_not_success() -> None:
    res = testlines.compact(["PASS a", "FAIL b (t.c:3): no"], 0)
    assert res is not None
    assert res[0][-1] == "tests: 1 passed, 1 failed (exit 0, but 1 test failed)"


def test_tap_diagnostics_after_not_ok_belong_to_it() -> None:
    res = testlines.compact(["not ok 1 - x", "#   Failed test 'x'", "#   at t/a.t line 4.", "ok 2 - y"], 1)
    assert res is not None
    assert res[0] == [
        "not ok 1 - x",
        "#   Failed test 'x'",
        "#   at t/a.t line 4.",
        "tests: 1 passed, 1 failed (exit 1)",
    ]


def test_prove_file_verdict_is_not_a_test() -> None:
    res = testlines.compact(["t/a.t .. ", "1..2", "ok 1 - a", "ok 2 - b", "ok", "t/b.t .. ", "1..1", "ok 1"], 0)
    assert res is not None
    assert res[0][-1] == "tests: 3 passed"


def _stream(f: CcBuild | CTest, lines: list[str], code: int) -> str:
    out = [t for t in (f.feed(ln) for ln in lines) if t is not None]
    out.append(f.finish(code))
    return "\n".join(out)


def test_make_folds_passes_and_never_says_ok_with_a_fail_line() -> None:
    text = _stream(
        CcBuild(["make", "test"], "make"),
        [
            "./runner",
            "PASS a",
            "FAIL b (t.c:9): bad",
            "    detail",
            "PASS c",
            "make: [Makefile:3: test] Error 1 (ignored)",
        ],
        0,
    )
    assert "PASS a" not in text and "PASS c" not in text
    assert "FAIL b (t.c:9): bad\n    detail" in text
    assert "make: ok" not in text
    assert "make: exit 0, but 1 test failed" in text


def test_make_without_tests_unchanged() -> None:
    text = _stream(CcBuild(["make"], "make"), ["cc -c a.c", "ERROR: custom step broke"], 2)
    assert "ERROR: custom step broke" in text and "tests:" not in text


def test_ctest_verbose_is_filtered_without_output_on_failure_env() -> None:
    spec = select(["ctest", "-V"])
    assert spec is not None and spec.stream is not None and not spec.env
    text = _stream(
        CTest(["ctest", "-V"]),
        ["test 1", "    Start 1: unit", "", "1: Test command: /b/runner", "1: PASS a", "1: FAIL b (t.c:2): x",
         "1/1 Test #1: unit ...***Failed    0.00 sec", "", "0% tests passed, 1 tests failed out of 1"],
        8,
    )  # fmt: skip
    assert "1: FAIL b (t.c:2): x" in text and "PASS a" not in text and "Test command" not in text
    assert "tests: 1 passed, 1 failed" in text
