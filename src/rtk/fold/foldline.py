"""A fold line: ``… N more like: TEMPLATE  (lines A-B)`` with the few values of its fields and their counts."""

from __future__ import annotations

from rtk.fold.group import VALUES
from rtk.fold.mask import KIND_NAMES
from rtk.fold.miner import Exact

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.group import Group


def size_of(lines: tuple[str, ...]) -> int:
    """Characters of ``lines`` printed one per line."""
    return sum(map(len, lines)) + len(lines)


def render_fold(g: Group, folded: int, start: int, end: int) -> str:
    """``… 1,387 more like: INFO GET <path> 200 <dur>  (lines 2-1499); <path>: /a ×3, /b ×2``."""
    toks = g.template.toks
    if len(toks) != len(g.head):
        toks = ["<other>"]
    event = isinstance(g.template, Exact) and len(toks) == len(g.head)
    shown: list[str] = []
    listed: list[int] = []
    for i, t in enumerate(toks):
        if "<" not in t:
            shown.append(t)
            continue
        vals = g.field(i) if len(toks) == len(g.head) else None
        if ">" in t and vals is not None and len(vals) == 1:
            shown.append(next(iter(vals)))  # one value throughout: print it
            continue
        shown.append(t)
        if (
            vals is not None
            and 1 < len(vals) <= VALUES
            and len(listed) < (3 if event else 2)
            and not _clock(vals)
            and _core(t) != "<time>"  # which second a line fell in: its range says where
        ):
            listed.append(i)
    text = f"… {folded:,} more like: {' '.join(shown)}  (lines {start}-{end})"
    if listed:  # shown[i] is the text of toks[i]
        text += "; " + "; ".join(values_text(toks[i], g.field(i) or {}, _label(shown, i)) for i in listed)
    return text


def shown_fields(g: Group) -> tuple[list[str], list[str]]:
    """The template of ``g`` as its fold line prints it (a field of one value as that value), and as mined."""
    toks = g.template.toks
    if len(toks) != len(g.head):
        return ["<other>"], ["<other>"]
    shown = []
    for i, t in enumerate(toks):
        vals = g.field(i) if "<" in t and ">" in t else None
        shown.append(next(iter(vals)) if vals is not None and len(vals) == 1 else t)
    return shown, list(toks)


def _clock(vals: dict[str, int]) -> bool:
    """Whether a field's values are long numbers rising in the order first seen: which second (or sequence
    number) the lines fall in, as an epoch time (``1795551995:``) says; the line range says it already."""
    nums = [v.strip(":,;[]()") for v in vals]
    if not all(n.isdigit() and len(n) >= 6 for n in nums):
        return False
    ints = list(map(int, nums))
    return ints == sorted(ints)


def _core(tok: str) -> str:
    return tok[tok.find("<") : tok.rfind(">") + 1]


def _label(shown: list[str], i: int) -> str:
    """A field as the fold line names it; one of several alike (``<n>``): ``user: <n>``, ``<n> hits``, ``<n>#2``."""
    t = shown[i]
    core = _core(t)
    named = any(map(str.isalpha, t.replace(core, "")))  # ``fd=<n>`` says which field it is
    if (shown.count(t) > 1 or not named) and sum(1 for s in shown if "<" in s and _core(s) == core) > 1:
        prev = shown[i - 1].lstrip("(") if i else ""
        nxt = shown[i + 1].rstrip(",;") if i + 1 < len(shown) else ""
        if prev[-1:] in ":=" and any(map(str.isalpha, prev)) and "<" not in prev:
            t = f"{prev} {t}"
        elif "<" not in nxt and any(map(str.isalpha, nxt)):
            t = f"{t} {nxt}"
        elif "<" not in prev and any(map(str.isalpha, prev)):
            t = f"{prev} {t}"
        else:
            t = f"{t}#{sum(1 for s in shown[: i + 1] if '<' in s and _core(s) == core)}"
    return t.lstrip("(").rstrip(",;")


def values_text(field: str, vals: dict[str, int], label: str = "") -> str:
    """``worker=<n>: 1 ×83, 4 ×82``: a field (``label``), then each value with its count, most frequent first.

    What the field's token has around its kind (``worker=``, ``[``...``]``) is said once, not with each value.
    """
    label = label or field
    lo = field.find("<")
    hi = field.rfind(">") + 1
    pre, post = (field[:lo], field[hi:]) if 0 <= lo < hi and field[lo:hi] in KIND_NAMES else ("", "")
    items = sorted(vals.items(), key=lambda kv: -kv[1])
    if all(v.startswith(pre) and v.endswith(post) and len(v) > len(pre) + len(post) for v, _ in items):
        items = [(v[len(pre) : len(v) - len(post)], n) for v, n in items]
    return label + (" " if label[-1:] == ":" else ": ") + ", ".join(f"{v} ×{n:,}" for v, n in items)
