"""go test -v: skipped tests are named with what they said, whether logged before or after the verdict."""

from __future__ import annotations

from rtk.filters.go.go import GoTest


def filtered(lines: list[str], exit_code: int = 0) -> str:
    f = GoTest(["go", "test", "-v", "./..."], verbose=True)
    out = [t for t in (f.feed(ln) for ln in lines) if t is not None]
    out.append(f.finish(exit_code))
    return "\n".join(out)


def test_a_skip_reason_printed_after_the_verdict_is_kept_with_its_location() -> None:
    text = filtered(
        [
            "=== RUN   TestA",
            "--- SKIP: TestA (0.00s)",
            "    a_test.go:5: setting up",
            "    a_test.go:7: needs docker",
            "=== RUN   TestB",
            "--- SKIP: TestB (0.00s)",
            "=== RUN   TestC",
            "--- PASS: TestC (0.00s)",
            "PASS",
            "ok  \texample.com/m\t0.01s",
        ]
    )
    assert "skipped tests (2): TestA (a_test.go:5: setting up a_test.go:7: needs docker); TestB" in text
    assert "go test: ok" in text


def test_only_the_last_lines_a_skipped_test_logged_are_kept() -> None:
    logs = [f"    b_test.go:{i}: step {i}" for i in range(1, 9)]
    text = filtered(["=== RUN   TestB", *logs, "    b_test.go:9: no network", "--- SKIP: TestB (0.00s)", "PASS"])
    assert "TestB (b_test.go:8: step 8 b_test.go:9: no network)" in text
    assert "step 1" not in text
