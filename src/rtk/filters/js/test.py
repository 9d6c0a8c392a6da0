"""Filters for JS test runners: vitest, jest, playwright test, mocha, ``node --test``.

Green runs become one line with the real counts; red runs keep every failing test
with its full name (suite > test), the assertion and diff, and the user-code
frames. Watch modes and UIs run live; JSON and other explicit reporters run raw.
"""

from __future__ import annotations

import os
import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.js.common import flag_value, has_flag, wants_json
from rtk.filters.js.testreport import Failure, clean_body, counts, render
from rtk.text import split_lines

COMMANDS = ("jest", "mocha", "node", "playwright", "vitest")

_HELP = ("--help", "-h", "--version", "-v", "-V")


def select(argv: list[str]) -> Spec | None:
    tool = argv[0].rsplit("/", 1)[-1]
    args = argv[1:]
    if tool == "node":
        return _select_node(args)
    if has_flag(args, *_HELP) or wants_json(args):
        return None
    if tool == "vitest":
        return _select_vitest(args)
    if tool == "jest":
        if has_flag(args, "--watch", "--watchAll"):
            return Spec("jest", live=True)
        if has_flag(args, "--listTests", "--showConfig", "--coverage", "--reporters", "--outputFile", "--init"):
            return None
        return Spec("jest", jest)
    if tool == "playwright":
        sub = next((a for a in args if not a.startswith("-")), None)
        if sub in ("codegen", "show-report", "open", "cr", "ff", "wk", "show-trace"):
            return Spec("playwright", live=True)
        if sub != "test":
            return None
        if has_flag(args, "--ui", "--debug", "--ui-host", "--ui-port"):
            return Spec("playwright", live=True)
        if flag_value(args, "--reporter") not in (None, "list") or has_flag(args, "--list"):
            return None
        from rtk.filters.js import reporters as _jsrunners

        return Spec("playwright", _jsrunners.playwright)
    if tool == "mocha":
        if has_flag(args, "--watch", "-w"):
            return Spec("mocha", live=True)
        if flag_value(args, "--reporter", "-R") not in (None, "spec"):
            return None
        from rtk.filters.js import reporters as _jsrunners

        return Spec("mocha", _jsrunners.mocha)
    return None


def _select_node(args: list[str]) -> Spec | None:
    opts = []
    for a in args:
        if not a.startswith("-"):
            break  # node script.js --test: the flag belongs to the script
        opts.append(a)
    if "--test" not in opts:
        return None
    if any(a.startswith("--watch") for a in opts):
        return Spec("node-test", live=True)
    reporters = [a.split("=", 1)[1] for a in opts if a.startswith("--test-reporter=")]
    if "--test-reporter" in opts:
        i = args.index("--test-reporter")
        reporters.append(args[i + 1] if i + 1 < len(args) else "")
    if any(r not in ("tap", "spec") for r in reporters) or "--test-reporter-destination" in " ".join(opts):
        return None
    from rtk.filters.js import reporters as _jsrunners

    return Spec("node-test", _jsrunners.node_test)


def _select_vitest(args: list[str]) -> Spec | None:
    words = [a for a in args if not a.startswith("-")]
    sub = words[0] if words else None
    if sub in ("watch", "dev") or has_flag(args, "--watch", "-w", "--ui", "--open"):
        return Spec("vitest", live=True)
    if sub in ("bench", "init", "list", "typecheck"):
        return None
    rep = flag_value(args, "--reporter")
    if rep not in (None, "default", "verbose") or has_flag(args, "--coverage", "--outputFile"):
        return None
    if sub != "run" and not has_flag(args, "--run") and _interactive():
        # `vitest` alone watches on an interactive terminal: never buffer it.
        return Spec("vitest", live=True)
    return Spec("vitest", vitest)


def _interactive() -> bool:
    try:
        return os.isatty(0) and not os.environ.get("CI")
    except OSError:
        return False


# ---------------------------------------------------------------------------
# vitest (default and verbose reporters)
# ---------------------------------------------------------------------------

