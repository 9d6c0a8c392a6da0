"""rtk's ``table_cells`` stage: an aligned table's cells, cut where every line is blank, joined by one tab."""

from __future__ import annotations

# Lines without padding a table takes in as rows (``_fits``: its widest row, one or two in real
# tables). Each check reads the table so far: without a cap, thousands of such lines were quadratic.
FITS_MAX = 8


def _is_row(line: str) -> bool:
    """A line that can belong to a padded table: not blank, no tab, two spaces somewhere inside."""
    s = line.strip()
    return bool(s) and "\t" not in line and "  " in s


def _segments(rows: list[str]) -> list[tuple[int, int]]:
    """The spans of positions where at least one of ``rows`` prints something (between them: all blank)."""
    width = max(len(r) for r in rows)
    used = [False] * width
    for r in rows:
        for i, c in enumerate(r):
            if c != " ":
                used[i] = True
    spans: list[tuple[int, int]] = []
    start = -1
    for i, u in enumerate([*used, False]):
        if u and start < 0:
            start = i
        elif not u and start >= 0:
            spans.append((start, i))
            start = -1
    return spans


def _extent(text: str, a: int, b: int) -> tuple[int, int] | None:
    """Where ``text`` prints something inside ``[a, b)``: first and one-past-last position."""
    part = text[a:b]
    if not part.strip():
        return None
    return a + len(part) - len(part.lstrip()), a + len(part.rstrip())


def _joins(header: str, data: list[str], empty: list[int], full: list[int], left: bool) -> bool:
    """Whether a heading word with no data under it (``empty``) belongs to its neighbour ``full``.

    Only one space apart, and only when ``full``'s cells grow towards it: ``DISK USAGE`` or
    ``Local Address:Port`` over right-aligned cells (or cells reaching left of the heading),
    ``Mounted on`` or ``PID/Program name`` over left-aligned ones. Otherwise (``NODE NAME`` in
    ``lsof`` with every NODE empty) it is a column of its own, its cells empty.
    """
    gap = header[empty[1] : full[0]] if left else header[full[1] : empty[0]]
    head = _extent(header, full[0], full[1])
    cells = [e for e in (_extent(r, full[0], full[1]) for r in data) if e]
    if gap != " " or head is None or not cells:
        return False
    if left:
        colon = header.find(":", head[0], head[1])  # ss: addresses aligned on the heading's colon
        on_colon = colon >= 0 and all(r[colon : colon + 1] == ":" for r in data if r[full[0] : full[1]].strip())
        return on_colon or all(e[1] == head[1] for e in cells) or any(e[0] < head[0] for e in cells)
    return all(e[0] == head[0] for e in cells)


def _columns(rows: list[str]) -> list[tuple[int, int]] | None:
    """The table's columns as spans, or None when ``rows`` (a header, then data rows) is not one table.

    A span with no heading above it continues the column on its left (a cell's words past its
    heading); a heading word with no data under it may belong to its neighbour (``_joins``).
    A heading holding two spaces means columns that ran into each other: not this shape.
    """
    header, data = rows[0], rows[1:]
    cols: list[list[int]] = []
    for a, b in _segments(rows):
        if not header[a:b].strip():
            if cols:
                cols[-1][1] = b
            else:
                cols.append([a, b])  # a leading marker column (systemctl's failed-unit dot)
            continue
        cols.append([a, b])
    k = 0
    while k < len(cols):
        a, b = cols[k]
        if not any(r[a:b].strip() for r in data):
            if k + 1 < len(cols) and _joins(header, data, cols[k], cols[k + 1], left=True):
                cols[k + 1][0] = a
                del cols[k]
                continue
            if k > 0 and _joins(header, data, cols[k], cols[k - 1], left=False):
                cols[k - 1][1] = b
                del cols[k]
                continue
        k += 1
    if len(cols) < 2 or any("  " in header[a:b].strip() for a, b in cols):
        return None
    return [(a, b) for a, b in cols]


