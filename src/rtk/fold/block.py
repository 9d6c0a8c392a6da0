"""A block of lines taken at once: Python works per run and per new shape, the plain lines are routed in C."""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from itertools import chain, compress, filterfalse, groupby, repeat
from operator import and_, itemgetter, methodcaller, not_

from rtk.fold.held import count_held, put_back
from rtk.fold.markers import access, find_access, has_hint, is_location
from rtk.fold.mask import tokens
from rtk.fold.miner import Template

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.folder import Folder
    from rtk.fold.held import Entry

_ZEROS = bytes.maketrans(b"123456789", b"000000000")
# Lines whose first character is one of these may open a block or carry a marker without a hint word.
_ROUTE = (  # every character str.isspace() (and the regex \s) takes for a blank, then the letters
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000.CgsWEF<"
)
_STARTS = re.compile(r"\s*$|\s+at |\s*\.\.\. |Caused by: |goroutine \d|stack backtrace:|[WEF<]")
_MISS: Entry = (Template(-1, []), -1, (), False, False, ())  # a shape not known when the block began
_BAD = ("4", "5")  # a failed request's status starts so: a marker


def take_block(f: Folder, first: int, lines: list[str]) -> None:
    """Take ``lines`` (numbered from ``first``) as :meth:`Folder._take` one by one would, with the same result.

    In C, for the whole block: each line's shape (its bytes with every digit made 0) and what it
    tells (:data:`Folder._fast`); which lines are plain: of a known shape whose group was already
    folding when the block began and, for an access-log line, of a request that did not fail.
    Plain lines are held by group (sorted in C) and counted at once at the end of the block, or
    before a line of their group taken the long way; their requests are merged by line. Python goes
    line by line only over the others (new shapes, markers, blocks, groups not folding yet) and
    over plain lines while a marker or a block before them is open.
    """
    shapes = "\n".join(lines).encode("utf-8", "surrogatepass").translate(_ZEROS).split(b"\n")
    if len(shapes) != len(lines):  # a newline inside a line
        for no, line in enumerate(lines, first):
            f._take(no, line)
        return
    n = len(lines)
    fast = f._fast
    entries = f._entries = list(map(fast.get, shapes, repeat(_MISS)))
    keys = list(map(itemgetter(1), entries))
    folding = {k for k, g in f.groups.items() if g.cancelled}
    plain = list(map(folding.__contains__, keys)) if folding else []
    apos: list[int] = []  # plain access-log lines and their requests
    areqs: list[tuple[str, str]] = []
    f._block, f._first = lines, first
    f._slow = [] if f.dropped is not None else None
    f._rpos, nreqs = [], len(f._reqs)
    skip = f._skip = set()  # plain lines taken the long way after all
    if folding:
        acc = list(compress(range(n), map(and_, plain, map(itemgetter(4), entries))))
        if acc:
            hits = list(map(find_access, map(lines.__getitem__, acc)))
            if None in hits:
                acc, hits = list(compress(acc, hits)), list(filter(None, hits))
            areqs = list(map(methodcaller("group", 1, 2), hits))
            bad = list(map(str.startswith, map(itemgetter(1), areqs), repeat(_BAD)))
            if True in bad:
                for i in compress(acc, bad):
                    plain[i] = False
                good = list(map(not_, bad))
                acc, areqs = list(compress(acc, good)), list(compress(areqs, good))
            apos = acc
        held = sorted(compress(range(n), plain), key=keys.__getitem__)  # by group, in line order
        f._bulk = {k: list(run) for k, run in groupby(held, keys.__getitem__)}
        todo: list[int] | range = list(compress(range(n), map(not_, plain)))
    else:
        f._bulk = {}
        todo = range(n)
    blocks = f.blocks
    bulk = f._bulk
    groups = f.groups.get
    batches = f._batches
    take = f._take

    def one(i: int) -> None:
        """Line ``i`` the way :meth:`Folder.feed` takes it (its entry looked up again if unknown at first)."""
        line = lines[i]
        no = first + i
        f._at = i
        if f._marked:  # the line after a marker: shown when it only says where (`` --> src/a.rs:4``)
            if is_location(line):
                take(no, line)
                return
            f._marked = False
        entry: Entry | None = entries[i]
        if entry is _MISS:
            entry = fast.get(shapes[i])  # a shape first seen earlier in this block
        if entry is None or blocks.kind:
            # A line of a new shape (or in a block): the whole way. A line shaped like one seen
            # before has its characters but digits: no hint, no start of a block either.
            if (
                blocks.kind
                or (line[:1] in _ROUTE and _STARTS.match(line) is not None)
                or "/" in line[:3]
                or has_hint(line)
            ):
                take(no, line)
                return
            if '" ' in line and (hit := access(line)) is not None:
                if hit[1][0] in "45":
                    take(no, line)  # a failed request: a marker
                    return
                f._request(*hit)
            if entry is None:
                take(no, line, shapes[i], True)
                return
        elif entry[4] and (hit := access(line)) is not None:
            if hit[1][0] in "45":
                take(no, line)
                return
            f._request(*hit)
        g = groups(entry[1])
        if g is None or not g.cancelled:
            f._grouped(no, line, line.split() if entry[3] else tokens(line), *entry[:3])
        elif (idx := bulk.get(entry[1])) is not None:  # a new shape of a group held as plain lines: among them
            entries[i] = entry
            insort(idx, i)
        elif (b := batches.get(entry[1])) is None:  # a group folding since this block began: counted at its end
            batches[entry[1]] = ([i], [entry])
        else:
            b[0].append(i)
            b[1].append(entry)

    def after(i: int) -> None:
        """Plain line ``i`` while a marker or block before it is open: taken the long way when it belongs to it."""
        line = lines[i]
        f._at = i
        if f._marked:
            if is_location(line):
                skip.add(i)
                take(first + i, line)
                return
            f._marked = False
        if blocks.kind:
            skip.add(i)
            take(first + i, line)

    clears = f._clears

    def settle(j: int) -> int:
        """Take the lines from ``j`` on one by one while a marker or block before them is open; the next line."""
        while j < n and (f._marked or blocks.kind) and f._clears == clears:
            (after if plain and plain[j] else one)(j)
            j += 1
        return j

    done = settle(0)  # lines below this are taken
    if f._clears == clears:
        for i in todo:
            if i >= done:
                one(i)
                done = settle(i + 1)
                if f._clears != clears:
                    break
    if f._clears != clears:  # the shape cache started again: the rest of the block line by line
        for k, idx in list(f._bulk.items()):
            f._bulk[k] = idx[: bisect_left(idx, done)]
        cut = bisect_left(apos, done)
        del areqs[cut:], apos[cut:]
        entries[done:] = [_MISS] * (n - done)
        for j in range(done, n):
            one(j)
    _requests(f, nreqs, apos, areqs)
    end_block(f)


