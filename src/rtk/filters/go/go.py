"""Filters for go test (plain and -v), go build and go vet.

``go test`` streams: ``ok`` lines and passing tests are counted, every failing
test is printed with its messages (in ``-v`` mode the output it logged before
its ``--- FAIL`` line too), panics and -race data-race reports with the frames in the user's code,
and build errors that stop a package. ``-json`` and other explicit formats run
unfiltered: a consumer (jq, gotestsum, a script) reads them as they are.
"""

from __future__ import annotations

from rtk.filterapi import LineFilter, Spec
from rtk.filters.diagnostics import BoundedBuffer, Limits
from rtk.text import plural

COMMANDS = ("go",)

# Flags after which the output is another format, or a listing the user asked for.
_RAW_TEST = frozenset(("json", "list", "x", "n", "h", "help", "test.v", "test.list"))
_RAW_BUILD = frozenset(("json", "x", "n", "h", "help", "toolexec"))


def _flags(args: list[str]) -> dict[str, str]:
    """``-v``, ``--json``, ``-run=X`` -> {"v": "", "json": "", "run": "X"} (up to ``-args``)."""
    out: dict[str, str] = {}
    for a in args:
        if a == "-args" or a == "--args":
            break
        if a.startswith("-") and len(a) > 1:
            name, _, value = a.lstrip("-").partition("=")
            out[name] = value
    return out


def select(argv: list[str]) -> Spec | None:
    if len(argv) < 2:
        return None
    sub, args = argv[1], argv[2:]
    flags = _flags(args)
    if sub == "test":
        if _RAW_TEST & flags.keys():
            return None
        verbose = "v" in flags and flags["v"] in ("", "true")
        return Spec("go-test", stream=lambda a: GoTest(a, verbose))
    if sub in ("build", "vet"):
        if _RAW_BUILD & flags.keys():
            return None
        name = f"go-{sub}"
        return Spec(name, stream=lambda a: GoBuild(a, f"go {sub}", "v" in flags))
    return None


def _goroot_frame(path_line: str) -> bool:
    """``\t/usr/lib/go-1.19/src/testing/testing.go:1446 +0x10b``: a frame of Go itself."""
    p = path_line.strip()
    i = p.find("/src/")
    if i < 0:
        return False
    root = p[:i].rsplit("/", 1)[-1]
    return root == "go" or root.startswith("go-") or root.startswith("go1")


