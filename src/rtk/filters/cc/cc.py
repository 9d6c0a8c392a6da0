"""Filters for make and the C/C++ compilers (gcc, g++, cc, c++, clang, clang++).

One streaming filter reads GCC/Clang diagnostics wherever they appear: an error
is printed whole (its ``In function`` context, source excerpt, caret, notes) as
soon as the next line shows it is complete; warnings are held and listed at the
end grouped by ``-W`` flag. Make's directory chatter, the echoed compiler
commands and CMake/Ninja progress lines are dropped; every other line (a
recipe's own output, linker messages, ``make: *** ... Error 1``) is printed as
it is. Flags that ask make or the compiler for a listing (``make -n``,
``gcc -E``, ``-M``...) or write to stdout run unfiltered.
"""

from __future__ import annotations

import re

from rtk.filterapi import LineFilter, Spec
from rtk.filters.diagnostics import ErrorLines, Limits, Warnings
from rtk.filters.testlines import TestLines
from rtk.text import plural

COMMANDS = ("make", "gcc", "g++", "cc", "c++", "clang", "clang++")

_DIAG = re.compile(r"^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning|note|remark): (.*)$")
_TOOL_DIAG = re.compile(
    r"^(?:\S*/)?(?:cc1|cc1plus|cc|c\+\+|gcc|g\+\+|clang|clang\+\+|collect2|ld|ld\.\w+|lto1|lto-wrapper)"
    r"(?:-\d+(?:\.\d+)*)?: (fatal error|error|warning|note): (.*)$"
)
_CONTEXT = re.compile(
    r"^(?:In file included from |                 from |.+?: (?:In (?:member |static member |lambda )?function"
    r"|In constructor|In destructor|In instantiation of|In substitution of|At (?:top level|global scope)"
    r"|In member function|In function template))"
)
_REQUIRED = re.compile(r"^\S+:\d+:(?:\d+:)?\s+(?:required|recursively required|in) ")
_GENERATED = re.compile(r"^\d+ (?:errors?|warnings?)(?: and \d+ (?:errors?|warnings?))? generated\.$")
_MAKE_DIR = re.compile(r"^g?make(?:\[\d+\])?: (?:Entering|Leaving) directory ")
_MAKE_WAIT = re.compile(r"^g?make(?:\[\d+\])?: \*\*\* Waiting for unfinished jobs")
_ECHO = re.compile(
    r"^(?:\S*/)?(?:[\w.+]+-)*(?:cc|gcc|g\+\+|c\+\+|clang|clang\+\+|cpp|ar|ranlib|ld|as|strip|objcopy|nm"
    r"|rm|mkdir|cp|mv|ln|install|touch|make|gmake)(?:-\d+(?:\.\d+)*)? "
)
_PROGRESS = re.compile(
    r"^(?:\[\s*\d+%\] (?:Building|Linking|Built target|Scanning|Generating|Automatic|Automoc)"
    r"|\[\d+/\d+\] |Scanning dependencies of target |Consolidate compiler generated dependencies of target "
    r"|\s{1,4}(?:CC|CXX|LD|AR|AS|GEN|CCLD|CXXLD|HOSTCC|HOSTLD|INSTALL|LINK|OBJCOPY|STRIP)\s+\S"
    r"|libtool: (?:compile|link): )"
)
_FLAG = re.compile(r" \[(-W[^\]]+|-fpermissive|enabled by default)\]$")

# make: flags whose output is what the user asked to see (a dry run, the database, a version).
_MAKE_RAW_LONG = ("--dry-run", "--just-print", "--recon", "--print-data-base", "--question", "--version", "--help")
_MAKE_RAW_SHORT = frozenset("npqvhd")
_MAKE_VALUE_SHORT = frozenset("CfIjloWE")
# compilers: output on stdout (preprocessing, dependency lists, version or help text, -o -).
_CC_RAW = frozenset(("-E", "-M", "-MM", "-v", "--version", "--help", "-###", "-dumpversion", "-dumpmachine"))
_CC_RAW_PREFIX = ("-print-", "-dump", "--help=", "-fdiagnostics-format", "-fsyntax-only=", "-Q")


