"""cargo/gcc errors past limits.build_max_errors: each keeps its place, code and message on one line;
above limits.lint_budget tokens those lines are counted per file, exactly (issue 14, defect 5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtk.filterapi import LineFilter
from rtk.filters import findings
from rtk.filters.cc.cc import CcBuild
from rtk.filters.rust.build import CargoBuild

FIXTURES = Path(__file__).parent.parent / "fixtures"
GCC = re.compile(r"^(\S+?):(\d+):(\d+): error: (.*)$", re.M)
RUSTC = re.compile(r"^(error\[E\d+\]: .*)\n\s*--> (\S+)$", re.M)


def stream(f: LineFilter, raw: str, exit_code: int) -> str:
    out: list[str] = []
    for ln in raw.splitlines():
        text = f.feed(ln)
        if text is not None:
            out.append(text)
    out.append(f.finish(exit_code))
    return "\n".join(out)


def gcc_80() -> tuple[str, str]:
    raw = (FIXTURES / "cc" / "gcc-80-errors.raw").read_text()
    return raw, stream(CcBuild(["gcc", "-c", "main.c", "shapes.c", "io.c"], "gcc"), raw, 1)


def test_gcc_every_error_past_the_cap_keeps_its_line() -> None:
    raw, out = gcc_80()
    errors = GCC.findall(raw)
    assert len(errors) == 80
    for path, line, col, msg in errors:  # the old filter said "+30 more errors (not shown)"
        assert f"{path}:{line}:{col}: error: {msg}" in out.splitlines()
    assert "+30 more errors, one line each:" in out and "not shown" not in out
    # the bodies of the hidden ones are gone: no source excerpt, caret or context line below the count
    below = out.split("+30 more errors, one line each:", 1)[1].splitlines()[1:]
    assert all(GCC.match(ln) for ln in below[:30]) and below[30] == "gcc: FAILED (exit 1), 80 errors"


def test_cargo_every_error_past_the_cap_keeps_place_code_and_message() -> None:
    raw = (FIXTURES / "cargo-build" / "errors-70.raw").read_text()
    out = stream(CargoBuild(["cargo", "build"]), raw, 101)
    errors = RUSTC.findall(raw)
    assert len(errors) == 70
    for head, where in errors:
        assert head in out and where in out, (head, where)
    assert "src/store.rs:14:40: error[E0599]: no method named `no_method_14` found for type `u8`" in out
    assert "+20 more errors, one line each:" in out and "not shown" not in out


def test_above_the_budget_hidden_errors_are_counted_per_file_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(findings, "budget", lambda: 400)
    _, out = gcc_80()
    tail = out.split("+30 more errors, one line each (", 1)[1].splitlines()
    assert tail[0] == "15 counted by file):"
    # shapes.c's 15 and io.c's 15 errors: one of them shown whole, the other counted, exactly
    counted = [ln for ln in tail if re.fullmatch(r"\S+\.c  \(\d+ errors\)", ln)]
    shown = [ln for ln in tail if GCC.match(ln)]
    assert len(counted) == 1 and counted[0].endswith("(15 errors)")
    assert len(shown) == 15 and len({ln.split(":")[0] for ln in shown}) == 1
    assert "gcc: FAILED (exit 1), 80 errors" in out


def test_gcc_warnings_past_the_old_cap_of_60_are_all_listed_with_their_place() -> None:
    raw = (FIXTURES / "cc" / "gcc-90-warnings.raw").read_text()
    out = stream(CcBuild(["gcc", "-Wall", "-Wextra", "-c", "warn.c"], "gcc"), raw, 0)
    heads = re.findall(r"^(warn\.c:\d+:\d+): warning: (.*?) \[-W[\w-]+\]$", raw, re.M)
    assert len(heads) == 90
    for where, msg in heads:  # the old filter listed 60 and said "+30 more warnings"
        assert f"{where}: {msg}" in out, where
    assert "more warnings" not in out


def test_cargo_warnings_past_the_old_cap_of_60_are_all_listed_with_their_place() -> None:
    raw = (FIXTURES / "cargo-build" / "warnings-80.raw").read_text()
    out = stream(CargoBuild(["cargo", "build"]), raw, 0)
    places = re.findall(r"^warning: .*\n\s*--> (src/main\.rs:\d+:\d+)$", raw, re.M)
    assert len(places) == 81
    assert all(f"    {p}: " in out or f"] {p}: " in out for p in places)
    assert "more warnings" not in out


def test_warnings_above_the_budget_count_the_big_flags_and_show_the_rare_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(findings, "budget", lambda: 400)
    raw = (FIXTURES / "cc" / "gcc-90-warnings.raw").read_text()
    out = stream(CcBuild(["gcc", "-Wall", "-Wextra", "-c", "warn.c"], "gcc"), raw, 0).splitlines()
    assert "  [-Wunused-variable]  (44 warnings)" in out and "  [-Wunused-parameter]  (44 warnings)" in out
    # the two rare flags come last in the output yet are shown whole, with their place
    assert "  [-Wreturn-type] warn.c:45:41: control reaches end of non-void function" in out
    assert any(ln.startswith("  [-Wsign-compare] warn.c:46:40: comparison of integer") for ln in out)
    assert "warnings (90):" in out
