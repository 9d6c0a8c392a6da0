"""The fact guard's C-speed scan (rtk.factscan): it restores exactly what reading every dropped line restores."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixturelib import all_fixtures, load, run
from mutations import mutation_settings
from rtk import factguard, facts, factscan, presence
from rtk.text import clean, decode

PATHS = all_fixtures()
IDS = [f"{p.parent.name}/{p.stem}" for p in PATHS]
EXAMPLES = int(os.environ.get("RTK_FUZZ_EXAMPLES", "4"))


def same(raw: str, compact: str, counted: bool = False) -> None:
    fast = factguard.missing(raw, compact, counted)
    full = factguard.missing(raw, compact, counted, exhaustive=True)
    assert fast == full, f"fast path {sorted(fast)[:5]} != reading every line {sorted(full)[:5]}"


def regrouped(raw: str) -> str:
    """A compact output that regroups ``path:line:col: message`` lines under their file (as rubocop's filter does)."""
    by_file: dict[str, list[str]] = {}
    rest = []
    for ln in raw.split("\n"):
        path, sep, tail = ln.partition(":")
        num, sep2, _ = tail.partition(":")
        if sep and sep2 and num.isdigit() and " " not in path:
            by_file.setdefault(path, []).append(num)
        else:
            rest.append(ln)
    return "\n".join([f"{p}: {' '.join(ns)}" for p, ns in by_file.items()] + rest[::3])


@pytest.mark.parametrize("path", PATHS, ids=IDS)
def test_the_scan_restores_what_reading_every_line_restores(path: Path) -> None:
    """On every fixture: with the filter's real output, a cut one, every other line, and a regrouped one."""
    fx = load(path)
    raw = clean(decode(fx.raw))
    out = run(fx)
    same(out.raw_text, out.text, out.cut > 0)
    for compact in (raw[: len(raw) // 10], "\n".join(raw.split("\n")[::2]), regrouped(raw)):
        same(raw, compact)
        same(raw, compact, True)


# Lines no fixture holds, in the shapes each part of the scan's argument is about.
SHAPES = [
    'Merge "abc1234f" into main',  # a hash after a quote
    "range main..abc1234f done",  # a hash after ".."
    "play clip.mp3:12 now",  # a location whose extension ends in a digit
    "summary: (3) passed",  # a count in parentheses
    "summary: 3\u00a0skipped",  # a count after a no-break space
    "summary: \u0663 passed",  # a count in another script's digits
    "see host:file.py:12 and a(b).rs:3",  # base names holding ":" or "("
    "✗ foo",  # a problem line known only by its glyph
    "TRACEBAC\u212a in stage two",  # a marker word through str.lower() (KELVIN SIGN)
    '  File "/src/my app/a.py", line 7, in f',  # a traceback location whose path holds a space
    "# failed attempts are counted",  # a comment, not indented: still a problem line
    "    # failed attempts are counted",  # an indented comment: no problem line
    "src/x.ts(4,2): see notes",
    "\tsrc/y.go:9 +0x1f",  # indented: no location
    "3 xpassed, 2 skipped",
]


@st.composite
def mutated(draw: st.DrawFn, lines: list[str]) -> tuple[str, str]:
    """A mutated raw output (lines dropped, doubled, cut, shapes inserted, tokens split) and a compact output."""
    out: list[str] = []
    for line in lines:
        op = draw(st.integers(0, 11))
        if op == 0:
            continue
        if op == 1:
            out += [line, line]
        elif op == 2:
            out.append(line[: draw(st.integers(0, max(len(line) - 1, 0)))])
        elif op == 3:
            out += [line, draw(st.sampled_from(SHAPES))]
        elif op == 4 and " " in line:  # a token glued to its neighbour, or spaced apart
            i = draw(st.integers(0, len(line) - 1))
            out.append(line[:i] + draw(st.sampled_from(["", "  ", ":", "(", ".", '"', "\t"])) + line[i + 1 :])
        else:
            out.append(line)
    raw = "\n".join(out) + "\n"
    kind = draw(st.integers(0, 3))
    if kind == 0:
        compact = "\n".join(ln for ln in out if draw(st.booleans()))
    elif kind == 1:
        compact = regrouped(raw)
    elif kind == 2:
        compact = " ".join(raw.split())  # every word, spaced anew
    else:
        compact = "\n".join(sorted(set(raw.split())))  # every word, one a line
    return raw, compact


FAMILIES = sorted({p.parent.name for p in PATHS})


@pytest.mark.parametrize("family", FAMILIES)
def test_mutations_restore_alike(family: str) -> None:
    fx = load(next(p for p in PATHS if p.parent.name == family))
    lines = clean(decode(fx.raw)).split("\n")[:150]

    @mutation_settings(EXAMPLES)
    @given(mutated(lines))
    def prop(case: tuple[str, str]) -> None:
        same(*case)
        same(*case, True)  # a counted cut: the problem pass alone decides

    prop()


@pytest.mark.parametrize("name", ["rubocop/shared-rubocop-default_rails-app", "rubocop/project"])
def test_rubocop_mutations_restore_alike(name: str) -> None:
    fx = load(Path(__file__).parent / "fixtures" / f"{name}.toml")
    lines = clean(decode(fx.raw)).split("\n")

    @settings(max_examples=max(EXAMPLES, 10), deadline=None, derandomize=True, database=None)
    @given(mutated(lines))
    def prop(case: tuple[str, str]) -> None:
        same(*case)

    prop()


@pytest.mark.parametrize("line", SHAPES)
def test_each_shape_alone_restores_alike(line: str) -> None:
    for compact in ("", "other", line.upper(), " ".join(reversed(line.split())), regrouped(line)):
        same(line + "\n", compact)


def test_facts_the_old_search_missed_are_found() -> None:
    """Regressions: the search before the scan missed these (a lost fact, and nothing restored)."""
    assert factguard.missing('Merge "abc1234f" into main\n', "merged\n") == {("hash", "abc1234f", ""): 0}
    assert factguard.missing("play clip.mp3:12 now\n", "played\n") == {("loc", "clip.mp3", "12"): 0}
    assert factguard.missing("summary: (3) passed\n", "summary\n") == {("count", "3", "passed"): 0}
    assert factguard.missing("✗ foo\n", "foo ✗\n") == {("line", "✗ foo", ""): 0}


def test_a_regrouped_location_is_vouched_for_by_pieces() -> None:
    raw = "app/models/text.rb:14:5: C: Redundant self detected.\napp/models/text.rb:20:1: C: Redundant self detected.\n"
    compact = "C: Redundant self detected. (2 offenses)\n  app/models/text.rb: 14:5 20:1\n"
    assert factscan.scan(raw.splitlines(), compact, presence.Output(compact)) == []
    assert factguard.missing(raw, compact) == {}
    # A line number the compact output lacks: the line is read, and its location is lost.
    assert factguard.missing(raw, compact.replace("20:1", "21:1")) == {("loc", "app/models/text.rb", "20"): 53}


def test_the_needles_cover_every_marker_glyph_and_count_word() -> None:
    assert all(any(n in w for n in factscan.NEEDLES) for w in facts.MARKERS)
    assert all(any(n in g for n in factscan.NEEDLES) for g in facts.GLYPHS)
    assert all(
        any(n in w for n in factscan.NEEDLES) or w.encode().endswith(factscan.COUNT_ONLY) for w in facts.COUNT_WORDS
    )
    assert "error" in factscan.NEEDLES and "exception" in factscan.NEEDLES  # ...Error: and ...Exception: tokens


def test_only_the_listed_characters_lower_to_ascii_letters() -> None:
    found = tuple(
        chr(c)
        for c in range(0x80, sys.maxunicode + 1)
        if not 0xD800 <= c < 0xE000 and any(x.isascii() and x.isalpha() for x in chr(c).lower())
    )
    assert found == factscan.LOWER_TO_ASCII


def test_stripped_punctuation_separates_words_of_the_output() -> None:
    """The pieces argument: what a token's cleaning strips splits ``Output.words`` as well."""
    punct = bytes(presence._PUNCT_BYTES)
    assert all(punct[ord(c)] == 32 for c in facts._STRIP + ".:!?")


def test_a_needle_line_that_reports_nothing_is_read_for_its_other_facts() -> None:
    # "fail"/"error" inside a name: not a problem line (is_marker), but its location, hash,
    # traceback location and count are facts the other passes must still find.
    raw = "\n".join(
        [
            "src/test_fail.py:12 checked",
            "commit abc1234f of errors_helper",
            '  File "lib/test_failover.py", line 9, in test_errorless',
            "suite test_fail: 3 passed",
            "test_fail.py:14 and test_fail.py:15",
        ]
    )
    for compact in ("", "checked\nsuite", "src/test_fail.py:12 abc1234f lib/test_failover.py:9 3 passed"):
        same(raw, compact)
    lost = factguard.missing(raw, "nothing")
    assert {("loc", "src/test_fail.py", "12"), ("hash", "abc1234f", ""), ("loc", "lib/test_failover.py", "9")} <= set(
        lost
    )
    assert ("count", "3", "passed") in lost and ("loc", "test_fail.py", "15") in lost


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    st.lists(
        st.sampled_from(
            ["test result: ok. 2 passed; 0 failed", "2 passed", "İ 3 passed", "\u212a 1 skipped", "x", "PASSED", ""]
        ),
        max_size=40,
    ),
    st.sets(st.sampled_from(["passed", "skipped", "failed"]), min_size=1),
    st.integers(0, 80),
)
def test_lines_holding_a_count_word_are_counted_as_every_line_is(lines: list[str], wanted: set[str], most: int) -> None:
    from collections import Counter

    raw = "\n".join(lines)
    want = frozenset(wanted)
    plain = {ln: n for ln, n in Counter(raw.split("\n")).items() if any(w in ln.lower() for w in want)}
    assert factguard._lines_holding(raw, want, None, most) == plain  # by occurrence while few, else every line
    assert factguard._lines_holding(raw, want, raw.split("\n"), 0) == plain


def test_a_count_on_a_line_that_reports_no_problem_is_read() -> None:
    # "failed" followed by 0, or quoted: no marker word (is_marker), yet "3 failed" is a count.
    for line in ("tests: 3 failed 0", "summary 3 `failed`", "7 errors 0"):
        raw = f"{line}\nother line"
        same(raw, "other line")
        assert any(f[0] == "count" for f in factguard.missing(raw, "other line")), line


def test_a_counted_cut_reads_problem_lines_only() -> None:
    """A filter that reports a cut accounts for a non-problem line's hashes, locations and paths, never its counts."""
    raw = 'commit abc1234f fix\nsrc/a.py:3 note\n  File "b.py", line 4, in f\nsuite: 3 passed\nE   TypeError: bad\n'
    got = factscan.scan(raw.split("\n")[:-1], "", presence.Output(""), counted=True)
    assert sorted(got) == ["E   TypeError: bad", "suite: 3 passed"]
    lost = factguard.missing(raw, "kept\n", counted=True)
    assert lost == factguard.missing(raw, "kept\n", counted=True, exhaustive=True)
    assert ("count", "3", "passed") in lost and not any(f[0] in ("hash", "loc") for f in lost)
    assert ("hash", "abc1234f", "") in factguard.missing(raw, "kept\n")  # not counted: every pass


def test_a_counted_filter_that_drops_a_problem_line_gets_it_back() -> None:
    """A broken filter: the real du output with a line reporting a problem, cut with a count, the problem line lost."""
    fx = load(Path(__file__).parent / "fixtures" / "du" / "shared-du-usr_centos-7.7.toml")
    lines = clean(decode(fx.raw)).split("\n")
    bad = "du: cannot read directory '/usr/lib/secret': Permission denied (error 13)"
    raw = "\n".join([*lines[:50], bad, *lines[50:]])
    text, n = factguard.restore(raw, "\n".join(lines[:10]) + "\n+1461 more\n", True)
    assert n == 1 and text.endswith(f"{factguard.HEADER.format('1 line')}\n{bad}\n")
