"""Golden rewrites: every line of golden.txt (full registry and this build) and golden_base.txt."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rwhelpers import BASE_COMMANDS, BASE_FAMILIES, AllRegistry, SetRegistry

from rtk import filters
from rtk.__main__ import COMMANDS
from rtk.rewrite import engine
from rtk.rewrite.launch import Launch
from rtk.shell import lexer

HERE = Path(__file__).parent
SEP = "⟶"


def load(name: str) -> list[tuple[str, list[str | None]]]:
    """Rows of a golden file: (input, [expected, fallback...]); None means no rewrite."""
    rows = []
    for raw in (HERE / name).read_text(encoding="utf-8").split("\n"):
        if SEP not in raw:
            continue  # blank lines and comments
        parts = raw.split(SEP)
        cells = [parts[0][:-1] if parts[0].endswith(" ") else parts[0]]
        for p in parts[1:]:
            p = p[1:] if p.startswith(" ") else p
            p = p[:-1] if p.endswith(" ") and p is not parts[-1] else p
            cells.append(p)
        decoded = [c.replace("␤", "\n").replace("⇥", "\t") for c in cells]
        rows.append((decoded[0], [None if c == "=" else c for c in decoded[1:]]))
    return rows


# The library's words (plain ``rtk``, no absolute path: PATH-changing lines stay as written), and
# a stand-in interpreter for the form a PYTHON* variable on the line needs (rtk.rewrite.launch).
PY = "/usr/bin/python3 -E -P -m"
LAUNCH = Launch("rtk", "", PY + " rtk")
GOLDEN = load("golden.txt")
BASE = load("golden_base.txt")


@pytest.fixture
def registry(request: pytest.FixtureRequest) -> Iterator[None]:
    saved = engine.registry
    engine.registry = request.param
    try:
        yield
    finally:
        engine.registry = saved


def test_golden_table_is_big_enough() -> None:
    assert len(GOLDEN) >= 300, len(GOLDEN)
    assert len({r[0] for r in GOLDEN}) == len(GOLDEN), "duplicate inputs"


@pytest.mark.parametrize("registry", [AllRegistry()], indirect=True)
@pytest.mark.parametrize(("line", "expected"), GOLDEN, ids=[r[0][:60] for r in GOLDEN])
def test_full_registry(registry: None, line: str, expected: list[str | None]) -> None:
    assert engine.rewrite(line, launch=LAUNCH) == expected[0]


@pytest.mark.parametrize("registry", [SetRegistry(BASE_FAMILIES, BASE_COMMANDS)], indirect=True)
@pytest.mark.parametrize(("line", "expected"), BASE, ids=[r[0][:60] for r in BASE])
def test_base_build(registry: None, line: str, expected: list[str | None]) -> None:
    assert engine.rewrite(line, launch=LAUNCH) == expected[0]


# --- this build: derive which inserted "rtk" stay ------------------------------------------


def _registered(word: str, argv: list[str]) -> bool:
    """Is ``rtk <word> ...`` served here? Checked against the registries directly."""
    if filters.tool_name(word) in filters.FAMILIES or word in COMMANDS:
        return True
    from rtk.dsl.lookup import has_filter

    return bool(has_filter(argv))


def _insertions(line: str, out: str) -> list[tuple[int, int, bool]] | None:
    """Where ``out`` inserts "rtk " into ``line``: (pos in out, end, registered); None if not pure."""
    found = []
    i = j = 0
    while j < len(out):
        py = len(PY) + 1 if out.startswith(PY + " rtk ", j) and not line.startswith(PY, i) else 0
        inserted = py > 0 or (out.startswith("rtk ", j) and not line.startswith("rtk ", i))
        if not inserted and i < len(line) and line[i] == out[j]:
            i += 1
            j += 1
            continue
        if not inserted:
            return None
        start, j = j, j + py  # an interpreter running the inserted rtk goes with it
        toks = lexer.lex(out[j + 4 :])
        argv = []
        for t in toks:
            if t.kind != lexer.WORD:
                break
            argv.append(t.value)
        if not argv:
            return None
        word = argv[0]
        if word == "lint" and len(argv) > 1 and line.startswith(argv[1], i):
            found.append((start, j + 9, _registered("lint", argv)))
            j += 9
            continue
        found.append((start, j + 4, _registered(word, argv)))
        j += 4
    return found if i == len(line) else None


def derive(line: str, expected: list[str | None]) -> str | None:
    """The expectation for this build's registry."""
    if expected[0] is None:
        return None
    for alt in expected:
        assert alt is not None
        ins = _insertions(line, alt)
        if ins is None:  # an rtk read form: one rewrite on the row
            assert alt.count("rtk ") == 1, f"{line!r}: a read form must be alone on its row"
            if _registered("read", ["read"]):
                return alt
            continue
        if all(ok for _, _, ok in ins):
            return alt
    first = expected[0]
    ins = _insertions(line, first)
    if ins is None:
        return None
    out = first
    for start, end, ok in reversed(ins):
        if not ok:
            out = out[:start] + out[end:]
    return None if out == line else out


@pytest.mark.parametrize(("line", "expected"), GOLDEN, ids=[r[0][:60] for r in GOLDEN])
def test_this_build(line: str, expected: list[str | None]) -> None:
    got = engine.rewrite(line, launch=LAUNCH)
    want = derive(line, expected)
    if want is None and got is not None and engine.classify(line).reason == "TOML filter":
        # A TOML filter merged later may serve a command no Python rule covers; that
        # rewrite must still be a pure insertion pointing at something registered.
        ins = _insertions(line, got)
        assert ins and all(ok for _, _, ok in ins), got
        return
    assert got == want


def test_derivation_drops_unregistered_targets() -> None:
    # Sanity of the derivation itself, independent of what is registered.
    assert derive("ls", [None]) is None
    assert _insertions("a && b", "rtk a && rtk b") is not None
    assert _insertions("head -5 f", "rtk read f --head-lines 5") is None
    # an interpreter running an inserted rtk is dropped with it
    assert derive("A=1 nosuchtool x", [f"A=1 {PY} rtk nosuchtool x"]) is None
    assert _insertions("A=1 git status", f"A=1 {PY} rtk git status") == [(4, 4 + len(PY) + 5, True)]
