"""Benchmark for the fact guard's JSON path (rtk.factjson): real gh api captures grown to 100 KB.

Each case takes a real minified ``gh api`` capture (tests/fixtures/gh-api), repeats the rows of its
list (every number in a copy shifted, so rows stay distinct) to about 100 KB of one-line JSON, runs
the real ``gh api`` filter on it, and times ``pipeline.may_lose_facts`` and ``factguard.restore`` on
its compact output (the guard as the pipeline runs it; nothing is restored). Also timed: the same with
the failing row's line dropped (a restoration), and the JSON parse alone. Budget: <= 1 ms per 100 KB
when nothing is lost. CPU time, medians.

usage: python bench/fact_guard_json.py [--quick] [--merge]

``--merge`` writes the figures into bench/results.json (``fact-guard-json-100kb``) next to the other benchmarks'.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(globals().get("__file__") or sys.argv[0]).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "bench")]

from fact_guard import _median_ms  # noqa: E402  (the same CPU-time median as the text bench)

CASES = {"actions-runs": "workflow_runs", "run-jobs": "jobs", "runs-failures": "workflow_runs", "issues": ""}
KB100 = 100_000


def _shift(x: Any, by: int) -> Any:
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, int):
        return x + by
    if isinstance(x, dict):
        return {k: _shift(v, by) for k, v in x.items()}
    if isinstance(x, list):
        return [_shift(v, by) for v in x]
    return x


def grown(name: str, field: str) -> str:
    """The capture with its rows repeated (numbers shifted per copy) to about 100 KB, minified as gh prints it."""
    raw = (ROOT / "tests" / "fixtures" / "gh-api" / f"{name}.raw").read_text()
    doc = json.loads(raw)
    rows = doc[field] if field else doc
    base = copy.deepcopy(rows)
    k = 1
    while len(json.dumps(doc, separators=(",", ":"))) < KB100:
        rows.extend(_shift(r, k * 100_000) for r in base)
        k += 1
    return json.dumps(doc, separators=(",", ":")) + "\n"


def main() -> int:
    from fixturelib import FIXTURES, load, spec_for  # type: ignore[import-not-found,unused-ignore]
    from rtk import factguard, factjson, pipeline
    from rtk.filterapi import Filtered

    runs = 7 if "--quick" in sys.argv else 25
    worst = 0.0
    cases: dict[str, Any] = {}
    for name, field in CASES.items():
        fx = load(FIXTURES / "gh-api" / f"{name}.toml")
        raw = grown(name, field)
        res = spec_for(fx).filter(fx.argv, raw, 0)
        text = res.text if isinstance(res, Filtered) else str(res)
        per = KB100 / len(raw)
        n = factguard.restore(raw, text)[1]
        ms = _median_ms(
            lambda raw=raw, text=text: pipeline.may_lose_facts(raw, text) and factguard.restore(raw, text), runs
        )
        parse = _median_ms(lambda raw=raw: factjson.parse(raw), runs)
        lossy = "\n".join(ln for ln in text.split("\n") if "failure" not in ln)
        r = factguard.restore(raw, lossy)[1]
        ms_r = _median_ms(lambda raw=raw, lossy=lossy: factguard.restore(raw, lossy), max(3, runs // 3))
        worst = max(worst, ms * per)
        cases[name] = {
            "kb": len(raw) // 1000,
            "ms": round(ms * per, 3),
            "parse_ms": round(parse * per, 3),
            "restored": n,
            "failing_lines_dropped_ms": round(ms_r * per, 3),
            "restored_when_dropped": r,
        }
        print(
            f"{name:14} {len(raw) // 1000:4d} KB  guard {ms * per:6.3f} ms/100KB (restored {n})"
            f"  parse {parse * per:6.3f}  failing lines dropped: {ms_r * per:6.3f} ms/100KB (restored {r})"
        )
    print(f"worst {worst:.3f} ms per 100 KB (budget 1 ms)")
    if "--merge" in sys.argv:
        import time

        path = ROOT / "bench" / "results.json"
        data = json.loads(path.read_text())
        data["results"]["fact-guard-json-100kb"] = {
            "worst_ms": round(worst, 3),
            "cases": cases,
            "budget": "guard <= 1 ms per 100 KB when the filter kept every fact (ms per 100 KB, CPU medians)",
            "ok": worst <= 1.0 and all(c["restored"] == 0 for c in cases.values()),
            "measured": time.strftime("%Y-%m-%d %H:%M"),
        }
        path.write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
