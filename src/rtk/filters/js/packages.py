"""Output of npm/pnpm/yarn/bun: installs, ``ls``/``list``, ``outdated`` and ``run <script>``."""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Unrecognized
from rtk.filters.js.common import limit, split_command
from rtk.text import plural, split_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filterapi import Spec


def _tool(argv: list[str]) -> str:
    return argv[0].rsplit("/", 1)[-1]


def _sub(argv: list[str]) -> str:
    return next((a for a in argv[1:] if not a.startswith("-")), "install")


# ---------------------------------------------------------------------------
# npm error blocks
# ---------------------------------------------------------------------------

_NPM_ERR = ("npm error", "npm ERR!")
_NPM_WARN = ("npm warn", "npm WARN")
# Lines of npm's lifecycle failure report that only restate the exit code and the command.
_LIFECYCLE = re.compile(
    r"^(?:Lifecycle script `.*` failed with error:|code \d+|path .*|workspace .*|location .*|command failed|command sh -c .*|signal .*)$"
)


def npm_errors(lines: list[str]) -> tuple[list[str], int]:
    """npm's error block, whole, except a usage dump (EUSAGE), which is cut after the message."""
    out: list[str] = []
    cut = 0
    usage = False
    for ln in lines:
        if not ln.startswith(_NPM_ERR):
            continue
        body = ln.split(" ", 2)[2] if ln.count(" ") >= 2 else ""
        if body.strip() == "Usage:" or (usage and not body.startswith("A complete log")):
            usage = True
            cut += 1
            continue
        out.append(ln)
    if cut:
        out.append(f"npm error ({cut} lines of usage text cut)")
    return out, cut


def _unprefix(line: str) -> str:
    """``npm error code E404`` -> ``code E404`` (the block keeps every line)."""
    for p in ("npm error ", "npm ERR! "):
        if line.startswith(p):
            return line[len(p) :]
    return "" if line.rstrip() in ("npm error", "npm ERR!") else line


def _warnings(lines: list[str]) -> tuple[int, int, list[str]]:
    """(deprecations, other warnings, distinct other warning texts)."""
    dep = 0
    other: list[str] = []
    for ln in lines:
        low = ln.lower()
        if ln.startswith(_NPM_WARN) or low.startswith(("warning ", " warn ", "warn ", "[warn]")) or " WARN " in ln[:8]:
            if "deprecated" in low:
                dep += 1
            else:
                other.append(ln)
    return dep, len(other), list(dict.fromkeys(other))


def _noise_note(dep: int, warns: int) -> str:
    parts = []
    if dep:
        parts.append(plural(dep, "deprecation warning"))
    if warns:
        parts.append(plural(warns, "warning"))
    return f" ({', '.join(parts)})" if parts else ""


# ---------------------------------------------------------------------------
# install / ci / add
# ---------------------------------------------------------------------------

_NPM_RESULT = re.compile(r"^(?:added|removed|changed|up to date|audited)\b.*?(?: in [\d.]+m?s)?$")
_NPM_VULN = re.compile(r"^(?:found )?(\d+) vulnerabilit(?:y|ies)(?: \(([^)]*)\))?")
_PNPM_DONE = re.compile(r"^Done in (\S+)(?: using pnpm v(\S+))?$")
_PNPM_PKGS = re.compile(r"^Packages: ([+-]\d+(?: [+-]\d+)?)$")
_BUN_DONE = re.compile(
    r"^(\d+) packages? installed \[([^\]]+)\]$|^Checked (\d+) installs? across (\d+) packages? \(no changes\) \[([^\]]+)\]$"
)
_YARN_DONE = re.compile(r"^Done in (\S+?)\.?$")


