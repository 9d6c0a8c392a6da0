#!/usr/bin/env python3
"""Extract the test vectors of the agent-hook reference into tests/agents/vectors.json (verbatim JSON blocks).

usage: python scripts/agent_vectors.py [REFERENCE.md]   (default: ../shared/reference/agent-hooks.md)

Each vector keeps the reference's JSON blocks in order: the input first, then the
expected answer(s). Windsurf and Kiro expect text on stderr, which the tests state.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    ref = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent.parent / "shared" / "reference" / "agent-hooks.md"
    doc = ref.read_text(encoding="utf-8")
    out: dict[str, list[object]] = {}
    pattern = r"\*\*Test vector (TV-[A-Z0-9-]+)[^*]*\*\*(.*?)(?=\n---|\n\*\*Test vector|\n## )"
    for tid, body in re.findall(pattern, doc, re.S):
        blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", body, re.S)]
        if blocks:
            out[tid] = blocks
    dest = ROOT / "tests" / "agents" / "vectors.json"
    dest.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(out)} vectors -> {dest.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
