"""``rtk test|err|summary <command...>``: run any command, use its filter if one is registered, else read it generically.

All three go through the normal runner (``rtk.run.run_spec``): the exit code is
the command's, output that is not recognised comes out raw (bounded), and the
never-worse guard applies. The specific filter for the command (``rtk.filters.lookup``)
is tried first; when it does not recognise the output, the generic reading is used.
A command without a filter of its own is read as a stream (``TestStream``,
``rtk.commands._blocks``): memory stays flat however much it prints.
"""

from __future__ import annotations

import re
import sys

from rtk.commands import _blocks
from rtk.filterapi import Filtered, LineFilter, Spec, Unrecognized
from rtk.text import plural, split_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filterapi import FilterFunc, StreamFactory

HOLD_BYTES = 8 << 20  # rtk test: output read as a whole up to this size, generically past it

HELP = {
    "test": "run a test command; show only the failures and the final counts",
    "err": "run a command; show only its errors and warnings, with their context lines",
    "summary": "run a command; show the exit code, the first error block and the last lines",
}


def main(kind: str, args: list[str]) -> int:
    if not args or args[0] in ("-h", "--help"):
        print(
            f"usage: rtk {kind} <command> [args...]\n\n{HELP[kind][0].upper()}{HELP[kind][1:]}.",
            file=sys.stdout if args else sys.stderr,
        )
        return 0 if args else 2
    if args[0] == "--":
        args = args[1:]
    if not args or not args[0]:
        print(f"rtk {kind}: give the command to run", file=sys.stderr)
        return 2
    from rtk.run import run_spec

    return run_spec(args, spec_for(kind, args))


