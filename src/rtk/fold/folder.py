"""The folding stage: one pass over lines, each template shown once with exact counts and line ranges."""

from __future__ import annotations

from collections import deque

from rtk.fold.markers import Blocks, access, is_location, is_marker
from rtk.fold.mask import mask, tokens
from rtk.fold.miner import Miner, Template

TAIL = 5  # the last lines of an output (its summary) are always shown
RARE = 3  # a template with at most this many lines after its first...
RARE_SHARE = 300  # ...or at most one line in this many of the output is shown whole (rare lines are facts)
TENTS = 16  # lines of a template held as maybe-rare at most
VALUES = 5  # a field with at most this many distinct values lists them with counts
PENDING = 4096  # shown lines held back at most, waiting for their fold's final count
_COUNTED = ("<n>", "<pct>", "<size>")
CACHE = 50_000  # entries of each cache (masked tokens, masked lines) before it starts again
_MEASURED = ("<n>", "<dur>", "<time>", "<size>")  # fields where a value far above the usual is an anomaly
OUTLIER = 10  # a value at least this many times the field's mean so far is shown whole...
OUTLIER_AFTER = 20  # ...once the field has this many values, and only if it goes up and down (not a clock)
_EDGES = "()[]{}<>,;\"'`*#=%µ" + "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _num(tok: str) -> float | None:
    digits = ""
    for c in tok:
        if c.isdigit() or (c == "." and digits):
            digits += c
        elif digits:
            break
    try:
        return float(digits) if digits else None
    except ValueError:
        return None


def _value(tok: str) -> float | None:
    """The number in a measured field: ``357.789ms`` 357.789, ``0:00:01.222`` 1.222 (h:m:s in seconds)."""
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


class Group:
    """The lines of one template since its head line was shown: count, range, values, monotonic fields.

    Lines of a group have the same length and the same kind of field at each position (the
    group key), so the fields worth looking at are known from its first line.
    """

    __slots__ = (
        "cancelled", "count", "counted", "first", "head", "key", "last", "last_no", "measure", "measured", "mono",
        "prev", "shown", "template", "tents", "valued", "values",
    )  # fmt: skip

    def __init__(
        self, template: Template, no: int, raw: list[str], key: object = None, masks: list[str] | None = None
    ) -> None:
        self.template = template
        self.key = key
        self.head = raw
        self.prev = raw
        self.first = no  # the head's line number
        self.count = 1
        self.shown = 1
        self.last_no = no
        self.last = ""
        self.tents: list[list[object]] = []
        self.cancelled = False
        self.values: list[dict[str, int] | None] = [{t: 1} for t in raw]
        self.valued = list(range(len(raw)))  # fields still listing their values
        self.mono: list[int] = [0] * len(raw)  # per field: 0 unknown, 1 rising, -1 falling, 2 neither
        ms = masks or []
        self.counted = [i for i, m in enumerate(ms) if m in _COUNTED]  # fields that may be progress counters
        self.measured = [i for i, m in enumerate(ms) if m in _MEASURED]  # fields where a far value is an anomaly
        self.measure: dict[int, list[float]] = {}  # field -> [values, sum, last, went down (0/1)]
        for i in self.measured:
            v = _value(raw[i])
            if v is not None:
                self.measure[i] = [1, v, v, 0]

    def outlier(self, raw: list[str]) -> bool:
        """Whether a field of this line is far above its usual values (a slow query among fast ones); counts it."""
        if len(raw) != len(self.values):
            return False
        far = False
        for i in self.measured:
            v = _value(raw[i])
            if v is None:
                continue
            st = self.measure.get(i)
            if st is None:
                self.measure[i] = [1, v, v, 0]
                continue
            n, total, last, down = st
            if down and n >= OUTLIER_AFTER and total > 0 and v >= OUTLIER * total / n:
                far = True
            st[0], st[1], st[2], st[3] = n + 1, total + v, v, 1 if down or v < last else 0
        return far

    def add(self, no: int, line: str, raw: list[str]) -> None:
        self.count += 1
        self.last_no = no
        self.last = line
        if len(raw) != len(self.values):
            return
        values = self.values
        full = False
        for i in self.valued:
            vals = values[i]
            assert vals is not None
            tok = raw[i]
            if tok in vals:
                vals[tok] += 1
            elif len(vals) >= VALUES:
                values[i] = None
                full = True
            else:
                vals[tok] = 1
        if full:
            self.valued = [i for i in self.valued if values[i] is not None]
        if self.counted:
            prev = self.prev
            for i in self.counted:
                a, b = _num(prev[i]), _num(raw[i])
                if a is None or b is None:
                    self.mono[i] = 2
                elif b != a:
                    d = 1 if b > a else -1
                    self.mono[i] = d if self.mono[i] in (0, d) else 2
            self.counted = [i for i in self.counted if self.mono[i] != 2]
            self.prev = raw


