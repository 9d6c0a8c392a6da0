#!/usr/bin/env python3
"""Rebuild src/rtk/dsl/_index.py and _builtin.py from src/rtk/dsl/builtin/*.toml (run after editing a built-in filter).

usage: python scripts/build_dsl_index.py [--check]

--check exits 1 (writing nothing) when the index is out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rtk.dsl import builtins  # noqa: E402


def main() -> int:
    check = "--check" in sys.argv[1:]
    try:
        wanted = builtins.render_index()
    except ValueError as e:
        print(e, file=sys.stderr)
        return 1
    stale = []
    for name, text in wanted.items():
        path = Path(name)
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if text != current:
            stale.append(path)
            if not check:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path.relative_to(ROOT)}")
    if check and stale:
        names = ", ".join(str(p.relative_to(ROOT)) for p in stale)
        print(f"{names} out of date: run python scripts/build_dsl_index.py", file=sys.stderr)
        return 1
    if not stale:
        print("generated modules are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
