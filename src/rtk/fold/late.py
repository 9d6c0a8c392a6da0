"""Lines a live fold folded before the output's length was known, printed at its end when they are rare after all."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.held import Known

LATE = 1024  # lines kept at most, of groups that may still be rare when the output ends...
LATE_CHARS = 1 << 18  # ...and characters


class Late:
    """The lines of live folds that the whole fold could show whole (rare): kept, bounded, until the end.

    A template is rare with at most max(4, lines // 300) lines after its first, so whether it is
    depends on the whole output's length; a live fold decides 200 lines after a group's head.
    A group it folds then with few enough lines (at most the maybe-rare lines a fold holds) is kept
    here by its key; at the end, a key whose lines the whole fold would show whole has them printed.
    """

    __slots__ = ("chars", "keys", "n")

    def __init__(self) -> None:
        self.keys: dict[int, list[tuple[int, str]]] = {}
        self.n = 0
        self.chars = 0

    def keep(self, key: int, lines: list[tuple[int, str]]) -> None:
        """Keep the folded ``lines`` (number, text) of a group of ``key``, unless the bound is reached."""
        size = sum(len(ln) for _, ln in lines)
        if self.n + len(lines) > LATE or self.chars + size > LATE_CHARS:
            return
        self.keys.setdefault(key, []).extend(lines)
        self.n += len(lines)
        self.chars += size

    def rare(self, known: dict[int, Known], limit: int, base: int = 0) -> list[str]:
        """The kept lines of each key with at most ``limit`` lines after its first in all: a line naming them, then each."""
        out: list[str] = []
        for key, kept in sorted(self.keys.items(), key=lambda kv: kv[1][0][0]):
            k = known.get(key)
            if k is None or k.count - 1 > limit:
                continue
            first, last = kept[0][0] + base, kept[-1][0] + base
            out.append(f"[rtk] rare in the whole output, folded above (lines {first}-{last}):")
            out.extend(ln for _, ln in kept)
        self.keys.clear()
        self.n = self.chars = 0
        return out
