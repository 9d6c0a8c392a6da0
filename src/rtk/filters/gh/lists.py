"""gh list forms (``pr/issue/run/release list``): every row and field kept; timestamps cut to the day.

On a pipe gh prints one tab-separated row per item with no header. The filter keeps
every row and every column in gh's order; it only shortens what repeats without
saying anything: ``2026-11-19 10:33:18 +0000 UTC`` becomes ``2026-11-19``, and a
finished workflow run shows its conclusion without the ``completed`` status, and runs
next to each other for one commit (title, branch, event) are listed under it once. A row
with another number of columns than the form prints means an unknown format: raw.
"""

from __future__ import annotations

from rtk.filterapi import Unrecognized

# Columns gh 2.x prints on a pipe, and which of them holds a timestamp.
_COLUMNS = {"pr": (5, 4), "issue": (5, 4), "release": (4, 3), "run": (9, -1)}


def _day(stamp: str) -> str:
    """``2026-11-19 10:33:18 +0000 UTC`` or ``2026-11-19T14:00:00Z`` -> ``2026-11-19``; anything else as it is."""
    day = stamp[:10]
    if len(stamp) >= 19 and day[4:5] == "-" and day[7:8] == "-" and day.replace("-", "").isdigit():
        return day
    return stamp


def _rows(kind: str, output: str) -> str | None:
    lines = output.splitlines()
    if not any(ln.strip() for ln in lines):
        return None
    width, stamp = _COLUMNS[kind]
    out: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        cols = line.split("\t")
        if len(cols) != width:
            raise Unrecognized(f"a {kind} list row with {len(cols)} columns")
        if stamp >= 0:
            cols[stamp] = _day(cols[stamp])
        if kind == "run" and cols[0] == "completed" and cols[1]:
            cols = cols[1:]  # the conclusion says the run completed
        out.append("\t".join(cols))
    if kind == "run":
        out = _by_commit(out)
    return "\n".join(out) + "\n"


def _by_commit(rows: list[str]) -> list[str]:
    """Runs next to each other for one commit (same title, branch and event: CI, Docs, CodeQL of one push)
    under one ``title<TAB>branch<TAB>event`` line, each run indented by a tab with the other fields.

    A row is ``[status<TAB>]conclusion<TAB>title<TAB>workflow<TAB>branch<TAB>event<TAB>id<TAB>elapsed<TAB>age``
    (the status stays when there is no conclusion yet): the commit fields are counted from the end.
    """
    cells = [r.split("\t") for r in rows]
    key = [(c[-7], c[-5], c[-4]) for c in cells]
    out: list[str] = []
    i = 0
    while i < len(cells):
        j = i + 1
        while j < len(cells) and key[j] == key[i]:
            j += 1
        if j - i < 2:
            out.append(rows[i])
        else:
            out.append("\t".join(key[i]))
            out.extend("\t" + "\t".join([*c[:-7], c[-6], *c[-3:]]) for c in cells[i:j])
        i = j
    return out


def pr_list(argv: list[str], output: str, exit_code: int) -> str | None:
    """``gh pr list``: number, title, branch, state, day."""
    return _rows("pr", output) if exit_code == 0 else None


def issue_list(argv: list[str], output: str, exit_code: int) -> str | None:
    """``gh issue list``: number, state, title, labels, day."""
    return _rows("issue", output) if exit_code == 0 else None


def run_list(argv: list[str], output: str, exit_code: int) -> str | None:
    """``gh run list``: conclusion (or status), title, workflow, branch, event, id, duration, age."""
    return _rows("run", output) if exit_code == 0 else None


def release_list(argv: list[str], output: str, exit_code: int) -> str | None:
    """``gh release list``: title, type, tag, day."""
    return _rows("release", output) if exit_code == 0 else None
