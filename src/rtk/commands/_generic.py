"""``rtk test|err|summary <command...>``: run any command, use its filter if one is registered, else read it generically.

All three go through the normal runner (``rtk.run.run_spec``): the exit code is
the command's, output that is not recognised comes out raw (bounded), and the
never-worse guard applies. The specific filter for the command (``rtk.filters.lookup``)
is tried first; when it does not recognise the output, the generic reading is used.
"""

from __future__ import annotations

import re
import sys

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.text import plural, split_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filterapi import FilterFunc

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
    try:
        inner = filters.resolve(argv)
    except Exception:
        inner = None
    if inner is not None and inner.name in config.get("filters.disabled"):
        inner = None
    if inner is not None and (inner.live or inner.stream is not None):
        return inner  # watch modes stay live; streaming filters keep streaming
    if inner is None or inner.filter is None:
        return Spec(f"rtk-{kind}", generic)
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
# shared: error and warning blocks
# ---------------------------------------------------------------------------

_ERROR = re.compile(
    r"(?:^|[\s\[(])(?:error|ERROR|Error|FAIL|FAILED|FATAL|fatal|panic|panicked|Traceback|Exception|"
    r"[A-Z]\w*(?:Error|Exception))(?:\b|:|\[)|^E\s{3}"
)
_WARNING = re.compile(r"(?:^|[\s\[(])(?:warning|WARNING|Warning|warn|WARN)(?:\b|:|\[)")
_NOT_ERROR = re.compile(r"\b0 (?:errors?|failed|failures?)\b|\bno errors?\b|\berrors?: 0\b", re.I)
_CARET = re.compile(r"^\s*\|\s*[\^~]+\s*$")
_CONT = re.compile(r"^(?:\s+\S|\s*(?:at |-->|\||│|\^|~|File \"|note:|help:|= ))")


def blocks(lines: list[str], max_lines: int) -> tuple[list[tuple[str, list[str]]], int]:
    """Error/warning lines with their context: the line before (when it names a place) and the continuation."""
    found: list[tuple[str, list[str]]] = []
    cut = 0
    i = 0
    while i < len(lines):
        ln = lines[i]
        kind = ""
        if _ERROR.search(ln) and not _NOT_ERROR.search(ln):
            kind = "error"
        elif _WARNING.search(ln) and not _NOT_ERROR.search(ln):
            kind = "warning"
        if not kind:
            i += 1
            continue
        block = [ln]
        j = i + 1
        while (
            j < len(lines)
            and lines[j].strip()
            and _CONT.match(lines[j])
            and not _ERROR.search(lines[j].split(":", 1)[0])
        ):
            if not _CARET.match(lines[j]):  # a bare "|   ^~~~" marker under the quoted line
                block.append(lines[j])
            j += 1
        if len(block) > max_lines + 1:
            cut += len(block) - max_lines
            block = [*block[:max_lines], f"  ... {len(block) - max_lines} more lines"]
        found.append((kind, block))
        i = j
    return found, cut


def _limits() -> tuple[int, int]:
    from rtk import config

    return int(config.get("limits.test_failure_lines")), int(config.get("limits.test_max_failures"))


# ---------------------------------------------------------------------------
# rtk err
# ---------------------------------------------------------------------------


