"""The JSON fact guard's cheaper paths (issue 14's budget) answer exactly as the paths they replace."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fixturelib import load, run
from rtk import factguard, factjson, factjsonview
from rtk.factjsonview import View

GH = Path(__file__).parent / "fixtures" / "gh-api"
NAMES = ("actions-runs", "run-jobs", "runs-failures", "issues", "repo", "run-9017", "issue-318")

# Letters, digits, ``_``, punctuation, spaces, line breaks, and non-ASCII word and non-word characters.
CHARS = st.sampled_from([*"ab_9 :./-|\n\t", "é", "²", "٣", "·", "—"])


def real(name: str) -> tuple[str, str]:
    out = run(load(GH / f"{name}.toml"))
    return out.raw_text, out.text


def indexed(text: str) -> View:
    """A view whose ``places`` uses the word index from the first call."""
    v = View(text)
    v.scanned = 1 << 62
    return v


def test_the_view_counts_lines_as_before() -> None:
    for text in ("", "a", "a\n", "\n\n  x\n   \n\ty", real("run-jobs")[1]):
        v = View(text)
        starts, at = [], 0
        for ln in text.split("\n"):
            starts.append(at)
            at += len(ln) + 1
        assert v.starts == starts
        assert v.indent == [len(ln) - len(ln.lstrip()) if ln.strip() else -1 for ln in text.split("\n")]


@settings(max_examples=200)
@given(st.text(st.sampled_from([*" \t\n\x0b\x0cab", "\u2003", "\x85", "é"]), max_size=40))
def test_the_view_counts_lines_and_indents_as_before(text: str) -> None:
    v = View(text)
    lines = text.split("\n")
    assert v.starts == [sum(len(ln) + 1 for ln in lines[:k]) for k in range(len(lines))]
    assert v.indent == [len(ln) - len(ln.lstrip()) if ln.strip() else -1 for ln in lines]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(CHARS, max_size=80), st.text(CHARS, min_size=1, max_size=6), st.integers(0, 3))
def test_places_by_search_and_by_index_agree(text: str, t: str, most: int) -> None:
    assert View(text).places(t, most) == indexed(text).places(t, most) == View(text)._search(t, most)


def test_places_on_real_views_agree_and_are_remembered() -> None:
    for name in NAMES:
        compact = real(name)[1]
        words = {w for w in compact.replace("\n", " ").split(" ") if w}
        probes = sorted(words)[:300] + [ln.strip() for ln in compact.split("\n")[:50] if ln.strip()]
        searched, idx = View(compact), indexed(compact)
        for t in probes:
            for most in (0, 16):
                got = searched.places(t, most)
                assert got == idx.places(t, most) == View(compact)._search(t, most), (name, t)
                assert searched.places(t, most) is got  # asked again: the same answer, not searched again


def test_places_switches_to_the_index_after_enough_searches() -> None:
    compact = real("run-jobs")[1] + "\né"  # not ASCII (ASCII text is searched in C, ``View._spaced``)
    v = View(compact)
    for k in range(factjsonview.SEARCHES):
        v.places(f"absent{k}", 16)
    assert v.words is None
    v.places("50117", 16)
    assert v.words is not None and v.places("50117", 16) == View(compact)._search("50117", 16)


def reference_walk(docs: list[Any], marks: Callable[[str], bool]) -> list[tuple[tuple[Any, ...], Any]]:
    """The walk as written before the set test was inlined (``factjson._walk_with``, kept here as the reference)."""
    units: list[tuple[tuple[Any, ...], Any]] = []
    many = len(docs) > 1
    for k, doc in enumerate(docs):
        stack: list[tuple[Any, tuple[Any, ...], bool]] = [(doc, (-1, k) if many else (), False)]
        while stack:
            x, path, hot = stack.pop()
            pushes: list[tuple[Any, tuple[Any, ...], bool]] = []
            items = list(x.items()) if type(x) is dict else list(enumerate(x)) if type(x) is list else []
            for key, v in items:
                h = hot or (type(key) is str and marks(key))
                here = (*path, key)
                if type(v) is str:
                    if ((h and v) or marks(v)) and "\n" not in v and len(v) <= factjson.UNIT_MAX:
                        units.append((here, v))
                elif type(v) is dict or type(v) is list:
                    if v:
                        pushes.append((v, here, h))
                elif h and v is not None and v is not False and v != 0:
                    units.append((here, v))
            stack.extend(reversed(pushes))
    return units


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.sampled_from(["", "ok", "failure", "Error: x", "a\nfailure"]),
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.sampled_from(["error", "id", "name", "x"]), kids, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(JSON, min_size=1, max_size=3))
def test_the_walk_with_a_set_is_the_walk_with_its_test(docs: list[Any]) -> None:
    marked = {"failure", "Error: x", "error", "a\nfailure"}
    assert factjson._walk(docs, marked) == reference_walk(docs, marked.__contains__)
    assert factjson._walk(docs, None) == reference_walk(docs, factjson._marks)


def test_the_walk_on_real_captures_is_the_walk_with_its_test() -> None:
    for name in NAMES:
        raw, _ = real(name)
        parsed = factjson.parse(raw)
        assert parsed is not None
        docs, end = parsed
        marked = factjson._marked(raw[:end]) or {"failure", "success", "open"}
        assert factjson._walk(docs, marked) == reference_walk(docs, marked.__contains__), name
        assert factjson._walk(docs, None) == reference_walk(docs, factjson._marks), name


@pytest.mark.parametrize("name", ["actions-runs", "run-jobs", "runs-failures"])
def test_the_guard_restores_alike_when_places_searches_or_indexes(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    raw, compact = real(name)
    lines = compact.split("\n")
    views = [compact, compact.replace("failure", "success")]
    views += ["\n".join(ln for i, ln in enumerate(lines) if i % k) for k in (2, 3, 5, 7)]
    views += ["\n".join(ln for ln in lines if "failure" not in ln or i % 2) for i in range(2)]
    got = {}
    spaced = [factguard.restore(raw, v) for v in views]  # ASCII views: every row name searched in C
    monkeypatch.setattr(View, "_places", View._places_slow)  # ...and as other text is: searched, then indexed
    for searches in (0, 1 << 30):
        monkeypatch.setattr(factjsonview, "SEARCHES", searches)
        got[searches] = [factguard.restore(raw, v) for v in views]
    assert got[0] == got[1 << 30] == spaced
    assert any(n for _, n in got[0])  # some views lose values: the comparison covers restorations


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(JSON, max_size=6))
def test_row_counts_count_each_text_once_per_row(rows: list[Any]) -> None:
    from rtk.factjsontie import row_counts, scalar_text

    plain: dict[str, int] = {}
    for s in rows:
        for t in {t for t in map(scalar_text, s.values() if type(s) is dict else (s,)) if t is not None}:
            plain[t] = plain.get(t, 0) + 1
    assert dict(row_counts(rows)) == plain


def test_marked_uses_the_needles_of_the_scan() -> None:
    from rtk import factscan

    assert factjson._NEEDLES == factscan.NEEDLES  # _marked reads factscan's reduced needles for ASCII text


def _strings(x: Any) -> set[str]:
    if type(x) is str:
        return {x}
    if type(x) is dict:
        return set(x).union(*map(_strings, x.values()))
    if type(x) is list:
        return set().union(*map(_strings, x))
    return set()


WORDS = st.sampled_from(
    ["Error: x", "FAIL", "no errors", "fatal", "Not OK here", 'a "failure"', "x\\y", "ok", "é fail"]
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.recursive(WORDS | st.integers(0, 3), lambda k: st.lists(k, max_size=3) | st.dictionaries(WORDS, k, max_size=3))
)
def test_marked_is_every_string_that_reports_a_problem(doc: Any) -> None:
    from rtk.facts import is_marker

    for text in (json.dumps(doc), json.dumps(doc, ensure_ascii=False), json.dumps(doc, indent=1)):
        got = factjson._marked(text)
        if got is not None:
            assert got == {s for s in _strings(doc) if is_marker(s)}, text
    assert factjson._marked(json.dumps(doc)) is not None or "\\u" in json.dumps(doc)


def test_marked_on_the_real_captures() -> None:
    from rtk.facts import is_marker

    for name in NAMES:
        raw = real(name)[0]
        parsed = factjson.parse(raw)
        assert parsed is not None
        got = factjson._marked(raw[: parsed[1]])
        if got is not None:
            assert got == {s for d in parsed[0] for s in _strings(d) if is_marker(s)}, name


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.sampled_from([*"ab_9Z :./-|\n\t\r\x0b\x0c\x1c~"]), max_size=80))
def test_the_ascii_word_index_is_the_regex_one(text: str) -> None:
    import re

    from rtk.factjsonview import _index

    regex: dict[bytes, list[int]] = {}
    for k, ln in enumerate(text.split("\n")):
        for w in re.findall(r"\w{3,}", ln):
            regex.setdefault(w.encode(), []).append(k)
    got = _index(text, text.split("\n"))
    assert {w: ks for w, ks in got.items() if len(w) >= 3} == regex
    other = text + " é"  # not ASCII: the regex path, the same words (a word of one letter is never asked for)
    assert _index(other, other.split("\n")) == regex


ASCII = st.sampled_from([*"ab_9Z :./-|()\n\t\r\x0b\x0c~"])


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(ASCII, max_size=80), st.text(ASCII, max_size=6), st.integers(0, 3))
def test_places_in_ascii_text_searched_in_c_are_the_searched_ones(text: str, t: str, most: int) -> None:
    v = View(text)
    assert v.places(t, most) == v._search(t, most) == View(text)._places_slow(t, most)
    assert v.pad, "ASCII text takes the C search"


def test_places_in_the_real_views_searched_in_c_are_the_searched_ones() -> None:
    for name in NAMES:
        compact = real(name)[1]
        probes = {w for w in compact.replace("\n", " ").split(" ") if w}
        probes.update(ln.strip() for ln in compact.split("\n") if ln.strip())
        probes.update(ln[: len(ln) // 2] for ln in compact.split("\n"))  # texts ending inside a word too
        v = View(compact)
        for t in sorted(probes):
            for most in (0, 16):
                assert v._spaced(t, most) == v._search(t, most), (name, t)


@pytest.mark.parametrize("name", ["actions-runs", "run-jobs", "runs-failures", "run-9017"])
def test_the_nearest_places_first_tie_alike_as_every_place(name: str) -> None:
    """``_tied_at`` (the places nearest the row's name first) finds a place exactly when ``_tied_all`` does."""
    from rtk.factjsontie import Unit, _id_lines, _shapes, _tied_all, _tied_at

    raw, compact = real(name)
    parsed = factjson.parse(raw)
    assert parsed is not None
    docs = parsed[0]
    units = factjson._walk(docs, None)
    lines = compact.split("\n")
    views = [compact, compact.replace("failure", "success")]
    views += ["\n".join(ln for i, ln in enumerate(lines) if i % k) for k in (2, 3, 5)]
    views += ["\n".join(lines[k:] + lines[:k]) for k in (7, len(lines) // 2)]  # rows moved away from their names
    tied = lost = 0
    for text in views:
        memo: dict[int, dict[str, int]] = {}
        fast, full = View(text), View(text)
        for path, value in units:
            u = Unit(docs, path, value, memo)
            got = _tied_at(u, fast)
            want = _tied_all(u, full, _id_lines(u, full), _shapes(u.value, u.keys, full), None)
            assert (got is None) == (want is None), (name, path)
            tied += got is not None
            lost += got is None
    assert tied and lost  # both answers are covered


def _scalars(x: Any) -> list[str]:
    from rtk.factjsontie import scalar_text

    if type(x) is dict:
        return [t for v in x.values() for t in _scalars(v)]
    if type(x) is list:
        return [t for v in x for t in _scalars(v)]
    t = scalar_text(x)
    return [t] if t else []


def test_every_value_printed_is_no_proof_that_no_fact_is_lost() -> None:
    """The shortcut "every scalar of the document is in the output, so skip the walk" would be unsound.

    A view that shows run 9016 as the failure and 9017 as a success still prints every value (as often),
    but ties ``failure`` to the wrong row: the guard must restore it, so no value-presence test may skip it.
    """
    raw, compact = real("actions-runs")
    lines = compact.split("\n")
    i17 = next(i for i, ln in enumerate(lines) if ln.startswith(" 9017|"))
    i16 = next(i for i, ln in enumerate(lines) if ln.startswith(" 9016|"))
    lines[i17] = lines[i17].replace("|failure|", "|success|")
    lines[i16] = lines[i16].replace("|success|", "|failure|")
    view = "\n".join(lines)
    parsed = factjson.parse(raw)
    assert parsed is not None
    values = _scalars(parsed[0])
    view += "\nalso: " + " ".join(sorted({t for t in values if t not in view}))  # every value now printed
    assert all(t in view for t in values)
    assert view.count("failure") == compact.count("failure") and view.count("success") == compact.count("success")
    text, n = factguard.restore(raw, view)
    assert n >= 1 and ".workflow_runs[4] conclusion: failure (id 9017)" in text.split("\n")
