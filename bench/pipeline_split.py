"""Where a filtered run's pipeline time goes for a 100 KB output: decode/clean, fact guard, token estimates, tee.

usage: python bench/pipeline_split.py [--runs N] [--json]

The outputs and filters of bench/fact_guard.py (real captured outputs repeated to 100 KB, their
filter's real compact output). Medians of CPU time per step, in-process, as ``pipeline.apply``
runs them after the filter: ``clean(decode(raw))``; ``may_lose_facts`` and ``factguard.restore``
(guard); ``tee.wanted``, the recovery file write when wanted (into a temporary directory) and its
hint (tee); ``pipeline.smaller``, the two shaped estimates the never-worse decision and tracking
use (estimate); and ``pipeline.finish`` whole (guard + tee + estimate, and building the Outcome;
its estimates are reused by tracking, so ``raw_tokens``/``out_tokens`` are read too).
Not recorded in bench/results.json (bench/tokens_calibration.md quotes it).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _fact_guard_bench() -> dict[str, Any]:
    scope: dict[str, Any] = {"__file__": str(ROOT / "bench" / "fact_guard.py"), "__name__": "fact_guard"}
    exec(compile((ROOT / "bench" / "fact_guard.py").read_text(), "fact_guard.py", "exec"), scope)
    return scope


def _median_us(fn: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.process_time_ns()
        fn()
        times.append(time.process_time_ns() - t0)
    return round(statistics.median(times) / 1000, 1)


def split(runs: int) -> dict[str, dict[str, Any]]:
    fg = _fact_guard_bench()
    sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]
    from fixturelib import FIXTURES, load  # type: ignore[import-not-found,unused-ignore]
    from rtk import factguard, pipeline, tee
    from rtk.text import clean, decode

    out: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as d:
        os.environ["RTK_TEE_DIR"] = d
        for name in fg["CASES"]:
            fx = load(FIXTURES / f"{name}.toml")
            raw = fg["_scaled"](name)
            raw_text, text, cut, moved = fg["_compact"](name, raw)
            text = pipeline.ensure_newline(text)
            code = fx.exit_code
            argv = fx.argv[2:] if fx.argv[0] == "rtk" else fx.argv

            def guard(text: str = text, raw_text: str = raw_text, cut: int = cut, moved: Any = moved) -> str:
                if pipeline.may_lose_facts(raw_text, text):
                    return factguard.restore(raw_text, text, cut > 0, moved)[0]
                return text

            def tee_step(raw: bytes = raw, cut: int = cut, code: int = code, argv: list[str] = argv) -> str:
                path = tee.write(argv, raw) if tee.wanted(code, cut, len(raw)) else None
                return tee.hint(path) + "\n" if path is not None and (cut > 0 or code != 0) else ""

            shown = guard() + tee_step()

            def whole(
                raw: bytes = raw,
                raw_text: str = raw_text,
                code: int = code,
                text: str = text,
                cut: int = cut,
                argv: list[str] = argv,
                moved: Any = moved,
            ) -> int:
                res = pipeline.finish(argv, raw, raw_text, code, text, cut, tee.write, None, moved)
                return res.raw_tokens + res.out_tokens

            res = pipeline.finish(argv, raw, raw_text, code, text, cut, tee.write, None, moved)
            out[name] = {
                "mode": res.mode,
                "decode_clean_us": _median_us(lambda raw=raw: clean(decode(raw)), runs),
                "guard_us": _median_us(guard, runs),
                "tee_us": _median_us(tee_step, runs),
                "estimate_us": _median_us(lambda s=shown, r=raw_text: pipeline.smaller(s, r), runs),
                "finish_us": _median_us(whole, runs),
            }
    return out


if __name__ == "__main__":
    n = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 30
    result = split(n)
    if "--json" in sys.argv:
        print(json.dumps(result))
    else:
        for case, v in result.items():
            print(f"{case:42s} " + " ".join(f"{k}={x}" for k, x in v.items()))
