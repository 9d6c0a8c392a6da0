"""Rare values in a long group: the lines of a value seen a few times among few values are shown whole."""

from __future__ import annotations

from rtk.fold.group import _NAMES, FEW, KEEP, ONCE_MAX, ONCE_MIN, TWICE, VALUES, WORDS, _code, sig_keys
from rtk.fold.miner import answers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.group import Group

# In a group of at least this many lines, a field whose values the fold line does not list: where one value
# fills 90% of it, every other value seen at most FEW times is rare; where one fills 3/4 and every other value
# is seen at most FEW times, every other value is (session "foldgoals" had 100 lines and 90% only).
LARGE = 20
# A group of at least this many lines (one more than a rare template, whose lines are all shown) is looked at
# (group.ONCE_MIN, 10, before session "foldfacts": a group of 6-9 lines had none of its rare values shown).
SMALL = 6
SEEN = 5  # as many lines as a rare template has at most (summary.RARE + 1): see _rare's ``merged``
# Session "foldfacts2": in a group of at least LARGE lines, a field whose counts the fold line does not show, where
# one value fills this percentage of the group, the other values, together at most group.KEEP lines, are the
# minority answers (sed's ``no`` x14 beside ``yes`` x130 of 149; ``no`` x11 beside ``yes`` x85 of 101 live): shown.
USUAL = 80
# A group of at most this many lines (under group.ONCE_MIN) of a template that differs from a bigger one of its leaf
# only in its last word (miner.answers: ``... no`` beside ``... yes``) has every line shown, as a rare template.
ANSWER = 9
# Session "foldfacts3": in a group of at least LARGE lines whose only field (times aside) is a path (group.wide),
# not listed by the fold line (6 to group.WORDS values), the paths seen at most TWICE, together at most 1/PATHS of
# the group, where every other path is seen at least group.ONCE_MIN times, are odd requests among the usual ones
# (a debug log's ``Request-URI : /private/token.txt`` once among ``/`` x60, ``/img/logo.png`` x40...): shown.
PATHS = 20


def _rare(g: Group, vals: dict[str, int], listed: bool, merged: bool, paths: bool = False) -> list[str]:
    """The rare values of a field with these counts (see :func:`once`); ``listed``: the fold line lists them.

    ``merged``: a field of words (``<*>``: constants the miner merged), whose values' counts in the fold
    line (``yes ×21, no ×3``) do not say which lines they are: listed or not, the 3/4 rule applies.
    """
    top = max(vals.values())
    if len(vals) < 2 or top < ONCE_MIN // 2:
        return []
    if not listed and g.count >= LARGE and top * 10 >= g.count * 9:
        # One value nearly always and the others' counts not shown by the fold line: they stand out.
        return [v for v, n in vals.items() if n <= FEW]  # (together at most a tenth of the group)
    rest = sum(vals.values()) - top
    if not listed and g.count >= LARGE and top * 100 >= g.count * USUAL and rest <= KEEP:
        # One usual value and the others a small minority (at most KEEP lines together, all kept): all shown.
        return [v for v, n in vals.items() if n != top]
    if not listed and g.count >= LARGE and top * 4 >= sum(vals.values()) * 3:
        others = [v for v, n in vals.items() if n != top]
        if len(others) == len(vals) - 1 and all(vals[v] <= FEW for v in others):
            return others  # one usual value and only a few of each other: every other is an exception
    if paths and not listed and g.count >= LARGE:
        odd = [v for v, n in vals.items() if n <= TWICE]
        if (
            odd
            and all(n >= ONCE_MIN for v, n in vals.items() if n > TWICE)
            and sum(vals[v] for v in odd) * PATHS <= g.count
        ):
            return odd
    rare = [v for v, n in vals.items() if n <= (SEEN if merged and top * 4 >= g.count * 3 else TWICE)]
    if len(rare) > ONCE_MAX:  # too many seen twice: those seen once, as when only they counted
        rare = [v for v in rare if vals[v] == 1]
    return rare if len(rare) <= ONCE_MAX else []


