"""curl/wget/jq/rtk json: a JSON document is data, whole up to limits.json_budget tokens; above it each
array item keeps its scalar values (a table row), or arrays name the positions they leave out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rtk import config
from rtk.filterapi import Filtered
from rtk.filters import jsonview
from rtk.filters.files import http

CURL = Path(__file__).parent.parent / "fixtures" / "curl"


def body(raw: str) -> Filtered:
    res = http.body(["curl", "-sS", "http://127.0.0.1:8766/api/repos.json"], raw, 0)
    assert isinstance(res, Filtered)
    return res


def budget(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    real = config.get
    monkeypatch.setattr(config, "get", lambda k: n if k == "limits.json_budget" else real(k))


def test_under_the_budget_every_item_is_shown_whole() -> None:
    raw = (CURL / "json-list.raw").read_text()
    text = body(raw).text
    for u in json.loads(raw)["items"]:  # 120 users: the old view showed 30 and '+90 more items'
        assert f'{{"id": {u["id"]}, "login": "{u["login"]}", ' in text
    assert "more items" not in text


def test_above_the_budget_every_item_keeps_its_scalar_values_in_a_row() -> None:
    raw = (CURL / "json-repos-100.raw").read_text()
    res = body(raw)
    lines = res.text.splitlines()
    assert "id|name|full_name|private|language|stargazers_count|archived|owner|topics" in res.text
    for r in json.loads(raw)["items"]:  # 100 repositories: the old view showed 30, '+70 more items'
        scalars = [r["id"], f'"{r["name"]}"', f'"{r["full_name"]}"', json.dumps(r["private"]), f'"{r["language"]}"']
        row = "|".join(str(v) for v in scalars)
        assert any(ln.strip().startswith(row + "|") for ln in lines), row
    assert res.cut == 100 * (4 + 3)  # each owner's 4 keys and 3 topics, counted


def test_when_rows_leave_out_more_than_the_first_items_arrays_are_cut_with_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc: dict[str, Any] = {
        "groups": [{"arch": a, "names": [f"{a}-pkg-{i}" for i in range(n)]} for a, n in (("all", 40), ("amd64", 90))]
    }
    budget(monkeypatch, 300)  # the whole document is about 700 tokens
    text, cut = jsonview.compact(json.loads(json.dumps(doc)))
    # rows would count all 130 names; the first 30 of each list keep 60 of them
    assert '"amd64-pkg-29"' in text and "+60 more items (90 in all: items 31-90 left out)" in text
    assert "+10 more items (40 in all: items 31-40 left out)" in text and cut == 70
    budget(monkeypatch, 10)  # not even the rows fit
    text, cut = jsonview.compact(json.loads((CURL / "json-repos-100.raw").read_text()))
    assert "+70 more items (100 in all: items 31-100 left out)" in text and cut == 70
