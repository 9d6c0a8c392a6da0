"""Filter for mypy (also ``python -m mypy``): every error grouped by file, with its code and line.

Errors of one file are listed under the file name (``  12: message [code]``);
identical messages in a file share one line (``3, 9, 14: ...``). Notes stay with
their error, except documentation links. ``--pretty`` reports are read too
(wrapped messages joined, source excerpts dropped). Anything else mypy prints
(a crash, usage text, reports) is shown raw.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.python.launch import tool_args, tool_label
from rtk.text import split_lines

COMMANDS = ("mypy",)

_RAW_FLAGS = (
    "--output", "-O", "--help", "-h", "--version", "-V", "--verbose", "-v", "--install-types", "--stats",
    "--inferstats", "--show-traceback", "--tb", "--raise-exceptions", "--pdb", "--junit-format",
)  # fmt: skip


def select(argv: list[str]) -> Spec | None:
    for a in tool_args(argv):
        if a == "--":
            break
        key = a.split("=", 1)[0]
        if key in _RAW_FLAGS or key.endswith("-report") or (a.startswith("-O") and len(a) > 2):
            return None  # another report format or a debugging aid: leave it as it is
    return Spec("mypy", run)


_LINE = re.compile(
    r"^(?P<path>[^\s:][^:]*?)(?::(?P<line>\d+)(?::(?P<col>\d+))?(?::\d+:\d+)?)?: "
    r"(?P<sev>error|note|warning): (?P<msg>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)
_CONTEXT = re.compile(r"^[^\s:][^:]*: note: (In |At top level)")
_SUMMARY = re.compile(r"^(Found \d+ errors? in \d+ files?|Success: no issues found)")
_CODE_TAIL = re.compile(r"^(.*?)\s*\[([a-z0-9-]+)\]$")
_DOC_NOTES = ("See https://", '(or run "mypy --install-types"', "Use https://", "PEP 484 prohibits implicit Optional")


class _Item:
    __slots__ = ("code", "col", "lines", "msg", "notes", "sev")

    def __init__(self, sev: str, line: str, col: str | None, msg: str, code: str | None) -> None:
        self.sev, self.msg, self.code = sev, msg, code
        self.lines = [line + (f":{col}" if col else "")]
        self.col = col
        self.notes: list[str] = []

    def key(self) -> tuple[str, str, str | None, tuple[str, ...]]:
        return (self.sev, self.msg, self.code, tuple(self.notes))

    def render(self) -> list[str]:
        where = ", ".join(self.lines)
        label = "" if self.sev == "error" else f"{self.sev}: "
        code = f" [{self.code}]" if self.code else ""
        lead = f"  {where}: " if where else "  "
        return [f"{lead}{label}{self.msg}{code}", *(f"      note: {n}" for n in self.notes)]


def run(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """mypy's report, grouped by file."""
    files: dict[str, list[_Item]] = {}
    summary: list[str] = []
    other: list[str] = []
    last: _Item | None = None
    last_path = ""
    wrapped = False  # --pretty: the message of ``last`` continues on the next line
    errors = 0
    for ln in split_lines(output):
        if not ln.strip():
            continue
        m = _LINE.match(ln)
        if m:
            path, sev, msg, code = m.group("path"), m.group("sev"), m.group("msg"), m.group("code")
            wrapped = code is None and sev == "error"
            line = m.group("line") or ""
            if sev == "note" and last is not None and path == last_path and line == last.lines[-1].split(":")[0]:
                if not msg.startswith(_DOC_NOTES):
                    last.notes.append(msg)
                continue
            if sev == "note" and msg.startswith(_DOC_NOTES):
                continue
            item = _Item(sev, line, m.group("col"), msg, code)
            if sev == "error":
                errors += 1
            files.setdefault(path, []).append(item)
            last, last_path = item, path
            continue
        if _CONTEXT.match(ln):
            continue  # --show-error-context: "In function ..." headings
        if _SUMMARY.match(ln):
            summary.append(ln)
            wrapped = False
            continue
        if ln.startswith(" ") or set(ln.strip()) <= {"^", "~"}:
            continue  # --pretty: the source line and its marker
        if wrapped and last is not None:
            # --pretty wraps long messages; the code comes at the end of the last piece
            t = _CODE_TAIL.match(ln)
            piece = t.group(1) if t else ln
            last.msg = f"{last.msg.rstrip()} {piece.strip()}".strip()
            if t:
                last.code = t.group(2)
                wrapped = False
            continue
        if ln.startswith(("mypy: ", "Warning: ", "warning: ")) and not ln.startswith("mypy: error"):
            other.append(ln)
            continue
        raise Unrecognized(f"mypy line {ln[:60]!r}")
    stated = _stated(summary)
    if exit_code == 0:
        if errors or (not any(s.startswith("Success") for s in summary) and not _no_summary(argv)):
            raise Unrecognized("exit 0 without mypy's success line")
    elif exit_code in (1, 2):
        if not errors and not other:
            raise Unrecognized(f"exit {exit_code} without an error")
    else:
        return None
    if stated is not None and stated != errors:
        raise Unrecognized(f"mypy says {stated} errors, {errors} parsed")
    out, cut = _render(files)
    label = tool_label(argv, "mypy")
    if not summary and errors:
        summary = [f"{label}: {errors} error{'s' if errors != 1 else ''} (exit {exit_code})"]
    return Filtered("\n".join([*other, *out, *summary]) + "\n", cut)


def _no_summary(argv: list[str]) -> bool:
    return "--no-error-summary" in tool_args(argv)


def _stated(summary: list[str]) -> int | None:
    for s in summary:
        m = re.match(r"Found (\d+) errors?", s)
        if m:
            return int(m.group(1))
        if s.startswith("Success"):
            return 0
    return None


def _render(files: dict[str, list[_Item]]) -> tuple[list[str], int]:
    """Every diagnostic, by file, up to ``limits.lint_budget`` tokens; above it counted by code."""
    from rtk.filters import findings

    out: list[str] = []
    flat: list[tuple[str, str, int]] = []  # (code, "path:line: message" and notes, diagnostics)
    for path, items in files.items():
        merged: list[_Item] = []
        for it in items:
            same = next((m for m in merged if m.key() == it.key()), None)
            if same is not None and it.sev == "error":
                same.lines.extend(it.lines)
            else:
                merged.append(it)
        n = sum(1 for it in items if it.sev == "error")
        out.append((f"{path} ({n} error{'s' if n != 1 else ''})" if n else path) + ":")
        for it in merged:
            lines = it.render()
            out.extend(lines)
            flat.append((it.code or it.sev, "\n".join([f"{path}:{lines[0].strip()}", *lines[1:]]), len(it.lines)))
    grouped = findings.by_code(flat)
    return (out, 0) if grouped is None else grouped
