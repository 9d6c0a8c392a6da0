"""Filter for ``tsc`` (also ``tsc -b``, ``--noEmit``, ``--pretty``): every diagnostic, grouped by file."""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.js.common import has_flag, rel
from rtk.text import plural, split_lines

COMMANDS = ("tsc",)

# Flags whose output is not diagnostics (listings, config dumps, help): run raw.
_RAW_FLAGS = (
    "--listFiles", "--listFilesOnly", "--listEmittedFiles", "--showConfig", "--explainFiles", "--traceResolution",
    "--extendedDiagnostics", "--diagnostics", "--generateTrace", "--version", "-v", "--help", "-h", "-?", "--all",
    "--init", "--verbose", "--build-verbose",
)  # fmt: skip
_WATCH = ("--watch", "-w")


def select(argv: list[str]) -> Spec | None:
    args = argv[1:]
    if has_flag(args, *_WATCH):
        return Spec("tsc", live=True)
    if has_flag(args, *_RAW_FLAGS) or (("-b" in args or "--build" in args) and has_flag(args, "--verbose", "--dry")):
        return None
    return Spec("tsc", check)


# src/a.ts(3,7): error TS2322: message         (plain, the default when not on a terminal)
_PLAIN = re.compile(
    r"^(?P<file>.+?)\((?P<line>\d+),(?P<col>\d+)\): (?P<sev>error|warning|message) (?P<code>TS\d+): ?(?P<msg>.*)$"
)
# src/a.ts:3:7 - error TS2322: message          (--pretty)
_PRETTY = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+) - (?P<sev>error|warning|message) (?P<code>TS\d+): ?(?P<msg>.*)$"
)
# error TS5023: Unknown compiler option 'x'.    (global: no file)
_GLOBAL = re.compile(r"^(?P<sev>error|warning|message) (?P<code>TS\d+): ?(?P<msg>.*)$")
_FOUND = re.compile(
    r"^Found (\d+) errors?(?: in (\d+) files?)?\.?$|^Found (\d+) errors? in the same file, starting at: .*$"
)
_TABLE_ROW = re.compile(r"^\s+\d+\s+\S.*?(?::\d+)?$")


class _Diag:
    __slots__ = ("code", "col", "file", "line", "more", "msg", "sev")

    def __init__(self, file: str, line: str, col: str, sev: str, code: str, msg: str) -> None:
        self.file, self.line, self.col, self.sev, self.code, self.msg = file, line, col, sev, code, msg
        self.more: list[str] = []


def parse(output: str) -> tuple[list[_Diag], int | None, list[str]]:
    """Diagnostics, tsc's own error count (``Found N errors``) if printed, unknown lines."""
    diags: list[_Diag] = []
    found: int | None = None
    unknown: list[str] = []
    pretty_frame = False
    for ln in split_lines(output):
        m = _PLAIN.match(ln) or _PRETTY.match(ln)
        if m:
            diags.append(_Diag(rel(m["file"]), m["line"], m["col"], m["sev"], m["code"], m["msg"]))
            pretty_frame = bool(_PRETTY.match(ln))
            continue
        m = _GLOBAL.match(ln)
        if m:
            diags.append(_Diag("", "", "", m["sev"], m["code"], m["msg"]))
            continue
        m = _FOUND.match(ln.strip())
        if m:
            found = int(m[1] or m[3])
            pretty_frame = False
            continue
        if not ln.strip():
            continue
        if ln.startswith("Errors  Files") or _TABLE_ROW.match(ln):
            continue  # the --pretty per-file table after "Found N errors"
        if diags and ln.startswith("  ") and not pretty_frame:
            diags[-1].more.append(ln.strip())  # elaboration ("  Type 'X' is missing ...")
            continue
        if pretty_frame and diags:
            # --pretty: code frame ("12 const x...", "   ~~~") and indented elaborations
            s = ln.strip()
            if s and (s[0].isdigit() or set(s) <= set("~ ")):
                continue
            if ln.startswith("  "):
                diags[-1].more.append(s)
                continue
        unknown.append(ln)
    return diags, found, unknown


def check(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    diags, found, unknown = parse(output)
    errors = [d for d in diags if d.sev == "error"]
    if exit_code == 0:
        if errors or unknown:
            raise Unrecognized("exit 0 with diagnostics or unknown lines")
        if not diags:
            return "tsc: no errors"
    if not diags:
        raise Unrecognized("failed without diagnostics")  # crash, usage error, missing tsconfig
    if found is not None and found != len(errors):
        raise Unrecognized(f"tsc reported {found} errors, {len(errors)} parsed")
    files: dict[str, list[_Diag]] = {}
    for d in diags:
        files.setdefault(d.file, []).append(d)
    nfiles = len([f for f in files if f])
    head = f"tsc: {plural(len(errors), 'error')}"
    others = len(diags) - len(errors)
    if others:
        head += f", {plural(others, 'other diagnostic')}"
    if nfiles:
        head += f" in {plural(nfiles, 'file')}"
    out = [head]
    for ln in unknown:
        out.append(ln)
    for file, ds in files.items():
        if file:
            out.append(file)
        for d in ds:
            loc = f"{d.line}:{d.col} " if file else ""
            sev = "" if d.sev == "error" else d.sev + " "
            out.append(f"  {loc}{sev}{d.code}: {d.msg}")
            out.extend("    " + m for m in d.more)
    return "\n".join(out)
