"""Path listings shared by find, fd, tree and wc: directory grouping, noise dirs, name quoting."""

from __future__ import annotations

from rtk import config


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
    paths: list[str], dirs: set[str], per_dir: int, total_cap: int, root_label: str = "./"
) -> tuple[list[str], int]:
    """One line per directory, ``dir/  name  name/``, sorted; returns (lines, entries cut).

    ``dirs`` holds the paths known to be directories (they get a ``/``). At most
    ``per_dir`` names are shown per directory and ``total_cap`` in all; every name
    left out is counted on the line (``+N more``) and in the returned count.
    """
    groups: dict[str, list[str]] = {}
    for p in paths:
        parent, name = split(p)
        if name.endswith("/"):
            name = name[:-1]
        if p in dirs or p.endswith("/"):
            name += "/"
        groups.setdefault(parent, []).append(name)
    out: list[str] = []
    cut = 0
    shown_total = 0
    keys = sorted(groups)
    for i, parent in enumerate(keys):
        names = sorted(set(groups[parent]))
        if shown_total >= total_cap:
            rest = sum(len(set(groups[k])) for k in keys[i:])
            out.append(f"+{rest} more in {len(keys) - i} more dirs")
            cut += rest
            break
        room = min(per_dir, total_cap - shown_total)
        shown = names if len(names) <= room + 1 else names[:room]
        line = (parent or root_label) + "  " + "  ".join(qname(n) for n in shown)
        if len(shown) < len(names):
            line += f"  +{len(names) - len(shown)} more"
            cut += len(names) - len(shown)
        out.append(line)
        shown_total += len(shown)
    return out, cut
