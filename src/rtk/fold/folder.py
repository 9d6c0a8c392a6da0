"""The folding stage: one pass over lines, each template shown once with exact counts and line ranges."""

from __future__ import annotations

from collections import deque

from rtk import recache
from rtk.fold.budget import FAST_BYTES, KNOWN_BYTES, SEEN_BYTES, TOKEN_BYTES, Cache, line_cost
from rtk.fold.context import ends_in_colon, show_context, under_shown
from rtk.fold.group import Group
from rtk.fold.held import KNOWN, Known, count_held, later_lines, open_known, put_back
from rtk.fold.jsonl import event, request
from rtk.fold.late import Late
from rtk.fold.markers import (
    Blocks,
    Hints,
    access,
    access_hint,
    is_location,
    is_marker,
    is_marker_unhinted,
    level_in_digits,
)
from rtk.fold.mask import mask, source_places, source_shape, spans, tokens
from rtk.fold.miner import Miner, Template, group_key
from rtk.fold.repeat import close_block
from rtk.fold.requests import Requests
from rtk.fold.section import end_section, header, section_line
from rtk.fold.state import Colon, Section
from rtk.fold.summary import RARE, RARE_SHARE, TENTS, summary

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.held import Entry

TAIL = 5  # the last lines of an output (its summary) are always shown
PENDING = 4096  # shown lines held back at most, waiting for their fold's final count
CACHE = 50_000  # entries of each cache (masked tokens, masked lines) before it starts again
# Lines whose first character is one of these may open a block or carry a marker without a hint word.
_ROUTE = (  # every character str.isspace() (and the regex \s) takes for a blank, then the letters
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000.CgsWEF<"
)
_STARTS = recache.pattern(r"\s*$|\s+at |\s*\.\.\. |Caused by: |goroutine \d|stack backtrace:|[WEF<]")
_ZEROS = bytes.maketrans(b"123456789", b"000000000")
LONG = 40  # a line of more tokens than this is templated by its first LONG_KEEP tokens
LONG_KEEP = 3
DUPS = 10_000  # marker lines remembered, to count one repeated verbatim
FAST = 20_000  # lines remembered by their shape (digits made 0) for the fast path, before it starts again


