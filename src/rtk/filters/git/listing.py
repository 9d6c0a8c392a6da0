"""Lists of paths over the token budget: counted by directory, as much detail as the budget allows.

A listing that fits ``limits.git_list_tokens`` is printed whole by its filter and never
reaches this module. Above the budget, every path is still accounted for: each
directory is either listed, or replaced by one line with the exact number of paths
under it (and their status codes). Directories are opened smallest first while the
result stays within the budget, so what is shown is what fits, never a first N.
"""

from __future__ import annotations

import heapq

# Characters a listed entry costs besides its text (indent and newline, or ", "), as in ``git.fits``.
ENTRY_OVERHEAD = 3


class _Dir:
    __slots__ = ("children", "first", "items", "prefix", "total")

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix  # "src/app/"; "" for the top level
        self.children: dict[str, _Dir] = {}
        self.items: list[int] = []  # entries directly in this directory
        self.total: list[int] = []  # every entry under it
        self.first = -1


def _counts(tags: list[str]) -> str:
    """``["M", "M", "D"]`` -> `` (2 M, 1 D)``; nothing when there are no tags."""
    seen: dict[str, int] = {}
    for t in tags:
        if t:
            seen[t] = seen.get(t, 0) + 1
    return " (" + ", ".join(f"{n} {t}" for t, n in seen.items()) + ")" if seen else ""


def group(entries: list[tuple[str, str, str]], budget_tokens: int, noun: str = "paths") -> tuple[list[str], int]:
    """(path, text, tag) entries -> (lines to show, in git's order; entries not named).

    ``path`` places the entry in the tree (a trailing ``/`` names a directory entry),
    ``text`` is how a listed entry is shown, ``tag`` (a status code, or "") is
    counted on the lines that stand for a directory.
    """
    root = _Dir("")
    for idx, (path, _, _) in enumerate(entries):
        node = root
        node.total.append(idx)
        for part in path.rstrip("/").split("/")[:-1]:
            child = node.children.get(part)
            if child is None:
                child = node.children[part] = _Dir(node.prefix + part + "/")
                child.first = idx
            node = child
            node.total.append(idx)
        node.items.append(idx)
    root.first = 0

    def label(d: _Dir, whole: bool) -> str:
        idx = d.total if whole else d.items
        n = len(idx)
        what = f"{n} {noun if n != 1 else noun.rstrip('s')}"
        where = f"under {d.prefix}" if whole else (f"in {d.prefix}" if d.prefix else "at the top level")
        return f"{what} {where}{_counts([entries[i][2] for i in idx])}"

    def cost(text: str) -> int:
        return len(text) + ENTRY_OVERHEAD

    def items_cost(d: _Dir) -> int:
        return sum(cost(entries[i][1]) for i in d.items)

    def open_cost(d: _Dir) -> int:
        """What ``d`` costs opened: its sub-directories as lines, its own entries listed
        when it has no sub-directories (else as one line, listed in a later step)."""
        own = 0
        if d.items:
            own = items_cost(d) if not d.children else cost(label(d, False))
        return own + sum(cost(label(c, True)) for c in d.children.values())

    opened: set[int] = {id(root)}
    listed: set[int] = set()
    budget = budget_tokens * 4
    # the top level starts as counts: its own entries as one line, each directory as one line
    used = sum(cost(label(c, True)) for c in root.children.values()) + (cost(label(root, False)) if root.items else 0)
    heap: list[tuple[int, int, str, _Dir]] = []  # (extra cost, order, kind, directory)
    order = 0

    def offer(d: _Dir) -> None:
        nonlocal order
        for c in d.children.values():
            heapq.heappush(heap, (open_cost(c) - cost(label(c, True)), order, "open", c))
            order += 1
        if d.items and (d.children or d is root):
            heapq.heappush(heap, (items_cost(d) - cost(label(d, False)), order, "list", d))
            order += 1

    offer(root)
    while heap:
        extra, _, kind, d = heap[0]
        if used + extra > budget:
            break  # the cheapest step does not fit: none does
        heapq.heappop(heap)
        used += extra
        if kind == "list":
            listed.add(id(d))
            continue
        opened.add(id(d))
        if not d.children:
            listed.add(id(d))
        offer(d)

    shown: list[tuple[int, str]] = []
    hidden = 0

    def walk(d: _Dir) -> None:
        nonlocal hidden
        if id(d) not in opened:
            shown.append((d.first, label(d, True)))
            hidden += len(d.total)
            return
        if id(d) in listed:
            shown.extend((i, entries[i][1]) for i in d.items)
        elif d.items:
            shown.append((d.items[0], label(d, False)))
            hidden += len(d.items)
        for c in d.children.values():
            walk(c)

    walk(root)
    shown.sort(key=lambda p: p[0])
    return [text for _, text in shown], hidden
