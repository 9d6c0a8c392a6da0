"""Generic test-result lines (TAP, PASS/FAIL/ok/ERROR, ✓/✗, gtest brackets) wherever a build or script runs tests.

:func:`classify` names the shape of one line; :class:`TestLines` reads a stream of
lines: a passing test (and the lines that belong to it, such as a TAP ``---`` YAML
block) folds into a count, a failing test is printed with its message, location
and the lines that belong to it (TAP diagnostics, an indented message block),
bounded. Lines that are not test results are handed back to the caller untouched.
:func:`compact` applies the same to a whole output. Nothing here knows a runner.
"""

from __future__ import annotations

import re

from rtk.filters.diagnostics import Limits
from rtk.text import plural

PASS, FAIL, ERROR, SKIP, TODO, PLAN, NOISE = "pass", "fail", "error", "skip", "todo", "plan", "noise"

_WS = r"[ \t]*"
# TAP: "ok 1 - name", "not ok 2 name # TODO why", "ok 3 # SKIP why", a bare "ok".
_TAP = re.compile(r"^[ \t]*(not ok|ok)(?:$|[ \t]+(?=\d|-|#)(?:\d+)?[ \t]*-?[ \t]*(.*?))$")
_DIRECTIVE = re.compile(r"#[ \t]*(SKIP|TODO)\S*", re.I)
_PLAN = re.compile(r"^[ \t]*1\.\.\d+(?:[ \t]*#.*)?$")
# "PASS name", "FAIL: name", "[FAIL] name", "ERROR name", "PASSED name" (upper case only).
_PREFIX = re.compile(
    _WS
    + r"(?:\[[ \t]*)?(PASS(?:ED)?|OK|FAIL(?:ED|URE)?|ERROR|SKIP(?:PED)?|TODO|XFAIL)(?:[ \t]*\])?(?::[ \t]*|[ \t]+)(\S.*)$"
)
# A verdict followed by counts is a run's summary ("[  PASSED  ] 3 tests.", "OK (skipped=1)"), not a test.
_SUMMARY_REST = re.compile(r"^\(?\w+=\d|^\d+ (?:tests?|of|out)\b")
# "name ... ok", "name ... FAIL", "name: PASS", "name ..... [PASSED]", "name - FAILED".
_SUFFIX = re.compile(
    r"^(?!\s*#)(?!(?:Result|Status|Summary|Overall|Total|All tests|Tests?)\b)\S.*?(?:[ \t]*\.{2,}|:|[ \t]+-+)[ \t]*\[?[ \t]*(ok|OK|PASS(?:ED)?|passed|FAIL(?:ED)?|failed|ERROR|"
    r"SKIP(?:PED)?|skipped)[ \t]*\]?(?:[ \t]+.*)?$"
)
# "✓ name", "  ✗ name", "× name", "✔", "✘".
_MARK = re.compile(r"^[ \t]*([✓✔√]|[✗✘×✕])[ \t]+\S")
# googletest: "[       OK ] Suite.Test (0 ms)", "[  FAILED  ] Suite.Test (1 ms)", "[ RUN      ] ...".
_GTEST = re.compile(r"^\[ *(OK|FAILED|RUN|SKIPPED) *\] (\S+)(?: \(\d+ ms\))?$")
# TAP and node --test noise: the version line, subtest headers, the closing counters.
_TAP_NOISE = re.compile(
    r"^[ \t]*(?:TAP version \d+$|# Subtest: |# (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$)"
)
_TAP_COUNT = re.compile(r"^# (tests|pass|fail|skipped|todo) (\d+)$")
# Inside a failure's YAML block: timing and the runtime's own stack frames are noise.
_BLOCK_NOISE = re.compile(r"^\s*duration_ms: |\((?:node:|internal/)[\w/.:-]+\)\s*$|^\s*at .*\((?:node:|internal/)")

_VERDICT = {
    "PASS": PASS, "PASSED": PASS, "OK": PASS, "ok": PASS, "passed": PASS,
    "FAIL": FAIL, "FAILED": FAIL, "FAILURE": FAIL, "failed": FAIL, "XFAIL": SKIP,
    "ERROR": ERROR, "SKIP": SKIP, "SKIPPED": SKIP, "skipped": SKIP, "TODO": TODO,
}  # fmt: skip


def classify(line: str) -> str | None:
    """The test-result shape of ``line``: PASS, FAIL, ERROR, SKIP, TODO, PLAN, NOISE, or None."""
    s = line.lstrip()
    if not s:
        return None
    c = s[0]
    if c in "on":
        m = _TAP.match(line)
        if m is not None:
            d = _DIRECTIVE.search(m.group(2) or "")
            if d is not None:
                return SKIP if d.group(1).upper() == "SKIP" else TODO
            return FAIL if m.group(1) == "not ok" else PASS
    if c in "✓✔√✗✘×✕":
        m = _MARK.match(line)
        if m is not None:
            return PASS if m.group(1) in "✓✔√" else FAIL
    if c == "[":
        g = _GTEST.match(s)
        if g is not None:
            v = g.group(1)
            return PASS if v == "OK" else FAIL if v == "FAILED" else SKIP if v == "SKIPPED" else NOISE
    if c in "1" and _PLAN.match(line):
        return PLAN
    if c in "#T" and _TAP_NOISE.match(line):
        return NOISE
    if c in "PFOESTX[":
        m = _PREFIX.match(line)
        if m is not None:
            return None if _SUMMARY_REST.match(m.group(2)) else _VERDICT[m.group(1)]
    if ("." in s or ":" in s or "-" in s) and not line[0].isspace():
        m = _SUFFIX.match(line)
        if m is not None:
            return _VERDICT[m.group(1)]
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


