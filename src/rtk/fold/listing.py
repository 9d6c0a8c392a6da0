"""A listing (one path a line, as ``rsync -v``, ``find`` or ``tar -v`` print): counted by directory, small ones shown."""

from __future__ import annotations

FEW = 8  # a directory with at most this many lines has them shown whole
DIRS = 512  # directories counted at most; past this a listing is folded like any template
SHOWN = 10  # ...and at most one line in this many of the listing is shown so (else none: nothing stands out)
LISTED = 8  # directories named with their counts in the fold line


def first_word(tok: str) -> str:
    """The first word of a quoted field that holds words (``"HEAD /a HTTP/1.1"``: ``HEAD``), else ``""``."""
    if tok[:1] not in "\"'" or " " not in tok:
        return ""
    return tok[1 : tok.find(" ")]


def parent(path: str) -> str:
    """The directory holding ``path`` (``a/b/`` for ``a/b/c`` and ``a/b/c/``), ``""`` for a top-level name."""
    k = path.rfind("/", 0, len(path) - 1)
    return path[: k + 1]


class Listing:
    """The paths of one template of a single path a line, by directory: counts, and lines of small directories."""

    __slots__ = ("entries", "lines", "sub")

    def __init__(self) -> None:
        self.entries: dict[str, int] | None = {}  # lines right in each directory (a subdirectory's line too)
        self.sub: dict[str, int] = {}  # lines under each directory (its own line included)
        self.lines: dict[str, list[tuple[int, str]]] = {}  # lines of the directories with at most FEW

    def add(self, nos: list[int], lines: list[str]) -> None:
        entries = self.entries
        if entries is None:
            return
        sub = self.sub
        for no, line in zip(nos, lines, strict=True):
            p = line.strip()
            d = parent(p)
            n = entries[d] = entries.get(d, 0) + 1
            if n <= FEW:
                self.lines.setdefault(d, []).append((no, line))
            elif n == FEW + 1:
                del self.lines[d]
            k = p.find("/")
            while k != -1:
                sub[p[: k + 1]] = sub.get(p[: k + 1], 0) + 1
                k = p.find("/", k + 1)
        if len(entries) > DIRS or len(sub) > DIRS:
            self.entries = None
            self.sub, self.lines = {}, {}

    def rare(self, count: int) -> list[tuple[int, str]]:
        """The lines of small directories (subdirectories with more under them left out); none if too many."""
        if self.entries is None:
            return []
        out = [
            (no, line)
            for got in self.lines.values()
            for no, line in got
            if not line.rstrip().endswith("/") or self.sub.get(line.strip(), 0) <= FEW
        ]
        return out if len(out) * SHOWN <= count else []

    def text(self, shown: list[str]) -> str:
        """``; by directory: site/src/api/ ×25, ...``: the lines of the listing not ``shown``, per directory."""
        if self.entries is None or len(self.entries) < 2:
            return ""
        left = dict(self.entries)
        for line in shown:
            d = parent(line.strip())
            if d in left:
                left[d] -= 1
        counts = [(d or "./", n) for d, n in left.items() if n > 0]
        more = f" (+{len(counts) - LISTED:,} more)" if len(counts) > LISTED else ""
        return "; by directory: " + ", ".join(f"{d} ×{n:,}" for d, n in counts[:LISTED]) + more
