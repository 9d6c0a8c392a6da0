#!/usr/bin/env python3
"""List candidate facts of a captured log for hand review (a curation aid, not a folder).

usage: candidates.py FILE [--rare N]

Prints, with line numbers, every line with a warning/error marker and every line whose
crude shape (digits, hex and quoted text masked) occurs at most N times (default 3).
The facts in tests/logdata/*.toml were picked by hand from this list.
"""

from __future__ import annotations

import collections
import re
import sys
from pathlib import Path

MARK = re.compile(
    r"warn|error|fatal|exception|panic|traceback|fail|critical|\berr\b|caused by|\[(alert|crit|emerg)\]"
    r'|" [45]\d\d ',
    re.I,
)
MASK = [
    (re.compile(r'"[^"]*"|\'[^\']*\''), "Q"),
    (re.compile(r"0x[0-9a-f]+|\b[0-9a-f]{8,}\b", re.I), "H"),
    (re.compile(r"\d+"), "N"),
]


def shape(line: str) -> str:
    for rx, rep in MASK:
        line = rx.sub(rep, line)
    return " ".join(line.split()[:8])


def main() -> int:
    path = sys.argv[1]
    rare = int(sys.argv[sys.argv.index("--rare") + 1]) if "--rare" in sys.argv else 3
    lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    counts = collections.Counter(shape(x) for x in lines)
    for n, line in enumerate(lines, 1):
        tags = ("M" if MARK.search(line) else " ") + ("R" if counts[shape(line)] <= rare else " ")
        if tags.strip() and line.strip():
            print(f"{n:6} {tags} {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