_V_SECTION = re.compile(r"^⎯+\s*(.*?)\s*⎯*$")
_V_SEP = re.compile(r"^⎯+\[\d+/\d+\]⎯*$")
_V_FAIL = re.compile(r"^ ?FAIL\s+(.*?)\s*$")
_V_FILES = re.compile(r"^\s*Test Files\s+(.*)$")
_V_TESTS = re.compile(r"^\s*Tests\s+(.*)$")
_V_ERRORS = re.compile(r"^\s*Errors\s+(\d+) errors?")
_V_DURATION = re.compile(r"^\s*Duration\s+(\S+)")
_V_COUNT = re.compile(r"(\d+) (failed|passed|skipped|todo|expected fail|flaky)")
_V_TOTAL = re.compile(r"\((\d+)\)\s*$")
_V_HEADER_COUNT = re.compile(r"(?:Failed (?:Tests|Suites)|Unhandled Errors?) ?(\d+)?")


def _vcounts(text: str) -> dict[str, int]:
    d = {w: int(n) for n, w in _V_COUNT.findall(text)}
    m = _V_TOTAL.search(text)
    d["total"] = int(m[1]) if m else sum(d.values())
    return d


def vitest(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    lines = split_lines(output)
    files: dict[str, int] | None = None
    tests: dict[str, int] | None = None
    duration = ""
    errors = 0
    failures: list[Failure] = []
    extra: list[str] = []
    section: str | None = None
    expected: dict[str, int] = {}
    cur: Failure | None = None
    for ln in lines:
        m = _V_FILES.match(ln)
        if m:
            files, section, cur = _vcounts(m[1]), None, None
            continue
        m = _V_TESTS.match(ln)
        if m and files is not None:
            tests = _vcounts(m[1])
            continue
        m = _V_ERRORS.match(ln)
        if m and files is not None:
            errors = int(m[1])
            continue
        m = _V_DURATION.match(ln)
        if m and files is not None:
            duration = m[1]
            continue
        if _V_SEP.match(ln):
            cur = None
            continue
        m = _V_SECTION.match(ln)
        if m and ln.startswith("⎯"):
            section, cur = m[1], None
            h = _V_HEADER_COUNT.match(section)
            if h and h[1]:
                expected[section.rsplit(" ", 1)[0]] = int(h[1])
            if section.startswith("Unhandled"):
                cur = Failure(section)
                failures.append(cur)
            continue
        if section is None:
            continue  # the per-file progress lines above the sections
        m = _V_FAIL.match(ln)
        if m and section.startswith("Failed"):
            name = m[1]
            if section.startswith("Failed Suites"):
                name = re.sub(r"\s*\[ .* \]$", "", name) + " (suite failed to load)"
            cur = Failure(name)
            failures.append(cur)
            continue
        if cur is not None:
            cur.body.append(ln)
        elif ln.strip():
            extra.append(ln)
    if files is None or tests is None:
        raise Unrecognized("no 'Test Files' / 'Tests' summary")
    for f in failures:
        f.body = clean_body(f.body)
    nfail_tests = sum(
        1 for f in failures if not f.name.endswith("(suite failed to load)") and not f.name.startswith("Unhandled")
    )
    if expected.get("Failed Tests", nfail_tests) != nfail_tests or tests.get("failed", 0) != nfail_tests:
        raise Unrecognized("failed-test count does not match the failures printed")
    nfail_suites = sum(1 for f in failures if f.name.endswith("(suite failed to load)"))
    if expected.get("Failed Suites", nfail_suites) != nfail_suites:
        raise Unrecognized("failed-suite count does not match")
    bad = tests.get("failed", 0) + files.get("failed", 0) + errors
    if exit_code == 0 and bad:
        raise Unrecognized("failures reported but exit code 0")
    took = f" in {duration}" if duration else ""
    if exit_code == 0:
        if extra:
            raise Unrecognized("unknown lines on a green run")
        return (
            f"vitest: {counts([('passed', tests.get('passed', 0)), ('skipped', tests.get('skipped', 0)), ('todo', tests.get('todo', 0))]) or '0 tests'}"
            f" ({files['total']} files){took}"
        )
    if not failures and not extra:
        raise Unrecognized("failed without failures")
    head = (
        f"vitest: {counts([('failed', tests.get('failed', 0)), ('passed', tests.get('passed', 0)), ('skipped', tests.get('skipped', 0)), ('todo', tests.get('todo', 0))])}"
        f" ({tests['total']} tests); files: {counts([('failed', files.get('failed', 0)), ('passed', files.get('passed', 0)), ('skipped', files.get('skipped', 0))])}"
        f" ({files['total']}){took}"
    )
    if errors:
        head += f"; {errors} unhandled error{'s' if errors != 1 else ''}"
    return render(head, failures, extra)


# ---------------------------------------------------------------------------
# jest (default reporter)
# ---------------------------------------------------------------------------

_J_FILE = re.compile(r"^(PASS|FAIL)\s+(\S.*?)(?:\s+\([\d.]+ m?s\))?$")
_J_BULLET = re.compile(r"^  ● (.*)$")
_J_SUMMARY = re.compile(r"^(Test Suites|Tests|Snapshots|Time):\s+(.*)$")
_J_COUNT = re.compile(r"(\d+) (failed|passed|skipped|todo|pending|total|obsolete|written|updated)")


def jest(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    lines = split_lines(output)
    summary: dict[str, str] = {}
    failures: list[Failure] = []
    file = ""
    cur: Failure | None = None
    in_console = False
    consoles = 0
    extra: list[str] = []
    done = False
    for ln in lines:
        m = _J_SUMMARY.match(ln)
        if m:
            summary[m[1]] = m[2]
            cur, done = None, True
            continue
        if ln.startswith("Summary of all failing tests"):
            done = True  # jest repeats the failures: already collected
            cur = None
            continue
        m = _J_FILE.match(ln)
        if m:
            file, cur, in_console = m[2], None, False
            continue
        if done:
            if ln.strip() and not ln.startswith(("Ran all test suites", "Ran ")):
                extra.append(ln)
            continue
        m = _J_BULLET.match(ln)
        if m:
            name = m[1]
            if name == "Console":
                in_console, cur = True, None
                consoles += 1
                continue
            in_console = False
            if name == "Test suite failed to run":
                name = f"{file} (suite failed to run)"
            else:
                name = f"{file} > " + name.replace(" › ", " > ")
            cur = Failure(name)
            failures.append(cur)
            continue
        if in_console:
            continue
        if cur is not None:
            cur.body.append(ln)
        elif ln.strip():
            extra.append(ln)
    if "Tests" not in summary or "Test Suites" not in summary:
        raise Unrecognized("no jest summary")
    t = {w: int(n) for n, w in _J_COUNT.findall(summary["Tests"])}
    s = {w: int(n) for n, w in _J_COUNT.findall(summary["Test Suites"])}
    for f in failures:
        f.body = clean_body(f.body)
    nfail = sum(1 for f in failures if not f.name.endswith("(suite failed to run)"))
    if nfail != t.get("failed", 0):
        raise Unrecognized(f"jest counted {t.get('failed', 0)} failed tests, {nfail} printed")
    if exit_code == 0 and (t.get("failed") or s.get("failed")):
        raise Unrecognized("failures but exit 0")
    took = f" in {summary['Time']}" if "Time" in summary else ""
    if exit_code == 0:
        if extra or failures:
            raise Unrecognized("unknown lines on a green run")
        return f"jest: {counts([('passed', t.get('passed', 0)), ('skipped', t.get('skipped', 0)), ('todo', t.get('todo', 0))]) or '0 tests'} ({s.get('total', 0)} suites){took}"
    if not failures and not extra:
        raise Unrecognized("failed without failures")
    head = (
        f"jest: {counts([('failed', t.get('failed', 0)), ('passed', t.get('passed', 0)), ('skipped', t.get('skipped', 0)), ('todo', t.get('todo', 0))])}"
        f" ({t.get('total', 0)} tests); suites: {counts([('failed', s.get('failed', 0)), ('passed', s.get('passed', 0)), ('skipped', s.get('skipped', 0))])}"
        f" ({s.get('total', 0)}){took}"
    )
    if consoles:
        extra = [*extra, f"({consoles} console output block{'s' if consoles != 1 else ''} not shown)"]
    res = render(head, failures, extra)
    res.cut += consoles
    return res
