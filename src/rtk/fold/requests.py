"""Access-log requests seen by the fold: status and path counts, and the summary line they make."""

from __future__ import annotations

from collections import Counter
from operator import itemgetter

PATHS = 1000  # distinct paths counted by name; later new paths count only in the totals


class Requests:
    """Requests ``(path, status)`` taken as they come and counted a batch at a time."""

    __slots__ = ("paths", "pending", "status", "total")

    def __init__(self) -> None:
        self.pending: list[tuple[str, str]] = []  # requests not counted yet
        self.status: dict[str, int] = {}
        self.paths: dict[str, int] = {}
        self.total = 0

    def count(self) -> None:
        """The pending requests counted at once: statuses, and paths (the first ``PATHS`` named; ``/items/<n>`` for ids)."""
        reqs, self.pending = self.pending, []
        self.total += len(reqs)
        for status, n in Counter(map(itemgetter(1), reqs)).items():
            self.status[status] = self.status.get(status, 0) + n
        paths = self.paths
        for path, n in Counter(map(itemgetter(0), reqs)).items():  # in the order first seen
            path = path.split("?", 1)[0]
            if not path.isalpha() and any(map(str.isdigit, path)):  # /api/vessels/12: a number in a path is an id
                path = "/".join("<n>" if part.isdigit() else part for part in path.split("/"))
            if path in paths or len(paths) < PATHS:
                paths[path] = paths.get(path, 0) + n

    def summary(self) -> str:
        """One line: the request count, every status with its count, the eight most requested paths."""
        st = ", ".join(f"{s} ×{n:,}" for s, n in sorted(self.status.items()))
        top = sorted(self.paths.items(), key=lambda kv: -kv[1])
        paths = ", ".join(f"{p} ×{n:,}" for p, n in top[:8])
        more = f" (+{len(top) - 8:,} more paths)" if len(top) > 8 else ""
        return f"… access log: {self.total:,} requests; status {st}; paths {paths}{more}"
