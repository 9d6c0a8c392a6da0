"""Path listings shared by find, fd, tree and wc: directory grouping, noise dirs, name quoting."""

from __future__ import annotations

import re

from rtk import config
from rtk.text import plural

_DIGITS = re.compile(r"\d{1,12}")


def noise_dirs() -> frozenset[str]:
    """Directory names hidden (and counted) by the listing filters (``filters.noise_dirs``)."""
    return frozenset(config.get("filters.noise_dirs"))


def asked_for(noise: frozenset[str], words: list[str]) -> frozenset[str]:
    """Noise names the user's own arguments mention (``find . -path '*node_modules*'``): never hidden."""
    return frozenset(n for n in noise if any(n in w for w in words))


def qname(name: str) -> str:
    """A name as shown in a two-space separated list: quoted only when it would be ambiguous."""
    if not name or "  " in name or name[0] in " '\"" or name[-1] == " " or "\t" in name or "\n" in name:
        return "'" + name.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\t", "\\t") + "'"
    return name


def fold(names: list[str], min_run: int = 3) -> list[tuple[str, int]]:
    """Runs of consecutively numbered names as one brace range, in the order given.

    ``record_0001.json`` ... ``record_0260.json`` becomes ``record_{0001..0260}.json``:
    exact (a gap splits the run), so nothing is lost. Returns (shown text, names it stands for).
    """
    return fold_paths(names, min_run)


def fold_paths(paths: list[str], min_run: int = 3) -> list[tuple[str, int]]:
    """Paths that differ only in one consecutively numbered part, as one brace range, in the order given.

    ``node_modules/pkg-1/package.json`` ... ``pkg-60/package.json`` becomes
    ``node_modules/pkg-{1..60}/package.json``; exact, like :func:`fold`.
    """
    cands: dict[tuple[str, str, int], list[tuple[int, int]]] = {}
    for idx, p in enumerate(paths):
        if "{" in p or "}" in p:
            continue
        for m in _DIGITS.finditer(p):
            d = m.group()
            key = (p[: m.start()], p[m.end() :])
            # "07" belongs only to runs of width 2; "10" to plain runs and to runs of width 2
            if not (d.startswith("0") and len(d) > 1):
                cands.setdefault((*key, 0), []).append((int(d), idx))
            if len(d) > 1:
                cands.setdefault((*key, len(d)), []).append((int(d), idx))
    absorbed: set[int] = set()
    token_at: dict[int, tuple[str, int]] = {}
    for (pre, suf, width), members in sorted(cands.items(), key=lambda kv: -len(kv[1])):
        if len(members) < min_run:
            break
        avail = sorted((n, i) for n, i in members if i not in absorbed)
        run: list[tuple[int, int]] = []
        for num, idx in [*avail, (-2, -1)]:
            if run and num == run[-1][0] + 1:
                run.append((num, idx))
                continue
            if len(run) >= min_run:
                a, b = run[0][0], run[-1][0]
                fa, fb = (str(a).zfill(width), str(b).zfill(width)) if width else (str(a), str(b))
                if not width or (len(fa) == width and len(fb) == width and fa.startswith("0")):
                    token_at[min(i for _, i in run)] = (f"{pre}{{{fa}..{fb}}}{suf}", len(run))
                    absorbed.update(i for _, i in run)
            run = [(num, idx)]
    out: list[tuple[str, int]] = []
    for idx, p in enumerate(paths):
        if idx in token_at:
            out.append(token_at[idx])
        elif idx not in absorbed:
            out.append((p, 1))
    return out


def split(path: str) -> tuple[str, str]:
    """``./src/a.py`` -> (``./src/``, ``a.py``); ``docs/`` -> (``""``, ``docs/``)."""
    body = path[:-1] if path.endswith("/") and len(path) > 1 else path
    i = body.rfind("/")
    if i < 0:
        return "", path
    return path[: i + 1], path[i + 1 :]


def noise_index(parts: list[str], noise: frozenset[str]) -> int:
    """Index of the first noise component in ``parts``, or -1."""
    for i, p in enumerate(parts):
        if p in noise:
            return i
    return -1


def rel_to_root(path: str, roots: list[str]) -> tuple[str, str]:
    """Split ``path`` into (the starting point it was found under, the rest)."""
    best = ""
    for r in roots:
        if r in ("", "."):
            continue
        pre = r if r.endswith("/") else r + "/"
        if (path == r or path.startswith(pre)) and len(pre) > len(best):
            best = pre
    if best:
        return best, path[len(best) :]
    if path.startswith("./"):
        return "./", path[2:]
    return "", path


