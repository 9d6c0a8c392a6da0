"""Per-fixture and median savings of filter families, as the test suite measures them (shaped token estimate).

Usage: ``python scripts/family_savings.py [--summary] [PREFIX ...]``: fixture directories whose name
starts with a PREFIX (``gh aws psql``), or all of them. Prints each fixture's raw and output tokens, its
savings and facts kept, then each directory's median; ``--summary`` prints only the totals over the
selected fixtures (facts kept, fact-guard restorations per filter, median savings, tokens). Run from
the repository root.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src")]


def main(args: list[str]) -> int:
    from fixturelib import all_fixtures, load, missing_facts, run, savings  # type: ignore[import-not-found]

    summary = "--summary" in args
    prefixes = [a for a in args if a != "--summary"]
    by_dir: dict[str, list[float]] = {}
    facts_total = facts_lost = raw_sum = out_sum = 0
    restored: dict[str, int] = {}
    for path in all_fixtures():
        name = path.parent.name
        if prefixes and not any(name.startswith(p) for p in prefixes):
            continue
        fx = load(path)
        out = run(fx)
        pct = savings(out)
        lost = missing_facts(fx, out.text)
        by_dir.setdefault(name, []).append(pct)
        n_facts = len(fx.facts) + len(fx.facts_re)
        facts_total += n_facts
        facts_lost += len(lost)
        raw_sum += out.raw_tokens
        out_sum += out.out_tokens
        if out.restored:
            restored[fx.filter] = restored.get(fx.filter, 0) + out.restored
        if summary:
            continue
        kept = f"{n_facts - len(lost)}/{n_facts}"
        print(f"{fx.name:60} raw {out.raw_tokens:6} out {out.out_tokens:6} {pct:6.1f}%  facts {kept}")
    if summary:
        every = [v for vals in by_dir.values() for v in vals]
        print(f"fixtures {len(every)} in {len(by_dir)} directories")
        print(f"facts kept {facts_total - facts_lost}/{facts_total}")
        print(f"fact-guard restorations: {restored or 'none'}")
        print(f"median savings {statistics.median(every):.1f}%, mean {statistics.mean(every):.1f}%")
        print(f"tokens raw {raw_sum} -> out {out_sum} ({100 * (1 - out_sum / max(raw_sum, 1)):.1f}% saved)")
        return 0
    print()
    for name, vals in sorted(by_dir.items()):
        print(f"{name:30} n={len(vals):3} median {statistics.median(vals):6.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
