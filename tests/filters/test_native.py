"""rust, go and c/c++ filters beyond the fixtures: argv handling, streaming, caps, honesty."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from fixturelib import FIXTURES
from rtk import config, filters, run
from rtk.filterapi import LineFilter
from rtk.text import clean, decode, split_lines


def spec_name(*argv: str) -> str | None:
    spec = filters.lookup(list(argv))
    return None if spec is None else spec.name


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["cargo", "build"], "cargo-build"),
        (["cargo", "b", "--release"], "cargo-build"),
        (["cargo", "+nightly", "check"], "cargo-check"),
        (["cargo", "--locked", "test", "--", "--test-threads=1"], "cargo-test"),
        (["cargo", "clippy", "--", "-D", "warnings"], "cargo-clippy"),
        (["cargo", "test", "-q"], "cargo-test"),
        (["cargo", "nextest", "run", "--no-fail-fast"], "cargo-nextest"),
        (["cargo", "fmt", "--check"], "cargo-fmt"),
        (["cargo", "fmt", "--", "--check"], "cargo-fmt"),
        (["cargo", "install", "--path", "."], "cargo-install"),
        (["cargo", "doc", "--no-deps"], "cargo-doc"),
        (["go", "test", "./..."], "go-test"),
        (["go", "test", "-v", "./...", "-run", "TestX"], "go-test"),
        (["go", "test", "./...", "-args", "-json"], "go-test"),
        (["go", "build", "./..."], "go-build"),
        (["go", "vet", "./..."], "go-vet"),
        (["golangci-lint", "run", "./..."], "golangci-lint"),
        (["make"], "make"),
        (["make", "-j4", "-C", "build", "all"], "make"),
        (["make", "-kj4"], "make"),
        (["make", "-f", "dn.mk"], "make"),
        (["gcc", "-Wall", "-c", "x.c"], "cc"),
        (["/usr/bin/clang++", "-c", "x.cpp"], "cc"),
        (["cmake", "--build", "build", "-j", "4"], "cmake-build"),
        (["ctest", "-j2", "--output-on-failure"], "ctest"),
    ],
)
def test_filtered_commands(argv: list[str], name: str) -> None:
    assert spec_name(*argv) == name


@pytest.mark.parametrize(
    "argv",
    [
        ["cargo", "build", "--message-format=json"],
        ["cargo", "build", "--message-format", "short"],
        ["cargo", "check", "-v"],
        ["cargo", "-v", "build"],
        ["cargo", "test", "--", "--nocapture"],
        ["cargo", "test", "--", "--format", "json", "-Z", "unstable-options"],
        ["cargo", "test", "--", "--list"],
        ["cargo", "nextest", "list"],
        ["cargo", "nextest", "run", "--message-format", "libtest-json"],
        ["cargo", "nextest", "run", "--no-capture"],
        ["cargo", "fmt"],
        ["cargo", "doc", "--open"],
        ["cargo", "install", "--list"],
        ["cargo", "run"],
        ["cargo", "--version"],
        ["go", "test", "-json", "./..."],
        ["go", "test", "-list", "."],
        ["go", "build", "-x", "./..."],
        ["go", "vet", "-json", "./..."],
        ["go", "run", "."],
        ["golangci-lint", "run", "--out-format", "json"],
        ["golangci-lint", "run", "--out-format=checkstyle"],
        ["golangci-lint", "linters"],
        ["make", "-n"],
        ["make", "--dry-run"],
        ["make", "-pq"],
        ["make", "--version"],
        ["gcc", "-E", "x.c"],
        ["gcc", "-MM", "x.c"],
        ["gcc", "-o", "-", "x.c"],
        ["gcc", "--version"],
        ["clang", "-fdiagnostics-format=json", "-c", "x.c"],
        ["cmake", "-S", ".", "-B", "build"],
        ["cmake", "--build", "build", "--verbose"],
        ["ctest", "-N"],
        ["ctest", "-VV"],
        ["ctest", "-D", "Experimental"],
    ],
)
def test_format_and_listing_flags_pass_through(argv: list[str]) -> None:
    assert filters.lookup(argv) is None


def test_ctest_asks_for_the_failing_tests_output() -> None:
    spec = filters.lookup(["ctest"])
    assert spec is not None and spec.env == {"CTEST_OUTPUT_ON_FAILURE": "1"}


def feed_all(argv: list[str], lines: list[str], exit_code: int) -> tuple[list[str], str, LineFilter]:
    spec = filters.lookup(argv)
    assert spec is not None and spec.stream is not None
    filt = spec.stream(argv)
    printed = []
    for ln in lines:
        out = filt.feed(ln)
        if out is not None:
            printed.append(out)
    return printed, filt.finish(exit_code), filt


def fixture_lines(case: str) -> list[str]:
    return split_lines(clean(decode((FIXTURES / f"{case}.raw").read_bytes())))


def test_cargo_errors_print_as_soon_as_their_block_is_complete() -> None:
    lines = fixture_lines("cargo-build/compile-errors")
    spec = filters.lookup(["cargo", "build"])
    assert spec is not None and spec.stream is not None
    filt = spec.stream(["cargo", "build"])
    first_at = None
    for i, ln in enumerate(lines):
        out = filt.feed(ln)
        if out is not None and "error[E0425]" in out:
            first_at = i
            break
    assert first_at is not None and first_at < len(lines) - 5, "the first error waited for the end of the run"


def test_go_test_failure_prints_before_the_run_ends() -> None:
    printed, _, _ = feed_all(["go", "test", "./..."], fixture_lines("go-test/failures")[:12], 1)
    assert any("--- FAIL: TestAdd" in p for p in printed)


@pytest.mark.parametrize(
    ("argv", "lines"),
    [
        (["cargo", "build"], ["   Compiling a v0.1.0 (/x)", "    Finished `dev` profile target(s) in 0.1s"]),
        (
            ["cargo", "test"],
            ["running 2 tests", "test a ... ok", "test b ... ok", "test result: ok. 2 passed; 0 failed"],
        ),
        (["go", "test", "./..."], ["ok  \texample.com/a\t0.01s"]),
        (["make"], ["cc -c -o a.o a.c", "[100%] Built target a"]),
        (["ctest"], ["1/1 Test #1: a ....   Passed    0.00 sec", "100% tests passed, 0 tests failed out of 1"]),
    ],
)
def test_never_a_success_summary_on_a_failed_exit(argv: list[str], lines: list[str]) -> None:
    _, summary, _ = feed_all(argv, lines, 137)
    assert "ok" not in summary.split("\n")[-1].split(",")[0]
    assert "FAILED (exit 137)" in summary


def test_unknown_lines_are_printed_and_get_no_summary() -> None:
    for argv in (["cargo", "build"], ["go", "test"], ["make"], ["ctest"], ["cargo", "test"]):
        printed, summary, _ = feed_all(argv, ["something new", "and more"], 0)
        assert printed == ["something new", "and more"] and summary == "", argv


def test_cargo_quiet_clean_build_prints_nothing_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from helpers import path_with, stub_tool

    monkeypatch.setenv("PATH", path_with(stub_tool(tmp_path, "cargo", "exit 0")))
    assert run.run_tool(["cargo", "build", "-q"]) == 0
    assert capfd.readouterr().out == ""


def test_error_cap_is_stated_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config, "get", lambda k, _real=config.get: 2 if k == "limits.build_max_errors" else _real(k))
    block = ["error[E0001]: bad {n}", " --> src/a.rs:{n}:1", "  |", "1 | x", "  | ^", ""]
    lines = [ln.format(n=n) for n in range(5) for ln in block]
    printed, summary, filt = feed_all(["cargo", "build"], lines, 101)
    assert len(printed) == 2
    assert "+3 more errors, one line each:" in summary and "5 errors" in summary
    assert all(f"src/a.rs:{n}:1: error[E0001]: bad {n}" in summary for n in (2, 3, 4))  # was "(not shown)"
    assert filt.cut == 3 * 4  # each hidden block's body lines (the gutter, source and caret lines)


def test_error_block_lines_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config, "get", lambda k, _real=config.get: 10 if k == "limits.build_error_lines" else _real(k))
    lines = ["error[E0277]: trait bound", " --> src/a.rs:1:1", *[f"  = note: required by {i}" for i in range(100)], ""]
    printed, _, filt = feed_all(["cargo", "build"], lines, 101)
    assert printed[0].splitlines()[-1] == "  ... 92 more lines of this error"
    assert filt.cut == 92


def test_memory_stays_flat_on_long_noise() -> None:
    spec = filters.lookup(["cargo", "build"])
    assert spec is not None and spec.stream is not None
    filt = spec.stream(["cargo", "build"])
    for i in range(200_000):
        assert filt.feed(f"   Compiling crate{i} v0.1.0 (/src/crate{i})") is None
    assert filt.finish(0) == "cargo build: ok"


def test_repeated_warning_blocks_are_listed_once() -> None:
    block = ["warning: unused variable: `x`", " --> src/lib.rs:2:9", "  |", "2 |     let x = 1;", "  |         ^", ""]
    _, summary, _ = feed_all(["cargo", "test"], [*block, *block, "running 0 tests", "test result: ok. 0 passed;"], 0)
    assert summary.count("src/lib.rs:2:9") == 1 and "1 warning" in summary


def test_go_test_verbose_keeps_logs_of_failing_tests_only() -> None:
    lines = [
        "=== RUN   TestOk",
        "    a_test.go:5: chatter of a passing test",
        "--- PASS: TestOk (0.00s)",
        "=== RUN   TestBad",
        "    a_test.go:9: got 1, want 2",
        "--- FAIL: TestBad (0.00s)",
        "FAIL",
        "FAIL\texample.com/a\t0.01s",
    ]
    printed, summary, _ = feed_all(["go", "test", "-v", "./..."], lines, 1)
    text = "\n".join(printed)
    assert "got 1, want 2" in text and "chatter" not in text
    assert "1 failed" in summary and "TestBad" in summary


def test_go_test_panic_keeps_user_frames_and_counts_the_rest() -> None:
    printed, _, _ = feed_all(["go", "test", "./..."], fixture_lines("go-test/failures"), 1)
    text = "\n".join(printed)
    assert "panicky_test.go:12" in text and "testing.tRunner" not in text
    assert "5 frames of runtime/testing not shown" in text


def _tool(name: str) -> str:
    exe = shutil.which(name)
    if exe is None:
        pytest.skip(f"{name} is not installed")
    return exe


def _env() -> dict[str, str]:
    """The test's HOME is a temp dir: point rustup/cargo at the real toolchain, Go at a cache."""
    env = dict(os.environ, RUST_BACKTRACE="0", CARGO_TERM_COLOR="never")
    cargo = shutil.which("cargo")
    if cargo is not None:
        home = Path(cargo).resolve().parent.parent
        if (home / "bin").is_dir() and home.name == ".cargo":
            env.setdefault("CARGO_HOME", str(home))
            if (home.parent / ".rustup").is_dir():
                env.setdefault("RUSTUP_HOME", str(home.parent / ".rustup"))
    env.setdefault("GOCACHE", str(Path(os.environ["HOME"]) / ".gocache"))
    return env


