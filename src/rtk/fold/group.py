"""One fold in the making: the lines of a template since its head line, with counts, values and moving fields."""

from __future__ import annotations

from collections import Counter
from operator import gt, itemgetter, lt

from rtk.fold.listing import Listing, first_word
from rtk.fold.measure import OUTLIER, OUTLIER_AFTER, SETTLED, _far_plain, _num, _nums, _value
from rtk.fold.miner import Template

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

VALUES = 5  # a field with at most this many distinct values lists them with counts
WORDS = 16  # a field of words (``<*>``) counts this many values, for Group.once (a rare answer among 6+)
TWICE = 2  # Group.once: a value seen at most this many times is rare; its lines are kept (2 per value)...
FEW = 8  # ...or at most this many times (and 5% of the group's lines): a group keeps this many lines per kind of line
KEEP = 24  # lines kept per value of a field (rare.USUAL: the lines of the minority answers, at most this many)
SIGS = 64  # kinds of masked line counted per group at most (the values of its constant tokens)
_COUNTED = ("<n>", "<pct>", "<size>")
_MEASURED = ("<n>", "<dur>", "<time>", "<size>")  # fields where a value far above the usual is an anomaly
ONCE_MIN = 10  # rare.once: one value seen at least ONCE_MIN // 2 times (the group: rare.SMALL lines)...
ONCE_MAX = 2  # ...when at most this many values of the field are seen once
_NAMES = ("<*>", "<str>", "<path>", "<url>")  # fields of words and names (not numbers, times, ids): Group.once
CODE = (2, 3)  # ...and numbers of one of these widths, all alike: a code (HTTP status 200/304/206), not a count


def sig_keys(sig: tuple[str, ...], n: int) -> list[object]:
    """The keys in ``Group.firsts`` of the first ``n`` lines of a kind of masked line (up to :data:`FEW`)."""
    return [sig, *((sig, k) for k in range(2, min(n, FEW) + 1))]


def _code(vals: dict[str, int]) -> bool:
    """Whether the values of a number field read as codes: plain digits, all of one width in :data:`CODE`, no leading 0."""
    widths = {len(v) for v in vals}
    return len(widths) == 1 and widths.pop() in CODE and all(v.isdigit() and v[0] != "0" for v in vals)


def _rows(column: Callable[[int], list[str]], width: int, n: int) -> list[Sequence[str]]:
    """The lines' tokens, line by line, from their columns."""
    return list(zip(*map(column, range(width)), strict=True)) if width else [()] * n