class Hidden:
    """Entries left out because they lie inside a noise directory: counted per directory."""

    __slots__ = ("per_dir",)

    def __init__(self) -> None:
        self.per_dir: dict[str, int] = {}

    def add(self, noise_dir: str, n: int = 1) -> None:
        self.per_dir[noise_dir] = self.per_dir.get(noise_dir, 0) + n

    @property
    def total(self) -> int:
        return sum(self.per_dir.values())

    def line(self, what: str = "entries") -> str:
        """``[hidden: 245 entries in noise dirs: ./node_modules/ (181), ./.git/ (64)]``."""
        if not self.per_dir:
            return ""
        items = sorted(self.per_dir.items(), key=lambda kv: (-kv[1], kv[0]))
        shown = ", ".join(f"{d} ({n})" for d, n in items[:8])
        more = f", +{len(items) - 8} more dirs" if len(items) > 8 else ""
        return f"[hidden: {self.total} {what} in noise dirs: {shown}{more}]"


def group_lines(
    paths: list[tuple[str, int]], dirs: set[str], budget: int, root_label: str = "./"
) -> tuple[list[str], int]:
    """One line per directory, ``dir/  name  name/``, sorted; returns (lines, entries cut).

    ``dirs`` holds the paths known to be directories (they get a ``/``). Every
    name is shown while the listing fits ``budget`` tokens; above it, directories
    that do not fit are shown as ``dir/  (N entries)`` (see :func:`fit`).
    """
    groups: dict[str, dict[str, int]] = {}
    for p, count in paths:
        parent, name = split(p)
        if name.endswith("/"):
            name = name[:-1]
        if p.rstrip("/") in dirs or p.endswith("/"):
            name += "/"
        g = groups.setdefault(parent, {})
        g[name] = g.get(name, 0) + count
    units = []
    for parent in sorted(groups):
        counts = groups[parent]
        names = [(t, c if c > 1 else counts.get(t, 1)) for t, c in fold(sorted(counts))]
        line = (parent or root_label) + "  " + "  ".join(n if "{" in n else qname(n) for n, _ in names)
        units.append(Unit(parent or root_label, line, sum(counts.values()), parent))
    return fit(units, budget, ("entry", "entries"), "dir")


class Unit:
    """One group of a listing: its full text, or in its place one line with its exact count."""

    __slots__ = ("count", "dir", "key", "text")

    def __init__(self, key: str, text: str, count: int, dir: str) -> None:
        self.key = key  # what the count line names (a directory, a file)
        self.text = text  # the full lines, joined by "\n"
        self.count = count  # entries it stands for
        self.dir = dir  # the directory it lies in, for grouping at a coarser level


def _cost(lines: list[str]) -> int:
    from rtk import tokens

    return sum(tokens.estimate(s) + 1 for s in lines)


def fit(
    units: list[Unit], budget: int, noun: tuple[str, str], unit_noun: str, smallest_first: bool = False
) -> tuple[list[str], int]:
    """Every unit in full when the whole fits ``budget`` tokens; else counts per directory.

    Above the budget each unit that no longer fits becomes ``key  (N noun)``, the
    units shown in full being chosen in order (``smallest_first``: fewest entries first,
    so that a rare code or a small group is never hidden behind a large one) among those
    whose text fits what is left once every count line is paid for; the lines keep the
    units' order. When even the count lines do not fit,
    units are counted per directory, at the deepest level that fits. Every count
    is exact. Returns (lines, entries not shown in full).
    """
    full = [u.text for u in units]
    if _cost(full) <= budget:
        return full, 0
    counts = [f"{u.key}  ({plural(u.count, *noun)})" for u in units]
    spent = _cost(counts)
    if spent > budget:
        return _per_dir(units, budget, noun, unit_noun), sum(u.count for u in units)
    room = budget - spent
    order = sorted(range(len(units)), key=lambda i: units[i].count) if smallest_first else range(len(units))
    shown: set[int] = set()
    for i in order:
        extra = _cost([units[i].text]) - _cost([counts[i]])
        if extra <= room:
            room -= extra
            shown.add(i)
    out = [u.text if i in shown else c for i, (u, c) in enumerate(zip(units, counts, strict=True))]
    return out, sum(u.count for i, u in enumerate(units) if i not in shown)


def _per_dir(units: list[Unit], budget: int, noun: tuple[str, str], unit_noun: str) -> list[str]:
    """Count lines per directory, cut to the deepest directory level whose lines fit ``budget``."""
    depth = max((u.dir.rstrip("/").count("/") + 1 for u in units if u.dir.strip("/")), default=0)
    lines: list[str] = []
    while True:
        groups: dict[str, list[int]] = {}
        for u in units:
            parts = u.dir.rstrip("/").split("/")
            d = "/".join(parts[:depth]) + "/" if depth and u.dir.strip("/") else "./"
            g = groups.setdefault(d, [0, 0])
            g[0] += u.count
            g[1] += 1
        lines = [f"{d}  ({plural(n, *noun)} in {plural(k, unit_noun)})" for d, (n, k) in groups.items()]
        if depth == 0 or _cost(lines) <= budget:
            return lines
        depth -= 1


def head(rows: list[str], budget: int) -> tuple[list[str], int]:
    """The leading rows that fit ``budget`` tokens, when there is no directory to count by; (rows, rows left)."""
    spent = 0
    for i, r in enumerate(rows):
        spent += _cost([r])
        if spent > budget:
            return rows[:i], sum(1 for x in rows[i:] if x != "--")
    return rows, 0
