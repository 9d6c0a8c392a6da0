"""The fold's caches bounded in bytes as well as in entries: a line of many distinct words costs by its size."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

# Approximate bytes a cache may hold before it starts again (each also keeps its bound in entries). Ordinary
# logs stay far below (tests/fold/test_fold_same.py: no cache of any recorded input reaches its bound); 4 MB of
# lines of 36 distinct words each held 60 MB in the line caches alone (their entries bounded only in number).
FAST_BYTES = 6 << 20  # lines by their shape (Folder._fast: the shape, the tokens' places, the masked tokens)
SEEN_BYTES = 4 << 20  # masked lines (Folder._seen) and group keys (Folder._keys), each
TOKEN_BYTES = 2 << 20  # tokens and their masks (Folder._cache), marker lines seen (Folder._dups)
SKEL_BYTES = 4 << 20  # JSON lines' skeletons seen once, and those seen twice with their recipes (jsonl.py), each
KNOWN_BYTES = 4 << 20  # the tokens of the lines a live fold showed (held.Known)
ENTRY = 120  # bytes of a cache entry besides what it names: the dict's slot, a tuple, small objects
TOKEN = 64  # bytes per token of a line's entry (a reference, a slice, a string's header)


def line_cost(chars: int, toks: int) -> int:
    """Approximate bytes of an entry naming a line of ``chars`` characters and ``toks`` tokens."""
    return ENTRY + chars + TOKEN * toks


class Cache(dict[K, V]):
    """A dict that counts the approximate bytes of its entries (``put``) and empties itself past ``limit``.

    Emptied before a new entry when it holds more than ``count`` entries or more than ``limit``
    bytes, as the fold's caches always were past their number of entries.
    """

    __slots__ = ("count", "limit", "size")

    def __init__(self, count: int, limit: int) -> None:
        super().__init__()
        self.count = count
        self.limit = limit
        self.size = 0

    def full(self, cost: int) -> bool:
        """Whether an entry of ``cost`` bytes more would pass either bound (the caller then starts again)."""
        return len(self) > self.count or self.size + cost > self.limit

    def put(self, key: K, value: V, cost: int) -> None:
        """Add ``key`` (emptying the cache first when it is full); ``cost``: its approximate bytes.

        A key already held is replaced and counted once (a shape put again for each of its source locations).
        """
        if key in self:
            self[key] = value
            return
        if self.full(cost):
            self.clear()
        self[key] = value
        self.size += cost

    def clear(self) -> None:
        super().clear()
        self.size = 0
