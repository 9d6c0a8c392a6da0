"""Filter for ``golangci-lint run``: findings grouped by file, counted per linter, excerpts dropped.

Reads the default text output (``path:line:col: message (linter)`` followed by
the source line and a caret). ``level=warning``/``level=error`` log lines are
kept: they say that a linter could not run, so a clean result would be false.
Other output formats (``--out-format``, v2 ``--output.*``) run unfiltered.
"""

from __future__ import annotations

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.diagnostics import Limits
from rtk.text import plural, split_lines

COMMANDS = ("golangci-lint",)

_TEXT_FORMATS = ("line-number", "colored-line-number", "text", "tab", "colored-tab")


def select(argv: list[str]) -> Spec | None:
    args = argv[1:]
    if not args or args[0] != "run":
        return None
    for i, a in enumerate(args):
        if a.startswith("--out-format") or a == "--format":
            value = a.split("=", 1)[1] if "=" in a else (args[i + 1] if i + 1 < len(args) else "")
            if value not in ("line-number", "colored-line-number"):
                return None
        if a.startswith("--output.") or a in ("--help", "-h", "--new-from-patch", "--fix"):
            return None
    return Spec("golangci-lint", lint)


def _issue(line: str) -> tuple[str, str, str, str] | None:
    """``main.go:3:6: `x` is unused (deadcode)`` -> (path, "3:6", message, linter)."""
    if not line.endswith(")") or " (" not in line or line.startswith((" ", "\t")):
        return None
    body, _, linter = line[:-1].rpartition(" (")
    if not linter or " " in linter:
        return None
    parts = body.split(":", 3)
    if len(parts) == 4 and parts[1].isdigit() and parts[2].isdigit() and parts[3].startswith(" "):
        return parts[0], f"{parts[1]}:{parts[2]}", parts[3].strip(), linter
    parts = body.split(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].startswith(" "):
        return parts[0], parts[1], parts[2].strip(), linter
    return None


# Findings from which the header tallies them per linter.
BY_LINTER_MIN = 10


def lint(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    files: dict[str, list[str]] = {}
    linters: dict[str, int] = {}
    logs: list[str] = []
    total = 0
    in_issue = False
    for ln in split_lines(output):
        found = _issue(ln)
        if found is not None:
            path, pos, msg, linter = found
            files.setdefault(path, []).append(f"{pos}: {msg} ({linter})")
            linters[linter] = linters.get(linter, 0) + 1
            total += 1
            in_issue = True
            continue
        if ln.startswith("level=info") or ln.startswith("level=debug"):
            continue
        if ln.startswith(("level=warning", "level=error")):
            logs.append(ln)
            continue
        if in_issue:
            if ln.strip() == "^":
                in_issue = False
            continue  # the source excerpt and the caret under a finding
        if ln.strip() and ln.split(":", 1)[0] in ("* " + k for k in linters):
            continue  # v2 per-linter summary
        if ln.endswith(("issues:", "issue:")) and ln.split(" ", 1)[0].isdigit():
            continue
        raise Unrecognized(f"line {ln!r}")
    if exit_code not in (0, 1) or (exit_code == 1 and not total):
        raise Unrecognized(f"exit {exit_code} with {total} findings")
    if not total:
        return "\n".join([*logs, "golangci-lint: no issues"]) + "\n"
    cap = Limits().max_warnings
    head = f"golangci-lint: {plural(total, 'issue')} in {plural(len(files), 'file')}"
    if total >= BY_LINTER_MIN:  # a few findings name their linter each; the tally would cost more than it says
        head += " (" + ", ".join(f"{k} {v}" for k, v in sorted(linters.items(), key=lambda kv: (-kv[1], kv[0]))) + ")"
    out = [*logs, head]
    shown = 0
    for path, items in files.items():
        if cap > 0 and shown >= cap:
            break
        out.append(path)
        for it in items:
            if cap > 0 and shown >= cap:
                break
            out.append(f"  {it}")
            shown += 1
    cut = total - shown
    if cut:
        out.append(f"+{cut} more issues")
    return Filtered("\n".join(out) + "\n", cut)
