"""Filter for ``psql -c/-f/-l``: aligned result tables and expanded records without borders, every value kept.

A column with one value in every row of a table of three rows or more is said once above it (``_common``).
"""

from __future__ import annotations

from rtk.filterapi import Filtered, Spec, Unrecognized

COMMANDS = ("psql",)

# Flags that ask for a format of their own (unaligned, CSV, HTML, tuples only...): passthrough.
_FORMAT = frozenset(
    (
        "-A", "--no-align", "--csv", "-H", "--html", "-t", "--tuples-only", "-F", "--field-separator",
        "-R", "--record-separator", "-z", "-0", "-P", "--pset", "-o", "--output", "-L", "--log-file",
        "-T", "--table-attr", "-W", "--password", "-E", "--echo-hidden", "-V", "--version", "-?", "--help",
        "-s", "--single-step", "-S", "--single-line",
    )
)  # fmt: skip
_RUNS = ("-c", "--command", "-f", "--file", "-l", "--list")


def select(argv: list[str]) -> Spec | None:
    rest = argv[1:]
    has_run = False
    for a in rest:
        name = a.split("=", 1)[0] if a.startswith("--") else a[:2] if a.startswith("-") else ""
        if name in _FORMAT or a in _FORMAT:
            return None
        if name in _RUNS:
            has_run = True
    if not has_run:
        return None  # without -c/-f/-l psql is an interactive session (or reads a script on stdin)
    if ("-f" in rest or "--file" in rest) and ("-" in rest):
        return None
    return Spec("psql", psql, env={"PAGER": "cat", "PSQL_PAGER": "cat"})


def _is_rule(line: str) -> bool:
    """The line under an aligned header: dashes, with ``+`` where the column borders cross."""
    return bool(line) and line[0] == "-" and line[-1] == "-" and set(line) <= {"-", "+"}


def _cell(text: str) -> str:
    cell = text.strip()
    if cell.endswith("+") and text.rstrip()[:-1].endswith(" "):
        cell = cell[:-1].rstrip() + " +"  # psql's mark for a value that goes on over the next line
    return cell


def _cells(line: str, spans: list[tuple[int, int]]) -> list[str]:
    return [_cell(line[a:b]) for a, b in spans]


def _table(lines: list[str], start: int, out: list[str]) -> int:
    """Unbox the aligned table whose rule line is ``lines[start]``; returns the index after it."""
    rule = lines[start]
    spans: list[tuple[int, int]] = []
    a = 0
    for i, ch in enumerate(rule + "+"):
        if ch == "+":
            spans.append((a, i))
            a = i + 1
    header = lines[start - 1]
    if len(spans) > 1 and header.count("|") < len(spans) - 1:
        raise Unrecognized("header does not match the rule line")
    head = _cells(header, spans)
    rows: list[list[str]] = []
    i = start + 1
    while i < len(lines):
        line = lines[i]
        if not line or (line.startswith("(") and line.endswith(("row)", "rows)"))):
            break
        if len(spans) > 1 and line.count("|") < len(spans) - 1:
            break  # not a row of this table (a command tag or a message after it)
        rows.append(_cells(line, spans))
        i += 1
    out.pop()
    out.extend("|".join(r) for r in _common(head, rows))
    return i


COMMON_MIN_ROWS = 3  # rows a table needs before a column with one value in all of them is said once