def _looks_like_header(line: str) -> bool:
    """A heading line holds no bare number (data rows almost always do: a PID, a count, a size)."""
    return not any(w.replace(".", "").replace(",", "").replace(":", "").isdigit() for w in line.split())


def _table(rows: list[str]) -> list[str] | None:
    if len(rows) < 2 or not _looks_like_header(rows[0]):
        return None
    cols = _columns([r.rstrip() for r in rows])
    if cols is None:
        return None
    last = len(cols) - 1
    out: list[str] = []
    for r in rows:
        cells = [r[a : (None if k == last else b)].strip() for k, (a, b) in enumerate(cols)]
        out.append("\t".join(cells))
    return out


def _fits(rows: list[str], line: str) -> bool:
    """Whether ``line``, cells one space apart (each as wide as its column), is a row of ``rows``' table.

    It is when adding it keeps the table's columns and puts something in each of them
    (``systemctl list-jobs``' widest row); a title such as ``Active UNIX domain sockets``
    runs across the columns' gaps and is not.
    """
    s = line.strip()
    if " " not in s or "\t" in line or not _looks_like_header(rows[0]):
        return False
    before = _columns([r.rstrip() for r in rows])
    after = _columns([r.rstrip() for r in [*rows, line]])
    if before is None or after is None or len(after) != len(before):
        return False
    last = len(after) - 1
    return all(line[a : (None if k == last else b)].strip() for k, (a, b) in enumerate(after))


# Rows a table needs before a column with one value in all of them is said once (``common``).
COMMON_MIN_ROWS = 3


def _lift_common(table: list[str]) -> list[str]:
    """A tab-separated table with each column whose cell is the same in every row said once, above it.

    ``same in all N rows: IMAGE=busybox:latest<TAB>PORTS=`` (the value is everything after the
    first ``=``; nothing after it: an empty cell), then the headings and rows without those
    columns. Left as it is with fewer than ``COMMON_MIN_ROWS`` rows, when every column is the
    same (nothing would be left to tell the rows apart), or when saying it once is not shorter.
    """
    head, rows = table[0].split("\t"), [r.split("\t") for r in table[1:]]
    if len(rows) < COMMON_MIN_ROWS or any(len(r) != len(head) for r in rows):
        return table
    same = [k for k in range(len(head)) if all(r[k] == rows[0][k] for r in rows)]
    if not same or len(same) == len(head):
        return table
    keep = [k for k in range(len(head)) if k not in same]
    note = f"same in all {len(rows)} rows: " + "\t".join(f"{head[k]}={rows[0][k]}" for k in same)
    lifted = [note, *("\t".join(r[k] for k in keep) for r in [head, *rows])]
    return lifted if len("\n".join(lifted)) < len("\n".join(table)) else table


def table_cells(lines: list[str], common: bool = False) -> list[str]:
    """Every aligned table in ``lines`` (``docker ps``, ``lsof``, ``netstat``) with each cell once, tab-separated.

    A table is a run of lines with padding inside, its first line the headings (no bare
    number in it); a blank line or a line without two spaces inside (a title such as
    ``Chain INPUT (policy ACCEPT)``) ends it and stays as printed, unless that line's
    one-space-apart words fill every column of the table so far (its widest row: ``_fits``). Columns are cut where
    every line of the table is blank, so a left- or right-aligned cell is read whole and an
    empty cell stays, as nothing between two tabs, with its neighbours in their columns.
    Anything of another shape (one column, no row, headings run together) is left as printed.
    With ``common``, a column whose cell is the same in every row is said once (``_lift_common``).
    """
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        if not _is_row(lines[i]):
            out.append(lines[i])
            i += 1
            continue
        j = i
        fitted = 0  # lines taken in by _fits, each costing a pass over the table so far
        while j < n:
            if not _is_row(lines[j]):
                if fitted >= FITS_MAX or not _fits(lines[i:j], lines[j]):
                    break
                fitted += 1
            j += 1
        block = lines[i:j]
        cells = _table(block)
        out.extend(block if cells is None else _lift_common(cells) if common else cells)
        i = j
    return out
