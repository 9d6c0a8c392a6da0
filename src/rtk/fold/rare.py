"""Rare values in a long group: the lines of a value seen once or twice among few values are shown whole."""

from __future__ import annotations

from rtk.fold.group import _NAMES, ONCE_MAX, ONCE_MIN, TWICE, VALUES, WORDS, _code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.group import Group


def _counts(g: Group, i: int, bound: int) -> dict[str, int] | None:
    """The values of field ``i`` with their counts, up to ``bound`` values: counted raw, or by kind of masked line."""
    if i in g.values:
        return g.values[i]
    if g.sigs is None:
        return None
    out: dict[str, int] = {}
    for sig, n in g.sigs.items():
        v = sig[i]
        if "<" in v:  # a variable field in another kind of line: its raw values were not counted
            return None
        out[v] = out.get(v, 0) + n
        if len(out) > bound:
            return None
    return out


def once(g: Group) -> list[tuple[int, str]]:
    """The lines (number, text) holding a value seen at most :data:`TWICE` times of a field with few values.

    A group of at least :data:`ONCE_MIN` lines whose field has few values (:data:`VALUES`, or
    :data:`WORDS` for a field of words), at most :data:`ONCE_MAX` of them seen at most twice (else
    seen once) and
    another seen at least :data:`ONCE_MIN` // 2 times: such a value is an anomaly (a will message
    among sensor readings, ``exit_group(2`` among ``close(3``, configure's ``... no`` among
    ``... yes``), not shown by a count in the fold line; both its lines are shown. Only fields of
    words and names (:data:`_NAMES`) and numbers whose values are codes (:func:`_code`: ``206``
    among ``200`` and ``304``; not a count ``0``..``12``): a time, id or measure seen once is no
    anomaly (a far number is an outlier). Its head is shown already.
    """
    if g.count < ONCE_MIN or len(g.template.toks) != len(g.head):
        return []
    found: dict[int, str] = {}
    for i, t in enumerate(g.template.toks):
        if not any(k in t for k in _NAMES) and t != "<n>":
            continue
        vals = _counts(g, i, WORDS if t == "<*>" else VALUES)
        if vals is None or len(vals) < 2:
            continue
        if t == "<n>" and not _code(vals):
            continue
        rare = [v for v, n in vals.items() if n <= TWICE]
        if len(rare) > ONCE_MAX:  # too many seen twice: those seen once, as when only they counted
            rare = [v for v, n in vals.items() if n == 1]
        if not rare or len(rare) > ONCE_MAX or max(vals.values()) < ONCE_MIN // 2:
            continue
        for v in rare:
            hits = [g.firsts.get((i, v)), g.firsts.get((i, v, 2))]
            if hits[0] is None and g.sigs is not None:  # a constant token where lines differ: by kind of line
                hits = [g.firsts.get(k) for s, n in g.sigs.items() if n <= TWICE and s[i] == v for k in (s, (s, 2))]
            seen: set[str] = set()
            for hit in hits:
                if hit is not None and hit[0] != g.first and hit[1] not in seen:  # a line again as it was: once
                    found[hit[0]] = hit[1]
                    seen.add(hit[1])
    return sorted(found.items())
