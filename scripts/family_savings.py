"""Per-fixture and median savings of filter families, as the test suite measures them (shaped token estimate).

Usage: ``python scripts/family_savings.py [PREFIX ...]``: fixture directories whose name starts with
a PREFIX (``gh aws psql``), or all of them. Prints each fixture's raw and output tokens, its savings
and facts kept, then each directory's median. Run from the repository root.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src")]


def main(prefixes: list[str]) -> int:
    from fixturelib import all_fixtures, load, missing_facts, run, savings  # type: ignore[import-not-found]

    by_dir: dict[str, list[float]] = {}
    for path in all_fixtures():
        name = path.parent.name
        if prefixes and not any(name.startswith(p) for p in prefixes):
            continue
        fx = load(path)
        out = run(fx)
        pct = savings(out)
        lost = missing_facts(fx, out.text)
        by_dir.setdefault(name, []).append(pct)
        kept = f"{len(fx.facts) + len(fx.facts_re) - len(lost)}/{len(fx.facts) + len(fx.facts_re)}"
        print(f"{fx.name:60} raw {out.raw_tokens:6} out {out.out_tokens:6} {pct:6.1f}%  facts {kept}")
    print()
    for name, vals in sorted(by_dir.items()):
        print(f"{name:30} n={len(vals):3} median {statistics.median(vals):6.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