class Group:
    """The lines of one template since its head line was shown: count, range, values, monotonic fields.

    Lines of a group have the same length and the same kind of field at each position (the
    group key), so the fields worth looking at are known from its first line. The raw values
    of its variable fields are counted line by line; those of its constant tokens (which differ
    only where the miner merged other kinds of line into the template) come from the counts of
    each masked line (``sigs``), so a line costs nothing per constant token.
    """

    __slots__ = (
        "cancelled",
        "count",
        "counted",
        "dirs",
        "first",
        "firsts",
        "head",
        "key",
        "last",
        "last_no",
        "measure",
        "measured",
        "mono",
        "prev",
        "shown",
        "sigs",
        "template",
        "tents",
        "valued",
        "values",
        "wide",
        "words",
    )  # fmt: skip

    def __init__(
        self, template: Template, no: int, raw: list[str], key: int = -1, sig: tuple[str, ...] | None = None
    ) -> None:
        self.template = template
        self.key = key
        self.head = raw
        self.first = no  # the head's line number
        self.count = 1
        self.shown = 1
        self.last_no = no
        self.last = ""
        self.tents: list[list[object]] = []
        self.cancelled = False
        ms = sig if sig is not None and len(sig) == len(raw) else tuple(raw)
        self.sigs: dict[tuple[str, ...], int] | None = {ms: 1}  # None: too many kinds to count
        # Raw values of the variable fields (their mask holds a kind); None once past VALUES.
        self.values: dict[int, dict[str, int] | None] = {i: {raw[i]: 1} for i, m in enumerate(ms) if "<" in m}
        self.valued = list(self.values)  # fields still listing their values
        # Fields of words, and the path of a line whose only field (times aside) it is: counted up to WORDS values
        # (Group.once: a rare one among 6+; rare.PATHS).
        path = sum(1 for m in ms if "<" in m and "<time>" not in m) == 1
        self.wide = {i for i, m in enumerate(ms) if m == "<*>" or (path and m == "<path>")}
        # The first word of a quoted field that holds words (an access log's ``"HEAD /a HTTP/1.1"``): counted
        # up to WORDS values, its lines in ``firsts`` under the field's number -1-i (Group.once).
        self.words: dict[int, dict[str, int] | None] = {
            i: {w: 1} for i, m in enumerate(ms) if m == "<str>" and (w := first_word(raw[i]))
        }
        self.dirs = Listing() if len(ms) == 1 and ms[0] == "<path>" else None  # one path a line: by directory
        # Where each value of a listed field (key (field, value); its second line: (field, value, 2)) and
        # each kind of masked line (key: the masked tokens) was first seen: (line number, line); bounded
        # by 2 lines per value, VALUES (WORDS) values per field and SIGS.
        self.firsts: dict[object, tuple[int, str]] = {}
        self.mono: list[int] = [0] * len(raw)  # per field: 0 unknown, 1 rising, -1 falling, 2 neither
        self.counted = [i for i, m in enumerate(ms) if m in _COUNTED]  # fields that may be progress counters
        self.prev: dict[int, float | None] = {i: _num(raw[i]) for i in self.counted}  # their last values
        # Fields where a far value is an anomaly: numbers, durations, times, sizes (those whose first
        # value reads as a number; a date or ``07:11:23,406`` never does).
        self.measure: dict[int, list[float]] = {}  # field -> [values, sum, last, went down (0/1)]
        for i, m in enumerate(ms):
            if m in _MEASURED and (v := _value(raw[i])) is not None:
                self.measure[i] = [1, v, v, 0]
        self.measured = list(self.measure)

    def outlier(self, raw: list[str]) -> bool:
        """Whether a field of this line is far above its usual values (a slow query among fast ones); counts it.

        After :data:`SETTLED` values a field's mean is settled: a field that never went down
        (a clock, an id) is no longer looked at, and a value too short to reach ten times the
        mean (fewer characters than the digits of that, no exponent) is not parsed.
        """
        if not self.measured or len(raw) != len(self.head):
            return False
        far = False
        settle = False
        for i in self.measured:
            st = self.measure[i]
            if st[0] >= SETTLED:
                tok = raw[i]
                if (len(tok) > st[4] or "e" in tok) and (v := _value(tok)) is not None and v >= st[5]:
                    far = True
                continue
            v = _value(raw[i])
            if v is None:
                continue
            n, total, last, down = st[0], st[1], st[2], st[3]
            if down and n >= OUTLIER_AFTER and total > 0 and v >= OUTLIER * total / n:
                far = True
            st[0], st[1], st[2], st[3] = n + 1, total + v, v, 1 if down or v < last else 0
            if n + 1 >= SETTLED:
                limit = OUTLIER * st[1] / st[0]
                st += [len(str(int(limit))) - 1 if limit >= 1 else 0, limit]
                settle = settle or not st[3]
        if settle:
            self.measured = [i for i in self.measured if self.measure[i][0] < SETTLED or self.measure[i][3]]
        return far

    def add(self, no: int, line: str, raw: list[str], sig: tuple[str, ...] | None = None) -> None:
        self.count += 1
        self.last_no = no
        self.last = line
        if len(raw) != len(self.head):
            return
        sigs = self.sigs
        if sigs is not None:
            if sig is None or len(sig) != len(raw):
                sig = tuple(raw)
            n = sigs.get(sig)
            if n is not None:
                sigs[sig] = n + 1
                if n < FEW:  # its second to FEW-th line (Group.once)
                    self.firsts[sig, n + 1] = (no, line)
                elif n == FEW:
                    self._drop(sig, None)
            else:
                if len(sigs) < SIGS:
                    self.firsts[sig] = (no, line)
                self._new_sig(sig, raw)
        if self.valued:
            values = self.values
            full = False
            for i in self.valued:
                vals = values[i]
                assert vals is not None
                tok = raw[i]
                if tok in vals:
                    n = vals[tok] = vals[tok] + 1
                    if n <= KEEP:
                        self.firsts[i, tok, n] = (no, line)
                    elif n == KEEP + 1:
                        self._drop(i, tok)
                elif len(vals) >= (WORDS if i in self.wide else VALUES):
                    values[i] = None
                    full = True
                else:
                    vals[tok] = 1
                    self.firsts[i, tok] = (no, line)
            if full:
                self.valued = [i for i in self.valued if values[i] is not None]
        if self.words:
            self._words([no], [line], lambda i: [raw[i]])
        if self.dirs is not None:
            self.dirs.add([no], [line])
        if self.counted:
            prev = self.prev
            mono = self.mono
            gone = False
            for i in self.counted:
                a, b = prev.get(i), _num(raw[i])
                if a is None or b is None:
                    mono[i] = 2
                    gone = True
                elif b != a:
                    d = 1 if b > a else -1
                    if mono[i] in (0, d):
                        mono[i] = d
                    else:
                        mono[i] = 2
                        gone = True
                prev[i] = b
            if gone:
                self.counted = [i for i in self.counted if mono[i] != 2]

    def add_batch(
        self,
        nos: list[int],
        lines: list[str],
        sigs: list[tuple[str, ...]],
        column: Callable[[int], list[str]] | None = None,
        rows: list[Sequence[str]] | None = None,
    ) -> list[int]:
        """Lines of this group in order, as ``outlier`` then ``add`` one by one would take them; the outliers' indexes.

        The same state as the line-by-line way, worked column by column over the batch in C where
        it can be: the values counted with ``Counter``, counters' directions and running means
        with ``map``; a field whose values are not plain numbers, or a batch bringing another kind
        of masked line, goes the line-by-line way. The raw tokens come as ``rows`` (a list per line) or
        through ``column(i)``, the tokens of field ``i`` of every line (cut by the caller in C).
        """
        width = len(self.head)
        sigset = set(sigs)
        if rows is not None and set(map(len, rows)) != {width}:
            return self._add_each(nos, lines, rows, sigs)
        if column is None:
            given = rows or []
            column = lambda i: list(map(itemgetter(i), given))  # noqa: E731
        if self.sigs is None or not sigset.issubset(self.sigs):
            return self._add_each(nos, lines, rows or _rows(column, width, len(nos)), sigs)
        far: list[int] = []
        if self.measured:
            far = self._far_batch(column)
            if far:
                gone = set(far)
                keep = [k for k in range(len(nos)) if k not in gone]
                if not keep:
                    return far
                every = rows or _rows(column, width, len(nos))
                kept = [every[k] for k in keep]
                column = lambda i: list(map(itemgetter(i), kept))  # noqa: E731
                nos = [nos[k] for k in keep]
                lines = [lines[k] for k in keep]
                sigs = [sigs[k] for k in keep]
        self.count += len(nos)
        self.last_no = nos[-1]
        self.last = lines[-1]
        own = self.sigs
        for sig, n in Counter(sigs).items() if len(sigset) > 1 else ((sigs[0], len(sigs)),):
            had = own[sig]
            if had < FEW:  # its second to FEW-th line (Group.once)
                k = -1
                for seen in range(had + 1, min(had + n, FEW) + 1):
                    k = sigs.index(sig, k + 1)
                    self.firsts[sig, seen] = (nos[k], lines[k])
                if had + n > FEW:
                    self._drop(sig, None)
            own[sig] = had + n
        if self.valued:
            values = self.values
            for i in self.valued:
                vals = values[i]
                assert vals is not None
                col = column(i)
                bound = WORDS if i in self.wide else VALUES
                self._count(i, vals, col, nos, lines, bound)
                if len(vals) > bound:
                    values[i] = None
            self.valued = [i for i in self.valued if values[i] is not None]
        if self.words:
            self._words(nos, lines, column)
        if self.dirs is not None:
            self.dirs.add(nos, lines)
        if self.counted:
            prev = self.prev
            mono = self.mono
            for i in self.counted:
                nums = _nums(column(i), _num)
                a = prev.get(i)
                prev[i] = nums[-1]
                if a is None or None in nums:
                    mono[i] = 2
                    continue
                got: list[float] = nums  # type: ignore[assignment]  # no None in it
                seq = [a, *got]
                ups = any(map(lt, seq, got))
                downs = any(map(gt, seq, got))
                m = mono[i]
                if ups and downs:
                    mono[i] = 2
                elif ups:
                    mono[i] = 1 if m in (0, 1) else 2
                elif downs:
                    mono[i] = -1 if m in (0, -1) else 2
            self.counted = [i for i in self.counted if mono[i] != 2]
        return far

    def _count(
        self, i: int, vals: dict[str, int], col: list[str], nos: list[int], lines: list[str], bound: int
    ) -> None:
        """The values ``col`` of field ``i`` counted into ``vals``; where each was seen, up to :data:`KEEP` times."""
        firsts = self.firsts
        for tok, n in Counter(col).items():
            had = vals.get(tok)
            if had is None:
                if len(vals) >= bound:
                    vals[tok] = n
                    continue
                had = 0
            if had < KEEP:  # where it was seen (its first time: key (i, tok); its k-th: (i, tok, k))
                k = -1
                for seen in range(had + 1, min(had + n, KEEP) + 1):
                    k = col.index(tok, k + 1)
                    firsts[(i, tok) if seen == 1 else (i, tok, seen)] = (nos[k], lines[k])
            vals[tok] = had + n
            if had <= KEEP < had + n:
                self._drop(i, tok)

    def _drop(self, i: object, tok: str | None) -> None:
        """A value (or kind of masked line: ``tok`` None) seen more than :data:`KEEP` (:data:`FEW`) times: its lines
        past the second go."""
        for k in range(3, (FEW if tok is None else KEEP) + 1):
            self.firsts.pop((i, k) if tok is None else (i, tok, k), None)

    def _words(self, nos: list[int], lines: list[str], column: Callable[[int], list[str]]) -> None:
        """The first words of the quoted fields (``Group.words``) of these lines counted."""
        for i, vals in self.words.items():
            if vals is not None:
                self._count(-1 - i, vals, list(map(first_word, column(i))), nos, lines, WORDS)
                if len(vals) > WORDS:
                    self.words[i] = None

    def _add_each(
        self, nos: list[int], lines: list[str], raws: list[Sequence[str]], sigs: list[tuple[str, ...]]
    ) -> list[int]:
        far: list[int] = []
        for k, raw in enumerate(raws):
            if self.measured and self.outlier(list(raw)):
                far.append(k)
            else:
                self.add(nos[k], lines[k], list(raw), sigs[k])
        return far

    def _far_batch(self, column: Callable[[int], list[str]]) -> list[int]:
        """``outlier`` over a batch, field by field (each field's state is its own): the far lines' indexes."""
        far: set[int] = set()
        settle = False
        for i in self.measured:
            st = self.measure[i]
            toks = column(i)
            start = 0
            if st[0] < SETTLED:
                vals = _nums(toks, _value)
                plain = None not in vals
                start = _far_plain(st, vals, far) if plain else self._far_each(st, toks, vals, far)  # type: ignore[arg-type]
                if st[0] >= SETTLED:
                    settle = settle or not st[3]
                    if not st[3]:
                        continue  # never went down (a clock, an id): no longer looked at
            rest = toks[start:] if start else toks
            if rest and (max(map(len, rest)) > st[4] or "e" in "".join(rest)):
                limit = st[5]
                vals = _nums(rest, _value)
                if None not in vals and max(vals) < limit:  # type: ignore[type-var,operator]
                    continue  # none reaches the limit
                for k, tok in enumerate(rest, start):
                    if (len(tok) > st[4] or "e" in tok) and (v := _value(tok)) is not None and v >= limit:
                        far.add(k)
        if settle:
            self.measured = [i for i in self.measured if self.measure[i][0] < SETTLED or self.measure[i][3]]
        return sorted(far)

    @staticmethod
    def _far_each(st: list[float], toks: list[str], vals: list[float | None], far: set[int]) -> int:
        """The values of one unsettled field, line by line as ``outlier`` takes them; where settling ended."""
        for k, v in enumerate(vals):
            if st[0] >= SETTLED:
                return k
            if v is None:
                continue
            n, total, last, down = st[0], st[1], st[2], st[3]
            if down and n >= OUTLIER_AFTER and total > 0 and v >= OUTLIER * total / n:
                far.add(k)
            st[0], st[1], st[2], st[3] = n + 1, total + v, v, 1 if down or v < last else 0
            if n + 1 >= SETTLED:
                limit = OUTLIER * st[1] / st[0]
                st += [len(str(int(limit))) - 1 if limit >= 1 else 0, limit]
        return len(toks)

    def _new_sig(self, sig: tuple[str, ...], raw: list[str]) -> None:
        """Another kind of masked line in this group; past :data:`SIGS` kinds every field counts raw values."""
        assert self.sigs is not None
        if len(self.sigs) < SIGS:
            for i, m in enumerate(sig):
                if "<" in m and i not in self.values:  # a field here, constant tokens before: count raw values
                    self.values[i] = vals = self.field(i)
                    if vals is not None:
                        self.valued.append(i)
            self.sigs[sig] = 1
            return
        toks = self.template.toks if len(self.template.toks) == len(raw) else ()
        for i in range(len(raw)):
            if i not in self.values:
                words = bool(toks) and toks[i] == "<*>"  # a field of words: its values to WORDS (Group.once)
                self.values[i] = vals = self.field(i, WORDS if words else VALUES)
                if vals is not None:
                    self.valued.append(i)
                    if words:
                        self.wide.add(i)
                        self._lines_by_sig(i)
        self.sigs = None

    def _lines_by_sig(self, i: int) -> None:
        """Where the values of field ``i`` were seen, from where each kind of masked line was (as ``_count`` keeps it)."""
        assert self.sigs is not None
        hits = sorted((*h, s[i]) for s in self.sigs for k in sig_keys(s, FEW) if (h := self.firsts.get(k)) is not None)
        seen: dict[str, int] = {}
        for no, line, v in hits:
            n = seen[v] = seen.get(v, 0) + 1
            if n <= KEEP:
                self.firsts[(i, v) if n == 1 else (i, v, n)] = (no, line)

    def field(self, i: int, bound: int = VALUES, counted: bool = False) -> dict[str, int] | None:
        """The values of field ``i`` with their counts, or None when there are more than ``bound`` (``counted``:
        values counted raw are given whatever their number; the bound is then for those read off masked lines)."""
        if i in self.values:
            vals = self.values[i]
            return vals if vals is None or counted or len(vals) <= bound else None
        if self.sigs is None:
            return None
        out: dict[str, int] = {}
        for sig, n in self.sigs.items():
            v = sig[i]
            if "<" in v:  # a variable field in another kind of line: its raw values were not counted
                return None
            out[v] = out.get(v, 0) + n
            if len(out) > bound:
                return None
        return out
