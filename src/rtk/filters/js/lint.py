"""Filters for JS linters and formatters: eslint (stylish, unix), biome check/lint, oxlint, prettier."""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.js.common import common_root, flag_value, has_flag, limit, rel, wants_json
from rtk.text import plural, split_lines

COMMANDS = ("biome", "eslint", "oxlint", "prettier")

_HELP = ("--help", "-h", "--version", "-v", "-V")


def select(argv: list[str]) -> Spec | None:
    tool = argv[0].rsplit("/", 1)[-1]
    args = argv[1:]
    if has_flag(args, *_HELP) or wants_json(args):
        return None
    if tool == "eslint":
        fmt = flag_value(args, "-f", "--format")
        if has_flag(args, "--print-config", "--init", "--inspect-config", "--output-file", "-o", "--stdin"):
            return None
        if fmt not in (None, "stylish", "unix"):
            return None
        return Spec("eslint", eslint)
    if tool == "oxlint":
        if flag_value(args, "-f", "--format") not in (None, "default") or has_flag(args, "--rules", "--init"):
            return None
        return Spec("oxlint", oxlint)
    if tool == "biome":
        sub = next((a for a in args if not a.startswith("-")), None)
        if sub not in ("check", "lint", "ci", "format"):
            return None
        if flag_value(args, "--reporter") not in (None, "default") or has_flag(args, "--watch"):
            return None
        return Spec("biome", biome)
    if tool == "prettier":
        if not has_flag(args, "--check", "-c", "--write", "-w", "--list-different", "-l"):
            return None  # prints formatted code to stdout: data, not a report
        return Spec("prettier", prettier)
    return None


# ---------------------------------------------------------------------------
# shared problem model and rendering
# ---------------------------------------------------------------------------


class Problem:
    __slots__ = ("col", "file", "line", "msg", "rule", "sev")

    def __init__(self, file: str, line: str, col: str, sev: str, msg: str, rule: str) -> None:
        self.file, self.line, self.col, self.sev, self.msg, self.rule = rel(file), line, col, sev, msg, rule

    @property
    def loc(self) -> str:
        return f"{self.file}:{self.line}:{self.col}" if self.line else self.file


def _counts(ps: list[Problem]) -> str:
    parts = []
    for sev in ("error", "warning", "info"):
        n = sum(1 for p in ps if p.sev == sev)
        if n:
            parts.append(plural(n, sev))
    return ", ".join(parts)


def render(tool: str, problems: list[Problem], header: str) -> Filtered:
    """Problems grouped by rule (errors first); one line per rule when the message repeats. Every
    location up to ``limits.lint_budget`` tokens; above it each rule whole or ``rule  (N problems)``
    (exact), the rarest rules shown first."""
    from rtk.filters import findings

    groups: dict[str, list[Problem]] = {}
    for p in problems:
        groups.setdefault(p.rule or "(no rule)", []).append(p)

    def key(item: tuple[str, list[Problem]]) -> tuple[int, int]:
        ps = item[1]
        return (0 if any(p.sev == "error" for p in ps) else 1, -len(ps))

    root = common_root([p.file for p in problems if p.file])
    if root:
        for p in problems:
            p.file = p.file[len(root) :]
        header += f" (paths under {root})"
    units: list[tuple[str, str, int]] = []
    for rule, ps in sorted(groups.items(), key=key):
        msgs = {p.msg for p in ps}
        if len(ps) == 1:
            p = ps[0]
            text = f"{rule}: {p.loc} {p.msg} ({p.sev})"
        elif len(msgs) == 1:
            text = f"{rule} ({_counts(ps)}): {ps[0].msg}\n  " + ", ".join(p.loc for p in ps)
        else:
            lines = [f"  {p.loc} {p.msg}" + ("" if p.sev == ps[0].sev else f" ({p.sev})") for p in ps]
            text = "\n".join([f"{rule} ({_counts(ps)}):", *lines])
        units.append((rule, text, len(ps)))
    grouped = findings.by_code(units, noun=("problem", "problems"))
    if grouped is None:
        return Filtered("\n".join([header, *(t for _, t, _ in units)]))
    lines, cut = grouped
    return Filtered("\n".join([header, *lines]), cut)