def _rtk(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    import sys

    env = _env()
    return subprocess.run(
        [sys.executable, "-m", "rtk", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.integration
def test_real_cargo_test_failure_and_compile_error(tmp_path: Path) -> None:
    _tool("cargo")
    subprocess.run(["cargo", "new", "-q", "--lib", "--vcs", "none", "demo"], cwd=tmp_path, check=True, env=_env())
    lib = tmp_path / "demo" / "src" / "lib.rs"
    lib.write_text('#[test]\nfn fails() { assert_eq!(1 + 1, 3, "math"); }\n#[test]\nfn passes() {}\n')
    p = _rtk(["cargo", "test"], tmp_path / "demo")
    assert p.returncode == 101
    assert "--- fails" in p.stdout and "math" in p.stdout and "left: 2" in p.stdout
    assert "1 passed, 1 failed" in p.stdout and "Compiling" not in p.stdout
    lib.write_text('#[test]\nfn broken() { let x: u8 = "s"; }\n')
    p = _rtk(["cargo", "test"], tmp_path / "demo")
    assert p.returncode == 101 and "error[E0308]" in p.stdout and "src/lib.rs:2:27" in p.stdout


@pytest.mark.integration
def test_real_go_test_failure(tmp_path: Path) -> None:
    _tool("go")
    (tmp_path / "go.mod").write_text("module example.com/t\n\ngo 1.19\n")
    (tmp_path / "a_test.go").write_text(
        'package t\n\nimport "testing"\n\nfunc TestA(t *testing.T) { t.Fatal("boom") }\nfunc TestB(t *testing.T) {}\n'
    )
    p = _rtk(["go", "test", "./..."], tmp_path)
    assert p.returncode == 1
    assert "--- FAIL: TestA" in p.stdout and "a_test.go:5: boom" in p.stdout and "1 failed" in p.stdout


@pytest.mark.integration
def test_real_make_gcc_errors(tmp_path: Path) -> None:
    _tool("make")
    _tool("cc")
    (tmp_path / "a.c").write_text("int f(void) { return undefined_name; }\nint g(int unused) { return 0; }\n")
    (tmp_path / "Makefile").write_text("all: a.o\n\n%.o: %.c\n\tcc -Wall -Wextra -c -o $@ $<\n")
    p = _rtk(["make"], tmp_path)
    assert p.returncode == 2
    assert "a.c:1:22: error:" in p.stdout and "undefined_name" in p.stdout
    assert "cc -Wall" not in p.stdout and "make: FAILED (exit 2)" in p.stdout
    assert "a.c:2:11: unused parameter" in p.stdout


@pytest.mark.integration
def test_real_ctest_failure(tmp_path: Path) -> None:
    _tool("cmake")
    _tool("ctest")
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\nproject(t NONE)\nenable_testing()\n"
        'add_test(NAME good COMMAND sh -c "exit 0")\nadd_test(NAME bad COMMAND sh -c "echo expected 4 got 5; exit 1")\n'
    )
    subprocess.run(["cmake", "-S", ".", "-B", "b"], cwd=tmp_path, check=True, capture_output=True)
    p = _rtk(["ctest"], tmp_path / "b")
    assert p.returncode == 8
    assert "expected 4 got 5" in p.stdout and "1 passed, 1 failed of 2" in p.stdout


def test_summary_keeps_the_message_a_panic_announces() -> None:
    # A panic's first line ends with ":" and its message follows unindented: both are one problem.
    from rtk.commands._blocks import Scanner

    scan = Scanner(5)
    lines = [
        "thread 'tests::adds' (2803) panicked at src/lib.rs:9:26:",
        "assertion `left == right` failed",
        "  left: -3",
        "stack backtrace:",
        "error: test failed, to rerun pass `--lib`",
    ]
    got = [b for b in map(scan.feed, lines) if b is not None]
    assert got[0] == ("error", lines[:3])
    assert scan.close() == ("error", [lines[4]])


def test_a_failed_doctest_target_is_not_a_build_error() -> None:
    # cargo test --no-fail-fast: "error: doctest failed, to rerun pass `--doc`" is a target that ran and failed
    lines = [
        "running 1 test",
        "test src/lib.rs - half (line 3) ... FAILED",
        "",
        "failures:",
        "    src/lib.rs - half (line 3)",
        "",
        "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.32s",
        "",
        "error: doctest failed, to rerun pass `--doc`",
    ]
    printed, summary, _ = feed_all(["cargo", "test"], lines, 101)
    assert "error: doctest failed, to rerun pass `--doc`" in printed
    assert (
        summary.splitlines()[0] == "cargo test: FAILED (exit 101), 0 passed, 1 failed (1 suite)"
    )  # no "build: 1 error"


def test_a_data_race_report_keeps_the_users_frames_and_drops_go_own() -> None:
    printed, summary, _ = feed_all(["go", "test", "-race", "./counter/"], fixture_lines("go-test/race-subtests"), 1)
    text = "\n".join(printed)
    assert "WARNING: DATA RACE" in text and "Previous write at 0x00c000020218 by goroutine 10:" in text
    assert text.count("/tmp/rtk-filters3/gorace/counter/counter_test.go:13") == 4
    assert text.count("/tmp/rtk-filters3/gorace/counter/counter.go:5") == 2
    assert "testing.tRunner()" not in text and "/usr/lib/go-1.19/src/testing/testing.go" not in text
    assert "(4 frames of runtime/testing not shown)" in text
    assert "--- FAIL: TestTable/one/inc" in text and "after 3 incs N() = 3, want 4" in text
    assert summary.startswith("go test: FAILED (exit 1)")
