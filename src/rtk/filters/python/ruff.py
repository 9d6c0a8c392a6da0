"""Filters for ruff: ``ruff check`` as one line per diagnostic, ``ruff format --check`` as a file list.

Both read ruff's default ("full") report and its concise form; ``ruff check`` also reads
its JSON report (``rtk.filters.python.ruff_json``), known by its content, since a config's
``output-format = "json"`` does not show on the command line. Every diagnostic keeps its
code, ``path:line:col``, fix marker and message; the source excerpts, fix previews and
help lines go. Another ``--output-format`` (or a listing flag such as ``--statistics``)
runs unfiltered.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.argv import first_word
from rtk.filters.python.launch import tool_args, tool_label
from rtk.text import split_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

COMMANDS = ("ruff",)

_GLOBAL_WITH_VALUE = frozenset(("--config",))
_GLOBAL_FLAGS = frozenset(("--isolated", "--no-cache", "--preview", "--no-preview"))
# Flags that ask for a different report, a listing or a live mode: run unfiltered.
_CHECK_RAW = (
    "--statistics", "--show-fixes", "--diff", "--watch", "-w", "--add-noqa",
    "--show-files", "--show-settings", "--help", "-h", "--version", "-V", "--quiet", "-q", "--silent", "-s",
    "--output-file", "-o", "--explain", "--verbose", "-v",
)  # fmt: skip
_FORMAT_RAW = ("--diff", "--help", "-h", "--quiet", "-q", "--silent", "-s", "--verbose", "-v", "--output-format")


def _split(args: list[str]) -> tuple[str, list[str]] | None:
    """(subcommand, every other argument, global options included); None if unsure."""
    i = first_word(args, _GLOBAL_WITH_VALUE, _GLOBAL_FLAGS)
    if i is None or i >= len(args):
        return None
    return args[i], args[:i] + args[i + 1 :]


def _asks_raw(args: list[str], raw: tuple[str, ...]) -> bool:
    for a in args:
        if a == "--":
            break
        if a in raw or a.split("=", 1)[0] in raw:
            return True
    return False


def _other_format(args: list[str]) -> bool:
    """Does ``ruff check`` name an output format other than ``json`` (its JSON report is read like its text)?"""
    for i, a in enumerate(args):
        if a == "--":
            break
        if a == "--output-format":
            value = args[i + 1] if i + 1 < len(args) else ""
        elif a.startswith("--output-format="):
            value = a.split("=", 1)[1]
        else:
            continue
        if value != "json":
            return True
    return False


def select(argv: list[str]) -> Spec | None:
    parts = _split(tool_args(argv))
    if parts is None:
        return None
    sub, args = parts
    if sub == "check" and not _asks_raw(args, _CHECK_RAW) and not _other_format(args):
        return Spec("ruff-check", check)
    if sub == "format" and "--check" in args and not _asks_raw(args, _FORMAT_RAW):
        return Spec("ruff-format", format_check)
    return None


# ---------------------------------------------------------------------------
# reading ruff's report
# ---------------------------------------------------------------------------

_CONCISE = re.compile(r"^(.+?):(\d+):(\d+): ([A-Z]+[0-9]+|[a-z][a-z0-9-]*:?) (\[\*\] )?(.*)$")
_HEAD_CODE = re.compile(r"^([A-Z]+[0-9]+) (\[\*\] )?(.+)$")
_HEAD_NAME = re.compile(r"^([a-z][a-z0-9-]*): (.+)$")
_ARROW = re.compile(r"^\s*--> (.+?):(\d+):(\d+)$")
_BODY_PREFIXES = ("help:", "note:", "info:", "= ")
_SUMMARY = (
    "Found ", "[*] ", "All checks passed!", "No fixes available", "Fixed ",
)  # fmt: skip


class Diag:
    __slots__ = ("code", "col", "fix", "line", "msg", "path")

    def __init__(self, path: str, line: str, col: str, code: str, fix: bool, msg: str) -> None:
        self.path, self.line, self.col, self.code, self.fix, self.msg = path, line, col, code, fix, msg

    def render(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.code} {'[*] ' if self.fix else ''}{self.msg}"


_BODY = re.compile(r"^(?:$|[ |]|\d+\s*[|+-](?: |$)|-+$)")


def _is_body(ln: str) -> bool:
    """A line of a diagnostic's excerpt, fix preview or help (``1 | import os``, ``help: ...``)."""
    return bool(_BODY.match(ln)) or ln.startswith(_BODY_PREFIXES)


def read_report(output: str) -> tuple[list[Diag], list[str], list[str]]:
    """(diagnostics, summary lines, other error/warning lines); Unrecognized on anything else."""
    diags: list[Diag] = []
    summary: list[str] = []
    notes: list[str] = []
    lines = split_lines(output)
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        if not ln.strip():
            continue
        m = _CONCISE.match(ln)
        if m and not ln.startswith(("warning:", "error:")):
            path, row, col, code, fix, msg = m.groups()
            diags.append(Diag(path, row, col, code.rstrip(":"), bool(fix), msg))
            continue
        h = _HEAD_CODE.match(ln) or _HEAD_NAME.match(ln)
        arrow = _ARROW.match(lines[i]) if h and i < len(lines) else None
        if h and arrow:
            if h.re is _HEAD_CODE:
                code, fix, msg = h.group(1), bool(h.group(2)), h.group(3)
            else:
                code, fix, msg = h.group(1), False, h.group(2)
            diags.append(Diag(arrow.group(1), arrow.group(2), arrow.group(3), code, fix, msg))
            i += 1
            while i < len(lines) and _is_body(lines[i]):
                i += 1
            continue
        if (
            ln.startswith(_SUMMARY)
            or ln.endswith(("would be reformatted", "already formatted"))
            or re.search(r"fix(?:es|able)? (?:available )?with `--", ln)
        ):
            summary.append(ln)
            continue
        if ln.startswith(("warning: ", "error: ", "Would reformat: ")):
            notes.append(ln)
            continue
        raise Unrecognized(f"ruff line {ln[:60]!r}")
    return diags, summary, notes