def _files(problems: list[Problem]) -> int:
    return len({p.file for p in problems})


# ---------------------------------------------------------------------------
# eslint
# ---------------------------------------------------------------------------

_ESLINT_ROW = re.compile(r"^\s+(\d+):(\d+)\s+(error|warning)\s+(.*?)(?:\s{2,}(\S+))?\s*$")
_ESLINT_ROW_NOPOS = re.compile(r"^\s+(error|warning)\s+(.*?)(?:\s{2,}(\S+))?\s*$")
_ESLINT_TOTAL = re.compile(r"^[✖x] (\d+) problems? \((\d+) errors?, (\d+) warnings?\)")
_ESLINT_UNIX = re.compile(r"^(.+?):(\d+):(\d+): (.*) \[(Error|Warning)(?:/(\S+))?\]$")
_ESLINT_UNIX_TOTAL = re.compile(r"^(\d+) problems?$")


def eslint(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    lines = split_lines(output)
    problems: list[Problem] = []
    total: int | None = None
    fixable: list[str] = []
    other: list[str] = []
    file = ""
    for ln in lines:
        if not ln.strip():
            continue
        m = _ESLINT_UNIX.match(ln)
        if m:
            problems.append(Problem(m[1], m[2], m[3], m[5].lower(), m[4], m[6] or ""))
            continue
        m = _ESLINT_TOTAL.match(ln) or _ESLINT_UNIX_TOTAL.match(ln)
        if m:
            total = int(m[1])
            continue
        if ln.startswith("  ") and "potentially fixable" in ln:
            fixable.append(ln.strip())
            continue
        if (
            not ln.startswith(" ")
            and (ln.startswith(("/", "./")) or re.match(r"^[A-Za-z]:\\", ln) or "." in ln)
            and " " not in ln.strip()
        ):
            file = ln.strip()
            continue
        m = _ESLINT_ROW.match(ln)
        if m and file:
            problems.append(Problem(file, m[1], m[2], m[3], m[4], m[5] or ""))
            continue
        m = _ESLINT_ROW_NOPOS.match(ln)
        if m and file:
            problems.append(Problem(file, "", "", m[1], m[2], m[3] or ""))
            continue
        other.append(ln)
    if not problems:
        if exit_code == 0 and not other:
            return "eslint: no problems"
        raise Unrecognized("no problems parsed")  # config errors, crashes: show them raw
    if total is not None and total != len(problems):
        raise Unrecognized(f"eslint counted {total} problems, {len(problems)} parsed")
    errors = sum(1 for p in problems if p.sev == "error")
    if exit_code == 0 and errors:
        raise Unrecognized("errors reported but exit code 0")
    head = f"eslint: {plural(len(problems), 'problem')} ({_counts(problems)}) in {plural(_files(problems), 'file')}"
    res = render("eslint", problems, head)
    extra = [*other, *fixable]
    if extra:
        res.text += "\n" + "\n".join(extra)
    return res


# ---------------------------------------------------------------------------
# oxlint
# ---------------------------------------------------------------------------

_OX_HEAD = re.compile(r"^\s{2}([!x×⚠])\s+(?:(\S+?)\((\S+?)\)|(\S+)):\s(.*)$")
_OX_LOC = re.compile(r"^\s*,-\[(.+?):(\d+):(\d+)\]$")
_OX_FOUND = re.compile(r"^Found (\d+) warnings? and (\d+) errors?\.$")
_OX_DONE = re.compile(r"^Finished in (\S+) on (\d+) files?")


def oxlint(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    problems: list[Problem] = []
    pending: tuple[str, str, str] | None = None
    found: tuple[int, int] | None = None
    files: str | None = None
    took = ""
    other: list[str] = []
    for ln in split_lines(output):
        m = _OX_HEAD.match(ln)
        if m:
            sev = "warning" if m[1] in "!⚠" else "error"
            rule = f"{m[2]}/{m[3]}" if m[2] else (m[4] or "")
            if pending:  # a diagnostic without a location
                problems.append(Problem("", "", "", pending[0], pending[2], pending[1]))
            pending = (sev, rule, m[5])
            continue
        m = _OX_LOC.match(ln)
        if m and pending:
            problems.append(Problem(m[1], m[2], m[3], pending[0], pending[2], pending[1]))
            pending = None
            continue
        m = _OX_FOUND.match(ln)
        if m:
            found = (int(m[1]), int(m[2]))
            continue
        m = _OX_DONE.match(ln)
        if m:
            took, files = m[1], m[2]
            continue
        s = ln.strip()
        if not s or (pending is None and (s[0] in "|:`," or s[:1].isdigit() or s.startswith("help:"))):
            continue
        if pending is None and re.match(r"^\d+ \|", s):
            continue
        if pending is None:
            other.append(ln)
    if pending:
        problems.append(Problem("", "", "", pending[0], pending[2], pending[1]))
    if found is None:
        raise Unrecognized("no oxlint summary")
    warnings, errors = found
    if warnings + errors != len(problems):
        raise Unrecognized(f"oxlint counted {warnings + errors}, parsed {len(problems)}")
    if errors and exit_code == 0:
        raise Unrecognized("errors but exit 0")
    where = f" in {plural(int(files), 'file')}" if files else ""
    if not problems:
        if other:
            raise Unrecognized("unknown lines")
        return f"oxlint: no problems{where} ({took})" if exit_code == 0 else None
    head = f"oxlint: {plural(errors, 'error')}, {plural(warnings, 'warning')}{where}"
    res = render("oxlint", problems, head)
    if other:
        res.text += "\n" + "\n".join(other)
    return res


# ---------------------------------------------------------------------------
# biome
# ---------------------------------------------------------------------------

_BIOME_HEAD = re.compile(r"^(\S+?)(?::(\d+):(\d+))? ([a-zA-Z][\w/-]*)(?:\s+[A-Z][A-Z ]*?)?\s+━{3,}$")
_BIOME_MSG = re.compile(r"^\s{2}([×!i✖⚠ℹ])\s(.*)$")
_BIOME_CHECKED = re.compile(r"^Checked (\d+) files? in (\S+)\.(.*)$")
_BIOME_FOUND = re.compile(r"^Found (\d+) (errors?|warnings?|infos?)\.$")


def biome(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    problems: list[Problem] = []
    pending: tuple[str, str, str, str] | None = None
    checked: tuple[str, str, str] | None = None
    found: dict[str, int] = {}
    other: list[str] = []
    cause = False
    for ln in split_lines(output):
        if cause and ln.strip() and problems:  # the line under "Caused by:" says why (an OS error)
            problems[-1].msg += f" ({ln.strip()})"
            cause = False
            continue
        if ln.strip() == "Caused by:":
            cause = True
            continue
        m = _BIOME_HEAD.match(ln)
        if m:
            if m[1] in ("lint", "check", "format", "ci"):
                pending = None  # the closing "lint ━━━ × Some errors were emitted" banner
                continue
            pending = (m[1], m[2] or "", m[3] or "", m[4])
            continue
        m = _BIOME_MSG.match(ln)
        if m and pending is not None:
            sev = {"×": "error", "✖": "error", "!": "warning", "⚠": "warning"}.get(m[1], "info")
            problems.append(Problem(pending[0], pending[1], pending[2], sev, m[2].strip(), pending[3]))
            pending = None
            continue
        m = _BIOME_CHECKED.match(ln)
        if m:
            checked = (m[1], m[2], m[3].strip())
            continue
        m = _BIOME_FOUND.match(ln)
        if m:
            found[m[2].rstrip("s")] = int(m[1])
            continue
        if m is None and checked is None and not problems and pending is None and ln.strip():
            other.append(ln)
    if checked is None:
        raise Unrecognized("no 'Checked N files' line")
    nfiles, took, note = checked
    if sum(found.values()) != len(problems) and found:
        # biome caps the diagnostics it prints (--max-diagnostics); the counts stay exact
        pass
    errors = found.get("error", 0)
    if errors and exit_code == 0:
        raise Unrecognized("errors but exit 0")
    if not problems and not found:
        if exit_code != 0 or other:
            raise Unrecognized("failed without diagnostics")
        return f"biome: no problems in {plural(int(nfiles), 'file')} ({took})" + (f"; {note}" if note else "")
    counts = ", ".join(plural(found[k], k) for k in ("error", "warning", "info") if found.get(k))
    head = f"biome: {counts or _counts(problems)} in {plural(int(nfiles), 'checked file')}"
    if note:
        head += f"; {note}"
    res = render("biome", problems, head)
    shown = len(problems)
    total = sum(found.values())
    if total > shown:
        res.text += f"\n(biome printed {shown} of {total} diagnostics; --max-diagnostics shows more)"
    if other:
        res.text = "\n".join(other) + "\n" + res.text
    return res


# ---------------------------------------------------------------------------
# prettier
# ---------------------------------------------------------------------------

_PRETTIER_WRITE = re.compile(r"^(.+?) (\d+(?:\.\d+)?m?s)(?: \((unchanged|cached)\))?$")


def prettier(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    args = argv[1:]
    lines = split_lines(output)
    warn = [ln[len("[warn] ") :] for ln in lines if ln.startswith("[warn] ")]
    errors: list[str] = []
    changed: list[str] = []
    unchanged = 0
    other: list[str] = []
    ok = False
    summary = ""
    in_error = False
    for ln in lines:
        if ln.startswith("[error] "):
            errors.append(ln[len("[error] ") :])
            in_error = True
            continue
        if in_error and (ln.startswith((" ", "\t")) or not ln.strip()):
            continue
        in_error = False
        if ln.startswith("[warn] ") or ln == "Checking formatting...":
            continue
        if ln.startswith("All matched files use Prettier code style"):
            ok = True
            continue
        m = _PRETTIER_WRITE.match(ln)
        if m and has_flag(args, "--write", "-w"):
            if m[3]:
                unchanged += 1
            else:
                changed.append(m[1])
            continue
        if ln.strip():
            other.append(ln)
    files = [w for w in warn if not w.startswith(("Code style issues", "Code style issue"))]
    summary = next((w for w in warn if w.startswith("Code style issue")), "")
    if has_flag(args, "--list-different", "-l") and not has_flag(args, "--write", "-w"):
        return None  # a bare list of files: already minimal
    if other or (exit_code != 0 and not files and not errors):
        raise Unrecognized("unexpected lines")  # e.g. prettier not installed, bad option
    out: list[str] = []
    cut = 0
    if has_flag(args, "--write", "-w"):
        if exit_code == 0 and not errors and not changed and not unchanged:
            raise Unrecognized("no files reported")
        out.append(f"prettier: {plural(len(changed), 'file')} formatted, {unchanged} unchanged")
        shown, cut = _cap_files(changed)
        out.extend(shown)
    else:
        if ok and exit_code == 0 and not files:
            return "prettier: all files formatted"
        if not files and not errors:
            raise Unrecognized("no result")
        if files:
            out.append(
                f"prettier: {plural(len(files), 'file')} need formatting"
                + (f" ({summary})" if not summary.startswith("Code style issues found") else "")
            )
            shown, cut = _cap_files(files)
            out.extend(shown)
    if errors:
        if not out:
            out.append(f"prettier: failed (exit {exit_code})")
        out.append(f"{plural(len(errors), 'error')}:")
        out.extend("  " + e for e in errors)
    return Filtered("\n".join(out), cut)


def _cap_files(files: list[str]) -> tuple[list[str], int]:
    n = limit("lint_max_per_rule")
    if len(files) <= n + 1:
        return ["  " + f for f in files], 0
    return [*("  " + f for f in files[:n]), f"  +{len(files) - n} more files"], len(files) - n
