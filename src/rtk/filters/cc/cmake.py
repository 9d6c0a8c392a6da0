"""Filters for ``cmake --build`` (compiler diagnostics, progress dropped) and ``ctest``.

``ctest`` runs with ``CTEST_OUTPUT_ON_FAILURE=1`` so that a failing test's own
output (its assertion message) is in the result; passing tests are counted,
failing ones printed with that output, bounded. Verbose runs (``-V``) print
each test's output as it runs (``N: line``): generic test-result lines in it are read
by :mod:`rtk.filters.testlines` (passes counted, failures kept with their lines) and
ctest's own set-up chatter is dropped. Dashboard modes, listings (``-N``) and ``-VV`` run unfiltered.
"""

from __future__ import annotations

import re

from rtk.filterapi import LineFilter, Spec
from rtk.filters.cc.cc import CcBuild
from rtk.filters.diagnostics import BoundedBuffer, Limits
from rtk.filters.testlines import TestLines
from rtk.text import plural

COMMANDS = ("cmake", "ctest")

_CTEST_RAW = frozenset(
    ("-N", "--show-only", "-VV", "--extra-verbose", "-D", "--dashboard", "-M", "--test-model",
     "-T", "--test-action", "-S", "--script", "-SP", "--script-new-process", "-Q", "--quiet", "--version",
     "--help", "-h", "--debug", "--print-labels")
)  # fmt: skip

_CTEST_VERBOSE = frozenset(("-V", "--verbose"))
# -V: "12: line" is test 12's output; the lines around it are ctest's set-up chatter.
_VERBOSE_LINE = re.compile(r"^(\d+): (.*)$")
_VERBOSE_CHATTER = re.compile(
    r"^(?:UpdateCTestConfiguration  from :|Parse Config file:|Constructing a list of tests$|Done constructing a list"
    r"|Updating test list for fixtures$|Added \d+ tests? to meet fixture requirements$|Checking test dependency graph"
    r"|test \d+$|\d+: (?:Test command: |Working Directory: |Test timeout computed to be: |Environment variables: ?$"
    r"|  \S+=))"
)


def select(argv: list[str]) -> Spec | None:
    tool = argv[0].rsplit("/", 1)[-1]
    args = argv[1:]
    if tool == "ctest":
        if any(a.split("=", 1)[0] in _CTEST_RAW or a.startswith(("--show-only", "-D")) for a in args):
            return None
        if any(a in _CTEST_VERBOSE for a in args):
            return Spec("ctest", stream=CTest)  # the output is already there, once
        return Spec("ctest", stream=CTest, env={"CTEST_OUTPUT_ON_FAILURE": "1"})
    if not args or args[0] != "--build":
        return None  # configure, -E tools, --install...: as they are
    if any(a in ("-v", "--verbose", "--help") for a in args):
        return None
    return Spec("cmake-build", stream=lambda a: CcBuild(a, "cmake --build"))


class CTest(LineFilter):
    """ctest: ``N/M Test #k: name ....   Passed`` lines counted; failures with their output."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.limits = Limits()
        self.passed = 0
        self.failed: list[str] = []
        self.total: int | None = None
        self.current: BoundedBuffer | None = None
        self.head = ""
        self.shown = 0
        self.known = False
        self.in_list = False
        self.tests = TestLines(self.limits)
        self.verbose = any(a in _CTEST_VERBOSE for a in argv[1:])

    def _flush(self) -> str | None:
        cur, self.current = self.current, None
        if cur is None:
            return None
        lines = cur.lines
        while lines and not lines[-1].strip():
            lines.pop()
        self.cut += cur.dropped
        return "\n".join([self.head, *(f"  {ln}" for ln in cur.render("lines of this test's output"))])

    def _verbose(self, line: str) -> str | None:
        if _VERBOSE_CHATTER.match(line):
            self.known = True
            return None
        m = _VERBOSE_LINE.match(line)
        if m is None:
            return line
        used, text = self.tests.feed(m.group(2))
        if not used:
            return line if m.group(2).strip() else None
        return None if text is None else "\n".join(f"{m.group(1)}: {t}" for t in text.split("\n"))

    def feed(self, line: str) -> str | None:
        if self.verbose and (_VERBOSE_LINE.match(line) or _VERBOSE_CHATTER.match(line)):
            return self._verbose(line)
        s = line.strip()
        if s.startswith("Start ") and s[6:].lstrip().split(":", 1)[0].isdigit():
            self.known = True
            return self._flush()
        if " Test " in line and "#" in line and "/" in line.split(" Test ", 1)[0]:
            return self._result(line)
        if self.current is not None:
            if s.endswith("tests passed") or "% tests passed, " in s:
                pass  # the run's summary: the failing test's output ended
            else:
                self.current.add(line)
                return None
        done = self._flush()
        return self._then(done, self._other(line, s))

    def _then(self, first: str | None, second: str | None) -> str | None:
        if first is None:
            return second
        return first if second is None else first + "\n" + second

    def _result(self, line: str) -> str | None:
        self.known = True
        done = self._flush()
        # " 2/11 Test  #2: sub ..............................***Failed    0.00 sec"
        name = line.split(": ", 1)[1].split(" ", 1)[0] if ": " in line else line
        verdict = line.rsplit(".", 1)[-1] if "." in line else line
        if "   Passed" in line or verdict.strip().startswith("Passed"):
            self.passed += 1
            return done
        self.failed.append(name)
        if self.limits.max_failures > 0 and self.shown >= self.limits.max_failures:
            self.cut += 1
            return done
        self.shown += 1
        self.head = line.strip()
        self.current = BoundedBuffer(self.limits.failure_lines)
        return done

    def _other(self, line: str, s: str) -> str | None:
        if line.startswith("Test project "):
            self.known = True
            return None
        if "% tests passed, " in s and " out of " in s:
            self.known = True
            self.total = int(s.rsplit(" ", 1)[1]) if s.rsplit(" ", 1)[1].isdigit() else None
            return None
        if s.startswith("Total Test time (real)"):
            return None
        if s == "The following tests FAILED:":
            self.in_list = True
            return None
        if self.in_list and line.startswith("\t"):
            name = s.split(" - ", 1)[1].rsplit(" (", 1)[0] if " - " in s else s
            if name not in self.failed:
                self.failed.append(name)
            return None
        self.in_list = False
        if s in ("Errors while running CTest",) or s.startswith('Use "--rerun-failed'):
            return None
        if not s:
            return None
        return line

    def finish(self, exit_code: int) -> str:
        out = []
        done = self._flush()
        if done is not None:
            out.append(done)
        if not self.known:
            return "\n".join(out)
        if self.tests.seen:
            self.cut += self.tests.cut
            out.append(self.tests.summary())
        total = self.total if self.total is not None else self.passed + len(self.failed)
        if exit_code == 0 and not self.failed and self.total:
            out.append(f"ctest: ok, {self.passed}/{total} tests passed")
        elif exit_code == 0 and not self.failed:
            out.append("ctest: no tests ran")
        else:
            out.append(f"ctest: FAILED (exit {exit_code}), {self.passed} passed, {len(self.failed)} failed of {total}")
            if self.failed:
                out.append(f"failed ({plural(len(self.failed), 'test')}): " + ", ".join(self.failed))
        return "\n".join(out)