def _requests(f: Folder, start: int, apos: list[int], areqs: list[tuple[str, str]]) -> None:
    """The requests of the block in line order: those of plain lines, and those found line by line since ``start``."""
    rpos, f._rpos = f._rpos, None
    if f._skip and apos:
        keep = list(map(not_, map(f._skip.__contains__, apos)))
        apos, areqs = list(compress(apos, keep)), list(compress(areqs, keep))
    if not rpos:
        f._reqs += areqs
    elif areqs:
        mine = sorted(zip(chain(rpos, apos), chain(f._reqs[start:], areqs), strict=True))
        f._reqs[start:] = map(itemgetter(1), mine)


def run_bulk(f: Folder, key: int, upto: int) -> None:
    """The plain lines of group ``key`` before line ``upto`` of the block: counted now (a line of it comes the long way)."""
    idx = f._bulk[key]
    cut = bisect_left(idx, upto)
    if cut == len(idx):
        del f._bulk[key]
    else:
        f._bulk[key], idx = idx[cut:], idx[:cut]
    if f._skip:
        idx = list(filterfalse(f._skip.__contains__, idx))
    if idx:
        count(f, key, idx, list(map(f._entries.__getitem__, idx)))


def run_batch(f: Folder, key: int) -> None:
    """The lines of group ``key`` held one by one in the block (it began folding in it): counted now."""
    idx, entries = f._batches.pop(key)
    count(f, key, idx, entries)


def count(f: Folder, key: int, idx: list[int], entries: list[Entry]) -> None:
    """Count the held lines of group ``key`` (their indexes in the block); outliers to ``far``, the rest to ``gone``."""
    out = count_held(f.groups[key], f._block, f._first, idx, entries)
    if not out:
        f._gone += idx
        return
    shown = set(out)
    f._far += [idx[k] for k in out]
    f._gone += [i for k, i in enumerate(idx) if k not in shown]


def end_block(f: Folder) -> None:
    """The lines held while the block was taken: counted, outliers put in line order, dropped lines in line order."""
    for key in list(f._bulk):  # before those held one by one: a group's plain lines come first
        run_bulk(f, key, len(f._block))
    for key in list(f._batches):
        run_batch(f, key)
    lines, first = f._block, f._first
    far, gone = f._far, f._gone
    f._far, f._gone = [], []
    if far:
        put_back(f.pending, sorted(far), first, lines)
    if gone and f.dropped is not None and f._slow is not None:
        n = len(f._slow)
        if n:  # lines dropped one by one in this block: put back in line order with the counted ones
            del f.dropped[-n:]
            gone += f._slow
        gone.sort()  # runs of line indexes, one per group: merged in C
        f.dropped.extend(map(lines.__getitem__, gone))
    f._slow = None
    f._block = []
    f._entries = []
    f._skip = set()
    if len(f._reqs) > 10_000:
        f._count_requests()
