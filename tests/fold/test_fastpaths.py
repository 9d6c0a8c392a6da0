"""The JSON event fast path (a skeleton's recipe) against the regex reading it short-cuts.

A JSON event read by its skeleton's recipe must have the tokens, masks and request the regex
reading gives, on the real JSON-lines captures and on crafted lines where a recipe could go wrong
(a digit in a key, ``0x`` against ``1x``, empty and escaped strings, statuses in other forms).
"""

from __future__ import annotations

from pathlib import Path

from rtk.fold import jsonl

LOGS = Path(__file__).resolve().parent.parent / "logdata"


def _plain_event(line: str) -> tuple[list[str], list[str], tuple[str, str] | None] | None:
    jsonl._recipes.clear()
    jsonl._once.clear()
    e = jsonl.event(line)
    return None if e is None else (e.toks, e.masks, e.request)


def _json_lines() -> list[str]:
    lines = []
    for name in ("node-jsonl.log", "structlog-sync.log"):
        lines += (LOGS / name).read_text().splitlines()
    crafted = [
        '{"level":30,"msg":"a","k1":5,"status":200,"url":"/a/1"}',
        '{"level":50,"msg":"a","k2":5,"status":500,"url":"/a/2"}',  # a digit in a key: never by recipe
        '{"level":"info","msg":"v 0x1f","addr":"0x1f"}',
        '{"level":"info","msg":"v 1x1f","addr":"1x1f"}',  # same skeleton as 0x1f: hex there, an id here
        '{"level":"info","msg":"","path":"","status":"200"}',
        '{"level":"info","msg":"q","path":"/x","status":[200]}',
        '{"level":"info","msg":"q","path":"/x","status":100}',
        '{"level":"info","msg":"q","path":"/x","status":0}',
        '{"level":"info","msg":"q \\"x\\" y","path":"a\\"","status":404}',
        '{"level":"\\"w\\"","msg":"e 12 ms","n":-3.5e7,"t":"2024-01-02T03:04:05Z"}',
        '{"level":"\\"w\\"","msg":"e 99 ms","n":-1.1e1,"t":"2024-01-02T03:04:05Z"}',
    ]
    return lines + crafted * 3


def test_json_events_by_recipe_are_read_as_by_the_regex() -> None:
    lines = _json_lines()
    want = [_plain_event(ln) for ln in lines]
    jsonl._recipes.clear()
    jsonl._once.clear()
    for _ in range(3):  # first sightings, then recipes
        got = []
        for ln in lines:
            e = jsonl.event(ln)
            got.append(None if e is None else (e.toks, e.masks, e.request))
        assert got == want
    assert jsonl._recipes  # (the recipes were used)
    assert all(b"0x" not in k for k in jsonl._recipes)
