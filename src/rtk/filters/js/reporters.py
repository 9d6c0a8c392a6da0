"""Parsers for playwright's list reporter, mocha's spec reporter, ``node --test`` (TAP, spec) and ``bun test``."""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Unrecognized
from rtk.filters.js.common import is_internal_frame, rel
from rtk.filters.js.testreport import Failure, clean_body, counts, render
from rtk.text import split_lines

# ---------------------------------------------------------------------------
# playwright test (list reporter)
# ---------------------------------------------------------------------------

_PW_BLOCK = re.compile(r"^  (\d+)\) (.+?)(?:\s*─+)?$")
_PW_TOTAL = re.compile(r"^  (\d+) (failed|passed|skipped|flaky|interrupted|did not run)(?: \(([^)]+)\))?$")
_PW_RESULT = re.compile(r"^\s+[✓✘×✔-]\s+\d+ ")


def playwright(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    totals: dict[str, int] = {}
    took = ""
    failures: list[Failure] = []
    cur: Failure | None = None
    in_totals = False
    extra: list[str] = []
    for ln in split_lines(output):
        m = _PW_TOTAL.match(ln)
        if m:
            totals[m[2]] = int(m[1])
            took = m[3] or took
            cur, in_totals = None, True
            continue
        if in_totals:
            continue  # the list of failed test names under "N failed": already shown
        m = _PW_BLOCK.match(ln)
        if m and not ln.startswith("   "):
            cur = Failure(m[2].rstrip(" ─"))
            failures.append(cur)
            continue
        if cur is not None:
            cur.body.append(ln)
            continue
        if _PW_RESULT.match(ln) or ln.startswith("Running ") or not ln.strip():
            continue
        extra.append(ln)
    if not totals:
        raise Unrecognized("no playwright totals")
    for f in failures:
        f.body = [b for b in clean_body(f.body) if not b.startswith("attachment #")]
    failed = totals.get("failed", 0) + totals.get("flaky", 0) + totals.get("interrupted", 0)
    if failed != len(failures):
        raise Unrecognized(f"{failed} failed/flaky, {len(failures)} printed")
    bad = totals.get("failed", 0) + totals.get("interrupted", 0)
    if exit_code == 0 and bad:
        raise Unrecognized("failures but exit 0")
    parts = [(w, totals.get(w, 0)) for w in ("failed", "flaky", "interrupted", "passed", "skipped", "did not run")]
    head = f"playwright: {counts(parts) or '0 tests'}" + (f" in {took}" if took else "")
    if exit_code == 0 and not failures:
        if extra:
            raise Unrecognized("unknown lines on a green run")
        return head
    return render(head, failures, extra)


# ---------------------------------------------------------------------------
# mocha (spec reporter)
# ---------------------------------------------------------------------------

_M_TOTAL = re.compile(r"^  (\d+) (passing|pending|failing)(?: \(([^)]+)\))?$")
_M_BLOCK = re.compile(r"^  (\d+)\) (.*)$")


def mocha(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    totals: dict[str, int] = {}
    took = ""
    failures: list[Failure] = []
    cur: Failure | None = None
    naming = False
    after_totals = False
    for ln in split_lines(output):
        m = _M_TOTAL.match(ln)
        if m and not cur:
            totals[m[2]] = int(m[1])
            took = m[3] or took
            after_totals = True
            continue
        if not after_totals:
            continue  # the tree of suites and test titles
        m = _M_BLOCK.match(ln)
        if m:
            cur = Failure(m[2].strip().rstrip(":"))
            naming = not m[2].endswith(":")
            failures.append(cur)
            continue
        if cur is None:
            continue
        if naming:
            s = ln.strip()
            if s:
                cur.name += " > " + s.rstrip(":")
                naming = not s.endswith(":")
                continue
            naming = False
            continue
        cur.body.append(ln)
    if not totals:
        raise Unrecognized("no mocha totals")
    for f in failures:
        f.body = clean_body(_mocha_dedup(f.body), indent=6)
    nfail = totals.get("failing", 0)
    if nfail != len(failures):
        raise Unrecognized(f"{nfail} failing, {len(failures)} printed")
    if exit_code == 0 and nfail:
        raise Unrecognized("failures but exit 0")
    head = (
        f"mocha: {counts([('failed', nfail), ('passed', totals.get('passing', 0)), ('pending', totals.get('pending', 0))]) or '0 tests'}"
        + (f" in {took}" if took else "")
    )
    if exit_code == 0:
        return head
    return render(head, failures)


def _mocha_dedup(body: list[str]) -> list[str]:
    """Drop mocha's own "+ expected - actual" diff when the assertion message already has node's diff."""
    if not any(ln.strip() == "+ actual - expected" for ln in body):
        return body
    out: list[str] = []
    skipping = False
    for ln in body:
        if ln.strip() == "+ expected - actual":
            skipping = True
            continue
        if skipping:
            if ln.strip().startswith("at "):
                skipping = False
            else:
                continue
        out.append(ln)
    return out


# ---------------------------------------------------------------------------
# node --test: TAP (the default off a terminal on Node 20) and spec
# ---------------------------------------------------------------------------

_TAP_SUB = re.compile(r"^(\s*)# Subtest: (.*)$")
_TAP_RES = re.compile(r"^(\s*)(not ok|ok) \d+ - (.*?)(?: # (SKIP|TODO)\b ?(.*))?$")
_TAP_STAT = re.compile(r"^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$")
_SPEC_STAT = re.compile(r"^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)$")


def node_test(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    lines = split_lines(output)
    held: dict[str, list[str]] = {"SKIP": [], "TODO": []}  # skipped and todo tests, named with their reasons
    if any(_TAP_STAT.match(ln) for ln in lines):
        stats, failures = _tap(lines, held)
    elif any(_SPEC_STAT.match(ln) for ln in lines):
        stats, failures = _spec(lines, held)
    else:
        raise Unrecognized("no TAP or spec totals")
    fail = int(stats.get("fail", 0)) + int(stats.get("cancelled", 0))
    if fail != len(failures):
        raise Unrecognized(f"{fail} failed, {len(failures)} parsed")
    if exit_code == 0 and fail:
        raise Unrecognized("failures but exit 0")
    ms = stats.get("duration_ms")
    took = f" in {float(ms) / 1000:.2f}s" if ms else ""
    parts = [
        (w, int(stats.get(k, 0)))
        for w, k in (
            ("failed", "fail"),
            ("cancelled", "cancelled"),
            ("passed", "pass"),
            ("skipped", "skipped"),
            ("todo", "todo"),
        )
    ]
    head = f"node --test: {counts(parts) or '0 tests'}{took}"
    extra = [
        f"{title} ({len(names)}): {'; '.join(names)}"
        for title, names in (("skipped tests", held["SKIP"]), ("todo tests", held["TODO"]))
        if names
    ]
    if exit_code == 0:
        return "\n".join([head, *extra])
    if not failures:
        raise Unrecognized("failed without failures")
    return render(head, failures, extra)


def _held(name: str, reason: str | None) -> str:
    """A skipped or todo test's name, with the reason it was given (node prints ``# SKIP`` alone when none)."""
    reason = (reason or "").strip()
    return f"{name} ({reason})" if reason else name


def _tap(lines: list[str], held: dict[str, list[str]]) -> tuple[dict[str, str], list[Failure]]:
    stats: dict[str, str] = {}
    failures: list[Failure] = []
    stack: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        m = _TAP_STAT.match(ln)
        if m:
            stats[m[1]] = m[2]
            continue
        m = _TAP_SUB.match(ln)
        if m:
            ind = len(m[1])
            stack = [s for s in stack if s[0] < ind]
            stack.append((ind, m[2]))
            continue
        m = _TAP_RES.match(ln)
        if not m:
            continue
        ind = len(m[1])
        names = [n for d, n in stack if d < ind] + [m[3]]
        stack = [s for s in stack if s[0] < ind]
        # the YAML block that follows
        yaml: list[str] = []
        if i < len(lines) and lines[i].strip() == "---":
            i += 1
            while i < len(lines) and lines[i].strip() != "...":
                yaml.append(lines[i])
                i += 1
            i += 1
        if m[4]:
            held[m[4]].append(_held(" > ".join(names), m[5]))
        if m[2] == "ok":
            continue
        body, kind = _tap_yaml(yaml)
        if kind in ("subtestsFailed", "cancelledByParent"):
            continue  # a suite whose children already report the failure
        failures.append(Failure(" > ".join(names), body))
    return stats, failures


def _tap_yaml(yaml: list[str]) -> tuple[list[str], str]:
    """The useful part of a failed test's YAML block: error, location, user frames."""
    body: list[str] = []
    kind = ""
    location = ""
    frames: list[str] = []
    j = 0
    base = len(yaml[0]) - len(yaml[0].lstrip()) if yaml else 0
    while j < len(yaml):
        ln = yaml[j]
        key, _, val = ln.strip().partition(":")
        block: list[str] = []
        if len(ln) - len(ln.lstrip()) == base:
            k = j + 1
            while k < len(yaml) and (len(yaml[k]) - len(yaml[k].lstrip()) > base or not yaml[k].strip()):
                block.append(yaml[k][base + 2 :] if yaml[k].strip() else "")
                k += 1
            j = k
        else:
            j += 1
            continue
        val = val.strip()
        if key == "failureType":
            kind = val.strip("'")
        elif key == "location":
            location = rel(val.strip("'"))
        elif key == "error":
            if val in ("|-", "|", ">-"):
                body.extend(b.rstrip() for b in block)
            else:
                body.append(val.strip("'"))
        elif key in ("expected", "actual") and val and not block:
            body.append(f"{key}: {val}")
        elif key == "stack":
            frames = [rel_frame(b.strip()) for b in block if b.strip() and not is_internal_frame(b)]
    while body and not body[-1].strip():
        body.pop()
    if location and not any(location.rsplit(":", 1)[0] + ":" in f for f in frames):  # the test's own line
        body.append(f"at {location}")
    body.extend(f"at {f}" for f in frames)
    return body, kind


def rel_frame(frame: str) -> str:
    return re.sub(r"(?:file://)?(/[^\s():]+)", lambda m: rel(m[1]), frame)


_SPEC_LINE = re.compile(r"^(\s*)([▶✔✖﹣]) (.*?)(?: \([\d.]+m?s\))?(?: # (SKIP|TODO)?\b ?(.*))?$")


def _spec(lines: list[str], held: dict[str, list[str]]) -> tuple[dict[str, str], list[Failure]]:
    stats: dict[str, str] = {}
    failures: list[Failure] = []
    stack: list[tuple[int, str]] = []
    cur: Failure | None = None
    cur_ind = 0
    for ln in lines:
        m = _SPEC_STAT.match(ln)
        if m:
            stats[m[1]] = m[2]
            cur = None
            continue
        if ln.startswith("✖ failing tests:"):
            break  # a repeat of the failures, without the suite names
        m = _SPEC_LINE.match(ln)
        if m and (cur is None or len(m[1]) <= cur_ind):
            cur = None
            ind, mark, name = len(m[1]), m[2], m[3]
            stack = [s for s in stack if s[0] < ind]
            if mark == "▶":
                stack.append((ind, name))
            elif mark == "✖":
                cur = Failure(" > ".join([n for _, n in stack] + [name]))
                cur_ind = ind
                failures.append(cur)
            elif mark == "﹣" or m[4] == "TODO":  # a skipped test ("# reason" alone), a todo test
                held["SKIP" if mark == "﹣" else "TODO"].append(_held(" > ".join([n for _, n in stack] + [name]), m[5]))
            continue
        if cur is not None:
            cur.body.append(ln)
    # a suite that failed because of its children closes with a bodiless "✖ name"
    real = [f for f in failures if any(b.strip() for b in f.body)]
    for f in real:
        f.body = _spec_body(f.body)
    return stats, real


def _spec_body(body: list[str]) -> list[str]:
    # the inspected error object after the last frame ("at x (f:1:2) {", "code: ...", "}") repeats
    # the message: keep only its actual/expected values
    for k, ln in enumerate(body):
        if ln.strip().startswith("at ") and ln.rstrip().endswith(" {"):
            pad = " " * (len(ln) - len(ln.lstrip()))
            tail = [
                pad + x.strip().rstrip(",") for x in body[k + 1 :] if x.strip().startswith(("actual:", "expected:"))
            ]
            body = [*body[:k], ln.rstrip()[:-2], *tail]
            break
    return clean_body(body)


# ---------------------------------------------------------------------------
# bun test
# ---------------------------------------------------------------------------

_BUN_RES = re.compile(r"^\((pass|fail|skip|todo)\) (.*?)(?: \[[\d.]+m?s\])?$")
_BUN_TOTAL = re.compile(r"^\s*(\d+) (pass|fail|skip|todo|error|errors|snapshots?|expect\(\) calls?)\b")
_BUN_RAN = re.compile(r"^Ran (\d+) tests? across (\d+) files?\. \[([^\]]+)\]$")
_BUN_REPEAT = re.compile(r"^\d+ tests? (failed|skipped|todo):?$")


def bun_test(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    totals: dict[str, int] = {}
    ran: tuple[str, str, str] | None = None
    failures: list[Failure] = []
    pending: list[str] = []
    repeat = False
    for ln in split_lines(output):
        if ln.startswith("bun test v"):
            continue
        m = _BUN_RAN.match(ln)
        if m:
            ran = (m[1], m[2], m[3])
            continue
        m = _BUN_TOTAL.match(ln)
        if m and ln.startswith(" "):
            totals[m[2]] = int(m[1])
            continue
        if _BUN_REPEAT.match(ln.strip()):
            repeat = True  # bun lists the failures again at the end
            continue
        m = _BUN_RES.match(ln)
        if m:
            if m[1] == "fail" and not repeat:
                failures.append(Failure(m[2], clean_body(pending)))
            pending = []
            continue
        if ln.endswith(":") and not ln.startswith(" ") and "." in ln and not pending:
            continue  # a file header "math.test.ts:"
        if not repeat:
            pending.append(ln)
    if ran is None:
        raise Unrecognized("no 'Ran N tests' line")
    nfail = totals.get("fail", 0)
    if nfail != len(failures):
        raise Unrecognized(f"{nfail} failed, {len(failures)} parsed")
    if exit_code == 0 and nfail:
        raise Unrecognized("failures but exit 0")
    head = f"bun test: {counts([('failed', nfail), ('passed', totals.get('pass', 0)), ('skipped', totals.get('skip', 0)), ('todo', totals.get('todo', 0))]) or '0 tests'}"
    head += f" ({ran[0]} tests, {ran[1]} files) in {ran[2]}"
    extra = [ln for ln in clean_body(pending) if ln.strip()]
    if exit_code == 0 and not failures:
        if extra:
            raise Unrecognized("unknown lines on a green run")
        return head
    return render(head, failures, extra)
