"""A group's fold line when it closes: exact counts, its last line when a counter moved, its lines seen once."""

from __future__ import annotations

from rtk.fold.held import count_line, defer
from rtk.fold.rare import once

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.group import Group
    from rtk.fold.state import FoldState as Folder

RARE = 4  # a template with at most this many lines after its first...
RARE_SHARE = 300  # ...or at most one line in this many of the output is shown whole (rare lines are facts)
TENTS = 16  # lines of a template held as maybe-rare at most


def summary(self: Folder, g: Group) -> list[str]:
    """The fold line of a group (and its last line when a counter in it moved); closes the group."""
    if self.groups.get(g.key) is g:
        del self.groups[g.key]
    known = self._known.get(g.key) if self._known is not None else None  # live output only
    before = known.closed(g) if known is not None else 0  # lines of this key in earlier groups
    held = not g.cancelled  # every line after the head is still held, waiting to be shown
    # Rare: every line of it is shown; not lines the same as one shown before (they are named by its number).
    rare = held and before + g.count - 1 <= max(RARE, self.lines // RARE_SHARE)
    if rare and (known is None or g.shown or not known.same(g)):
        return []  # rare: every line of it is shown
    folded = g.count - g.shown
    if folded <= 0:
        return []
    show_last = folded >= 2 and any(m in (1, -1) for m in g.mono)
    if show_last:
        folded -= 1
    end = g.last_no - 1 if show_last else g.last_no
    done = {e[1] for e in g.tents if e[0] in ("done", "show")}  # (printed already)
    few = [ln for ln in once(g) if ln[0] <= end and ln[0] not in done]  # a value seen once among many: whole
    folded -= len(few)
    line = count_line(known, g, folded, self.base, end + self.base)
    if g.dirs is not None:  # a listing: its folded lines by directory
        gone = [str(e[2]) for e in g.tents if e[0] in ("done", "show")] + [ln for _, ln in few]
        line += g.dirs.text([*gone, g.last] if show_last else gone)
    out = [line, *(ln for _, ln in few)]
    if show_last:
        out.append(g.last)
    # A template shown in a window before: its count waits for the end, one line for all its later windows.
    later = known is not None and not g.shown and len(out) == 1 and g.dirs is None
    start = g.first + self.base
    # (a count added to one already waiting costs no line: its lines are not shown for being short)
    if held and not (later and g.key in self._later) and _size(g.tents) <= sum(len(o) + 1 for o in out):
        return []  # the fold would be longer than the lines it stands for: they are shown
    if known is not None and held and before + g.count <= TENTS + 1 and not known.same(g):  # live: rare later?
        kept = g.tents[:-1] if show_last else g.tents  # (the last line is shown)
        late = [(int(e[1]), str(e[2])) for e in kept if e[0] == "tent"]  # type: ignore[call-overload]
        self._late.keep(g.key, [ln for ln in late if ln not in few])
    g.cancelled = True  # later lines of this template start a new group
    for e in g.tents:
        if e[0] == "tent":
            e[0] = "dead"
    self.folded += folded
    if later and known is not None and defer(self._later, known, g, folded, start, end + self.base):
        return []
    self.shown += len(out)
    return out


def _size(entries: list[list[object]]) -> int:
    """Characters of the held lines of ``entries`` printed one per line."""
    return sum(len(str(e[2])) + 1 for e in entries)
