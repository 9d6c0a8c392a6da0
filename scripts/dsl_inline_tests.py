#!/usr/bin/env python3
"""Regenerate the inline tests of the built-in TOML filters from real captured outputs.

usage: python scripts/dsl_inline_tests.py [FILE.toml ...]   (default: every built-in file)

In a file under src/rtk/dsl/builtin/, everything after the marker line
``# --- inline tests`` is generated. Each directive line there,

    #@ test FILTER FIXTURE [lines=A-B]

(FIXTURE is ``<dir>/<case>`` under tests/fixtures/, whose .raw is real output
and whose .toml gives the exit code) becomes a ``[[tests.FILTER]]`` table: the
input is the raw output (or lines A-B of it, a contiguous excerpt) and the
expected output is what the filter makes of it now. Review the diff before
committing: this records behaviour, the fixture facts check it.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rtk.dsl import builtins, engine, schema  # noqa: E402

MARKER = "# --- inline tests"
FIXTURES = ROOT / "tests" / "fixtures"


def toml_text(s: str) -> str:
    """A TOML multi-line basic string holding ``s`` exactly."""
    out = []
    for c in s:
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\n" or c == "\t":
            out.append(c)
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"""\n' + "".join(out) + '"""'


def block(defs: dict[str, dict[str, object]], directive: str) -> str:
    parts = directive.split()
    if len(parts) < 4:
        raise SystemExit(f"bad directive: {directive}")
    fname, fixture = parts[2], parts[3]
    opts = dict(p.split("=", 1) for p in parts[4:])
    raw = (FIXTURES / f"{fixture}.raw").read_bytes().decode("utf-8", "replace")
    meta = tomllib.loads((FIXTURES / f"{fixture}.toml").read_text(encoding="utf-8"))
    code = int(meta["exit_code"])
    label = f"{' '.join(meta['argv'])} ({fixture}"
    if "lines" in opts:
        a, b = (int(x) for x in opts["lines"].split("-"))
        raw = "".join(raw.splitlines(keepends=True)[a - 1 : b])
        label += f", lines {a}-{b}"
    label += f", exit {code})"
    d = defs.get(fname)
    if d is None:
        raise SystemExit(f"{directive}: no filter {fname} in this file")
    expected = engine.apply(d, raw, code).text
    name = '"' + label.replace("\\", "\\\\").replace('"', '\\"') + '"'
    lines = [directive, f"[[tests.{fname}]]", f"name = {name}"]
    if code:
        lines.append(f"exit_code = {code}")
    lines.append(f"input = {toml_text(raw)}")
    lines.append(f"expected = {toml_text(expected)}")
    return "\n".join(lines)


def regenerate(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    if MARKER not in text:
        return False
    head, _, tail = text.partition(MARKER)
    marker_line, _, rest = tail.partition("\n")
    directives = [ln for ln in rest.splitlines() if ln.startswith("#@ test ")]
    defs_list, _, problems = schema.parse_bytes(head.encode(), str(path))
    errors = [p.message for p in problems if p.level == "error"]
    if errors:
        raise SystemExit("\n".join(errors))
    defs = {d["name"]: d for d in defs_list}
    blocks = [block(defs, d) for d in directives]
    new = head + MARKER + marker_line + "\n" + "\n\n".join(blocks) + "\n"
    if new != text:
        path.write_text(new, encoding="utf-8")
        print(f"updated {path.relative_to(ROOT)} ({len(blocks)} tests)")
    return True


def main() -> int:
    paths = [Path(p).resolve() for p in sys.argv[1:]] or [Path(p) for p in builtins.files()]
    for p in paths:
        regenerate(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