def once(g: Group) -> list[tuple[int, str]]:
    """The lines (number, text) holding a rare value of a field with few values.

    A group of at least :data:`SMALL` lines whose field has few values (:data:`VALUES`, or
    :data:`WORDS` for a field of words or the first word of a quoted field, ``"HEAD /a HTTP/1.1"``)
    and one seen at least :data:`ONCE_MIN` // 2 times: in a group of at least :data:`LARGE` lines, in a
    field whose counts the fold line does not show (more values than it lists, :data:`VALUES`, or a first
    word, whose whole field has more), every other value seen at most :data:`FEW` times is rare where one
    value fills 90% of the field, and every other value is where one fills 3/4 and each other is seen at
    most :data:`FEW` times; else at most :data:`ONCE_MAX` values seen at most :data:`TWICE` times (or
    those seen once; :data:`SEEN` times in a field of words where one value fills 3/4 of the group) are;
    where one value fills :data:`USUAL` % of a group of :data:`LARGE` lines and the others have at most
    ``group.KEEP`` lines together, all of them are, in a field whose counts the fold line does not show. A group
    of at most :data:`ANSWER` lines whose template is the other answer of a bigger one
    (:func:`~rtk.fold.miner.answers`) has every line returned (shown whole).
    Such a value is an
    anomaly (a will message among sensor readings, ``exit_group(2`` among ``close(3``, configure's
    ``... no`` among ``... yes``, a ``HEAD`` request among ``GET``), not shown by a count in the fold
    line; its lines are shown. Only fields of words and names (:data:`_NAMES`) and numbers whose
    values are codes (:func:`_code`: ``206`` among ``200`` and ``304``; not a count ``0``..``12``): a
    time, id or measure seen once is no anomaly (a far number is an outlier). A listing of paths (one
    a line) shows the lines of its small directories (:class:`~rtk.fold.listing.Listing`).
    Its head is shown already.
    """
    if len(g.template.toks) != len(g.head):
        return []
    if g.count <= ANSWER and answers(g.template) and (every := _every(g)):
        return every
    if g.count < SMALL:
        return []
    found: dict[int, str] = {}
    fields: list[tuple[int, dict[str, int] | None]] = [(-1 - i, v) for i, v in g.words.items()]
    for i, t in enumerate(g.template.toks):
        if not any(k in t for k in _NAMES) and t != "<n>":
            continue
        vals = g.field(i, WORDS if t == "<*>" or (t == "<path>" and i in g.wide) else VALUES, counted=True)
        if t == "<n>" and vals is not None and not _code(vals):
            continue
        fields.append((i, vals))
    for i, vals in fields:
        if vals is None:
            continue
        whole = g.field(-1 - i) if i < 0 else vals  # a first word: listed when its whole field is
        merged = i >= 0 and g.template.toks[i] == "<*>"
        paths = i >= 0 and i in g.wide and g.template.toks[i] == "<path>" and _only(g.template.toks)
        for v in _rare(g, vals, whole is not None and len(whole) <= VALUES, merged, paths):
            hits = [g.firsts.get((i, v)), *(g.firsts.get((i, v, k)) for k in range(2, min(vals[v], KEEP) + 1))]
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


def _only(toks: list[str]) -> bool:
    """Whether a template has one variable field besides its times: the line is about its value (rare.PATHS)."""
    return sum(1 for t in toks if "<" in t and "<time>" not in t) == 1


def _every(g: Group) -> list[tuple[int, str]]:
    """Every line of the group not shown yet, (number, text): those held, or where each kind of masked line was."""
    held = [(int(e[1]), str(e[2])) for e in g.tents]  # type: ignore[call-overload]
    if not g.cancelled and len(held) == g.count - g.shown:  # (a live fold's later group: its head held too)
        return held
    if g.sigs is None or not g.shown:
        return []
    hits = {h for s, n in g.sigs.items() for k in sig_keys(s, n) if (h := g.firsts.get(k)) is not None}
    hits = {h for h in hits if h[0] != g.first}  # (the head is shown)
    return sorted(hits) if len(hits) == g.count - 1 else []