class Folder:
    """Folds a stream of lines. ``feed`` returns the lines ready to print; ``finish`` the rest.

    ``hold``: at most this many input lines pass between a line and its printing (live
    output); None holds up to :data:`PENDING` shown lines (whole outputs and files).
    Memory is bounded by the number of templates and the held lines, never by the input.
    """

    base = 0  # printed line numbers are offset by this (a tail window: its first line is line base + 1 of the file)

    def __init__(self, hold: int | None = None, max_templates: int = 2000) -> None:
        self.hold = hold
        self.miner = Miner(max_templates=max_templates)
        self.blocks = Blocks()
        self.groups: dict[int, Group] = {}
        self.pending: deque[list[object]] = deque()
        self.tail: deque[tuple[int, str]] = deque()
        self.lines = 0
        self.shown = 0
        self.folded = 0
        self.reqs = Requests()
        # Caches are bounded in entries and in bytes (budget.py): emptied when full, as if starting again.
        self._cache: Cache[str, str] = Cache(CACHE, TOKEN_BYTES)  # token -> masked token
        self._seen: Cache[tuple[str, ...], tuple[Template, int]] = Cache(
            CACHE, SEEN_BYTES
        )  # masked line -> template, key
        # A line's shape (its bytes with every digit made 0) -> its template, group key, masked tokens and whether
        # its tokens are its blank-separated words: masks depend on digits only as digits, so a line
        # shaped like one seen before has the same template without being tokenised and masked.
        self._fast: Cache[bytes, Entry] = Cache(FAST, FAST_BYTES)
        # A shape of lines naming a source location (``(response.c.203)``) -> where: in ``_fast`` by shape and text.
        self._src: Cache[bytes, tuple[slice, ...]] = Cache(FAST, FAST_BYTES)
        self._keys: Cache[tuple[object, ...], int] = Cache(CACHE, SEEN_BYTES)  # group key (template, kinds) -> no.
        self._nkeys = 0
        self._blk: list[list[object]] = []  # the pending entries of the block (traceback...) going on
        self._bodies: dict[tuple[str, ...], tuple[int, int, str]] = {}  # a block's inside -> its lines, first line
        self._body_chars = 0
        self._dups: Cache[str, tuple[Template | None, int]] = Cache(DUPS, TOKEN_BYTES)  # marker lines: template, key
        self._marked = False  # the line before was shown as a marker or part of a block
        self._sect: Section | None = None  # the block under the header line just taken (section.py)
        self.dropped: list[str] | None = None  # when a list, the lines folded away are added to it (fact guard)
        # While a block is taken: the lines of folding groups waiting to be counted at once (group key -> their
        # indexes in the block and shape entries), the indexes of the lines dropped one by one, and the block.
        self._batches: dict[int, tuple[list[int], list[Entry]]] = {}
        self._slow: list[int] | None = None
        self._far: list[int] = []  # indexes of the held lines that were outliers (shown)...
        self._gone: list[int] = []  # ...and of the others (counted, dropped)
        self._block: list[str] = []
        self._first = 0
        # Live output (``hold`` set): group key -> its lines shown before (a later group shows no head: ``Known``).
        self._known: Cache[int, Known] | None = Cache(KNOWN, KNOWN_BYTES) if hold is not None else None
        self._late = Late()  # live: lines folded that may be rare by the end (late.py)
        self._later: dict[int, list[object]] = {}  # live: counts of templates shown before, for the end (held.defer)
        self._colon: Colon | None = None  # the last line folded that ends in ``:`` (context.py)

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

    def feed_lines(self, lines: list[str]) -> list[str]:
        """Take many lines at once (the fast path for files and long outputs); return the lines now ready to print.

        The same lines and folds as feeding them one by one, except that a fold may print
        later, covering more lines (held lines are flushed once per call). Work that can be done on the whole block
        in C is: which lines may carry a marker (a hint word anywhere in them), and each line's
        shape (digits made 0). A line with no hint, outside any block, shaped like a line seen
        before, whose group is already folding, costs a few look-ups: it is counted, not masked.
        """
        if not lines:
            return []
        tail = self.tail
        first = self.lines + 1 - len(tail)  # the number of the first line below
        work = [ln for _, ln in tail] + lines if tail else lines
        self.lines += len(lines)
        n = len(work) - TAIL
        tail.clear()
        if n <= 0:
            tail.extend(zip(range(first, first + len(work)), work, strict=True))
            return [] if self.hold is None else self._flush(False)
        tail.extend(zip(range(first + n, first + len(work)), work[n:], strict=True))
        self._take_many(first, work[:n])
        if self.hold is None and len(self.pending) <= PENDING:
            return []
        return self._flush(False)

    def _take_many(self, first: int, lines: list[str]) -> None:
        shapes = "\n".join(lines).encode("utf-8", "surrogatepass").translate(_ZEROS).split(b"\n")
        if len(shapes) != len(lines):  # a newline inside a line
            for no, line in enumerate(lines, first):
                self._take(no, line)
            return
        fast = self._fast.get
        groups = self.groups.get
        blocks = self.blocks
        take = self._take
        hint = Hints(lines).has
        batches = self._batches
        batch = batches.get
        self._block, self._first = lines, first
        self._slow = [] if self.dropped is not None else None
        for no, (line, shape) in enumerate(zip(lines, shapes, strict=True), first):
            if self._marked:  # the line after a marker: shown when it only says where (`` --> src/a.rs:4``)
                if is_location(line):
                    take(no, line)
                    continue
                self._marked = False
            if self._sect is not None:  # under a header: the whole way
                take(no, line)
                continue
            entry = fast(shape)
            if entry is None and (cuts := self._src.get(shape)) is not None:  # a source line: keyed by its location too
                entry = fast(source_shape(shape, line, cuts))
            if entry is None or blocks.kind:
                # A line of a new shape (or in a block): the whole way. A line shaped like one seen here
                # before has its characters but digits: no hint, no start of a block either.
                if (
                    blocks.kind
                    or (line[:1] in _ROUTE and _STARTS.match(line) is not None)
                    or "/" in line[:3]
                    or hint(no - first, line)
                ):
                    take(no, line)
                    continue
                if access_hint(line) and (hit := access(line)) is not None:
                    if hit[1][0] in "45":
                        take(no, line)  # a failed request: a marker
                        continue
                    self.reqs.pending.append(hit)
                if entry is None:
                    take(no, line, shape, True)
                    continue
            elif entry[4] and (hit := access(line)) is not None:
                if hit[1][0] in "45":
                    take(no, line)
                    continue
                self.reqs.pending.append(hit)
            g = groups(entry[1])
            if g is None or not g.cancelled or line[-1:] in ":^~":  # (a context or caret line: context.py)
                self._grouped(no, line, line.split() if entry[3] else tokens(line), *entry[:3])
            elif (b := batch(entry[1])) is None:  # a folding group: counted at the end of the block
                batches[entry[1]] = ([no - first], [entry])
            else:
                b[0].append(no - first)
                b[1].append(entry)
        self._end_block()

    def _end_block(self) -> None:
        """The lines of folding groups held while the block was taken: counted, outliers put in line order."""
        for key in list(self._batches):
            self._run_batch(key)
        lines, first = self._block, self._first
        far, gone = self._far, self._gone
        self._far, self._gone = [], []
        if far:
            put_back(self.pending, sorted(far), first, lines)
        if gone and self.dropped is not None and self._slow is not None:
            n = len(self._slow)
            if n:  # lines dropped one by one in this block: put back in line order with the counted ones
                del self.dropped[-n:]
                gone += self._slow
            gone.sort()  # runs of line indexes, one per group: merged in C
            self.dropped.extend(map(lines.__getitem__, gone))
        self._slow = None
        self._block = []
        if len(self.reqs.pending) > 10_000:
            self.reqs.count()

    def _run_batch(self, key: int) -> None:
        """Count the held lines of group ``key`` (its indexes in the block); outliers to ``far``, the rest to ``gone``."""
        idx, entries = self._batches.pop(key)
        out = count_held(self.groups[key], self._block, self._first, idx, entries)
        if not out:
            self._gone += idx
            return
        shown = set(out)
        self._far += [idx[k] for k in out]
        self._gone += [i for k, i in enumerate(idx) if k not in shown]

    def finish(self) -> list[str]:
        """The remaining lines: held folds with their final counts, the access summary, the last lines."""
        end_section(self)
        if self._blk:
            self._block_into_tail()
        if self._blk:
            self._close_block()
        out = self._flush(True)
        if self._later:  # live: the counts of templates shown in earlier windows, one line each
            later = later_lines(self._later, self.base)
            out += later
            self.shown += len(later)
        for no, line in self.tail:
            self._access(line)
            self.blocks.feed(line)
            out.append(line)
            self.shown += 1
            del no
        self.tail.clear()
        self.reqs.count()
        if self.reqs.total >= 20:
            out.insert(len(out) - min(TAIL, self.lines), self.reqs.summary())
        return out

    def _block_into_tail(self) -> None:
        """A traceback going on into the last lines takes its lines there, up to its message, into the block.

        So a traceback that ends the output, the same as one shown before, is named by its range
        like the others (its message line stays whole); the last lines after it are shown whole.
        """
        b = self.blocks
        tail = self.tail
        while tail:
            state = (b.kind, b.length, b.take_next)
            no, line = tail[0]
            inside = b.feed(line)
            b.kind, b.length, b.take_next = state
            if not inside:
                return
            tail.popleft()
            self._take(no, line)
            if not b.kind:  # its message closed it
                return

    def _mask(self, tok: str) -> str:
        m = tok if tok.isalpha() else mask(tok)
        self._cache.put(tok, m, line_cost(len(tok) + (len(m) if m is not tok else 0), 0))
        return m

    def _template(self, masks: list[str], exact: bool = False) -> tuple[Template, int, tuple[str, ...]]:
        """The template of a line, its group key and its masked tokens; a line masked as one seen before skips the tree."""
        sig = tuple(masks)
        hit = self._seen.get(sig)
        if hit is not None:
            hit[0].count += 1
            return hit[0], hit[1], sig
        t = self.miner.exact(masks) if exact else self.miner.add(masks)
        full = group_key(t, masks)  # lines whose variable fields are of other kinds are grouped apart
        key = self._keys.get(full)
        if key is None:  # the key as a small number: looked up for every line
            key = self._nkeys
            self._keys.put(full, key, line_cost(0, len(full)))
            self._nkeys += 1
        cost = line_cost(sum(map(len, sig)), len(sig))
        if self._seen.full(cost):
            self._fast.clear()  # its entries name what this cache held
            self._src.clear()
        self._seen.put(sig, (t, key), cost)
        return t, key, sig

    def _take(self, no: int, line: str, shape: bytes | None = None, counted: bool = False) -> None:
        """One line, the whole way: markers, blocks, template, group (``shape``: remember it for the fast path).

        ``counted``: the block's pass counted its request and found no hint and no failed request in it.
        """
        if self._sect is not None and section_line(self, no, line):
            return
        if not counted:
            self._access(line)
        marked, self._marked = self._marked, False
        blank = not line or line.isspace()  # a blank line is shown: no fold line could be shorter
        if self.blocks.feed(line):
            self._marked = not blank
            entry: list[object] = ["show", no, line]
            self.pending.append(entry)
            if self.blocks.length == 1 and self._blk:  # another block starts right after one
                self._close_block()
            self._blk.append(entry)
            return
        if self._blk:
            self._close_block()
        if blank or (marked and is_location(line)):
            self._marked = not blank
            self.pending.append(["show", no, line])
            return
        if is_marker_unhinted(line) if counted else is_marker(line):
            self._marker(no, line)
            return
        if line[:1] == "{" and (ev := event(line)) is not None:  # a JSON log event: its level, message, fields
            if counted and ev.request is not None:
                self.reqs.pending.append(ev.request)
            t, key, sig = self._template(ev.masks, True)
            self._grouped(no, line, ev.toks, t, key, sig)  # not by shape: its tokens are not its words
            return
        raw = tokens(line)
        long = len(raw) > LONG
        if long:  # a command line of 200 words: its first words say what kind of line it is
            raw = [*raw[:LONG_KEEP], " ".join(raw[LONG_KEEP:])]
        get = self._cache.get
        masks = [get(tok) or self._mask(tok) for tok in raw]
        if long:
            masks[-1] = "<…>"
        t, key, sig = self._template(masks)
        if (sect := header(line, t.count)) is not None:  # never by shape: its next lines are looked at
            self._sect, shape = sect, None
        # not by shape: a digit in a constant but a source location (its text keys it), a level in digits ("level":30)
        if shape is not None and not long and (at := source_places(sig, raw)) is not None and not level_in_digits(line):
            where = spans(line)
            if at:
                cuts = tuple(map(where.__getitem__, at))
                self._src.put(shape, cuts, line_cost(0, len(cuts)))
                shape = source_shape(shape, line, cuts)
            simple = '"' not in line and "'" not in line
            self._fast.put(shape, (t, key, sig, simple, access_hint(line), where), line_cost(len(shape), len(where)))
        self._grouped(no, line, raw, t, key, sig)

    def _grouped(self, no: int, line: str, raw: list[str], t: Template, key: int, sig: tuple[str, ...]) -> None:
        if key in self._batches:  # lines of this group held in the block before this one: counted first
            self._run_batch(key)
        g = self.groups.get(key)
        if g is None:
            g = self.groups[key] = Group(t, no, raw, key, sig)
            if self._known is not None and open_known(self._known, g, no, line, self.pending):
                if ends_in_colon(line):
                    self._colon = (no, line, g, g.tents[0])
                return  # shown whole in an earlier window: only its count line
            self.pending.append(["show", no, line])
            self.pending.append(["fold", no, g])
            return
        if g.outlier(raw):
            self.pending.append(["show", no, line])
            return
        if under_shown(self, no, sig):  # (right under its line, before that line's fold)
            p = self.pending
            p.insert(len(p) - (p[-1][0] == "fold"), ["show", no, line])
            return
        g.add(no, line, raw, sig)
        if g.cancelled:
            if ends_in_colon(line):
                self._colon = (no, line, g, None)
            if self.dropped is not None:
                self.dropped.append(line)
                if self._slow is not None and no >= self._first:  # (a line let go from the block before)
                    self._slow.append(no - self._first)
            return
        if len(g.tents) < TENTS:
            tent: list[object] = ["tent", no, line, g]
            g.tents.append(tent)
            self.pending.append(tent)
            if ends_in_colon(line):
                self._colon = (no, line, g, tent)
        else:
            g.cancelled = True
            for e in g.tents:
                if e[0] == "tent":
                    e[0] = "dead"
            if ends_in_colon(line):
                self._colon = (no, line, g, None)
            if self.dropped is not None:
                self.dropped.append(line)
                if self._slow is not None and no >= self._first:  # (a line let go from the block before)
                    self._slow.append(no - self._first)

    def _marker(self, no: int, line: str) -> None:
        """A warning or error line: shown; the same line again (no time or id in it) folds with exact counts.

        Its first two times are shown; from the second on it is a group of its own, so a
        line repeated a few times stays whole (rare) and one repeated 100 times is counted.
        """
        self._marked = True
        seen = self._dups.get(line)
        if seen is None:  # shown whole: so is the context line before it
            show_context(self, no)
            self._dups.put(line, (None, no), line_cost(len(line), 0))  # no template yet: where it was shown
            self.pending.append(["show", no, line])
            return
        t, key = seen
        if t is None:
            if self._known is not None:  # live: its first time was shown whole, so its group shows no head
                self._known.put(self._nkeys, Known(key, [line], 1), line_cost(len(line), 1))
            t = Template(-2, [line])
            key = self._nkeys
            self._nkeys += 1
            self._dups[line] = t, key
        else:
            self._marked = False  # its location (`` --> file:line``) is a line like others
        self._grouped(no, line, [line], t, key, (line,))

    def _close_block(self) -> None:
        """A block ended: its inside, the same as one shown before, becomes one line (``repeat.close_block``)."""
        close_block(self)

    def _access(self, line: str) -> None:
        hit = access(line) if access_hint(line) else request(line) if line[:1] == "{" else None
        if hit is not None:
            self.reqs.pending.append(hit)

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
                c = self._colon  # the group's last line ends in ``:``: its count waits for the next line (context.py)
                if c is not None and c[2] is e[2] and c[0] >= self.lines - len(self.tail):
                    break
            p.popleft()
            kind = e[0]
            if kind == "ref":  # a block's lines as shown before: one line names both ranges
                out.append(str(e[3]))
                self.shown += 1
                if self.dropped is not None:
                    self.dropped.append(str(e[2]))
            elif kind in ("show", "tent"):
                out.append(str(e[2]))
                self.shown += 1
                e[0] = "done"
                if kind == "tent":
                    g = e[3]
                    assert isinstance(g, Group)
                    g.shown += 1
            elif kind == "fold":
                g = e[2]
                assert isinstance(g, Group)
                out.extend(self._summary(g))
            elif kind == "dead" and self.dropped is not None:
                self.dropped.append(str(e[2]))
        return out

    def _summary(self, g: Group) -> list[str]:
        """The fold line of a group (and its last line when a counter in it moved); closes the group."""
        return summary(self, g)


def rare_after(f: Folder) -> list[str]:
    """Live, once the output ended (held folds printed): the lines folded that the whole fold shows (``Late``)."""
    if f._known is None:
        return []
    return f._late.rare(f._known, min(max(RARE, f.lines // RARE_SHARE), TENTS), f.base)


def fold_lines(lines: list[str]) -> tuple[list[str], Folder]:
    """Fold a whole output given as lines; the folded lines and the folder (for its counts)."""
    f = Folder()
    out = f.feed_lines(lines)
    out.extend(f.finish())
    return out, f