def spec_for(kind: str, argv: list[str]) -> Spec:
    """The Spec ``rtk <kind> argv`` runs with: the command's own filter first, then the generic reading."""
    from rtk import config, filters

    generic: FilterFunc = {"test": test_output, "err": err_output, "summary": summary_output}[kind]
    stream: StreamFactory = {"test": TestStream, "err": _blocks.ErrStream, "summary": _blocks.SummaryStream}[kind]
    try:
        inner = filters.resolve(argv)
    except Exception:
        inner = None
    if inner is not None and inner.name in config.get("filters.disabled"):
        inner = None
    if inner is not None and (inner.live or inner.stream is not None):
        return inner  # watch modes stay live; streaming filters keep streaming
    if inner is None or inner.filter is None:
        return Spec(f"rtk-{kind}", stream=stream)  # streams: memory stays flat for any output size
    specific = inner.filter

    def both(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
        try:
            res = specific(argv, output, exit_code)
        except Unrecognized:
            res = None
        except Exception:
            res = None  # the specific filter failed: the generic reading still applies
        return res if res is not None else generic(argv, output, exit_code)

    return Spec(f"rtk-{kind}", both, run_argv=inner.run_argv, env=inner.env, merge_stderr=inner.merge_stderr)


# ---------------------------------------------------------------------------
# rtk err, rtk summary: streaming readings (rtk.commands._blocks)
# ---------------------------------------------------------------------------


def err_output(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    return _blocks.run(_blocks.ErrStream(argv), split_lines(output), exit_code)


def summary_output(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    return _blocks.run(_blocks.SummaryStream(argv), split_lines(output), exit_code)


# ---------------------------------------------------------------------------
# rtk test
# ---------------------------------------------------------------------------

_PYTEST_FINAL = re.compile(
    r"^=+ (.*\b(?:passed|failed|errors?|skipped|no tests ran|deselected|xfailed|xpassed)\b.*) =+$"
)
_PYTEST_SECTION = re.compile(r"^=+ (FAILURES|ERRORS|short test summary info|warnings summary) =+$")
_GO_RESULT = re.compile(r"^(ok|FAIL|---|\?)\s")
_CARGO_RESULT = re.compile(r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored")


def test_output(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    lines = split_lines(output)
    for detect, parse in _js_parsers():
        if any(detect.search(ln) for ln in lines):
            try:
                res = parse(argv, output, exit_code)
            except Unrecognized:
                continue
            if res is not None:
                return res
    if any(_PYTEST_FINAL.match(ln) for ln in lines):
        return _pytest(lines, exit_code)
    if any(_CARGO_RESULT.match(ln) for ln in lines):
        return _cargo(lines, exit_code)
    if any(ln.startswith(("--- FAIL:", "ok  \t", "FAIL\t")) for ln in lines):
        return _go(lines, exit_code)
    return _fallback(lines, exit_code)


def _js_parsers() -> list[tuple[re.Pattern[str], FilterFunc]]:
    from rtk.filters.js import reporters as _jsrunners
    from rtk.filters.js import test as jstest

    return [
        (re.compile(r"^\s*Test Files\s+\d"), jstest.vitest),
        (re.compile(r"^Test Suites: "), jstest.jest),
        (re.compile(r"^# tests \d+$|^ℹ tests \d+$"), _jsrunners.node_test),
        (re.compile(r"^  \d+ passing \("), _jsrunners.mocha),
        (re.compile(r"^  \d+ (?:passed|failed) \(\d"), _jsrunners.playwright),
        (re.compile(r"^Ran \d+ tests? across \d+ files?\."), _jsrunners.bun_test),
    ]


def _pytest(lines: list[str], exit_code: int) -> str | Filtered:
    final = next(m[1] for m in map(_PYTEST_FINAL.match, reversed(lines)) if m)
    failed = re.search(r"\b(\d+) (failed|errors?)\b", final)
    if exit_code == 0 and failed:
        raise Unrecognized("failures but exit 0")
    if exit_code != 0 and not failed and "no tests ran" not in final:
        raise Unrecognized("failed without failures")
    if exit_code == 0:
        return f"pytest: {final}"
    out = [f"pytest: {final}"]
    keep = False
    for ln in lines:
        m = _PYTEST_SECTION.match(ln)
        if m:
            keep = m[1] != "warnings summary"
            if keep:
                out.append(ln)
            continue
        if _PYTEST_FINAL.match(ln):
            keep = False
            continue
        if keep:
            out.append(ln)
    return "\n".join(out)


def _cargo(lines: list[str], exit_code: int) -> str | Filtered:
    results = [m for m in map(_CARGO_RESULT.match, lines) if m]
    passed = sum(int(m[2]) for m in results)
    failed = sum(int(m[3]) for m in results)
    ignored = sum(int(m[4]) for m in results)
    if exit_code == 0 and failed:
        raise Unrecognized("failures but exit 0")
    head = f"cargo test: {failed} failed, {passed} passed, {ignored} ignored ({plural(len(results), 'test binary', 'test binaries')})"
    if exit_code == 0:
        return head
    out = [head]
    keep = False
    lines = _user_frames(lines)
    for ln in lines:
        if ln.startswith("---- ") and ln.endswith(" ----"):
            keep = True  # the first failure's captured output: from here to the result line
        elif _CARGO_RESULT.match(ln):
            keep = False
        if keep and ln.strip():
            out.append(ln)
    if exit_code != 0 and len(out) == 1:
        raise Unrecognized("failed without failure blocks")  # e.g. a compile error
    return "\n".join(out)


_RUST_FRAME = re.compile(r"^\s+\d+: (.*)$")
_RUST_LIB = (
    "std::",
    "core::",
    "alloc::",
    "test::",
    "__rust",
    "<fn()",
    "<alloc::",
    "<core::",
    "<std::",
    "<usize",
    "<T as",
    "<F as",
)


def _user_frames(lines: list[str]) -> list[str]:
    """A Rust backtrace without the standard library's frames (``N: std::...`` / ``at /rustc/...``)."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _RUST_FRAME.match(lines[i])
        if m:
            at = lines[i + 1] if i + 1 < len(lines) and lines[i + 1].lstrip().startswith("at ") else None
            lib = m[1].startswith(_RUST_LIB) or (at is not None and ("/rustc/" in at or "/.cargo/" in at))
            if lib:
                i += 2 if at is not None else 1
                continue
        out.append(lines[i])
        i += 1
    return out


def _go(lines: list[str], exit_code: int) -> str | Filtered:
    ok = [ln for ln in lines if ln.startswith("ok  \t")]
    fail_pkgs = [ln for ln in lines if ln.startswith("FAIL\t")]
    out: list[str] = []
    keep = False
    for ln in lines:
        if ln.startswith("--- FAIL:"):
            keep = True
            out.append(ln)
            continue
        if keep and (ln.startswith(("    ", "\t")) or ln.startswith("        ")):
            out.append(ln)
            continue
        keep = False
        if ln.startswith(("panic:", "FAIL\t")) or (ln.startswith("# ") and exit_code != 0):
            out.append(ln)
    if exit_code == 0 and (fail_pkgs or any(o.startswith("--- FAIL") for o in out)):
        raise Unrecognized("failures but exit 0")
    head = f"go test: {plural(len(ok), 'package')} ok, {len(fail_pkgs)} failed"
    if exit_code == 0:
        return head
    if not out:
        raise Unrecognized("failed without failures")
    return "\n".join([head, *out])


def _where(line: str) -> str:
    """``path:line[:col]`` and a trailing ``[rule]`` of a diagnostic line, or the line when it has no location."""
    words = line.split()
    head = words[0].rstrip(":") if words else ""
    if ":" not in head or not head.split(":")[1].isdigit():
        return line.strip()
    rule = words[-1] if words[-1].startswith("[") and words[-1].endswith("]") else ""
    return f"{head} {rule}".rstrip()


def _fallback(lines: list[str], exit_code: int) -> str | Filtered:
    from rtk.filters import testlines

    tests = testlines.compact(lines, exit_code)  # TAP, PASS/FAIL, ✓/✗... of a runner rtk has no filter for
    if tests is not None:
        return Filtered("\n".join(tests[0]), tests[1])
    return _blocks.run(_blocks.FallbackStream([]), lines, exit_code)


class TestStream(LineFilter):
    """``rtk test`` on a command without a filter of its own: bounded memory whatever the output size.

    Up to ``HOLD_BYTES`` of output is held and read as a whole when the command
    ends (pytest, cargo, go and JS runner formats); past that, the lines go to
    the generic reading (failure blocks, summary lines), which keeps only what it prints.
    """

    __test__ = False  # not a pytest test class

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        from rtk import config

        self.budget = min(int(config.get("limits.buffer_max_bytes")), HOLD_BYTES)
        self.max_lines = int(config.get("limits.buffer_max_lines"))  # a held line costs far more than its bytes
        self.held: list[str] = []
        self.size = 0
        self.generic: _blocks.FallbackStream | None = None

    def feed(self, line: str) -> str | None:
        if self.generic is not None:
            return self.generic.feed(line)
        self.held.append(line)
        self.size += len(line) + 1
        if self.size > self.budget or 0 < self.max_lines < len(self.held):
            self.generic = _blocks.FallbackStream(self.argv)
            for ln in self.held:
                self.generic.feed(ln)
            self.held = []
        return None

    def finish(self, exit_code: int) -> str:
        if self.generic is not None:
            text = self.generic.finish(exit_code)
            self.cut = self.generic.cut
            return text
        res = test_output(self.argv, "".join(ln + "\n" for ln in self.held), exit_code)
        if res is None:
            raise Unrecognized("no test output recognised")
        if isinstance(res, Filtered):
            self.cut = res.cut
            return res.text
        return res