class TestLines:
    """Reads test-result lines out of a stream; ``feed`` returns (consumed, text to print)."""

    __test__ = False  # not a pytest class

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.counts = {PASS: 0, FAIL: 0, ERROR: 0, SKIP: 0, TODO: 0}
        self.plans = 0
        self.planned = 0  # the last plan's N (1..N) and the results read since it
        self.since_plan = 0
        self.tap_counts: dict[str, int] = {}
        self.failures_shown = 0
        self.cut = 0
        self.block: str | None = None  # "keep" or "drop": lines belonging to the last result
        self.block_indent = 0
        self.block_lines = 0
        self.yaml = False

    @property
    def seen(self) -> bool:
        return any(self.counts.values())

    @property
    def failed(self) -> int:
        return self.counts[FAIL] + self.counts[ERROR]

    def _belongs(self, line: str) -> bool:
        if self.block is None:
            return False
        s = line.strip()
        if self.yaml:
            if s == "...":
                self.yaml = False
            return True
        if s == "---" and self.block_lines == 0:
            self.yaml = True
            return True
        if not s:
            return True  # a blank line inside the block; what follows decides where the block ends
        if _indent(line) > self.block_indent:
            return True
        return self.block == "keep" and s.startswith("#") and _TAP_NOISE.match(line) is None

    def _in_block(self, line: str) -> str | None:
        self.block_lines += 1
        if self.block == "drop" or not line.strip() or _BLOCK_NOISE.search(line):
            return None
        cap = self.limits.failure_lines
        if cap > 0 and self.block_lines > cap:
            self.cut += 1
            if self.block_lines == cap + 1:
                return f"{' ' * (self.block_indent + 2)}... (more lines of this failure not shown)"
            return None
        return line

    def feed(self, line: str) -> tuple[bool, str | None]:
        """(True, text or None) when the line is a test result or belongs to one; (False, None) otherwise."""
        if self.block is not None:
            if self._belongs(line):
                return True, self._in_block(line)
            self.block = None
            self.yaml = False
        kind = classify(line)
        if kind is None:
            return False, None
        if kind == NOISE:
            m = _TAP_COUNT.match(line.strip())
            if m is not None:
                self.tap_counts[m.group(1)] = int(m.group(2))
            return True, None
        if kind == PLAN:
            self.plans += 1
            self.planned = int(line.strip()[3:].split("#", 1)[0] or 0)
            self.since_plan = 0
            return True, None
        if kind == PASS and line.strip() == "ok" and 0 < self.planned <= self.since_plan:
            self.block = "drop"  # a harness's verdict on a whole file after its plan is done (prove)
            return True, None
        self.since_plan += 1
        self.counts[kind] += 1
        self.block_indent = _indent(line)
        self.block_lines = 0
        if kind in (FAIL, ERROR):
            mf = self.limits.max_failures
            if mf > 0 and self.failures_shown >= mf:
                self.block = "drop"
                self.cut += 1
                return True, None
            self.failures_shown += 1
            self.block = "keep"
            return True, line
        self.block = "drop"  # a pass, skip or todo: its lines go with it
        return True, None

    def summary(self) -> str:
        """``tests: 8 passed, 2 failed, 1 skipped`` (plus ``N failures not shown``)."""
        c = self.counts
        parts = [f"{c[PASS]} passed"]
        if c[FAIL]:
            parts.append(f"{c[FAIL]} failed")
        if c[ERROR]:
            parts.append(plural(c[ERROR], "error"))
        if c[SKIP]:
            parts.append(f"{c[SKIP]} skipped")
        if c[TODO]:
            parts.append(f"{c[TODO]} todo")
        hidden = self.failed - self.failures_shown
        if hidden > 0:
            parts.append(f"{hidden} more {'failure' if hidden == 1 else 'failures'} not shown")
        return "tests: " + ", ".join(parts)

    def verdict(self, exit_code: int) -> str:
        """The summary with the exit code, never calling a run good when the lines or the code say otherwise."""
        if exit_code == 0 and not self.failed:
            return self.summary()
        if exit_code == 0:
            return f"{self.summary()} (exit 0, but {plural(self.failed, 'test')} failed)"
        return f"{self.summary()} (exit {exit_code})"


def compact(lines: list[str], exit_code: int) -> tuple[list[str], int] | None:
    """Whole-output form: the lines with passing tests folded and the verdict appended; None if no test line."""
    tl = TestLines()
    out: list[str] = []
    for ln in lines:
        used, text = tl.feed(ln)
        if not used:
            out.append(ln)
        elif text is not None:
            out.append(text)
    if not tl.seen:
        return None
    while out and not out[-1].strip():
        out.pop()
    out.append(tl.verdict(exit_code))
    return out, tl.cut
