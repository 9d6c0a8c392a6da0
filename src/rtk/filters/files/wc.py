"""Filter for ``wc``: the counts without column padding, the shared directory prefix said once.

Every row ``wc`` printed is kept with all its numbers; a header names the
columns. ``wc``'s own errors (``wc: x: No such file or directory``) are kept as
they came. Unknown flags and ``--total=only`` run unfiltered.
"""

from __future__ import annotations

from rtk import config
from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.files.paths import fold_paths, head
from rtk.text import split_lines

COMMANDS = ("wc",)

_ORDER = ("lines", "words", "chars", "bytes", "max-line")
_SHORT = {"l": "lines", "w": "words", "m": "chars", "c": "bytes", "L": "max-line"}
_LONG = {
    "--lines": "lines", "--words": "words", "--chars": "chars", "--bytes": "bytes",
    "--max-line-length": "max-line",
}  # fmt: skip


def _columns(args: list[str]) -> list[str] | None:
    cols: set[str] = set()
    only = False
    for a in args:
        if only or not a.startswith("-") or a == "-":
            continue
        if a == "--":
            only = True
        elif a in _LONG:
            cols.add(_LONG[a])
        elif a.startswith("--files0-from=") or a in ("--total=auto", "--total=always", "--total=never"):
            continue
        elif a.startswith("--"):
            return None  # --help, --version, --total=only, unknown
        else:
            for c in a[1:]:
                if c not in _SHORT:
                    return None
                cols.add(_SHORT[c])
    return [c for c in _ORDER if c in cols] or ["lines", "words", "bytes"]


def select(argv: list[str]) -> Spec | None:
    return Spec("wc", wc) if _columns(argv[1:]) is not None else None


def _prefix(names: list[str]) -> str:
    """The longest directory prefix (ending in ``/``) shared by every name."""
    if len(names) < 2:
        return ""
    first = names[0]
    end = len(first)
    for n in names[1:]:
        i = 0
        while i < min(end, len(n)) and first[i] == n[i]:
            i += 1
        end = i
    return first[: first.rfind("/", 0, end) + 1] if end else ""


def wc(argv: list[str], output: str, exit_code: int) -> Filtered:
    cols = _columns(argv[1:])
    if cols is None:
        raise Unrecognized("unsupported flags")
    n = len(cols)
    errors: list[str] = []
    rows: list[tuple[list[str], str]] = []
    for ln in split_lines(output):
        if ln.startswith("wc: "):
            errors.append(ln)
            continue
        parts = ln.split(None, n)
        nums = parts[:n]
        if len(nums) < n or not all(x.isdigit() for x in nums):
            raise Unrecognized(f"row {ln!r}")
        # The name is everything after the last number and the one space after it, exactly.
        rest = ln.lstrip(" ")
        for i, x in enumerate(nums):
            rest = rest[len(x) :]
            rest = rest.lstrip(" ") if i < n - 1 else rest[1:]
        rows.append((nums, rest))
    files = [name for _, name in rows[:-1] if name] if len(rows) > 1 and rows[-1][1] == "total" else []
    if not files:
        files = [name for _, name in rows if name and name != "total"]
    prefix = _prefix(files)
    budget = int(config.get("limits.listing_budget"))
    out = list(errors)
    out.append(" ".join(cols) + (f"  (paths under {prefix})" if prefix else ""))
    # Consecutive rows with the same counts and numbered names fold into one brace range.
    items: list[tuple[list[str], str, int]] = []
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1][0] == rows[i][0] and rows[j + 1][1] not in ("", "total"):
            j += 1
        names = [n[len(prefix) :] if n.startswith(prefix) and n != "total" else n for _, n in rows[i : j + 1]]
        for name, count in fold_paths(names) if j > i else [(names[0], 1)]:
            items.append((rows[i][0], name, count))
        i = j + 1
    total_row = items.pop() if len(rows) > 1 and rows[-1][1] == "total" else None
    rows_text = [
        " ".join(nums) + (f"  {name}" if name else "") + ("  (each)" if c > 1 else "") for nums, name, c in items
    ]
    shown, _ = head(rows_text, budget)
    out.extend(shown)
    cut = sum(c for _, _, c in items[len(shown) :])
    if cut:
        out.append(f"+{cut} more rows")
    if total_row is not None:
        out.append(" ".join(total_row[0]) + "  total")
    return Filtered("\n".join(out) + "\n", cut)
