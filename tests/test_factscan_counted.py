"""A counted cut scanned as raw text (factscan.scan_counted) names the lines the scan of the distinct dropped lines names."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixturelib import load, run
from mutations import mutation_settings
from rtk import factguard, factscan, presence
from rtk.text import clean, decode
from test_factscan import EXAMPLES, FAMILIES, IDS, PATHS, SHAPES, mutated, regrouped


def by_lines(raw: str, compact: str) -> set[str]:
    """What the scan names for a counted cut when it reads the distinct dropped lines (``factguard._dropped``)."""
    return set(factguard._dropped(raw.split("\n"), compact.split("\n"), compact, presence.Output(compact), True))


def alike(raw: str, compact: str) -> None:
    """Past ``RAW_HITS`` lines with a hit the raw text way gives way (None); with no such bound it names the same lines."""
    want = by_lines(raw, compact)
    got = factscan.scan_counted(raw, compact)
    if got is not None:
        assert len(got) == len(set(got)), "a line named twice"
        assert set(got) == want
    most = factscan.RAW_HITS
    factscan.RAW_HITS = 10**9
    try:
        unbounded = factscan.scan_counted(raw, compact)
    finally:
        factscan.RAW_HITS = most
    assert unbounded is not None and len(unbounded) == len(set(unbounded)) and set(unbounded) == want


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_every_fixture_names_the_same_lines(path: Path) -> None:
    """Every fixture: its filter's real output, a tenth of the raw output, every other line, regrouped, nothing."""
    fx = load(path)
    raw = clean(decode(fx.raw))
    out = run(fx)
    alike(out.raw_text, out.text)
    for compact in (raw[: len(raw) // 10], "\n".join(raw.split("\n")[::2]), regrouped(raw), ""):
        alike(raw, compact)


@pytest.mark.parametrize("family", FAMILIES)
def test_mutations_name_the_same_lines(family: str) -> None:
    fx = load(next(p for p in PATHS if p.parent.name == family))
    lines = clean(decode(fx.raw)).split("\n")[:150]

    @mutation_settings(EXAMPLES)
    @given(mutated(lines))
    def prop(case: tuple[str, str]) -> None:
        alike(*case)

    prop()


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *SHAPES,
                "error: printed as it is",
                "",
                "x",
                "4.0K\t/usr/share/doc",
                'x = {"code": "E711"}',
                "3 passed, 1 failed",
                "\u2717 glyph \u00e9",
            ]
        ),
        max_size=30,
    ),
    st.lists(st.integers(0, 29), max_size=8),
)
def test_repeated_printed_and_empty_lines_name_the_same_lines(lines: list[str], printed: list[int]) -> None:
    """Repeats, lines the compact output printed as they are (also repeated), empty lines, non-ASCII lines."""
    raw = "\n".join(lines)
    compact = "\n".join(lines[i] for i in printed if i < len(lines))
    alike(raw, compact)


def test_a_problem_line_printed_as_it_is_is_not_named_and_its_repeat_dropped_elsewhere_is_not_either() -> None:
    raw = "4.0K\t/usr/a\nerror: disk\n8.0K\t/usr/b\nerror: disk\nwarning: late\n"
    assert factscan.scan_counted(raw, "error: disk\n+3 more") == ["warning: late"]
    assert sorted(factscan.scan_counted(raw, "+5 more")) == ["error: disk", "warning: late"]


def test_the_guard_takes_the_raw_text_way_for_a_small_counted_output_and_restores_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The real du output with a problem line: the same restoration through either way."""
    fx = load(Path(__file__).parent / "fixtures" / "du" / "shared-du-usr_centos-7.7.toml")
    lines = clean(decode(fx.raw)).split("\n")
    bad = "du: cannot read directory '/usr/lib/secret': Permission denied (error 13)"
    raw = "\n".join([*lines[:50], bad, *lines[50:], bad])
    compact = "\n".join(lines[:10]) + "\n+1461 more\n"
    calls: list[int] = []
    real = factscan.scan_counted
    monkeypatch.setattr(factguard, "scan_counted", lambda r, c: calls.append(1) or real(r, c))
    fast = factguard.restore(raw, compact, True)
    assert calls and fast[1] == 1 and fast[0].endswith(f"\n{bad}\n")
    monkeypatch.setattr(factguard, "COUNTED_RAW", 10**9)  # never the raw text way
    calls.clear()
    assert factguard.restore(raw, compact, True) == fast and not calls


def test_a_warning_repeated_past_the_bound_gives_way_and_restores_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """A counted cut of a build that repeats one warning: the raw text way stops early, the lines way decides."""
    fx = load(Path(__file__).parent / "fixtures" / "du" / "shared-du-usr_centos-7.7.toml")
    lines = clean(decode(fx.raw)).split("\n")
    warn = "warning: /usr/lib/x: file changed as we read it"
    raw = "\n".join([*lines[:100], *[warn] * (factscan.RAW_HITS + 1), "4.0K\t/usr/other", "error: gone"])
    compact = "\n".join(lines[:10]) + "\n+1461 more\n"
    assert factscan.scan_counted(raw, compact) is None
    assert factscan.scan_counted(raw.replace(warn + "\n", "", 2), compact) is not None  # at the bound: still read
    got = factguard.restore(raw, compact, True)
    assert got[1] == 2 and got[0].endswith(f"\n{warn}\nerror: gone\n")
    monkeypatch.setattr(factguard, "COUNTED_RAW", 10**9)  # never the raw text way
    assert factguard.restore(raw, compact, True) == got
