"""The generic fallback on long data no filter compacts (issue 14): no cut loses a fact silently."""

from __future__ import annotations

import json

from fixturelib import FIXTURES
from rtk import factguard, pipeline
from rtk.text import clean, decode

RUFF_JSON = FIXTURES / "ruff-check/json-config-unrecognized.raw"


def keep_fixed(argv: list[str], raw: bytes) -> str:
    return "/data/tee/x.log"


def test_long_json_goes_through_the_json_view_with_every_diagnostic() -> None:
    raw = RUFF_JSON.read_bytes()
    text = clean(decode(raw))
    out = pipeline.bounded_raw(["tool"], raw, text, 1, keep_fixed, "raw-unrecognized")
    assert factguard.missing(text, out.text, out.cut > 0) == {}
    assert out.restored == 0 and "lines omitted" not in out.text
    for d in json.loads(text):
        assert f'"code": "{d["code"]}"' in out.text
        loc = d["location"]
        assert f'"location": {{"column": {loc["column"]}, "row": {loc["row"]}}}' in out.text
    assert out.text.count('"severity": "error"') == len(json.loads(text))
    assert out.out_tokens < out.raw_tokens and out.text.endswith("[rtk] full output: /data/tee/x.log\n")


def test_a_head_and_tail_cut_restores_the_problem_lines_it_left_out() -> None:
    """YAML (no JSON view): head and tail, and the guard puts back what the middle held."""
    items = [f"- name: job-{i}\n  status: done\n  took: {i % 7}s" for i in range(150)]
    items[70] = '- name: job-70\n  status: failed\n  error: "src/app/jobs.py:120:5: KeyError: missing"'
    text = "---\n" + "\n".join(items) + "\n"
    out = pipeline.bounded_raw(["tool"], text.encode(), text, 1, keep_fixed, "raw-unrecognized")
    assert "lines omitted ..." in out.text and out.restored >= 1
    assert factguard.missing(text, out.text, out.cut > 0) == {}
    restored = out.text.split("[rtk] restored ", 1)[1]
    assert '  error: "src/app/jobs.py:120:5: KeyError: missing"' in restored
    assert out.out_tokens < out.raw_tokens and out.text.endswith("[rtk] full output: /data/tee/x.log\n")