def _found(summary: list[str]) -> int | None:
    """The count ruff states: "Found 21 errors." / "Found 3 errors (3 fixed, 0 remaining)."."""
    for s in summary:
        m = re.match(r"Found (\d+) errors?(?: \((\d+) fixed, (\d+) remaining\))?", s)
        if m:
            return int(m.group(3)) if m.group(3) is not None else int(m.group(1))
    return None


def _listing(diags: list[Diag]) -> tuple[list[str], int]:
    """Every diagnostic, one a line, up to ``limits.lint_budget`` tokens; above it counted by code."""
    from rtk.filters import findings

    out = [d.render() for d in diags]
    grouped = findings.by_code([(d.code, t, 1) for d, t in zip(diags, out, strict=True)])
    return (out, 0) if grouped is None else grouped


def check(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``ruff check``: every diagnostic on one line, then ruff's own summary."""
    if exit_code not in (0, 1):
        return None  # configuration error, panic, bad arguments: ruff's own words, raw
    if output.lstrip().startswith(("[", "warning: ", "error: ")):
        from rtk.filters.python import ruff_json

        report = ruff_json.read(output)
        if report is not None:
            return _check_json(argv, *report, exit_code)
    diags, summary, notes = read_report(output)
    stated = _found(summary)
    if exit_code == 0:
        exit_zero = any(a in ("--exit-zero", "-e") for a in tool_args(argv))
        if diags and not exit_zero:
            raise Unrecognized("exit 0 with diagnostics")
        if not diags and "All checks passed!" not in summary and stated != 0:
            raise Unrecognized("exit 0 without 'All checks passed!'")
    elif not diags:
        raise Unrecognized("exit 1 without diagnostics")
    if stated is not None and stated != len(diags):
        raise Unrecognized(f"ruff says {stated} errors, {len(diags)} parsed")
    listing, cut = _listing(diags)
    if diags and stated is None:  # ruff's own count is missing: say what was parsed
        files = len({d.path for d in diags})
        n = len(diags)
        label = tool_label(argv, "ruff")
        summary.append(
            f"{label} check: {n} diagnostic{'s' if n != 1 else ''} in {files} file{'s' if files != 1 else ''}"
        )
    return Filtered("\n".join([*notes, *listing, *summary]) + "\n", cut)


def format_check(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``ruff format --check``: the files that would change and any file ruff could not parse."""
    if exit_code not in (0, 1, 2):
        return None
    diags, summary, notes = read_report(output)
    would = [d.path for d in diags if d.code == "unformatted"]
    would += [n[len("Would reformat: ") :] for n in notes if n.startswith("Would reformat: ")]
    others = [d for d in diags if d.code != "unformatted"]
    notes = [n for n in notes if not n.startswith("Would reformat: ")]
    if exit_code == 0 and (would or others or not summary):
        raise Unrecognized("exit 0 but files would change")
    if exit_code == 1 and not would:
        raise Unrecognized("exit 1 without a file to reformat")
    if exit_code == 2 and not (others or any(n.startswith("error:") for n in notes)):
        return None
    out = [*notes, *(d.render() for d in others)]
    cut = 0
    if would:
        from rtk.filters import names

        got, cut = names.listed(f"would reformat ({len(would)}): ", would, key=names.directory, noun=("file", "files"))
        out.extend(got)
    out.extend(summary)
    return Filtered("\n".join(out) + "\n", cut)


def _check_json(argv: list[str], items: list[dict[str, Any]], notes: list[str], exit_code: int) -> Filtered:
    """``ruff check`` with a JSON report: every diagnostic on one line, then a count."""
    from rtk.filters.python import ruff_json

    if exit_code == 0 and items and not any(a in ("--exit-zero", "-e") for a in tool_args(argv)):
        raise Unrecognized("exit 0 with diagnostics")
    if exit_code == 1 and not items:
        raise Unrecognized("exit 1 without diagnostics")
    from rtk.filters import findings

    listing, diags = ruff_json.render(items, len(items))
    cut = 0
    head = listing[: len(listing) - len(diags)]  # ruff_json's header line, if any
    grouped = findings.by_code([(d.code, t, 1) for d, t in zip(diags, listing[len(head) :], strict=True)])
    if grouped is not None:
        listing = [*head, *grouped[0]]
        cut = grouped[1]
    n, files = len(diags), len({d.path for d in diags})
    fixable = sum(d.fix for d in diags)
    summary = f"{tool_label(argv, 'ruff')} check: {n} diagnostic{'s' if n != 1 else ''}"
    summary += f" in {files} file{'s' if files != 1 else ''}" if n else " (JSON report)"
    if fixable:
        summary += f", {fixable} fixable with --fix ([*])"
    return Filtered("\n".join([*notes, *listing, summary]) + "\n", cut)
