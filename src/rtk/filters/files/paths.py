"""Path listings shared by find, fd, tree and wc: directory grouping, noise dirs, name quoting."""

from __future__ import annotations

import re

from rtk import config

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
    paths: list[tuple[str, int]], dirs: set[str], per_dir: int, total_cap: int, root_label: str = "./"
) -> tuple[list[str], int]:
    """One line per directory, ``dir/  name  name/``, sorted; returns (lines, entries cut).

    ``dirs`` holds the paths known to be directories (they get a ``/``). At most
    ``per_dir`` names are shown per directory and ``total_cap`` in all; every name
    left out is counted on the line (``+N more``) and in the returned count.
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
    out: list[str] = []
    cut = 0
    shown_total = 0
    keys = sorted(groups)
    for i, parent in enumerate(keys):
        counts = groups[parent]
        names = [(t, c if c > 1 else counts.get(t, 1)) for t, c in fold(sorted(counts))]
        if shown_total >= total_cap:
            rest = sum(sum(groups[k].values()) for k in keys[i:])
            out.append(f"+{rest} more in {len(keys) - i} more dirs")
            cut += rest
            break
        room = min(per_dir, total_cap - shown_total)
        shown = names if len(names) <= room + 1 else names[:room]
        line = (parent or root_label) + "  " + "  ".join(n if "{" in n else qname(n) for n, _ in shown)
        if len(shown) < len(names):
            left = sum(c for _, c in names[len(shown) :])
            line += f"  +{left} more"
            cut += left
        out.append(line)
        shown_total += len(shown)
    return out, cut
