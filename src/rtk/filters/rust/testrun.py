"""cargo test and cargo nextest run: failing tests in full (bounded), passing ones counted, ignored ones named.

Both build first, so compile errors (which stop the run) come through the cargo
build filter they extend. A failure keeps its panic message, the assertion's
left/right values and the backtrace frames in the user's code; frames of the
standard library and of dependencies are counted, not shown.
"""

from __future__ import annotations

from rtk.filters.diagnostics import BoundedBuffer
from rtk.filters.rust.build import CargoBuild
from rtk.text import plural

_STD_PATHS = ("/rustc/", "/.cargo/registry/", "/.cargo/git/", "/.rustup/toolchains/", "/library/std/", "/library/core/")
_STD_SYMBOLS = ("std::", "core::", "alloc::", "test::", "__rust", "<alloc::", "<core::", "<std::", "<fn(")
_TEST_NOISE = ("note: run with `RUST_BACKTRACE=", "note: Some details are omitted")


class Failure:
    """The captured output of one failing test, bounded, with library backtrace frames dropped."""

    def __init__(self, head: str, cap: int) -> None:
        self.head = head
        self.body = BoundedBuffer(cap)
        self.in_trace = False
        self.frame: str | None = None  # a frame symbol line waiting for its `at` line
        self.frames_hidden = 0

    def add(self, line: str) -> None:
        s = line.strip()
        if s.startswith(_TEST_NOISE):
            return
        if s == "stack backtrace:":
            self.in_trace = True
            self.body.add(line)
            return
        if self.in_trace:
            if s.startswith("at ") and self.frame is not None:
                frame, self.frame = self.frame, None
                if any(p in s for p in _STD_PATHS):
                    self.frames_hidden += 1
                else:
                    self.body.add(frame)
                    self.body.add(line)
                return
            head, sep, _ = s.partition(": ")
            if sep and head.isdigit():
                self._flush_frame()
                self.frame = line
                return
            self._flush_frame()
            self.in_trace = False
        self.body.add(line)

    def _flush_frame(self) -> None:
        if self.frame is None:
            return
        frame, self.frame = self.frame, None
        if frame.split(": ", 1)[-1].startswith(_STD_SYMBOLS):
            self.frames_hidden += 1
        else:
            self.body.add(frame)

    def render(self) -> tuple[str, int]:
        self._flush_frame()
        lines = self.body.lines
        while lines and not lines[-1].strip():
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
        out = [self.head, *lines]
        if self.frames_hidden:
            out.append(f"  ({plural(self.frames_hidden, 'frame')} of std/dependencies not shown)")
        if self.body.dropped:
            out.append(f"  ... {self.body.dropped} more lines of this failure")
        return "\n".join(out), self.body.dropped


class _TestRun(CargoBuild):
    """What cargo test and nextest share: one failure read at a time, shown up to a cap."""

    current: Failure | None = None
    shown = 0
    failed_names: list[str]

    def _flush(self) -> str | None:
        """The failure being read, rendered (None once the cap on shown failures is reached)."""
        cur, self.current = self.current, None
        if cur is None:
            return None
        if self.limits.max_failures > 0 and self.shown >= self.limits.max_failures:
            self.cut += 1
            return None
        self.shown += 1
        text, cut = cur.render()
        self.cut += cut
        return text

    def _pending(self) -> list[str]:
        """Everything still held at the end: the last failure, then any open diagnostic."""
        flushed = self._flush()
        return [*([flushed] if flushed is not None else []), *self.close_open()]