class Folder:
    """Folds a stream of lines. ``feed`` returns the lines ready to print; ``finish`` the rest.

    ``hold``: at most this many input lines pass between a line and its printing (live
    output); None holds up to :data:`PENDING` shown lines (whole outputs and files).
    Memory is bounded by the number of templates and the held lines, never by the input.
    """

    def __init__(self, hold: int | None = None, max_templates: int = 2000) -> None:
        self.hold = hold
        self.miner = Miner(max_templates=max_templates)
        self.blocks = Blocks()
        self.groups: dict[object, Group] = {}
        self.pending: deque[list[object]] = deque()
        self.tail: deque[tuple[int, str]] = deque()
        self.lines = 0
        self.shown = 0
        self.folded = 0
        self.status: dict[str, int] = {}
        self.paths: dict[str, int] = {}
        self.requests = 0
        self._cache: dict[str, str] = {}  # token -> masked token
        self._seen: dict[tuple[str, ...], tuple[Template, tuple[object, ...]]] = {}  # masked line -> template, key
        self._marked = False  # the line before was shown as a marker or part of a block
        self.dropped: list[str] | None = None  # when a list, the lines folded away are added to it (fact guard)

    def feed(self, line: str) -> list[str]:
        """Take one line (without its newline); return the lines now ready to print."""
        self.lines += 1
        tail = self.tail
        tail.append((self.lines, line))
        if len(tail) > TAIL:
            no, old = tail.popleft()
            self._take(no, old)
        if self.hold is None and len(self.pending) <= PENDING:
            return []  # nothing can be printed yet
        return self._flush(False)

    def finish(self) -> list[str]:
        """The remaining lines: held folds with their final counts, the access summary, the last lines."""
        out = self._flush(True)
        for no, line in self.tail:
            self._access(line)
            self.blocks.feed(line)
            out.append(line)
            self.shown += 1
            del no
        self.tail.clear()
        if self.requests >= 20:
            out.insert(len(out) - min(TAIL, self.lines), self._access_summary())
        return out

    def _mask(self, tok: str) -> str:
        if len(self._cache) > CACHE:
            self._cache.clear()
        m = self._cache[tok] = tok if tok.isalpha() else mask(tok)
        return m

    def _template(self, masks: list[str]) -> tuple[Template, tuple[object, ...]]:
        """The template of a line and its group key; a line masked as one seen before skips the tree."""
        sig = tuple(masks)
        hit = self._seen.get(sig)
        if hit is not None:
            hit[0].count += 1
            return hit
        t = self.miner.add(masks)
        # Lines Drain merged but whose variable fields are of other kinds (a quoted name where
        # the others have a path) are another kind of line: grouped apart, so a rare one stays whole.
        key = (t.id, *[(i, m) for i, m in enumerate(masks) if m[:1] == "<" and m[-1:] == ">"])
        if len(self._seen) > CACHE:
            self._seen.clear()
        self._seen[sig] = (t, key)
        return t, key

    def _take(self, no: int, line: str) -> None:
        self._access(line)
        marked, self._marked = self._marked, False
        blank = not line or line.isspace()  # a blank line is shown: no fold line could be shorter
        if self.blocks.feed(line) or blank or is_marker(line) or (marked and is_location(line)):
            self._marked = not blank
            self.pending.append(["show", no, line])
            return
        raw = tokens(line)
        get = self._cache.get
        masks = [get(tok) or self._mask(tok) for tok in raw]
        t, key = self._template(masks)
        g = self.groups.get(key)
        if g is None:
            g = self.groups[key] = Group(t, no, raw, key, masks)
            self.pending.append(["show", no, line])
            self.pending.append(["fold", no, g])
            return
        if g.outlier(raw):
            self.pending.append(["show", no, line])
            return
        g.add(no, line, raw)
        if g.cancelled:
            if self.dropped is not None:
                self.dropped.append(line)
            return
        if len(g.tents) < TENTS:
            entry: list[object] = ["tent", no, line, g]
            g.tents.append(entry)
            self.pending.append(entry)
        else:
            g.cancelled = True
            for e in g.tents:
                if e[0] == "tent":
                    e[0] = "dead"
            if self.dropped is not None:
                self.dropped.append(line)

    def _access(self, line: str) -> None:
        if '" ' not in line:
            return
        hit = access(line)
        if hit is None:
            return
        path, status = hit
        self.requests += 1
        self.status[status] = self.status.get(status, 0) + 1
        path = path.split("?", 1)[0]
        if path in self.paths or len(self.paths) < 1000:
            self.paths[path] = self.paths.get(path, 0) + 1

    def _flush(self, everything: bool) -> list[str]:
        out: list[str] = []
        p = self.pending
        while p:
            e = p[0]
            if not everything:
                if self.hold is None:
                    if len(p) <= PENDING:
                        break
                elif self.lines - int(e[1]) <= self.hold:  # type: ignore[call-overload]
                    break
            p.popleft()
            kind = e[0]
            if kind in ("show", "tent"):
                out.append(str(e[2]))
                self.shown += 1
                if kind == "tent":
                    g = e[3]
                    assert isinstance(g, Group)
                    g.shown += 1
                    e[0] = "done"
            elif kind == "fold":
                g = e[2]
                assert isinstance(g, Group)
                out.extend(self._summary(g))
            elif kind == "dead" and self.dropped is not None:
                self.dropped.append(str(e[2]))
        return out

    def _summary(self, g: Group) -> list[str]:
        """The fold line of a group (and its last line when a counter in it moved); closes the group."""
        if self.groups.get(g.key) is g:
            del self.groups[g.key]
        held = not g.cancelled  # every line after the head is still held, waiting to be shown
        if held and g.count - 1 <= max(RARE, self.lines // RARE_SHARE):
            return []  # rare: every line of it is shown
        folded = g.count - g.shown
        if folded <= 0:
            return []
        show_last = folded >= 2 and any(m in (1, -1) for m in g.mono)
        if show_last:
            folded -= 1
        end = g.last_no - 1 if show_last else g.last_no
        out = [render_fold(g, folded, g.first + 1, end)]
        if show_last:
            out.append(g.last)
        if held and sum(len(str(e[2])) + 1 for e in g.tents) <= sum(len(o) + 1 for o in out):
            return []  # the fold would be longer than the lines it stands for: they are shown
        g.cancelled = True  # later lines of this template start a new group
        for e in g.tents:
            if e[0] == "tent":
                e[0] = "dead"
        self.folded += folded
        self.shown += len(out)
        return out

    def _access_summary(self) -> str:
        st = ", ".join(f"{s} ×{n:,}" for s, n in sorted(self.status.items()))
        top = sorted(self.paths.items(), key=lambda kv: -kv[1])
        paths = ", ".join(f"{p} ×{n:,}" for p, n in top[:8])
        more = f" (+{len(top) - 8:,} more paths)" if len(top) > 8 else ""
        return f"… access log: {self.requests:,} requests; status {st}; paths {paths}{more}"


def render_fold(g: Group, folded: int, start: int, end: int) -> str:
    """``… 1,387 more like: INFO GET <path> 200 <dur>  (lines 2-1499); <path>: /a ×3, /b ×2``."""
    toks = g.template.toks
    if len(toks) != len(g.values):
        toks = ["<other>"]
    shown: list[str] = []
    listed: list[str] = []
    for i, t in enumerate(toks):
        vals = g.values[i] if i < len(g.values) else None
        if "<" in t and ">" in t and vals is not None and len(vals) == 1:
            shown.append(next(iter(vals)))  # one value throughout: print it
            continue
        shown.append(t)
        if "<" in t and vals is not None and 1 < len(vals) <= VALUES and len(listed) < 2:
            items = sorted(vals.items(), key=lambda kv: -kv[1])
            listed.append(f"{t} " + ", ".join(f"{v} ×{n:,}" for v, n in items))
    text = f"… {folded:,} more like: {' '.join(shown)}  (lines {start}-{end})"
    if listed:
        text += "; " + "; ".join(listed)
    return text


def fold_lines(lines: list[str]) -> tuple[list[str], Folder]:
    """Fold a whole output given as lines; the folded lines and the folder (for its counts)."""
    f = Folder()
    out: list[str] = []
    for ln in lines:
        out.extend(f.feed(ln))
    out.extend(f.finish())
    return out, f