def _common(head: list[str], rows: list[list[str]]) -> list[list[str]]:
    """The headings and rows, each column whose value is the same in every row said once, first.

    ``same in all 8 rows: Schema=public|Type=table|Owner=postgres`` (``psql -c "\\dt"`` of one schema, a
    query filtered on a column), then the headings and rows without those columns. A line that
    goes on a value of the line before (after its `` +``) is no row of its own: such a column
    is said once only when it is empty there. Left as it is with fewer than ``COMMON_MIN_ROWS``
    rows, when a heading holds ``=`` or ``|`` (the note would not read back), when every column is the
    same, or when saying it once is not shorter.
    """
    whole = [head, *rows]
    starts = [k for k, r in enumerate(rows) if k == 0 or not any(c.endswith(" +") for c in rows[k - 1])]
    if len(starts) < COMMON_MIN_ROWS or any("=" in h or "|" in h for h in head):
        return whole
    first = rows[0]
    same = [
        c
        for c in range(len(head))
        if all(rows[k][c] == first[c] for k in starts)
        and all(not rows[k][c] for k in range(len(rows)) if k not in starts)
        and "|" not in first[c]
        and not first[c].endswith(" +")
    ]
    if not same or len(same) == len(head):
        return whole
    keep = [c for c in range(len(head)) if c not in same]
    note = f"same in all {len(starts)} rows: " + "|".join(f"{head[c]}={first[c]}" for c in same)
    lifted = [[note], *([r[c] for c in keep] for r in whole)]
    size = sum(len("|".join(r)) + 1 for r in lifted)
    return lifted if size < sum(len("|".join(r)) + 1 for r in whole) else whole


def _records(lines: list[str]) -> str:
    """Expanded (``-x``) records: ``key|value`` lines under ``-[ RECORD n ]``, the padding and rules gone;
    records alike in their fields as one table (``_as_table``)."""
    col = -1
    out: list[str] = []
    for line in lines:
        if line.startswith("-[ RECORD ") and "]" in line:
            out.append(line[: line.index("]") + 1])
            continue
        if col < 0 and " | " in line:
            col = line.index(" | ") + 1
        if col > 0 and (line[col : col + 2] == "| " or line[col:] == "|") and line[:col].strip():
            out.append(line[:col].rstrip() + "|" + line[col + 2 :])
        elif col > 0 and line[:col].strip() == "" and line[col : col + 1] == "|":
            out.append("|" + line[col + 2 :])  # a value going on over the next line
        else:
            if out and out[-1].startswith("-[ RECORD ") and line.strip() and not line.startswith("("):
                raise Unrecognized("a record line without its key column")
            out.append(line)
    return "\n".join(_as_table(out) or out).rstrip("\n") + "\n"


WIDE = 240  # a table row longer than this keeps the records: one field a line reads better


def _as_table(out: list[str]) -> list[str] | None:
    """Records that all hold the same fields in the same order, one line each, as one table: the names said once.

    ``[8 records] id|name|total`` then one ``|``-split row per record, in order. Records with a
    value that holds ``|`` or goes on over lines, other text, or a row wider than ``WIDE``: None.
    """
    body = list(out)
    while body and not body[-1].strip():
        body.pop()
    records: list[list[tuple[str, str]]] = []
    for line in body:
        if line.startswith("-[ RECORD "):
            records.append([])
            continue
        if not records or line.startswith("|") or "|" not in line:
            return None
        k, v = line.split("|", 1)
        if "|" in v:
            return None
        records[-1].append((k, v))
    if len(records) < 2:
        return None
    keys = [k for k, _ in records[0]]
    if not keys or any([k for k, _ in r] != keys for r in records):
        return None
    rows = ["|".join(v for _, v in r) for r in records]
    if any(len(r) > WIDE for r in rows):
        return None
    return [f"[{len(records)} records] " + "|".join(keys), *rows]


def psql(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """Result tables lose padding and borders; messages, errors and pointers stay as printed."""
    lines = output.split("\n")
    if any(line.startswith("-[ RECORD ") for line in lines):
        return _records(lines)
    out: list[str] = []
    i = 0
    tables = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() and i + 1 < len(lines) and _is_rule(lines[i + 1]):
            if out and out[-1].startswith(" ") and "|" not in out[-1]:
                out[-1] = out[-1].strip()  # the centred title ("List of relations")
            out.append(line)
            i = _table(lines, i + 1, out)
            tables += 1
            continue
        out.append(line)
        i += 1
    if not tables:
        return None
    return "\n".join(out).rstrip("\n") + "\n"
