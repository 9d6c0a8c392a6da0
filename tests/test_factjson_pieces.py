"""The JSON guard reads a document's distinct pieces once (issue 14's budget): the same marked strings and restorations."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fixturelib import load, run
from rtk import factguard, factjson

GH = Path(__file__).parent / "fixtures" / "gh-api"
NAMES = ("actions-runs", "run-jobs", "runs-failures", "issues", "repo", "run-9017", "issue-318", "not-found")

# Strings that report a problem or not, with what JSON escapes (quotes, backslashes, line breaks, tabs, non-ASCII,
# a character whose lowercase is longer) and needles next to escapes (``\\not ok``: the ``n`` of an escape).
WORDS = st.sampled_from(
    [
        "Error: x",
        "FAIL",
        "no errors",
        "fatal",
        "Not OK here",
        'a "failure"',
        "x\\y",
        "ok",
        "é fail",
        "line\nnot ok 1 - t",
        "\tfailure",
        "x\\",
        "✗ broken",
        "İ error",
        "success",
        "warning: a.py:3",
        "\\not ok ",
    ]
)
DOCS = st.recursive(
    WORDS | st.integers(0, 3) | st.booleans() | st.none(),
    lambda k: st.lists(k, max_size=3) | st.dictionaries(WORDS, k, max_size=3),
)


def pieces(body: str) -> set[str]:
    return set(body.replace('"', "\n").split("\n"))


def texts(doc: Any) -> list[str]:
    return [
        json.dumps(doc),
        json.dumps(doc, ensure_ascii=False),
        json.dumps(doc, indent=1),
        json.dumps(doc, separators=(",", ":")) + "\n" + json.dumps(doc) + "\n",  # NDJSON
    ]


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(DOCS)
def test_marked_from_the_distinct_pieces_is_marked_from_the_document(doc: Any) -> None:
    for text in texts(doc):
        if text[:1] not in "{[":
            continue
        parsed = factjson.parse(text)
        assert parsed is not None
        body = text[: parsed[1]]
        assert factjson._marked_pieces(body, pieces(body)) == factjson._marked(body), body


def grown(name: str, copies: int) -> str:
    """A real capture with its rows repeated (the strings repeat, as in a long listing)."""
    parsed = factjson.parse((GH / f"{name}.raw").read_text())
    assert parsed is not None
    doc = parsed[0][0]
    field = next((k for k, v in doc.items() if type(v) is list), None) if type(doc) is dict else None
    rows = doc[field] if field else doc
    if type(rows) is list:
        rows.extend([json.loads(json.dumps(r)) for r in rows] * copies)
    return json.dumps(doc, separators=(",", ":")) + "\n"


def test_marked_from_the_pieces_on_real_captures() -> None:
    seen = 0
    for name in NAMES:
        for raw in ((GH / f"{name}.raw").read_text(), grown(name, 5)):
            parsed = factjson.parse(raw)
            if parsed is None:
                continue
            body = raw[: parsed[1]]
            got = factjson._marked_pieces(body, pieces(body))
            assert got == factjson._marked(body), name
            seen += bool(got)
    assert seen  # captures with failing values are among them


def _views(compact: str, rnd: random.Random) -> list[str]:
    lines = compact.split("\n")
    views = [compact, "", "summary: done\n", compact.replace("failure", "success")]
    views += ["\n".join(ln for i, ln in enumerate(lines) if i % k) for k in (2, 3, 5)]
    views += ["\n".join(ln for ln in lines if rnd.random() > 0.2) for _ in range(3)]
    return views


def _raws(raw: str, rnd: random.Random) -> list[str]:
    """``raw`` and copies whose strings are sometimes replaced by a problem, a location, an escape."""
    words = ["failure", "Error: src/app.py:12: boom", "fatal: E0425", "x \\ y failed", "✗ a.c:3", 'say "fail"', "ok"]
    parsed = factjson.parse(raw)
    assert parsed is not None
    doc, end = parsed[0][0], parsed[1]

    def edit(x: Any) -> Any:
        if type(x) is dict:
            return {k: edit(v) for k, v in x.items()}
        if type(x) is list:
            return [edit(v) for v in x]
        return rnd.choice(words) if type(x) is str and rnd.random() < 0.1 else x

    out = [raw]
    for k in range(4):
        d = edit(doc)
        text = json.dumps(d, indent=2) if k % 2 else json.dumps(d, separators=(",", ":"), ensure_ascii=False)
        out.append(text + raw[end:])
    return out


@pytest.mark.parametrize("name", ["actions-runs", "run-jobs", "runs-failures", "issues", "run-9017"])
def test_the_guard_restores_alike_with_the_pieces_shared(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Restorations and missing facts with the pieces split once are those of the separate passes (the old code)."""
    rnd = random.Random(name)
    out = run(load(GH / f"{name}.toml"))
    cases = [(raw, view) for raw in _raws(out.raw_text, rnd) for view in _views(out.text, rnd)]

    def answers() -> list[Any]:
        return [
            (factguard.restore(raw, view, counted), factguard.missing(raw, view, counted))
            for raw, view in cases
            for counted in (False, True)
        ]

    shared = 0
    marked_pieces = factjson._marked_pieces

    def counting(body: str, ps: set[str]) -> set[str] | None:
        nonlocal shared
        shared += 1
        return marked_pieces(body, ps)

    monkeypatch.setattr(factjson, "_marked_pieces", counting)
    new = answers()
    assert shared  # the shared path was taken
    line_missing = factguard.line_missing

    def unshared(
        raw: str,
        compact: str,
        counted: bool = False,
        exhaustive: bool = False,
        out: Any = None,
        moved: Any = None,
        split: Any = None,
    ) -> dict[Any, int]:
        return line_missing(raw, compact, counted, exhaustive, out, moved)

    monkeypatch.setattr(factjson, "_marked_pieces", lambda body, ps: factjson._marked(body))
    monkeypatch.setattr(factguard, "line_missing", unshared)
    assert answers() == new
    assert sum(r[0][1] for r in new) > 0  # restorations are among the compared answers


def test_line_missing_with_the_split_given_is_line_missing() -> None:
    raw, compact = run(load(GH / "runs-failures.toml")).raw_text, "summary: done\n"
    for text in (raw.replace('"', "\n"), "a\nb:3\nerror x.py:4\n\nb:3\n"):
        lines = text.split("\n")
        want = factguard.line_missing(text, compact)
        assert want
        assert factguard.line_missing(text, compact, split=(lines, set(lines))) == want
