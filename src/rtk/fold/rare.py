"""Rare values in a long group: the lines of a value seen a few times among few values are shown whole."""

from __future__ import annotations

from rtk.fold.group import _NAMES, FEW, ONCE_MAX, ONCE_MIN, TWICE, VALUES, WORDS, _code, sig_keys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.group import Group

LARGE = (
    100  # in a group of this many lines where one value fills 90% of a field of 6+ values, one seen FEW times is rare
)


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


def _rare(g: Group, vals: dict[str, int]) -> list[str]:
    """The rare values of a field with these counts (see :func:`once`)."""
    if len(vals) < 2 or max(vals.values()) < ONCE_MIN // 2:
        return []
    if len(vals) > VALUES and g.count >= LARGE and max(vals.values()) * 10 >= g.count * 9:
        # One value nearly always and too many values for the fold line to list: the others stand out.
        return [v for v, n in vals.items() if n <= FEW]  # (together at most a tenth of the group)
    rare = [v for v, n in vals.items() if n <= TWICE]
    if len(rare) > ONCE_MAX:  # too many seen twice: those seen once, as when only they counted
        rare = [v for v in rare if vals[v] == 1]
    return rare if len(rare) <= ONCE_MAX else []


def once(g: Group) -> list[tuple[int, str]]:
    """The lines (number, text) holding a rare value of a field with few values.

    A group of at least :data:`ONCE_MIN` lines whose field has few values (:data:`VALUES`, or
    :data:`WORDS` for a field of words or the first word of a quoted field, ``"HEAD /a HTTP/1.1"``)
    and one seen at least :data:`ONCE_MIN` // 2 times: in a group of at least :data:`LARGE` lines where
    one value fills 90% of a field with more values than the fold line lists (:data:`VALUES`: its counts
    are not shown), every other value seen at most :data:`FEW` times is rare; else at most
    :data:`ONCE_MAX` values seen at most :data:`TWICE` times (or those seen once) are. Such a value is an
    anomaly (a will message among sensor readings, ``exit_group(2`` among ``close(3``, configure's
    ``... no`` among ``... yes``, a ``HEAD`` request among ``GET``), not shown by a count in the fold
    line; its lines are shown. Only fields of words and names (:data:`_NAMES`) and numbers whose
    values are codes (:func:`_code`: ``206`` among ``200`` and ``304``; not a count ``0``..``12``): a
    time, id or measure seen once is no anomaly (a far number is an outlier). A listing of paths (one
    a line) shows the lines of its small directories (:class:`~rtk.fold.listing.Listing`).
    Its head is shown already.
    """
    if g.count < ONCE_MIN or len(g.template.toks) != len(g.head):
        return []
    found: dict[int, str] = {}
    fields: list[tuple[int, dict[str, int] | None]] = [(-1 - i, v) for i, v in g.words.items()]
    for i, t in enumerate(g.template.toks):
        if not any(k in t for k in _NAMES) and t != "<n>":
            continue
        vals = _counts(g, i, WORDS if t == "<*>" else VALUES)
        if t == "<n>" and vals is not None and not _code(vals):
            continue
        fields.append((i, vals))
    for i, vals in fields:
        if vals is None:
            continue
        for v in _rare(g, vals):
            hits = [g.firsts.get((i, v)), *(g.firsts.get((i, v, k)) for k in range(2, min(vals[v], FEW) + 1))]
            if hits[0] is None and g.sigs is not None:  # a constant token where lines differ: by kind of line
                hits = [g.firsts.get(k) for s, n in g.sigs.items() if s[i] == v for k in sig_keys(s, n)]
            seen: set[str] = set()
            for hit in hits:
                if hit is not None and hit[0] != g.first and hit[1] not in seen:  # a line again as it was: once
                    found[hit[0]] = hit[1]
                    seen.add(hit[1])
    if g.dirs is not None:
        found.update(ln for ln in g.dirs.rare(g.count) if ln[0] != g.first)
    return sorted(found.items())
