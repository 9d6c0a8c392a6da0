"""A context line ending in ``:`` right before a marker, and a caret under a line shown whole, stay whole (context.py)."""

from __future__ import annotations

import foldways
import pytest
from foldways import by_block, by_line


def live(lines: list[str]) -> list[str]:
    return foldways.live(lines, ("make",))


WAYS = [by_line, by_block, live]


def build(n: int, odd: int = -1, same_warning: bool = False) -> list[str]:
    """A gcc-like build of ``n`` units, each with a diagnostic; unit ``odd`` quotes another kind of source line."""
    out = ["-- Configuring done"]
    for i in range(n):
        out.append(f"[{i + 1}/{n}] cc -O2 -Wall -c src/f{i:03d}.c -o f{i:03d}.o")
        if same_warning:  # a header's warning, the same in every unit that includes it
            out.append("include/util.h: In function ‘shift’:")
            out.append("include/util.h:160:14: warning: conversion may change the sign [-Wsign-conversion]")
        else:
            out.append(f"src/f{i:03d}.c: In function ‘fn_{i:03d}’:")
            out.append(f"src/f{i:03d}.c:6:9: warning: unused variable ‘v{i:03d}’ [-Wunused-variable]")
        if i == odd:
            out += ["    6 |     return n < cap;", "      |              ^"]
        else:
            out += [f"    6 |     int v{i:03d} = {i};", "      |         ^~~~"]
        out += ["  CC     other.o", "  LD     other"]
    return [*out, "ninja: build stopped: subcommand failed.", "make: *** [all] Error 1"]


def counted(out: list[str], word: str) -> int:
    """Lines holding ``word``: shown whole plus those the fold lines count."""
    shown = sum(1 for o in out if word in o and not o.startswith("… "))
    return shown + sum(int(o.split()[1].replace(",", "")) for o in out if o.startswith("… ") and word in o)


@pytest.mark.parametrize("way", WAYS)
def test_every_context_line_before_a_warning_is_shown(way: object) -> None:
    lines = build(80)
    out = way(lines)  # type: ignore[operator]
    for i in range(80):
        assert f"src/f{i:03d}.c: In function ‘fn_{i:03d}’:" in out, i
    assert counted(out, "In function") == 80  # counts stay exact (each line once)
    assert len(out) < len(lines) // 2  # the build lines still fold


@pytest.mark.parametrize("way", WAYS)
def test_a_colon_line_before_other_lines_still_folds(way: object) -> None:
    """A line ending in ``:`` that no marker follows is a line like others."""
    lines = ["start"]
    for i in range(80):
        lines += [f"unit {i:03d} in module m{i:03d}:", f"  compiled {i} objects", f"  linked {i} objects"]
    lines += ["done", "bye"]
    out = way(lines)  # type: ignore[operator]
    assert sum(1 for o in out if o.startswith("unit ")) <= 20
    assert counted(out, "in module") == 80


@pytest.mark.parametrize("way", [by_line, by_block])
def test_the_context_of_a_counted_repeat_folds(way: object) -> None:
    """The same warning repeated (counted past its first two): its context lines fold with it (make-j2-gcc's cost)."""
    lines = build(80, same_warning=True)
    out = way(lines)  # type: ignore[operator]
    assert sum(1 for o in out if "In function" in o and not o.startswith("… ")) <= 3
    assert counted(out, "In function") == 80


@pytest.mark.parametrize("way", WAYS)
def test_a_caret_under_a_source_line_shown_is_shown(way: object) -> None:
    lines = build(80, odd=40)
    out = way(lines)  # type: ignore[operator]
    src = out.index("    6 |     return n < cap;")
    assert out[src + 1] == "      |              ^"  # right under it, before any fold line
    if way is not live:  # (a live fold's later windows name the line shown: ``… 9 more like line 6``)
        assert counted(out, "|") == 160  # 80 source lines and 80 carets, each once


@pytest.mark.parametrize("way", [by_line, by_block])
def test_a_caret_under_a_folded_source_line_folds(way: object) -> None:
    lines = build(80)
    out = way(lines)  # type: ignore[operator]
    # the first (its template's head); the last 5 lines (the last unit's caret among them) are always shown
    assert sum(1 for o in out[:-5] if o == "      |         ^~~~") == 1


@pytest.mark.parametrize("way", WAYS)
def test_a_context_line_shown_is_not_shown_again_as_a_value_seen_once(way: object) -> None:
    """Function names of few values, one seen once before a warning: its context line is shown once, not again."""
    lines = ["-- Configuring done"]
    for i in range(300):
        name = "odd_one" if i == 150 else ("read", "write", "seek")[i % 3]
        lines += [f"[{i + 1}/300] cc -c src/f{i:03d}.c", f"src/io.c: In function ‘{name}’:"]
        if i % 2 == 0:  # (the others' context lines fold)
            lines.append(f"src/io.c:6:9: warning: unused variable ‘v{i:03d}’ [-Wunused-variable]")
    lines += ["ninja: build stopped: subcommand failed.", "make: *** [all] Error 1"]
    out = way(lines)  # type: ignore[operator]
    for name in ("read", "write", "seek", "odd_one"):
        ctx = f"src/io.c: In function ‘{name}’:"
        assert ctx in out
    assert out.count("src/io.c: In function ‘odd_one’:") == 1