class _Block:
    """An open failure (or panic) being printed line by line, bounded, library frames dropped."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.shown = 0
        self.dropped = 0
        self.frame: str | None = None
        self.frames_hidden = 0

    def line(self, line: str) -> str | None:
        if self.frame is not None:
            frame, self.frame = self.frame, None
            if line[:1] in ("\t", " ") and ".go:" in line:  # panic frames: a tab; race reports: spaces
                if _goroot_frame(line):
                    self.frames_hidden += 1
                    return None
                return self._show(frame + "\n" + line, 2)
            first = self._show(frame, 1)
            rest = self.line(line)
            return first if rest is None else (rest if first is None else first + "\n" + rest)
        if line and not line.startswith("\t") and line.endswith(")") and "(" in line and ".go:" not in line:
            self.frame = line  # a goroutine frame: `pkg.Func(args)` (indented in a race report); its file line follows
            return None
        if line.startswith("created by ") and line[11:].startswith(("testing.", "runtime.")):
            self.frame = line
            return None
        return self._show(line, 1)

    def _show(self, text: str, n: int) -> str | None:
        if self.cap > 0 and self.shown >= self.cap:
            self.dropped += n
            return None
        self.shown += n
        return text

    def close(self) -> tuple[str | None, int]:
        out = []
        if self.frame is not None:
            shown = self._show(self.frame, 1)
            self.frame = None
            if shown is not None:
                out.append(shown)
        if self.frames_hidden:
            out.append(f"    ({plural(self.frames_hidden, 'frame')} of runtime/testing not shown)")
        if self.dropped:
            out.append(f"    ... {self.dropped} more lines of this failure")
        return ("\n".join(out) if out else None), self.dropped


_SKIP_REASON_LINES = 2  # of what a skipped test logged: t.Skip's message is its last line
_MARKERS = ("=== RUN", "=== CONT", "=== PAUSE", "=== NAME", "ok  \t", "?   \t", "FAIL\t", "# ")


class GoTest(LineFilter):
    """go test output, plain or -v."""

    def __init__(self, argv: list[str], verbose: bool = False) -> None:
        super().__init__(argv)
        self.verbose = verbose
        self.limits = Limits()
        self.pkg_ok = 0
        self.pkg_failed = 0
        self.pkg_build_failed = 0
        self.no_tests = 0
        self.passed = 0
        self.skipped = 0
        self.failed: list[str] = []
        self.build_errors = 0
        self.block: _Block | None = None
        self.in_build = False
        self.skipping = False
        self.skips: list[tuple[str, list[str]]] = []  # each skipped test and what it said (its reason)
        self.skip_open = False  # indented lines after a `--- SKIP` belong to that test
        self.current: str | None = None
        self.logs: dict[str, BoundedBuffer] = {}
        self.shown = 0
        self.known = False

    def _close(self) -> str | None:
        self.in_build = self.skipping = self.skip_open = False
        blk, self.block = self.block, None
        if blk is None:
            return None
        text, cut = blk.close()
        self.cut += cut
        return text

    def _then(self, first: str | None, second: str | None) -> str | None:
        if first is None:
            return second
        return first if second is None else first + "\n" + second

    def feed(self, line: str) -> str | None:
        s = line.lstrip()
        if s.startswith("--- "):
            return self._verdict(line, s)
        if line.startswith(_MARKERS) or line in ("PASS", "FAIL"):
            self.known = True
            closed = self._close()
            return self._then(closed, self._marker(line))
        if self.in_build:
            if ".go:" in line or line.startswith(("vet: ", "\t", "  ")) or "too many errors" in line:
                if ".go:" in line and not line.startswith(("\t", " ")):
                    self.build_errors += 1
                return line
            self.in_build = False
        if self.skipping and line.startswith((" ", "\t")):
            if self.skip_open:
                why = self.skips[-1][1]
                why.append(line.strip())
                del why[:-_SKIP_REASON_LINES]
            return None
        self.skipping = self.skip_open = False
        if self.block is not None:
            return self.block.line(line)
        if line.startswith(("panic: ", "fatal error: ")) or line == "WARNING: DATA RACE":
            self.block = _Block(self.limits.failure_lines)
            return self.block.line(line)
        if self.verbose and self.current is not None:
            buf = self.logs.get(self.current)
            if buf is None:
                buf = self.logs[self.current] = BoundedBuffer(self.limits.failure_lines)
            buf.add(line)
            return None
        if line.startswith("go: downloading "):
            return None
        return line

    def _marker(self, line: str) -> str | None:
        if line.startswith("=== "):
            kind, _, name = line[4:].partition(" ")
            name = name.strip()
            self.current = None if kind == "PAUSE" else name
            return None
        if line.startswith("ok  \t"):
            self.pkg_ok += 1
            self._orphans()
            return line if "coverage:" in line else None
        if line.startswith("?   \t"):
            self.no_tests += 1
            return None
        if line.startswith("FAIL\t"):
            if line.endswith(("[build failed]", "[setup failed]")):
                self.pkg_build_failed += 1
            else:
                self.pkg_failed += 1
            orphans = self._orphans()
            return self._then(orphans, line)
        if line.startswith("# "):
            self.in_build = True
            return line
        return None  # bare PASS / FAIL

    def _orphans(self) -> str | None:
        """-v: output of tests that never reported (the binary died): shown, it may say why."""
        self.current = None
        logs, self.logs = self.logs, {}
        out = []
        for name, buf in logs.items():
            if len(buf):
                out.append(f"(output of {name}, which did not finish)")
                out.extend(buf.render("lines"))
        return "\n".join(out) if out else None

    def _verdict(self, line: str, s: str) -> str | None:
        self.known = True
        closed = self._close()
        verdict, _, rest = s[4:].partition(": ")
        name = rest.rsplit(" (", 1)[0]
        buf = self.logs.pop(name, None)
        self.current = None
        if verdict == "PASS":
            self.passed += 1
            return closed
        if verdict == "SKIP":
            self.skipped += 1
            self.skips.append((name, [ln.strip() for ln in (buf.lines[-_SKIP_REASON_LINES:] if buf else [])]))
            self.skipping = self.skip_open = True
            return closed
        if verdict != "FAIL":
            return self._then(closed, line)
        self.failed.append(name)
        if self.limits.max_failures > 0 and self.shown >= self.limits.max_failures:
            self.cut += 1
            self.skipping = True
            return closed
        self.shown += 1
        self.block = _Block(self.limits.failure_lines)
        out = [line]
        if buf is not None:
            out.extend(buf.render("lines"))
            self.cut += buf.dropped
        return self._then(closed, "\n".join(out))

    def finish(self, exit_code: int) -> str:
        out = []
        closed = self._close()
        if closed is not None:
            out.append(closed)
        orphans = self._orphans()
        if orphans is not None:
            out.append(orphans)
        if not self.known:
            return "\n".join(out)
        pkgs = self.pkg_ok + self.pkg_failed + self.pkg_build_failed
        no_tests = f" ({self.no_tests} without tests)" if self.no_tests else ""
        tests = f"{self.passed} tests passed, " if self.verbose and self.passed else ""
        if exit_code == 0 and not self.failed and not self.pkg_failed and not self.pkg_build_failed:
            if self.pkg_ok:
                out.append(f"go test: ok, {tests}{plural(self.pkg_ok, 'package')} passed{no_tests}")
            else:
                out.append(f"go test: no tests ran{no_tests}")
        else:
            parts = [f"{self.pkg_ok} ok"]
            if self.pkg_failed:
                parts.append(f"{self.pkg_failed} failed")
            if self.pkg_build_failed:
                parts.append(f"{self.pkg_build_failed} did not build")
            head = f"go test: FAILED (exit {exit_code}), {plural(pkgs, 'package')}: {', '.join(parts)}{no_tests}"
            out.append(head)
            if self.failed:
                out.append(f"failed tests ({len(self.failed)}): " + ", ".join(self.failed))
        if self.skips:  # which tests did not run, and why: a count would not say
            said = [f"{name} ({' '.join(why)})" if why else name for name, why in self.skips]
            out.append(f"skipped tests ({len(said)}): " + "; ".join(said))
        return "\n".join(out)


class GoBuild(LineFilter):
    """go build / go vet: errors as printed (grouped under their ``# package`` line), the rest counted."""

    def __init__(self, argv: list[str], label: str, verbose: bool) -> None:
        super().__init__(argv)
        self.label = label
        self.verbose = verbose
        self.packages = 0
        self.errors = 0
        self.headers = 0
        self.other = 0

    def feed(self, line: str) -> str | None:
        if line.startswith("# "):
            self.headers += 1
            return line
        if ".go:" in line and not line.startswith((" ", "\t")):
            self.errors += 1
            return line
        if line.startswith("vet: "):
            self.errors += 1
            return line
        if line.startswith("go: downloading "):
            return None
        if self.verbose and line and " " not in line and ":" not in line:
            self.packages += 1  # -v: the name of each package built
            return None
        self.other += 1
        return line

    def finish(self, exit_code: int) -> str:
        if exit_code == 0 and not self.errors:
            if self.other:
                return ""  # lines we do not know were printed as they are
            built = f" ({plural(self.packages, 'package')})" if self.packages else ""
            return f"{self.label}: ok{built}"
        if not self.errors and not self.headers:
            return ""
        what = "finding" if self.label == "go vet" else "error"
        counts = f"{plural(self.errors, what)} in {plural(max(self.headers, 1), 'package')}"
        return f"{self.label}: FAILED (exit {exit_code}), {counts}"
