"""A context line ending in ``:`` right before a marker (gcc's ``a.c: In function ‘f’:``) is shown with it."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.state import FoldState as Folder


def ends_in_colon(line: str) -> bool:
    """Whether ``line`` introduces what follows (``src/a.c: In function ‘f’:``)."""
    return line[-1:] == ":"


def show_context(f: Folder, no: int) -> None:
    """The marker line ``no`` is shown: the line just before it, when it ends in ``:`` and was folded, is shown too.

    It belongs to the marker's block (which function the warning is in), whatever its template's
    state: a held line of a group is shown instead of held (it counts as shown); a line already
    counted by a folding group is taken out of the count (when the group is still open) and shown.
    """
    c, f._colon = f._colon, None
    if c is None or c[0] != no - 1:
        return
    cno, line, g, held = c
    for k in [k for k, v in g.firsts.items() if v[0] == cno]:  # shown now: not again as a value seen once
        del g.firsts[k]
    if held is not None:
        if held[0] == "tent":
            held[0] = "show"
            g.shown += 1
            return
        if held[0] != "dead":
            return  # printed already
    if f.groups.get(g.key) is g and g.count > g.shown:
        g.count -= 1
    f.pending.append(["show", cno, line])


def under_shown(f: Folder, no: int, sig: tuple[str, ...]) -> bool:
    """Whether line ``no`` (masked ``sig``) is a caret underline right under a line shown whole (gcc's source line).

    The caret says where in that line the diagnostic is: shown with it, not folded with the
    carets under other lines (a caret under a folded source line folds with it).
    """
    if not sig or sig[-1] != "<caret>":
        return False
    p = f.pending
    n = len(p)
    return any(p[k][0] == "show" and p[k][1] == no - 1 for k in range(max(0, n - 2), n))
