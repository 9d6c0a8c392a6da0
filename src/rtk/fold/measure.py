"""Measured fields of a fold group: numbers read from tokens, and the running test for a value far above the usual."""

from __future__ import annotations

from functools import reduce
from itertools import accumulate, chain, repeat
from operator import add, itemgetter, lt, mul, truediv

from rtk import recache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

OUTLIER = 10  # a value at least this many times the field's mean so far is shown whole...
SETTLED = 1000  # values after which a field's mean is taken as known
OUTLIER_AFTER = 20  # ...once the field has this many values, and only if it goes up and down (not a clock)
_EDGES = "()[]{}<>,;\"'`*#=%µ" + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


_NUMBER = recache.pattern(r"\d[\d.]*")


def _num(tok: str) -> float | None:
    """The first number in ``tok`` (``3/10`` 3.0), or None."""
    m = _NUMBER.search(tok)
    if m is None:
        return None
    try:
        return float(m.group())
    except ValueError:
        return None


def _value(tok: str) -> float | None:
    """The number in a measured field: ``357.789ms`` 357.789, ``0:00:01.222`` 1.222 (h:m:s in seconds)."""
    if tok.isdigit() and tok.isascii():
        return float(tok)
    core = tok.strip(_EDGES)
    try:
        if ":" not in core:
            return float(core)
        total = 0.0
        for part in core.split(":"):
            total = total * 60 + float(part)
        return total
    except ValueError:
        return None


def _nums(toks: list[str], parse: Callable[[str], float | None]) -> list[float | None]:
    """``parse`` of each token; plain digits in C, and for :func:`_value` numbers with a unit too (``12ms``)."""
    joined = "".join(toks)
    if joined.isdigit() and joined.isascii():
        return list(map(float, toks))
    if parse is _value:
        cores = list(map(str.strip, toks, repeat(_EDGES)))
        try:
            if ":" not in "".join(cores):
                return list(map(float, cores))
            parts = list(map(str.split, cores, repeat(":")))  # h:m:s, as _value reads it
            if len(set(map(len, parts))) == 1:
                total: list[float] = [0.0] * len(parts)
                for j in range(len(parts[0])):
                    total = list(map(add, map(mul, total, repeat(60)), map(float, map(itemgetter(j), parts))))
                return list(total)
        except ValueError:
            pass
    return list(map(parse, toks))


def _far_plain(st: list[float], vals: list[float], far: set[int]) -> int:
    """``outlier``'s test over the numbers of an unsettled field (none missing), with running sums in C.

    Line ``k`` is far when the field went down before it, it has :data:`OUTLIER_AFTER` values and
    it is at least :data:`OUTLIER` times their mean. Returns the index where the field settled.
    """
    n0, total0, last0, down0 = st[0], st[1], st[2], st[3]
    m = min(len(vals), int(SETTLED - n0))
    seg = vals[:m] if m < len(vals) else vals
    went_down = bool(down0) or any(map(lt, seg, chain((last0,), seg)))
    if not went_down or (min(seg) >= 0 < total0 and max(seg) < OUTLIER * total0 / (n0 + m) * (1 - 1e-9)):
        # None is far: the field never went down, or every value is under ten times the lowest mean it had.
        st[0], st[1], st[2], st[3] = n0 + m, reduce(add, seg, total0), seg[-1], 1 if went_down else 0
        if st[0] >= SETTLED:
            limit = OUTLIER * st[1] / st[0]
            st += [len(str(int(limit))) - 1 if limit >= 1 else 0, limit]
        return m
    cums = list(accumulate(seg, initial=total0))  # cums[k]: the sum before line k
    drops = list(map(lt, seg, [last0, *seg]))  # went down at line k
    first = 0 if down0 else (drops.index(True) + 1 if True in drops else m)  # lines from here see ``down``
    lo = max(first, int(OUTLIER_AFTER - n0), 0)
    if lo < m:
        means = list(map(truediv, cums[lo:m], range(int(n0) + lo, int(n0) + m)))
        if max(seg[lo:m]) >= OUTLIER * min(means) * (1 - 1e-9) or min(cums[lo:m]) <= 0:  # else none is far
            for k in range(lo, m):
                total = cums[k]
                if total > 0 and seg[k] >= OUTLIER * total / (n0 + k):
                    far.add(k)
    st[0], st[1], st[2], st[3] = n0 + m, cums[m], seg[m - 1] if m else last0, 1 if down0 or True in drops else 0
    if st[0] >= SETTLED:
        limit = OUTLIER * st[1] / st[0]
        st += [len(str(int(limit))) - 1 if limit >= 1 else 0, limit]
    return m
