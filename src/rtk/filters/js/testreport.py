"""Shared shape of a JS test run: counts, failures with full names and bounded bodies, rendering."""

from __future__ import annotations

import re

from rtk.filterapi import Filtered
from rtk.filters.js.common import is_frame, is_internal_frame, limit, rel

# Code-frame lines printed under an assertion ("  5 | expect(x)", "    |   ^", "> 5 | ...").
_FRAME_CODE = re.compile(r"^\s*(?:>\s*)?\d+\s*[|│]|^\s*[|│]\s*[\^~\s]*$|^\s+[|│]")


def is_code_frame(line: str) -> bool:
    return bool(_FRAME_CODE.match(line))


class Failure:
    """One failing test (or suite that failed to load): its full name and what it printed."""

    __slots__ = ("body", "name")

    def __init__(self, name: str, body: list[str] | None = None) -> None:
        self.name = name
        self.body: list[str] = body if body is not None else []


def clean_body(lines: list[str], indent: int | None = None) -> list[str]:
    """Drop code frames, internal stack frames and blank runs; dedent; relativise paths in frames."""
    out: list[str] = []
    for ln in lines:
        if is_code_frame(ln):
            continue
        s = ln.rstrip()
        if is_frame(s) or s.strip().startswith("❯ "):
            if is_internal_frame(s):
                continue
            s = re.sub(r"(?:file://)?(/[^\s():]+)", lambda m: rel(m[1]), s)
        if not s.strip():
            if out and out[-1] != "":
                out.append("")
            continue
        out.append(s)
    while out and out[-1] == "":
        out.pop()
    while out and out[0] == "":
        out.pop(0)
    if not out:
        return out
    pad = indent if indent is not None else min(len(x) - len(x.lstrip()) for x in out if x)
    return [x[pad:] if x[:pad].strip() == "" else x.lstrip() for x in out]


def render(head: str, failures: list[Failure], extra: list[str] | None = None) -> Filtered:
    """The summary line, then every failure (bounded per failure and in number, with exact counts)."""
    max_fail = limit("test_max_failures")
    max_lines = limit("test_failure_lines")
    out = [head]
    cut = 0
    shown = failures if len(failures) <= max_fail + 1 else failures[:max_fail]
    for f in shown:
        out.append(f"FAIL {f.name}")
        body = f.body
        if len(body) > max_lines + 1:
            cut += len(body) - max_lines
            body = [*body[:max_lines], f"... {len(f.body) - max_lines} more lines of this failure"]
        out.extend("  " + b if b else "" for b in body)
    if len(shown) < len(failures):
        n = len(failures) - len(shown)
        cut += n
        out.append(f"+{n} more failing tests: " + ", ".join(f.name for f in failures[len(shown) :]))
    if extra:
        out.extend(extra)
    return Filtered("\n".join(out), cut)


def counts(parts: list[tuple[str, int]]) -> str:
    """``[("failed", 3), ("passed", 4), ("skipped", 0)]`` -> ``3 failed, 4 passed``."""
    return ", ".join(f"{n} {w}" for w, n in parts if n)
