"""Filters for deno test, deno lint and deno check (pretty output); deno run and the rest run unfiltered.

``deno test``: passing test lines, ``Check``/``Download`` lines and the
``running N tests`` headers go (ignored tests are named on one line after the summary); every block of the ``ERRORS`` section stays (test
name => file:line:col, the error, source line, frames; bounded per block by
``limits.test_failure_lines``); the ``FAILURES`` list that repeats those headers goes;
the ``ok | N passed | N failed`` summary and deno's own error lines stay; a closing
``Stack backtrace:`` whose frames are all ``<unknown>`` goes.
``deno lint`` and ``deno check``: every diagnostic with its rule or TS code, message,
hint and location, compacted by :mod:`rtk.filters.js.denodiag` (check: one line per
diagnostic; lint: grouped by rule); the quoted source lines, their markers and gutters
and lint's ``docs:`` links go. Output without the summary deno prints is shown raw. Other
reporters (``--reporter``, ``--json``, ``--compact``) run unfiltered.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.failblocks import Blocks, squeeze

COMMANDS = ("deno",)

_RAW = ("--reporter", "--json", "--compact", "--watch", "--help", "-h", "--doc", "--rules", "--fix", "--coverage")
_TEST_SUMMARY = re.compile(r"^(ok|FAILED) \| \d+ passed( \(\d+ steps?\))? \| \d+ failed")
_PASS = re.compile(r"^.* \.\.\. (ok|ignored|FAILED) \([\d.]+\w+\)$")
_HEADER = re.compile(r"^(running \d+ tests? from .*|Check .*|Download .*)$")
_BLOCK = re.compile(r"^.+ => \S+:\d+:\d+$")


_FRAME = re.compile(r"^\s*\d+: <unknown>$")


def _no_backtrace(lines: list[str]) -> list[str]:
    """deno's closing ``Stack backtrace:`` goes when every frame under it is ``N: <unknown>`` (nothing to read)."""
    # Only the last such line can qualify (an earlier one has it among its frames): one pass from the end.
    seen = False
    for i in range(len(lines) - 1, -1, -1):
        ln = lines[i]
        if ln == "Stack backtrace:":
            return lines[:i] if seen else lines
        if ln.strip():
            if not _FRAME.match(ln):
                return lines
            seen = True
    return lines


# deno's global options, before the subcommand: ``deno --quiet check x.ts``, ``deno -L debug test``.
_GLOBAL_WITH_VALUE = ("-L", "--log-level")
_GLOBAL_FLAGS = ("-q", "--quiet", "--unstable")


def _sub(argv: list[str]) -> tuple[str, list[str]] | None:
    """(subcommand, its arguments), past deno's global options; None when there is none or an unknown option
    comes first (``deno --help``, ``deno -V``)."""
    from rtk.filters.argv import first_word

    i = first_word(argv, _GLOBAL_WITH_VALUE, _GLOBAL_FLAGS, start=1, also=lambda a: a.startswith("--unstable-"))
    if i is None or i >= len(argv):
        return None
    return argv[i], argv[i + 1 :]


def select(argv: list[str]) -> Spec | None:
    parts = _sub(argv)
    if parts is None or any(a.split("=", 1)[0] in _RAW for a in parts[1]):
        return None
    sub = parts[0]
    if sub == "test":
        return Spec("deno-test", test, env={"NO_COLOR": "1"})
    if sub in ("lint", "check"):
        return Spec(f"deno-{sub}", diagnostics, env={"NO_COLOR": "1"})
    return None


def test(argv: list[str], output: str, exit_code: int) -> str | Filtered:
    lines = _no_backtrace(output.splitlines())
    if not any(_TEST_SUMMARY.match(ln) for ln in lines):
        raise Unrecognized("no deno test summary")
    headers: set[str] = set()
    section = ""
    acc = Blocks()
    out, block, flush = acc.out, acc.block, acc.flush
    ignored: list[str] = []
    summary = -1

    for ln in lines:
        s = ln.strip()
        if s in ("ERRORS", "FAILURES"):
            flush()
            section = s
            if s == "ERRORS":
                out.append(s)
            continue
        if _TEST_SUMMARY.match(s):
            flush()
            section = ""
            summary = len(out)
            out.append(s)
            continue
        if section == "ERRORS":
            if _BLOCK.match(ln):
                flush()
                headers.add(s)
            if block or _BLOCK.match(ln):
                block.append(ln)
            elif s:
                out.append(ln)
            continue
        if section == "FAILURES":
            if s and s not in headers:  # a failure the ERRORS section did not show
                out.append(ln)
            continue
        m = _PASS.match(s)
        if m is not None and m.group(1) == "ignored":
            ignored.append(s.rsplit(" ... ", 1)[0])  # which tests did not run is a fact the count does not give
            continue
        if m is not None or _HEADER.match(s):
            continue
        out.append(ln)
    flush()
    if ignored:
        at = summary + 1 if summary >= 0 else len(out)
        out.insert(at, "ignored: " + ", ".join(ignored))
    return Filtered(squeeze(out), acc.cut)


# An empty gutter (``  |``) or a caret/tilde line under the source: the location line gives the column.
_CARETS = re.compile(r"^\s*\|?\s*[\^~]*\s*$")
_LINT_END = re.compile(r"^(Found \d+ problems?|Checked \d+ files?|Found \d+ errors?\.)")


def diagnostics(argv: list[str], output: str, exit_code: int) -> str | None:
    lines = _no_backtrace(output.splitlines())
    if not any(_LINT_END.match(ln) or "[ERROR]:" in ln or ln.startswith("error[") for ln in lines):
        if exit_code == 0 and all(_HEADER.match(ln) or not ln.strip() for ln in lines):
            return None  # deno check with nothing to report: its own one line
        raise Unrecognized("no deno diagnostics")
    from rtk.filters.js import denodiag

    kept = [ln for ln in lines if not _HEADER.match(ln)]
    parts = _sub(argv)
    out = denodiag.check(kept) if parts is not None and parts[0] == "check" else denodiag.lint(kept)
    if out is None:  # diagnostics of another shape: as before, only links, markers and gutters go
        out = [ln for ln in kept if not ln.strip().startswith("docs: https://") and not _CARETS.match(ln)]
    return squeeze(out)