def _make_raw(args: list[str]) -> bool:
    for a in args:
        if a.startswith("--"):
            if a.split("=", 1)[0] in _MAKE_RAW_LONG or a.startswith(("--debug", "--trace")):
                return True
        elif a.startswith("-") and len(a) > 1:
            for c in a[1:]:
                if c in _MAKE_VALUE_SHORT:
                    break
                if c in _MAKE_RAW_SHORT:
                    return True
    return False


def _cc_raw(args: list[str]) -> bool:
    for i, a in enumerate(args):
        if a in _CC_RAW or a.startswith(_CC_RAW_PREFIX) or a == "-o-" or a == "-":
            return True
        if a == "-o" and i + 1 < len(args) and args[i + 1] == "-":
            return True
    return False


def select(argv: list[str]) -> Spec | None:
    tool = argv[0].rsplit("/", 1)[-1]
    args = argv[1:]
    if tool == "make":
        if _make_raw(args):
            return None
        return Spec("make", stream=lambda a: CcBuild(a, "make"))
    if not args or _cc_raw(args):
        return None
    return Spec("cc", stream=lambda a: CcBuild(a, tool))


class CcBuild(LineFilter):
    """GCC/Clang diagnostics inside any build output (make, cmake --build, a direct compile)."""

    def __init__(self, argv: list[str], label: str) -> None:
        super().__init__(argv)
        self.label = label
        self.limits = Limits()
        self.warnings = Warnings()
        self.context: list[str] = []
        self.unit: list[str] | None = None
        self.unit_extra = 0
        self.severity = ""
        self.errors = 0
        self.errors_shown = 0
        self.hidden = ErrorLines()  # errors past build_max_errors: their head line each
        self.link_errors = 0
        self.known = False
        self.targets = 0
        self.tests = TestLines(self.limits)
        self.dirs: list[str] = []  # make's `Entering directory` lines, innermost last
        self.dir_shown: str | None = None  # the one printed last: relative paths below it are in it

    # -- diagnostics -----------------------------------------------------------

    def _close(self) -> str | None:
        unit, self.unit = self.unit, None
        context, self.context = self.context, []
        if unit is None:
            return "\n".join(context) if context else None
        if self.severity == "warning":
            self._warning(unit)
            return None
        if self.severity == "error":
            self.errors += 1
            if self.limits.max_errors > 0 and self.errors_shown >= self.limits.max_errors:
                self._hide(unit)
                return None
            self.errors_shown += 1
            if self.unit_extra:
                unit.append(f"  ... {self.unit_extra} more lines of this error")
                self.cut += self.unit_extra
        return "\n".join(unit)

    def _hide(self, unit: list[str]) -> None:
        """An error past the cap: its head line (``file:line:col: error: message``) kept, its body cut."""
        for ln in unit:
            m = _DIAG.match(ln)
            if m is not None and m.group(4) in ("error", "fatal error"):
                self.hidden.add(m.group(1), ln)
                break
            t = _TOOL_DIAG.match(ln)
            if t is not None and t.group(1) == "error":
                self.hidden.add(ln.split(":", 1)[0], ln)
                break
        else:  # pragma: no cover - an error unit always has its head
            self.hidden.add("", unit[-1])
        self.cut += len(unit) - 1

    def _warning(self, unit: list[str]) -> None:
        for ln in unit:
            m = _DIAG.match(ln)
            if m is not None and m.group(4) == "warning":
                path, line, col, _, msg = m.groups()
                break
            m = _TOOL_DIAG.match(ln)
            if m is not None and m.group(1) == "warning":
                path, line, col, msg = ln.split(":", 1)[0], "", None, m.group(2)
                break
        else:  # pragma: no cover - a warning unit always has its head
            return
        flag = _FLAG.search(msg)
        key = ""
        if flag is not None:
            key = flag.group(1)
            msg = msg[: flag.start()]
        where = f"{path}:{line}:{col}" if col else (f"{path}:{line}" if line else path)
        self.warnings.add(key, f"{where}: {msg}")

    def _start(self, line: str, severity: str) -> str | None:
        done = self._close_unit_only()
        self.unit = [*self.context, line]
        self.context = []
        self.unit_extra = 0
        self.severity = "error" if severity == "fatal error" else severity
        return done

    def _close_unit_only(self) -> str | None:
        if self.unit is None:
            return None
        context, self.context = self.context, []
        done = self._close()
        self.context = context
        return done

    def _add(self, line: str) -> None:
        assert self.unit is not None
        cap = self.limits.error_lines
        if cap <= 0 or len(self.unit) < cap:
            self.unit.append(line)
        else:
            self.unit_extra += 1

    # -- lines -----------------------------------------------------------------

    def feed(self, line: str) -> str | None:
        """One line in; what it completes out, after the directory make was in if that is news.

        A recursive make's diagnostics name files relative to the directory it entered: the
        `Entering directory` line goes out before the first shown line from each directory.
        """
        here = self.dirs[-1] if self.dirs else None
        out = self._feed(line)
        if out is not None and here is not None and here != self.dir_shown:
            self.dir_shown = here
            out = f"{here}\n{out}"
        if _MAKE_DIR.match(line):
            if " Entering " in line:
                self.dirs.append(line)
            elif self.dirs:
                self.dirs.pop()
        return out

    def _feed(self, line: str) -> str | None:
        used, text = self.tests.feed(line)
        if used:  # a test runner's result line (or a line of its failure): passes counted, failures shown
            return self._then(self._close(), text)
        m = _DIAG.match(line) if ": " in line else None
        if m is not None:
            self.known = True
            sev = m.group(4)
            if sev in ("note", "remark") and self.unit is not None:
                self._add(line)
                return None
            return self._start(line, sev)
        if line.startswith((" ", "\t")) or _REQUIRED.match(line):
            if self.unit is not None:
                self._add(line)
                return None
            if self.context:
                self.context.append(line)
                return None
        if _CONTEXT.match(line):
            self.known = True
            done = self._close_unit_only()
            self.context.append(line)
            return done
        t = _TOOL_DIAG.match(line)
        if t is not None:
            self.known = True
            if line.startswith("collect2") or "/ld" in line.split(":", 1)[0] or line.startswith("ld"):
                done = self._close()
                if t.group(1) == "error" and not self.link_errors:
                    self.errors += 1
                return self._then(done, line)
            return self._start(line, t.group(1))
        done = self._close()
        return self._then(done, self._other(line))

    def _then(self, first: str | None, second: str | None) -> str | None:
        if first is None:
            return second
        return first if second is None else first + "\n" + second

    def _other(self, line: str) -> str | None:
        if _MAKE_DIR.match(line) or _MAKE_WAIT.match(line) or _GENERATED.match(line):
            self.known = True
            return None
        if _PROGRESS.match(line):
            self.known = True
            if "Built target " in line:
                self.targets += 1
            return None
        if _ECHO.match(line):
            self.known = True
            return None
        if ": undefined reference to " in line or "undefined symbol" in line:
            self.link_errors += 1
            self.errors += 1
        if not line.strip():
            return None
        return line

    def finish(self, exit_code: int) -> str:
        out = []
        done = self._close()
        if done is not None:
            out.append(done)
        hidden, cut = self.hidden.render()
        out.extend(hidden)
        self.cut += cut
        tests = self.tests
        ran = tests.seen and tests.counts["error"] < sum(tests.counts.values())  # not only ERROR lines
        self.cut += tests.cut
        if ran:
            out.append(tests.summary())
        if not self.known and not ran:
            return "\n".join(out)
        counts = []
        if self.errors:
            counts.append(plural(self.errors, "error"))
        if self.warnings.total:
            counts.append(plural(self.warnings.total, "warning"))
        if exit_code == 0 and tests.failed and ran:
            out.append(f"{self.label}: exit 0, but {plural(tests.failed, 'test')} failed")
        elif exit_code == 0 and not self.errors:
            extra = [plural(self.targets, "target")] if self.targets else []
            detail = ", ".join(extra + counts)
            out.append(f"{self.label}: ok" + (f" ({detail})" if detail else ""))
        else:
            out.append(f"{self.label}: FAILED (exit {exit_code})" + (f", {', '.join(counts)}" if counts else ""))
        if self.warnings.total:
            out.append(f"warnings ({self.warnings.total}):")
            out.extend(self.warnings.render())
            self.cut += self.warnings.omitted
        return "\n".join(out)
