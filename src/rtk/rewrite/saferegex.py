"""Regular expressions from settings files kept to a subset Python's backtracking ``re`` runs in bounded time.

Python's ``re`` has no timeout, and a settings file can hold a catastrophic expression
(``/(a+)+$/`` hangs on ``aaaaaaaaaaaaaaaaaaaaaaaaaaaa!``). An expression is accepted only when
its worst case is polynomial in the input with a known degree: literals, character classes,
``.``, anchors, groups and alternation; a quantifier with an upper bound above one applies to a
single character matcher only (no ``(a+)+``, ``(ab)*``, ``(a|b)+``); no backreferences, no
lookarounds, no conditionals, no atomic groups. Its cost is then at most about
``branches * (n + 1) ** (unbounded quantifiers + 1)`` steps for an input of ``n`` characters:
a search whose cost would exceed :data:`BUDGET` is not run and the caller falls back (an
approval does not apply, a refusal does). :func:`check` says why an expression is refused.
"""

from __future__ import annotations

MAX_PATTERN = 256  # characters of expression
MAX_VARIABLE = 3  # unbounded quantifiers (*, +, {m,}, large {m,n}): the degree of the worst case
MAX_BRANCHES = 4096  # product of the alternatives' counts and small quantifiers' ranges
BUDGET = 10_000_000  # steps a search may take: milliseconds

_CHAR = frozenset(("LITERAL", "NOT_LITERAL", "ANY", "IN"))
_REPEAT = frozenset(("MAX_REPEAT", "MIN_REPEAT"))
_SMALL = 8  # a quantifier with at most this many more counts than its least is costed like alternatives

Cost = tuple[int, int]  # (variable quantifiers, product of alternatives)

_cache: dict[str, tuple[object, Cost] | None] = {}


def check(expr: str) -> tuple[Cost | None, str]:
    """``(cost, "")`` for an expression in the subset, ``(None, why)`` otherwise."""
    import re

    if len(expr) > MAX_PATTERN:
        return None, f"longer than {MAX_PATTERN} characters"
    try:
        import importlib

        tree = importlib.import_module("re._parser").parse(expr)  # sre's own parse tree
        re.compile(expr)
    except (re.error, RecursionError, OverflowError, ImportError, AttributeError):
        return None, "not a regular expression Python reads"
    cost, why = _walk(list(tree))
    if cost is None:
        return None, why
    if cost[0] > MAX_VARIABLE or cost[1] > MAX_BRANCHES:
        return None, "too many quantifiers or alternatives to search in bounded time"
    return cost, ""


def fits(cost: Cost, n: int) -> bool:
    """Whether searching ``n`` characters stays within :data:`BUDGET`."""
    variable, branches = cost
    return bool(branches * (n + 1) ** (variable + 1) <= BUDGET)


def search(expr: str, text: str, *, fallback: bool) -> bool:
    """Whether ``expr`` is found in ``text``; ``fallback`` when the expression is refused or ``text`` too long for it."""
    import re

    if expr not in _cache:
        cost, _ = check(expr)
        _cache[expr] = None if cost is None else (re.compile(expr), cost)
    got = _cache[expr]
    if got is None:
        return fallback
    rx, cost = got
    if not fits(cost, len(text)) or not isinstance(rx, re.Pattern):
        return fallback
    return rx.search(text) is not None


def _single(items: list[tuple[object, object]]) -> bool:
    """A body matching exactly one character (possibly inside groups)."""
    if len(items) != 1:
        return False
    op, av = items[0]
    name = str(op)
    if name in _CHAR:
        return True
    return name == "SUBPATTERN" and isinstance(av, tuple) and _single(list(av[3]))


def _walk(items: list[tuple[object, object]]) -> tuple[Cost | None, str]:
    """The cost of a parsed sequence, or (None, why) when it leaves the subset."""
    variable, branches = 0, 1
    for op, av in items:
        name = str(op)
        parts: list[list[tuple[object, object]]] = []
        if name in _CHAR or name == "AT":
            continue
        if name == "SUBPATTERN" and isinstance(av, tuple):
            parts = [list(av[3])]
        elif name == "BRANCH" and isinstance(av, tuple):
            parts = [list(alt) for alt in av[1]]
            branches *= max(len(parts), 1)
        elif name in _REPEAT and isinstance(av, tuple):
            lo, hi, body = av
            if hi > 1 and not _single(list(body)):
                return None, "a quantifier applies to more than one character (nested or grouped repetition)"
            parts = [list(body)]
            if hi - lo > _SMALL:
                variable += 1  # up to n ways to split the input
            else:
                branches *= hi - lo + 1  # ``?``, ``{2,4}``: a few ways, like alternatives
        else:
            kind = {"GROUPREF": "a backreference", "ASSERT": "a lookaround", "ASSERT_NOT": "a lookaround"}
            return None, kind.get(name, f"{name.lower().replace('_', ' ')}") + " is not searched"
        for part in parts:
            cost, why = _walk(part)
            if cost is None:
                return None, why
            variable += cost[0]
            branches *= cost[1]
    return (variable, branches), ""
