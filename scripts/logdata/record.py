#!/usr/bin/env python3
"""Write the capture fields of tests/logdata/CASE.toml, keeping its hand-declared facts.

usage: record.py CASE --kind log-file|output --argv JSON --command TEXT --exit N
                 --script PATH [--tool VERSION ...] [--note TEXT]

The .log beside it must already hold the bytes exactly as produced. An existing
CASE.toml keeps its ``facts``, ``facts_re`` and ``notes``; everything else is refreshed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DATA = ROOT / "tests" / "logdata"


def toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def toml_list(items: list[str]) -> str:
    if not items:
        return "[]"
    return "[\n" + "".join(f"    {toml_str(i)},\n" for i in items) + "]"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case")
    ap.add_argument("--kind", required=True, choices=["log-file", "output"])
    ap.add_argument("--argv", required=True, help="JSON list: how an agent would see it")
    ap.add_argument("--command", required=True, help="the command that produced the bytes")
    ap.add_argument("--exit", required=True, type=int)
    ap.add_argument("--script", required=True)
    ap.add_argument("--tool", action="append", default=[])
    ap.add_argument("--note", default="")
    ns = ap.parse_args()
    log = DATA / f"{ns.case}.log"
    if not log.is_file():
        ap.error(f"{log} does not exist")
    meta = DATA / f"{ns.case}.toml"
    old = tomllib.loads(meta.read_text(encoding="utf-8")) if meta.exists() else {}
    argv = json.loads(ns.argv)
    lines = log.read_bytes().count(b"\n")
    out = [
        f"# Real data captured by {ns.script}; facts are lines a fold must keep whole.",
        f"log = {toml_str(log.name)}",
        f"kind = {toml_str(ns.kind)}",
        f"argv = [{', '.join(toml_str(a) for a in argv)}]",
        f"command = {toml_str(ns.command)}",
        f"script = {toml_str(ns.script)}",
        f"tools = [{', '.join(toml_str(t) for t in ns.tool)}]",
        f"exit_code = {ns.exit}",
        f"captured = {toml_str(datetime.date.today().isoformat())}",
        f"lines = {lines}",
        f"notes = {toml_str(str(old.get('notes', ns.note)))}",
        f"facts = {toml_list(list(old.get('facts', [])))}",
        f"facts_re = {toml_list(list(old.get('facts_re', [])))}",
    ]
    meta.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"{meta.relative_to(ROOT)}: {lines} lines, exit {ns.exit}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
