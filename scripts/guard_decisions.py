"""The never-worse guard's decision on every fixture, by ceil(chars/4), by the shaped estimate and by o200k.

Offline check for issue 14, defect 11 (needs node and ``npm install`` in tests/ts). For each
fixture the pipeline runs with the never-worse decision forced open, which gives the filter's
candidate output (fact guard and recovery hint included) and the baseline it is weighed against;
each is then counted three ways. A decision is right when it prints the filtered candidate
exactly when o200k counts it smaller than the baseline. Prints the fixtures whose decision
differs between the estimates or from o200k, and the savings each measure gives per fixture
against its ``min_savings`` floor (``--floors``), or writes them as JSON (``--json FILE``).

usage: python scripts/guard_decisions.py [--floors] [--json FILE]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests"), str(ROOT / "scripts")]

from calibrate_tokens import real_counts  # noqa: E402

from fixturelib import all_fixtures, load, run  # type: ignore[import-not-found]  # noqa: E402
from rtk import config, options, pipeline, tokens  # noqa: E402


def candidates() -> list[dict[str, object]]:
    """Each fixture's baseline and filtered candidate (before the never-worse decision), and its floor."""
    real_smaller = pipeline.smaller
    pipeline.smaller = lambda text, base: (True, 0, 0)  # type: ignore[assignment]
    rows: list[dict[str, object]] = []
    try:
        for p in all_fixtures():
            config.reset()
            options.ultra_compact = False
            fx = load(p)
            out = run(fx)
            rows.append(
                {"name": fx.name, "mode": out.mode, "base": out.raw_text, "cand": out.text, "floor": fx.min_savings}
            )
    finally:
        pipeline.smaller = real_smaller  # type: ignore[assignment]
    return rows


def pct(base: int, out: int) -> float:
    return round(tokens.savings_pct(base, out), 1)


def main() -> None:
    rows = candidates()
    texts = [str(r[k]) for r in rows for k in ("base", "cand")]
    real = real_counts(texts)
    report = []
    for i, r in enumerate(rows):
        base, cand = str(r["base"]), str(r["cand"])
        o_base, o_cand = real[2 * i][0], real[2 * i + 1][0]
        filtered = r["mode"] == "filtered"  # only a filtered candidate faces the never-worse decision
        old_ok = filtered and tokens.estimate(cand) < tokens.estimate(base)
        new_ok = filtered and pipeline.smaller(cand, base)[0]
        real_ok = filtered and o_cand < o_base

        def shown(ok: bool, base: str = base, cand: str = cand) -> str:
            return cand if ok else pipeline.ensure_newline(base)

        old_text, new_text = shown(old_ok), shown(new_ok)
        report.append(
            {
                "name": r["name"],
                "candidate": bool(filtered),
                "old_filtered": old_ok,
                "new_filtered": new_ok,
                "o200k_smaller": real_ok,
                "o200k_base": o_base,
                "o200k_candidate": o_cand,
                "floor": r["floor"],
                "old_savings": pct(tokens.estimate(base), tokens.estimate(old_text)),
                "new_savings": pct(tokens.estimate_shaped(base), tokens.estimate_shaped(new_text)),
                "o200k_new_savings": pct(o_base, o_cand if new_ok else o_base),
            }
        )
    if "--json" in sys.argv:
        Path(sys.argv[sys.argv.index("--json") + 1]).write_text(json.dumps(report, indent=1))
    flips = [x for x in report if x["old_filtered"] != x["new_filtered"]]
    wrong = [x for x in report if x["new_filtered"] != x["o200k_smaller"]]
    print(f"{len(report)} fixtures, {sum(bool(x['candidate']) for x in report)} filtered candidates")
    print(f"decisions changed by the switch: {len(flips)}; new decisions that o200k disagrees with: {len(wrong)}")
    for x in sorted({x["name"]: x for x in flips + wrong}.values(), key=lambda x: str(x["name"])):
        print(
            f"  {x['name']}: old {'filtered' if x['old_filtered'] else 'raw'}, new "
            f"{'filtered' if x['new_filtered'] else 'raw'}; o200k {x['o200k_base']} -> {x['o200k_candidate']}"
        )
    if "--floors" in sys.argv:
        for x in report:
            if float(x["new_savings"]) < float(x["floor"]):  # type: ignore[arg-type]
                print(f"  floor {x['name']}: {x['floor']} old {x['old_savings']} new {x['new_savings']}")


if __name__ == "__main__":
    main()