def install(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    tool = _tool(argv)
    lines = split_lines(output)
    dep, warns, warn_texts = _warnings(lines)
    if tool == "npm":
        return _npm_install(argv, lines, exit_code, dep, warns, warn_texts)
    if tool == "pnpm":
        return _pnpm_install(argv, lines, exit_code, dep, warns, warn_texts)
    if tool == "yarn":
        return _yarn_install(argv, lines, exit_code, dep, warns, warn_texts)
    return _bun_install(argv, lines, exit_code, dep, warns, warn_texts)


def _npm_install(
    argv: list[str], lines: list[str], code: int, dep: int, warns: int, texts: list[str]
) -> str | Filtered:
    sub = _sub(argv)
    errors, cut = npm_errors(lines)
    result = next((ln for ln in lines if _NPM_RESULT.match(ln)), None)
    vuln = next((ln for ln in lines if _NPM_VULN.match(ln)), None)
    if code != 0 or errors:
        if not errors:
            raise Unrecognized("failed without npm errors")
        out = [f"npm {sub}: failed (exit {code})" + _noise_note(dep, warns), *(_unprefix(e) for e in errors)]
        return Filtered("\n".join(ln for ln in out if ln.strip()), cut)
    if result is None:
        raise Unrecognized("no result line")
    known = set(texts) | {result}
    for ln in lines:
        if ln in known or not ln.strip() or ln.startswith(_NPM_WARN):
            continue
        if (
            _NPM_VULN.match(ln)
            or "looking for funding" in ln
            or ln.strip().startswith(
                (
                    "run `npm fund`",
                    "run `npm audit",
                    "npm audit fix",
                    "To address",
                    "Run `npm audit`",
                    "To address all issues",
                    "Some issues need review",
                )
            )
        ):
            continue
        if ln.startswith(("> ", "  ")) or ln.startswith("npm notice"):
            continue  # install scripts' headers, audit hints, update notices
        raise Unrecognized(f"line {ln!r}")
    text = f"npm {sub}: {result}"
    if vuln and not vuln.startswith(("found 0", "0 ")):
        text += f"; {_NPM_VULN.match(vuln)[0]}"  # type: ignore[index]
    return text + _noise_note(dep, warns)


def _pnpm_install(
    argv: list[str], lines: list[str], code: int, dep: int, warns: int, texts: list[str]
) -> str | Filtered:
    sub = _sub(argv)
    done = next((m for m in map(_PNPM_DONE.match, lines) if m), None)
    if code != 0:
        keep = [
            ln
            for ln in lines
            if ln.strip()
            and not ln.startswith(("Progress:", "Packages:", "+++", "---"))
            and not set(ln.strip()) <= set("+-")
        ]
        if not keep:
            raise Unrecognized("failed without a message")
        return "\n".join([f"pnpm {sub}: failed (exit {code})", *keep])
    if done is None:
        raise Unrecognized("no 'Done in' line")
    pkgs = next((m[1] for m in map(_PNPM_PKGS.match, lines) if m), None)
    direct: list[str] = []
    section = ""
    for ln in lines:
        if (
            ln.endswith(":")
            and ln[:1].isalpha()
            and ln.rstrip(":") in ("dependencies", "devDependencies", "optionalDependencies")
        ):
            section = ln.rstrip(":")
            continue
        if section and ln.startswith(("+ ", "- ")):
            direct.append(ln)
        elif not ln.strip():
            section = ""
    text = f"pnpm {sub}: " + (f"{pkgs} packages" if pkgs else "already up to date") + f" in {done[1]}"
    shown, cut = _cap(direct)
    if direct:
        text += "\n" + "\n".join(shown)
    return Filtered(text + _noise_note(dep, warns), cut)


def _yarn_install(
    argv: list[str], lines: list[str], code: int, dep: int, warns: int, texts: list[str]
) -> str | Filtered:
    sub = _sub(argv) if len(argv) > 1 else "install"
    errors = [ln for ln in lines if ln.startswith("error ")]
    if code != 0:
        if not errors:
            raise Unrecognized("failed without errors")
        return "\n".join([f"yarn {sub}: failed (exit {code})", *texts, *errors])
    done = next((m for m in map(_YARN_DONE.match, lines) if m), None)
    if done is None:
        raise Unrecognized("no 'Done in' line")
    notes = [ln[len("success ") :].rstrip(".") for ln in lines if ln.startswith("success ")]
    text = f"yarn {sub}: done in {done[1]}" + (f" ({'; '.join(notes)})" if notes else "")
    return text + _noise_note(dep, warns)


def _bun_install(
    argv: list[str], lines: list[str], code: int, dep: int, warns: int, texts: list[str]
) -> str | Filtered:
    sub = _sub(argv)
    errors = [ln for ln in lines if ln.startswith(("error:", "error "))]
    if code != 0:
        if not errors:
            raise Unrecognized("failed without errors")
        keep = [
            ln
            for ln in lines
            if ln.strip() and not ln.startswith(("bun install v", "bun add v", "Resolving", "Resolved"))
        ]
        return "\n".join([f"bun {sub}: failed (exit {code})", *keep])
    done = next((m for m in map(_BUN_DONE.match, lines) if m), None)
    if done is None:
        raise Unrecognized("no 'packages installed' line")
    direct = [ln for ln in lines if ln.startswith(("+ ", "- "))]
    if done[1]:
        text = f"bun {sub}: {plural(int(done[1]), 'package')} installed in {done[2]}"
    else:
        text = f"bun {sub}: no changes ({done[3]} installs, {done[4]} packages) in {done[5]}"
    shown, cut = _cap(direct)
    if direct:
        text += "\n" + "\n".join(shown)
    return Filtered(text + _noise_note(dep, warns), cut)


def _cap(items: list[str]) -> tuple[list[str], int]:
    n = limit("list_max_items")
    if len(items) <= n + 1:
        return ["  " + i for i in items], 0
    return [*("  " + i for i in items[:n]), f"  +{len(items) - n} more"], len(items) - n


# ---------------------------------------------------------------------------
# npm ls / pnpm list
# ---------------------------------------------------------------------------

_TREE = re.compile(r"^([│├└─┬┼\s|`+\\-]*?)(?:[├└]──?[┬─]?\s?|[|`]-[-+]\s?)(\S.*)$")
_PROBLEM = ("UNMET", "invalid", "extraneous", "missing", "ELSPROBLEMS", "peer dep")


def listing(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    tool = _tool(argv)
    lines = split_lines(output)
    root = ""
    entries: list[tuple[int, str]] = []
    other: list[str] = []
    count_line = ""
    for ln in lines:
        if ln.startswith(_NPM_WARN) or ln.startswith("Legend:") or not ln.strip():
            continue
        m = _TREE.match(ln)
        if m:
            depth = len(m[1]) // 2 if tool == "npm" else 0
            entries.append((depth, m[2]))
            continue
        if re.match(r"^\d+ packages?$", ln.strip()):
            count_line = ln.strip()
            continue
        if not root and not ln.startswith((" ", "│")) and "@" in ln:
            root = ln
            continue
        s = ln.strip("│ ")
        if s.endswith(":") and s[:-1] in ("dependencies", "devDependencies", "optionalDependencies"):
            entries.append((-1, s))
            continue
        if not s:
            continue
        other.append(ln)
    if not root:
        raise Unrecognized("no root line")
    errors = [ln for ln in other if ln.startswith(_NPM_ERR)]
    if exit_code != 0 and not errors and not any(p in e for _, e in entries for p in _PROBLEM):
        raise Unrecognized("failed without a reported problem")
    if other and not errors:
        raise Unrecognized("unknown lines")
    top = [e for d, e in entries if d == 0]
    out = [
        f"{root}: {plural(len(top), 'top-level package')}"
        + (f" ({count_line})" if count_line and tool == "pnpm" else "")
    ]
    items = [("  " * max(d, 0)) + e for d, e in entries]
    explicit = any(a in ("--all", "-a", "--long", "-l") or a.startswith("--depth") for a in argv[1:])
    shown, cut = (items, 0) if explicit else _budgeted(items)
    out.extend(shown)
    out.extend(errors)
    return Filtered("\n".join(out), cut)


def _group(item: str) -> str:
    """A package's family: its scope (``@acme/``), else its name's first word (``eslint``, ``lodash``)."""
    from rtk.filters import names

    name = item.strip()
    if name.startswith("@") and "/" in name:
        return name.split("/", 1)[0] + "/"
    return names.prefix(name.split("@", 1)[0] if not name.startswith("@") else name)


def _budgeted(items: list[str]) -> tuple[list[str], int]:
    """Every row up to ``limits.listing_budget`` tokens; above it the rows of each family whole or
    ``family*  (N packages)`` (exact), the smallest families first; rows with a problem always shown."""
    from rtk import tokens
    from rtk.filters import names
    from rtk.filters.files.paths import Unit, fit

    limit_ = names.budget()
    if sum(tokens.estimate(i) + 1 for i in items) <= limit_:
        return items, 0
    problems = [i for i in items if any(p in i for p in _PROBLEM)]
    groups: dict[str, list[str]] = {}
    for i in items:
        if i not in problems:
            groups.setdefault(_group(i), []).append(i)
    units = [Unit(f"{k}*", "\n".join(v), len(v), "") for k, v in groups.items()]
    lines, cut = fit(units, limit_ - sum(tokens.estimate(p) + 1 for p in problems), names.NOUN, "group", True)
    return [*[ln for u in lines for ln in u.split("\n")], *problems], cut


# ---------------------------------------------------------------------------
# npm outdated / pnpm outdated
# ---------------------------------------------------------------------------


def outdated(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    tool = _tool(argv)
    rows: list[list[str]] = []
    header: list[str] | None = None
    for ln in split_lines(output):
        if ln.startswith(_NPM_WARN) or not ln.strip():
            continue
        if ln.startswith(_NPM_ERR):
            return None
        s = ln.strip()
        if set(s) <= set("┌┬┐├┼┤└┴┘─│ "):
            continue
        cells = [c.strip() for c in s.strip("│").split("│")] if "│" in s else re.split(r"\s{2,}", s)
        if header is None:
            header = cells
            continue
        rows.append(cells)
    if header is None:
        if exit_code == 0:
            return None  # nothing outdated: npm prints nothing
        raise Unrecognized("no table")
    cols = {h.lower(): i for i, h in enumerate(header)}
    if not {"package", "current", "latest"} <= set(cols):
        raise Unrecognized(f"unknown columns {header}")
    items = []
    for r in rows:
        if len(r) < len(header) and "wanted" in cols:
            raise Unrecognized("ragged row")

        def col(name: str, r: list[str] = r) -> str:
            i = cols.get(name)
            return r[i] if i is not None and i < len(r) else ""

        wanted = col("wanted")
        extra = f" (wanted {wanted})" if wanted and wanted not in (col("latest"), col("current")) else ""
        dep = col("package type") or col("dependency type")
        items.append(
            f"{col('package')} {col('current') or 'missing'} -> {col('latest')}{extra}"
            + (f" [{dep}]" if dep and dep != "dependencies" else "")
        )
    shown, cut = _cap(items)
    return Filtered(f"{tool} outdated: {plural(len(items), 'package')}\n" + "\n".join(shown), cut)


# ---------------------------------------------------------------------------
# npm/pnpm/yarn/bun run <script>
# ---------------------------------------------------------------------------

_YARN_RUN = re.compile(r"^yarn run v[\d.]+$")
_DONE = re.compile(r"^Done in [\d.]+m?s\.$")
_RUN_FAIL = re.compile(
    r"^(?:error Command failed with exit code \d+\.|\[?ELIFECYCLE\]?\s+Command failed with exit code \d+\.|"
    r"error: script \".*\" exited with code \d+|info Visit https://yarnpkg.com/.*| ELIFECYCLE .*|"
    r"\S+ ERR_PNPM_\S+ .* exited \(\d+\)\.?)$"
)


def run_script(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """The script's own output, without the package manager's banner, through the script tool's filter.

    A script with no filter of its own (``node run-tests.js``, ``make test``) that prints generic
    test-result lines gets them read by :mod:`rtk.filters.testlines`.
    """
    tool = _tool(argv)
    lines = split_lines(output)
    commands: list[str] = []
    body: list[str] = []
    npm_tail: list[str] = []
    fail_lines: list[str] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        if tool == "npm" and ln.startswith("> ") and i < len(lines) and lines[i].startswith("> ") and not body:
            commands.append(lines[i][2:])  # "> pkg@1.0.0 name" then "> command"
            i += 1
            if i < len(lines) and not lines[i].strip():
                i += 1
            continue
        if (
            tool == "npm"
            and ln.startswith("> ")
            and re.match(r"^> \S+@\S+ \S+", ln)
            and i < len(lines)
            and lines[i].startswith("> ")
        ):
            commands.append(lines[i][2:])  # a pre/post script in the middle
            i += 1
            continue
        if ln.startswith("$ ") and tool in ("pnpm", "yarn", "bun") and not body:
            commands.append(ln[2:])
            continue
        if tool == "pnpm" and ln.startswith("> ") and not body and not commands:
            continue  # older pnpm: "> pkg@1.0.0 name /path"
        if _YARN_RUN.match(ln) or (_DONE.match(ln) and tool == "yarn"):
            continue
        if ln.startswith(_NPM_ERR) or ln.startswith(_NPM_WARN):
            npm_tail.append(ln)
            continue
        if _RUN_FAIL.match(ln):
            fail_lines.append(ln)
            continue
        body.append(ln)
    while body and not body[-1].strip():
        body.pop()
    while body and not body[0].strip():
        body.pop(0)
    errors = [
        t
        for t in npm_tail
        if t.startswith(_NPM_ERR) and not _LIFECYCLE.match(t.split(" ", 2)[2] if t.count(" ") >= 2 else "")
    ]
    errors = [e for e in errors if e.rstrip() not in ("npm error", "npm ERR!")]
    warns = [t for t in npm_tail if t.startswith(_NPM_WARN)]
    if not commands and not errors:
        raise Unrecognized("no script header")
    note = []
    if exit_code != 0:
        note.append(f"{tool} run: exit {exit_code}" + (f" ({commands[-1]})" if commands else ""))
    if warns:
        note.append(f"({plural(len(warns), 'npm warning')})")
    note.extend(_unprefix(e) for e in errors)
    text = "\n".join(body)
    cut = 0
    res = None
    if len(commands) == 1:
        inner = split_command(commands[0])
        res = _inner_filter(inner, text, exit_code) if inner else None
        if res is not None:
            text, cut = (res.text, res.cut) if isinstance(res, Filtered) else (res, 0)
    if res is None and body:
        from rtk.filters import testlines

        found = testlines.compact(body, exit_code)  # a script of its own printing PASS/FAIL, ok/not ok, ✓/✗
        if found is not None:
            text, cut = "\n".join(found[0]), found[1]
    out = [text] if text else []
    out.extend(note)
    return Filtered("\n".join(out), cut)


def _inner_filter(inner: list[str], text: str, exit_code: int) -> str | Filtered | None:
    from rtk import filters

    try:
        spec: Spec | None = filters.lookup(inner)
    except Exception:
        return None
    if spec is None or spec.live or spec.filter is None:
        return None
    try:
        return spec.filter(inner, text, exit_code)
    except Exception:
        return None  # the script's output is not what that filter knows: show it as it is