def err_output(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    lines = split_lines(output)
    max_lines, max_blocks = _limits()
    found, cut = blocks(lines, max_lines)
    errors = sum(1 for k, _ in found if k == "error")
    warnings = len(found) - errors
    if not found:
        if exit_code != 0:
            raise Unrecognized("failed, and no line looks like an error")
        summary = [ln.strip(" =") for ln in lines[-20:] if _SUMMARY_LINE.search(ln)]  # what ran: "60 passed"
        done = f"err: no errors or warnings in {plural(len(lines), 'line')} of output (exit 0)"
        return "; ".join([done, *dict.fromkeys(summary)])
    head = f"err: {plural(errors, 'error')}, {plural(warnings, 'warning')} (exit {exit_code}, {plural(len(lines), 'line')} of output)"
    out = [head]
    shown = found if len(found) <= max_blocks + 1 else found[:max_blocks]
    for _, b in shown:
        out.extend(b)
    if len(shown) < len(found):
        n = len(found) - len(shown)
        cut += n
        out.append(f"+{n} more error/warning blocks")
    return Filtered("\n".join(out), cut)


# ---------------------------------------------------------------------------
# rtk summary
# ---------------------------------------------------------------------------

TAIL = 10


def summary_output(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    lines = split_lines(output)
    if not lines:
        raise Unrecognized("no output")
    max_lines, max_blocks = _limits()
    found, _ = blocks(lines, max_lines)
    errors = [b for k, b in found if k == "error"]
    warnings = sum(1 for k, _ in found if k == "warning")
    head = f"summary: exit {exit_code}, {plural(len(lines), 'line')}, {plural(len(errors), 'error line')}, {plural(warnings, 'warning line')}"
    out = [head]
    shown = 0
    if errors:
        out.append("first error:")
        out.extend("  " + ln for ln in errors[0])
        shown += len(errors[0])
    tail = lines[-TAIL:]
    # Every other problem by its first line (where it is), unless the tail shows it.
    said = {w.strip(".:,;") or "." for w in " ".join(tail).split()} | {"."}
    others = [
        b[0]
        for _, b in found
        if b is not (errors[0] if errors else None)
        and not said.issuperset(w.strip(".:,;") or "." for w in b[0].split())
    ]
    if others:
        out.append(f"other problems ({len(others)}):")
        out.extend("  " + ln for ln in others[:max_blocks])
        if len(others) > max_blocks:
            out.append(f"  +{len(others) - max_blocks} more")
        shown += min(len(others), max_blocks)
    out.append(f"last {plural(len(tail), 'line')}:")
    out.extend("  " + ln for ln in tail)
    shown += len(tail)
    return Filtered("\n".join(out), max(0, len(lines) - shown))


# ---------------------------------------------------------------------------
# rtk test
# ---------------------------------------------------------------------------

_PYTEST_FINAL = re.compile(
    r"^=+ (.*\b(?:passed|failed|errors?|skipped|no tests ran|deselected|xfailed|xpassed)\b.*) =+$"
)
_PYTEST_SECTION = re.compile(r"^=+ (FAILURES|ERRORS|short test summary info|warnings summary) =+$")
_GO_RESULT = re.compile(r"^(ok|FAIL|---|\?)\s")
_CARGO_RESULT = re.compile(r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored")
_SUMMARY_LINE = re.compile(
    r"\b\d+ (?:passed|failed|passing|failing|pending|skipped|tests?|errors?|failures?|ok|examples?|assertions?)\b", re.I
)


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
    from rtk.filters import _jsrunners, jstest

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
    tail = lines[-20:]
    summary = [ln.strip() for ln in tail if _SUMMARY_LINE.search(ln)]
    if exit_code == 0:
        if not summary:
            raise Unrecognized("no summary line")  # nothing says what passed: show it raw
        return "test: exit 0; " + "; ".join(dict.fromkeys(summary))
    max_lines, max_blocks = _limits()
    found, cut = blocks(lines, max_lines)
    errors = [b for k, b in found if k == "error"]
    if not errors:
        raise Unrecognized("failed, and no line looks like a failure")
    out = [f"test: exit {exit_code}; " + ("; ".join(dict.fromkeys(summary)) or "no summary line")]
    shown = errors if len(errors) <= max_blocks + 1 else errors[:max_blocks]
    for b in shown:
        out.extend(b)
    if len(shown) < len(errors):
        cut += len(errors) - len(shown)
        out.append(f"+{len(errors) - len(shown)} more failure blocks")
    # A warning by where it is and its rule ("bad.c:2:25 [-Wunused-variable]"), else by its first line.
    warned = [_where(b[0]) for k, b in found if k == "warning"]
    if warned:
        out.append(f"warnings ({len(warned)}): " + ", ".join(warned[:max_blocks]))
        if len(warned) > max_blocks:
            cut += len(warned) - max_blocks
            out.append(f"+{len(warned) - max_blocks} more warnings")
    return Filtered("\n".join(out), cut)