class CargoTest(_TestRun):
    """cargo test: libtest's output per suite, failures printed as each section completes."""

    def __init__(self, argv: list[str], quiet: bool = False) -> None:
        super().__init__(argv, "cargo test", quiet)
        self.passed = self.failed = self.ignored = self.filtered = self.measured = 0
        self.suites = 0
        self.failed_names: list[str] = []
        self.ignored_names: list[str] = []  # `name (reason)` of each test libtest reported as ignored
        self.mode: str | None = None  # "failures" (reading ---- blocks) or "list" (the names recap)
        self.current = None
        self.shown = 0

    def ends_block(self, line: str) -> bool:
        return super().ends_block(line) or line.startswith(("     Running ", "   Doc-tests ", "running "))

    def feed(self, line: str) -> str | None:
        if self.mode is not None:
            return self._failures(line)
        return super().feed(line)

    def line(self, line: str) -> str | None:
        if line.startswith("test ") and " ... " in line:
            self.known = True
            name, _, verdict = line[5:].partition(" ... ")
            if verdict.startswith("FAILED"):
                self._failed_name(name.removesuffix(" - should panic"))
            elif verdict == "ignored" or verdict.startswith("ignored, "):
                reason = verdict[len("ignored, ") :].strip()
                self.ignored_names.append(f"{name} ({reason})" if reason else name)
            return None
        if line.endswith(" --- FAILED") and " " not in line[: -len(" --- FAILED")]:
            self._failed_name(line[: -len(" --- FAILED")])  # terse mode (`-q`)
            return None
        if line.startswith("running ") and line.endswith((" test", " tests")):
            self.known = True
            return None
        if line.startswith("test result: "):
            self._result(line)
            return None
        if line == "failures:":
            self.known = True
            self.mode = "failures"
            return None
        if line.startswith(("     Running ", "   Doc-tests ", "  Executable ", "all doctests ran in ")):
            self.known = True
            return None
        if line.startswith("error: ") and (  # test, doctest, bench: a target that ran and failed, not a build error
            " failed, to rerun pass " in line or line.endswith((" targets failed:", " target failed:"))
        ):
            self.known = True
            return line
        if self.quiet:
            tok, _, rest = line.partition(" ")
            if tok and set(tok) <= {".", "F", "i"} and (not rest or rest.replace("/", "").isdigit()):
                return None  # terse progress (`cargo test -q`): ..F.i 100/250
        return super().line(line)

    def _failed_name(self, name: str) -> None:
        if name not in self.failed_names:
            self.failed_names.append(name)

    def _result(self, line: str) -> None:
        # test result: FAILED. 2 passed; 4 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.13s
        self.known = True
        self.suites += 1
        for part in line.split(". ", 1)[-1].split(";"):
            words = part.split()
            if len(words) >= 2 and words[0].isdigit():
                n = int(words[0])
                if words[1] == "passed":
                    self.passed += n
                elif words[1] == "failed":
                    self.failed += n
                elif words[1] == "ignored":
                    self.ignored += n
                elif words[1] == "measured":
                    self.measured += n
                elif words[1] == "filtered":
                    self.filtered += n

    def _failures(self, line: str) -> str | None:
        if line.startswith("---- ") and line.endswith(" ----") and self.mode == "failures":
            out = self._flush()
            name = line[5:-5]
            for suffix in (" stdout", " stderr"):
                name = name.removesuffix(suffix)
            self._failed_name(name)
            self.current = Failure(f"--- {name}", self.limits.failure_lines)
            return out
        if line == "failures:":
            out = self._flush()
            self.mode = "list"
            return out
        if line.startswith("test result: "):
            out = self._flush()
            self.mode = None
            self._result(line)
            return out
        if self.mode == "list":
            if line.startswith("    ") or not line:
                return None
            self.mode = None
            return self.feed(line)
        if self.current is not None:
            self.current.add(line)
            return None
        return line if line else None

    def finish(self, exit_code: int) -> str:
        out = self._pending()
        if not self.known:
            return "\n".join(out)
        out.append(self.status(exit_code))
        if self.failed_names:
            names = self.failed_names
            more = len(names) - self.shown if self.shown < len(names) else 0
            line = "failed: " + ", ".join(names)
            out.append(line)
            if more and self.limits.max_failures > 0 and self.shown >= self.limits.max_failures:
                out.append(f"({more} failures beyond the first {self.shown} not shown in full)")
        if self.ignored_names:  # which tests did not run, and why, is what an agent asks next
            out.append("ignored: " + ", ".join(self.ignored_names))
        out.extend(self.diag.render_warnings())
        self.cut += self.diag.cut
        return "\n".join(out)

    def status(self, exit_code: int) -> str:
        counts = [f"{self.passed} passed"]
        if self.failed or self.failed_names:
            counts.append(f"{max(self.failed, len(self.failed_names))} failed")
        for n, word in ((self.ignored, "ignored"), (self.measured, "measured"), (self.filtered, "filtered out")):
            if n:
                counts.append(f"{n} {word}")
        suites = f" ({plural(self.suites, 'suite')})" if self.suites else ""
        build = self.counts()
        if exit_code == 0 and not self.failed and not self.failed_names and not self.diag.errors and self.suites:
            return f"cargo test: ok, {', '.join(counts)}{suites}" + (f"; build: {build}" if build else "")
        if self.diag.errors and not self.suites:
            return f"cargo test: FAILED (exit {exit_code}), did not compile: {build}"
        tail = f"; build: {build}" if build else ""
        return f"cargo test: FAILED (exit {exit_code}), {', '.join(counts)}{suites}{tail}"


