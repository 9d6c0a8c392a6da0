"""A TOML filter's ``listing``: whole up to ``limits.listing_budget`` tokens, above it grouped with exact counts.

``listing = "rows"`` (lsof, last, systemctl status): one entry a line; ``listing_key = [N, ...]``
groups the rows by their N-th whitespace-separated cells (lsof's COMMAND and TYPE, last's user):
above the budget each group is shown whole while it fits, in the order of first appearance, the
others as ``KEY  (N lines)``. ``listing = "paths"`` (du: ``SIZE<TAB>PATH``): above the budget the
listing is cut at the deepest directory level that fits, as ``du -d N`` would print it, each cut
subtree one line with its exact count. Where neither applies (no key, a single group), the
filter's head/tail cut is the fallback.
"""

from __future__ import annotations

NOUN = ("line", "lines")


def budget() -> int:
    """``limits.listing_budget`` (tokens)."""
    from rtk import config

    return int(config.get("limits.listing_budget"))


def fits(lines: list[str], limit: int) -> bool:
    """True when ``lines`` cost at most ``limit`` estimated tokens (a newline each)."""
    from rtk import tokens

    return sum(tokens.estimate(s) + 1 for s in lines) <= limit


def _depth(path: str) -> int:
    return path.rstrip("/").count("/")


_UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40, "P": 1 << 50}


def size(cell: str) -> float:
    """du's size cell as a number (``4``, ``1.5M``, ``12K``); -1 when it is not one."""
    unit = cell[-1:].upper() if cell[-1:].isalpha() else ""
    try:
        return float(cell[: len(cell) - len(unit)].replace(",", ".")) * _UNITS[unit]
    except (KeyError, ValueError):
        return -1.0


def _common(paths: list[str]) -> str:
    """The deepest directory holding every path of ``paths``, with a trailing ``/``."""
    first = paths[0].split("/")[:-1]
    n = len(first)
    for p in paths[1:]:
        parts = p.split("/")
        n = min(n, len(parts) - 1)
        while n and parts[:n] != first[:n]:
            n -= 1
    return "/".join(first[:n]) + "/" if n else "./"


def _marker(n: int, where: str) -> str:
    return f"... ({n} {NOUN[n != 1]} omitted under {where})"


def _render(lines: list[str], rows: list[tuple[int, str]], keep: set[int]) -> list[str]:
    """The kept lines in du's order; the lines left out counted per nearest shown directory, just
    before that directory's own line (du prints it after its contents); the others at the end."""
    shown = {rows[i][1]: i for i in keep}
    per: dict[int, int] = {}
    loose: list[str] = []
    for i, (d, path) in enumerate(rows):
        if d < 0 or i in keep:
            continue
        up = path
        while True:
            k = up.rfind("/")
            if k <= 0:
                loose.append(path)
                break
            up = up[:k]
            at = shown.get(up)
            if at is not None:
                per[at] = per.get(at, 0) + 1
                break
    out: list[str] = []
    for i, ln in enumerate(lines):
        if rows[i][0] >= 0 and i not in keep:
            continue
        if i in per:
            out.append(_marker(per[i], rows[i][1] + "/"))
        out.append(ln)
    if loose:
        out.append(_marker(len(loose), _common(loose)))
    return out


def by_depth(lines: list[str], limit: int) -> list[str] | None:
    """du's listing (``SIZE<TAB>PATH``, children before their parent) cut at the deepest level that fits.

    Every line down to that depth stays, in du's order, and of the next level the largest entries
    that still fit (a size ranking, as ``du | sort -h`` shows); the lines left out are one
    ``... (N lines omitted under DIR/)`` line per nearest shown directory, before its own line. Other lines (errors) always stay.
    None when the listing has no ``SIZE<TAB>PATH`` row.
    """
    rows: list[tuple[int, str]] = []  # (depth, path) per line; depth -1: not a row
    for ln in lines:
        k = ln.find("\t")
        path = ln[k + 1 :].rstrip("/") if k >= 0 else ""
        rows.append((_depth(path), path) if path else (-1, ""))
    depths = [d for d, _ in rows if d >= 0]
    if not depths:
        return None
    for cut in range(max(depths) - 1, min(depths) - 1, -1):
        keep = {i for i, (d, _) in enumerate(rows) if 0 <= d <= cut}
        out = _render(lines, rows, keep)
        if not fits(out, limit):
            continue
        nxt = sorted(
            (i for i, (d, _) in enumerate(rows) if d == cut + 1),
            key=lambda i: -size(lines[i].split("\t", 1)[0].strip()),
        )
        from rtk import tokens

        room = limit - sum(tokens.estimate(s) + 1 for s in out)
        parents = {path[: path.rfind("/")] for d, path in rows if d > cut + 1}
        for i in nxt:
            c = tokens.estimate(lines[i]) + 1
            if rows[i][1] in parents:  # its contents become one more count line
                c += tokens.estimate(_marker(999, rows[i][1] + "/")) + 1
            if c > room:
                break
            keep.add(i)
            room -= c
        return _render(lines, rows, keep)
    return None


def by_key(lines: list[str], columns: list[int], limit: int) -> list[str] | None:
    """Rows grouped by their cells in ``columns`` (1-based), a group whole while it fits, the others counted.

    With two columns the units are (first, second) pairs and, when even their count lines do not
    fit, counted per first cell. Lines with too few cells (a heading such as lsof's, ``wtmp begins``)
    always stay. None when one group holds 90% of the rows (a count would say less than a cut).
    """
    from rtk.filters.files.paths import Unit, fit

    need = max(columns)
    other: list[str] = []
    order: list[tuple[str, ...]] = []
    groups: dict[tuple[str, ...], list[str]] = {}
    for ln in lines:
        cells = ln.split()
        if len(cells) < need:
            other.append(ln)
            continue
        key = tuple(cells[c - 1] for c in columns)
        g = groups.get(key)
        if g is None:
            g = groups[key] = []
            order.append(key)
        g.append(ln)
    if order and len(groups[order[0]]) == 1 and lines and groups[order[0]][0] is lines[0]:
        other.insert(0, groups.pop(order.pop(0))[0])  # a heading (lsof's COMMAND PID ...)
    rows = sum(len(g) for g in groups.values())
    if len(groups) < 2 or max(len(g) for g in groups.values()) * 10 > rows * 9:
        return None  # one group holds 90% of the rows (a single user's logins): counted, none of them would show
    from rtk import tokens

    room = max(limit - sum(tokens.estimate(s) + 1 for s in other), limit // 2)
    units = [Unit(" ".join(k), "\n".join(groups[k]), len(groups[k]), "/".join(k[:-1]) + "/") for k in order]
    shown, _ = fit(units, room, NOUN, "group", smallest_first=True)
    return [*other, *(ln for u in shown for ln in u.split("\n"))]