_NEXTEST_QUIET = ("PASS", "SKIP", "SLOW")
_HARNESS_NOISE = ("running ", "test result: ", "failures:")


class Nextest(_TestRun):
    """cargo nextest run: one status line per test; failing ones carry their stdout/stderr."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv, "cargo nextest", False)
        self.current = None
        self.summary: str | None = None
        self.failed_names: list[str] = []
        self.shown = 0
        self.after_summary = False
        self.section: str | None = None
        self.failed_names_bare: set[str] = set()

    def feed(self, line: str) -> str | None:
        status = _status(line)
        if status is not None:
            return self._status_line(line, status)
        if self.current is not None:
            if line.startswith("  ") or not line:
                s = line.strip()
                if not s or s.startswith(_HARNESS_NOISE) or (s.startswith("test ") and " ... " in s):
                    return None
                if s.startswith("Cancelling due to"):
                    out = self._flush()
                    return s if out is None else out + "\n" + s
                if s.endswith(" ───") and s.split()[0] in ("stdout", "stderr", "output"):
                    self.section = s.split()[0]
                    return None
                if line.startswith("        ") and s in self.failed_names_bare:
                    return None  # libtest's recap of the failing test's name
                if s.startswith("---- ") and s.endswith(" ----"):
                    return None
                if self.section is not None:
                    self.current.add(f"  {self.section}:")
                    self.section = None
                self.current.add(line)
                return None
            out = self._flush()
            more = self.feed(line)
            return out if more is None else (more if out is None else out + "\n" + more)
        if line.startswith("────") or line.startswith(" Nextest run ID ") or line.startswith("    Starting "):
            self.known = True
            return None
        if line.startswith("     Summary ["):
            self.known = True
            self.summary = line.split("] ", 1)[-1]
            self.after_summary = True
            return None
        if line.startswith("  Cancelling due to"):
            return line.strip()
        if line == "error: test run failed" or (line.startswith("warning: ") and " were not run " in line):
            self.known = True
            return line
        return super().feed(line)

    def _status_line(self, line: str, status: str) -> str | None:
        self.known = True
        out = self._flush()
        name = line.split(") ", 1)[-1] if ") " in line else line.split("] ", 1)[-1]
        if status in _NEXTEST_QUIET or self.after_summary:
            if status not in _NEXTEST_QUIET and name not in self.failed_names:
                self.failed_names.append(name)
            return out
        if name not in self.failed_names:
            self.failed_names.append(name)
        self.current = Failure(f"{status} {name}", self.limits.failure_lines)
        self.section = None
        self.failed_names_bare.add(name.rsplit(" ", 1)[-1])
        return out

    def finish(self, exit_code: int) -> str:
        out = self._pending()
        if not self.known:
            return "\n".join(out)
        build = self.counts()
        run = self.summary or "no tests run"
        if exit_code == 0 and not self.failed_names and not self.diag.errors and self.summary:
            out.append(f"cargo nextest: ok, {run}" + (f"; build: {build}" if build else ""))
        else:
            out.append(f"cargo nextest: FAILED (exit {exit_code}), {run}" + (f"; build: {build}" if build else ""))
        if self.failed_names:
            out.append("failed: " + ", ".join(self.failed_names))
        out.extend(self.diag.render_warnings())
        self.cut += self.diag.cut
        return "\n".join(out)


def _status(line: str) -> str | None:
    """``        FAIL [   0.009s] (3/8) crate test`` -> ``FAIL``; None for other lines."""
    if not line.startswith("    ") or " [" not in line or "s] " not in line:
        return None
    word, _, rest = line.strip().partition(" [")
    if not word or not all(c.isupper() or c.isdigit() or c in "- " for c in word):
        return None
    if not rest.lstrip().split("s]", 1)[0].replace(".", "").isdigit():
        return None
    return word
