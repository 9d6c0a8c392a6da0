"""Which dropped lines may hold a fact the compact output lost: the fact guard's C-speed scan.

``scan`` reads the distinct dropped lines of a raw output as one block of bytes and
returns those that must go through the full extractor (``facts.line_facts``); every
other line provably has no fact the compact output lacks. Each search is a bytes
method over the whole block (``translate``, ``find``, ``split``); Python only handles
the hits. Why it is sound, fact kind by fact kind (``facts.line_facts``):

- Problem lines. ``is_marker`` needs a marker word (``MARKERS``, each holding one of
  ``NEEDLES``), a glyph (a needle too) or a ``...Error:``/``...Exception:`` token (holding
  ``error``/``exception``); ``tag_of`` needs a marker word. The needles are searched in the
  block reduced to their own letters (ASCII-lowercased, spaces deleted too: ``not ok `` is
  ``notok`` there; deleting bytes only joins what was apart, so a line's needle is still
  found), and a line with a hit is read when ``is_marker`` or ``tag_of`` (the extractor's
  own tests) says it reports a problem or carries a tag, or ``_counts`` finds a count in it
  (``3 failed 0`` or ``3 `failed` `` is no problem line, but a count). ``str.lower`` turns two non-ASCII
  characters into ASCII letters (KELVIN SIGN into ``k``, ``İ`` into ``i`` and a combining
  dot): lines holding them, or a non-ASCII glyph, are read too. Every line left is not
  failing and has no tag, and a count in it holds ``passed`` or ``skipped``: its facts are hashes and locations in its tokens, a traceback's
  ``File`` location, summary counts and ``"code"`` fields, and nothing else (``token_facts`` with ``failing``
  false), which the passes below look for in every line.
- Counts. A count is a number token and then a count word; the words no needle holds
  are ``passed``, ``xpassed`` and ``skipped``. Before each occurrence, the text stripped of
  what may stand between (``_STRIP``, ``.:;``, ASCII whitespace, the ``x`` of ``xpassed``)
  ends with a digit, or a non-ASCII byte (a no-break space, another script's digit),
  when it is a count: such lines are read.
- ``File "path", line N``: a line holding ``", line `` has its location computed by
  ``facts.file_loc`` (the extractor's own code) and is read when that location is missing.
- Hashes. A hash value is a maximal run of 7-40 lowercase hex digits that starts a token
  (after whitespace, a non-ASCII byte or stripped punctuation) or follows ``..``: each run
  is found, ``facts._hash`` decides, and ``presence.present`` checks it.
- Locations in tokens. Outside a problem line a location needs an unindented line
  (``located``) and ``_has_ext(base)``: the path ends with ``.ext`` (1-5 letters and digits,
  a letter among them) right before its ``:`` or ``(``, and a digit follows. With letters,
  digits and most punctuation deleted the line holds ``.:`` (``(`` is written ``:``), and
  ``_ext_loc`` finds the extension and the digit. Such a line is vouched for without the
  extractor when (1) every piece of it (split at whitespace, ``:`` and ``(``) is a piece
  of the compact output, and (2) its shape holds no ``:.``. Then for each location
  (path, N): N is the whole piece after its separator or is followed there by stripped
  punctuation, so the compact output, which holds that piece between separators, holds
  N as a word of ``Output.words``; and (2) says the base name (after the last ``/``)
  holds no ``:`` or ``(``, so it lies inside one piece, which the compact output holds:
  the base is in the text. ``presence.present`` then finds the location (its regrouped
  form: the file named once, its line numbers under it). Other lines are read. The lines
  are so vouched for all at once: their pieces are split together, and only the lines
  holding a piece the compact output lacks (found by a substring search, confirmed on the
  line's own pieces) are tested for a location one by one.
- A filter's report (``moved``: each raw line it regrouped and the prefix holding its
  location, ``filterapi.Filtered.moved``) is checked, never trusted (``_moved_lines``):
  every such line is a dropped line and is its prefix, a space, and a rest; no token spans
  both (the space), the prefixes' shapes hold no ``:.`` and their pieces are pieces of the
  compact output, so the argument above vouches for every location in a prefix; a rest
  whose shape holds ``.:`` may hold a location, and its line is searched as any other. Only
  the location search is skipped for the vouched lines; the other passes read them all.
- JSON ``"code"`` fields (``facts.field_codes``, words that ``judge`` keeps in a counted cut too):
  a line holding ``"code"`` is read.
- A counted cut (``counted``): ``factguard.judge`` drops the hash, location and path facts
  of a line that is not a problem line, so only the problem pass (problem lines, tags and
  counts) runs.

``tests/test_factscan.py`` checks, on every fixture and on mutations, that the guard with
this scan restores exactly what it restores reading every dropped line (counted cuts too);
``tests/test_factguard_moved.py`` the same with filters' reports, true and wrong ones.
"""

from __future__ import annotations

from rtk.facts import _STRIP, _counts, _hash, file_loc, is_marker, tag_of
from rtk.presence import Output, present

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

# Lowercased substrings of problem lines: every marker word and glyph of ``rtk.facts`` holds one.
NEEDLES = ("error", "fail", "warning", "panic", "exception", "traceback", "fatal", "crashed", "not ok ", "✗", "✘")
_NEEDLES_ASCII = tuple(n.encode() for n in NEEDLES if n.isascii())
_NEEDLES_OTHER = tuple(n.encode() for n in NEEDLES if not n.isascii())
# Lines with a hit (repeats and printed lines too) past which ``scan_counted`` gives way to ``scan``.
RAW_HITS = 128
# Non-ASCII characters whose str.lower() holds an ASCII letter (a test checks the list is complete).
LOWER_TO_ASCII = ("\u0130", "\u212a")
COUNT_ONLY = (b"passed", b"skipped")  # count words no needle holds (xpassed holds passed)
# ASCII whitespace as str.split() knows it (it also splits at the separators 0x1c-0x1f), line breaks aside.
_WS = " \t\r\v\f\x1c\x1d\x1e\x1f"
# What may stand between a count and its word (ASCII; a non-ASCII byte there, NBSP or a digit of
# another script, makes the line read).
_COUNT_GAP = (_STRIP + ".:;x" + _WS).encode()
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LETTERS = _UPPER + _UPPER.lower()


def _table(groups: dict[str, bytes], rest: int | None = None) -> bytes:
    """A ``bytes.translate`` table: each byte of a group's key maps to the group's byte; others to ``rest``."""
    t = bytearray(range(256)) if rest is None else bytearray([rest] * 256)
    for chars, to in groups.items():
        for c in chars.encode():
            t[c] = to[0]
    return bytes(t)


def _deleting(keep: bytes) -> bytes:
    return bytes(c for c in range(256) if c not in keep)


# The needles' letters lowercased, line breaks and spaces; every other byte deleted. Deleting only joins
# what was apart, so a needle of a line is a needle of its reduced line (the hits are then checked).
_REDUCE = bytes(c + 32 if 65 <= c <= 90 else c for c in range(256))
_REDUCE_KEEP = bytes(sorted(set(b"".join(_NEEDLES_ASCII + COUNT_ONLY)) - {32} | {10}))
# The needles as the reduced block holds them (spaces deleted too: "not ok " is "notok" there).
_NEEDLES_REDUCED = tuple(n.replace(b" ", b"") for n in _NEEDLES_ASCII)
_REDUCE_DELETE = _deleting(_REDUCE_KEEP + _REDUCE_KEEP.upper())
# Shapes: ":" and "(" as ":", "\\" as "/", whitespace as " "; ".", "/" and line breaks kept; every other
# byte deleted (letters, digits, non-ASCII bytes, other punctuation).
_SHAPE = _table({_WS: b" ", ":(": b":", "\\": b"/"})
_SHAPE_DELETE = _deleting((" \n:./(\\" + _WS).encode())
# Hex digits "h"; whitespace, line breaks, stripped punctuation and non-ASCII bytes (Unicode whitespace
# among them) " "; "." kept; the rest "n".
_HEX = _table({"0123456789abcdef": b"h", _WS + "\n" + _STRIP: b" ", ".": b"."}, ord("n"))[:128] + b" " * 128
# Locations: letters "a", ASCII digits "0", non-ASCII bytes "u" (a letter or a digit of another script),
# ":" and "(" as ":", whitespace " "; "." and line breaks kept; every other byte deleted.
_LOC = _table({_LETTERS: b"a", "0123456789": b"0", ":(": b":", _WS: b" "})[:128] + b"u" * 128
_LOC_DELETE = _deleting((".:(\n0123456789" + _WS + _LETTERS).encode() + bytes(range(128, 256)))
# Pieces: whitespace, ":" and "(" as spaces (a line break is whitespace to split() as well).
_PIECES = _table({_WS + ":(": b" "})


class _Rows:
    """The lines of a block of bytes, split (once) only when a line is asked for."""

    __slots__ = ("_rows", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._rows: list[bytes] | None = None

    def __getitem__(self, k: int) -> str:
        if self._rows is None:
            self._rows = self.data.split(b"\n")
        return self._rows[k].decode("utf-8", "surrogatepass")


class _Many(Exception):
    """More lines with a hit than ``_Block.most``: ``scan_counted`` gives way to ``scan``."""


class _Block:
    """The dropped lines (as given and as one block of bytes) and the lines to read, by index or by offset.

    (Read as raw text, ``scan_counted``: ``skip``, the printed lines, are set aside unread, and
    more than ``most`` lines with a hit raise ``_Many``.)
    """

    __slots__ = ("data", "ks", "more", "most", "order", "skip", "starts")

    def __init__(self, order: list[str] | _Rows, data: bytes) -> None:
        self.order = order  # line k of ``data`` is ``order[k]`` encoded
        self.data = data
        self.ks: set[int] = set()  # the lines to read, by their index
        self.starts: set[int] = set()  # ...and by their offset in ``data``
        self.more: set[str] = set()  # ...and as they are (found in another block)
        self.most: int | None = None
        self.skip: frozenset[str] | set[str] = frozenset()

    def lines(self) -> list[str]:
        order, data = self.order, self.data
        found = {order[k] for k in self.ks}
        found.update(_line_at(data, s) for s in self.starts)
        found.update(self.more)
        return list(found)


def scan(
    lines: Iterable[str], compact: str, out: Output, counted: bool = False, moved: dict[str, str] | None = None
) -> list[str]:
    """The lines among ``lines`` (distinct, none of them a line of ``compact``) that may hold a fact ``compact`` lost.

    ``counted``: the filter reported a cut, so a line that reports no problem can only lose its counts
    (``factguard.judge`` accounts for its hashes, locations and paths): the problem pass alone decides.
    ``moved``: a filter's report of the lines it regrouped (``filterapi.Filtered.moved``), checked by
    ``_moved_lines``; the lines it vouches for skip the location search only.
    """
    order = list(lines)
    if not order:
        return []
    data = "\n".join(order).encode("utf-8", "surrogatepass")
    b = _Block(order, data)
    _problem_lines(b)
    if b'"' in data and b'"code"' in data:  # JSON ``"code"`` fields (``facts.field_codes``), counted cut or not
        b.ks.update(_hit_lines(b'"code"', data))
    if counted:
        return b.lines()
    located = b"." in data and (b":" in data or b"(" in data)  # (one-byte searches: memchr)
    shape = data.translate(_SHAPE, _SHAPE_DELETE) if located else b""
    # (letters and digits deleted: a ".." of the data is one of its shape, which is small)
    _hash_lines(b, out, b".." in shape if located else b".." in data)
    if b'"' in data and b'", line ' in data:  # (a one-byte search first: memchr)
        for k in _hit_lines(b'", line ', data):
            loc = file_loc(order[k])
            if loc is not None and not present(loc, out):
                b.ks.add(k)
    if located and b".:" in shape:
        pieces = _Pieces(compact)
        vouched = _moved_lines(moved, lines if isinstance(lines, set) else set(order), pieces) if moved else None
        if not vouched:
            _loc_lines(b, shape, pieces)
        else:  # the other lines: searched as a block of their own
            pool = lines - vouched if isinstance(lines, set) else set(order) - vouched
            if pool:
                rest = list(pool)
                sub = _Block(rest, "\n".join(rest).encode("utf-8", "surrogatepass"))
                sub_shape = sub.data.translate(_SHAPE, _SHAPE_DELETE)
                if b".:" in sub_shape:
                    _loc_lines(sub, sub_shape, pieces)
                    b.more.update(sub.lines())
    return b.lines()


def scan_counted(raw: str, compact: str) -> list[str] | None:
    """``scan`` with ``counted`` over the whole raw text: its distinct lines, none a line of ``compact``, that may hold a lost fact.

    The same lines as ``scan(lines, compact, out, True)`` where ``lines`` are the distinct lines of
    ``raw`` that ``compact`` does not print as they are: with a counted cut only the problem and
    ``"code"`` passes run, and each names a line for what the line itself holds (a needle, a
    glyph, a count, a field, found between two line breaks; a global test such as "the block
    is ASCII" only skips searches that could name no line). So they can read every line of
    ``raw``, repeats and printed lines too, and set the printed lines aside: this spares
    splitting, hashing and joining the raw lines (a quarter of the guard's time when the
    compact output is small, as ``du``'s, whose lines are nearly all dropped). A line with a
    hit is confirmed once, a printed one never; past ``RAW_HITS`` lines with a hit (repeats and
    printed lines counted: a repeated warning) the answer is None and ``scan`` decides, so
    repeats cost at most the passes over the raw text. ``factguard`` takes this way only when
    the compact output is small (few printed lines to search again).
    """
    data = raw.encode("utf-8", "surrogatepass")
    b = _Block(_Rows(data), data)
    b.skip = kept = set(compact.split("\n"))  # (the compact output is small here)
    b.most = RAW_HITS
    try:
        _problem_lines(b)
        if b'"' in data and b'"code"' in data:
            b.ks.update(_hit_lines(b'"code"', data, RAW_HITS))
            _many(b.ks, RAW_HITS)
    except _Many:
        return None
    return [ln for ln in b.lines() if ln and ln not in kept]


def _many(found: set[int], most: int | None) -> None:
    """Raise ``_Many`` when ``found`` holds more than ``most``."""
    if most is not None and len(found) > most:
        raise _Many


def _moved_lines(moved: dict[str, str], lines: set[str], compact: _Pieces) -> set[str]:
    """The lines of ``moved`` (raw line -> the location prefix a filter moved) whose token locations the compact output holds.

    The report is checked, not trusted, for all its lines at once (C-speed passes): every line is
    a dropped line, starts with its prefix, and a space follows the prefix (so no token spans both);
    the prefixes' shapes hold no ``:.`` and their pieces are pieces of the compact output, which is
    the argument by which ``_loc_lines`` vouches for a line (here for the prefix, its tokens whole).
    A token location in the rest of a line has ``.:`` in its shape: such lines are left to
    ``_loc_lines``, and on any other failure every line is.
    """
    if not lines.issuperset(moved):
        return set()
    ls, hs = list(moved), list(moved.values())
    if not all(map(str.startswith, ls, hs)):
        return set()
    rests = "\n".join(map(str.removeprefix, ls, hs))
    if not rests.startswith(" ") or rests.count("\n ") != len(ls) - 1:
        return set()
    heads = "\n".join(hs).encode("utf-8", "surrogatepass")
    if b":." in heads.translate(_SHAPE, _SHAPE_DELETE):
        return set()
    if not compact.holds(heads.translate(_PIECES).split()):
        return set()
    vouched = set(ls)
    shape = rests.encode("utf-8", "surrogatepass").translate(_SHAPE, _SHAPE_DELETE)
    if b".:" in shape:
        vouched.difference_update(ls[i] for i in _hit_lines(b".:", shape))
    return vouched


def _problem_lines(b: _Block) -> None:
    """Lines that report a problem or carry a tag (a needle finds them, ``is_marker``/``tag_of`` decide), and lines with a count."""
    data, order = b.data, b.order
    red = data.translate(_REDUCE, _REDUCE_DELETE)
    hits: set[int] = set()
    most, skip = b.most, b.skip
    for n in _NEEDLES_REDUCED:
        hits.update(_hit_lines(n, red, most))
        _many(hits, most)
    done: set[str] = set()
    for k in hits:
        line = order[k]
        if line in done or line in skip:
            continue  # (read as raw text: a repeat, or a printed line)
        done.add(line)
        if is_marker(line) or tag_of(line) is not None or _counts(line):
            b.ks.add(k)  # (any other line is not failing, has no tag and no count: the other passes read its facts)
    if not data.isascii():
        for n in _NEEDLES_OTHER + tuple(ch.encode() for ch in LOWER_TO_ASCII):
            _lines_with(n, data, b.starts, most)
    if b"passed" in red or b"skipped" in red:
        low = data.lower()
        for w in COUNT_ONLY:
            _count_lines(w, low, b.starts, most)


def _lines_with(needle: bytes, hay: bytes, starts: set[int], most: int | None = None) -> None:
    """Add the start offset of every line of ``hay`` that contains ``needle`` (``_Many`` past ``most``)."""
    i = hay.find(needle)
    while i >= 0:
        starts.add(hay.rfind(b"\n", 0, i) + 1)
        _many(starts, most)
        end = hay.find(b"\n", i)
        if end < 0:
            return
        i = hay.find(needle, end)


def _count_lines(word: bytes, low: bytes, starts: set[int], most: int | None = None) -> None:
    """Lines where ``word`` may follow a number token (``3 passed``, ``(2) skipped``; ``_Many`` past ``most``)."""
    i = low.find(word)
    while i >= 0:
        ls = low.rfind(b"\n", 0, i) + 1
        last = low[ls:i].rstrip(_COUNT_GAP)[-1:]
        if last.isdigit() or last > b"\x7f":
            starts.add(ls)
            _many(starts, most)
            i = low.find(b"\n", i)
            if i < 0:
                return
        i = low.find(word, i + 1)


def _hash_lines(b: _Block, out: Output, dots: bool) -> None:
    """Lines with a hash value that the compact output does not hold (``dots``: the block holds "..")."""
    data = b.data
    hexed = data.translate(_HEX)

    def check(s: int) -> int:
        run = hexed[s : s + 41]
        n = len(run) - len(run.lstrip(b"h"))
        value = data[s : s + n].decode("ascii")
        if _hash(value) and not present(("hash", value, ""), out):
            b.starts.add(data.rfind(b"\n", 0, s) + 1)
        return s + n

    if hexed.startswith(b"hhhhhhh"):
        check(0)
    for needle, skip in ((b" hhhhhhh", 1), (b"..hhhhhhh", 2))[: 2 if dots else 1]:
        i = hexed.find(needle)
        while i >= 0:
            i = hexed.find(needle, check(i + skip))


def _hit_lines(needle: bytes, hay: bytes, most: int | None = None) -> list[int]:
    """The indexes of the lines of ``hay`` holding ``needle`` (line breaks counted in C, once over the text).

    ``most``: stop past that many (the caller gives way).
    """
    found: list[int] = []
    k = at = 0
    i = hay.find(needle)
    while i >= 0:
        k += hay.count(b"\n", at, i)
        found.append(k)
        if most is not None and len(found) > most:
            break
        at = hay.find(b"\n", i)
        if at < 0:
            break
        i = hay.find(needle, at)
    return found


def _loc_lines(b: _Block, shape: bytes, compact: _Pieces) -> None:
    """Lines with a location in a token that the compact output's pieces do not vouch for.

    Cheap tests first, for all lines at once: the unindented lines whose shape holds ``.:`` (an
    indented line that reports nothing holds no location: ``located`` in ``facts.line_facts``)
    are split into pieces together, and the pieces the compact output lacks found; only the lines
    holding one of those (a substring search names them, the line's own pieces decide) and those
    whose shape holds ``:.`` are tested for a real extension (``_ext_loc``) and read.
    """
    order, ks = b.order, b.ks
    assert isinstance(order, list)  # (``scan_counted``'s lazy rows never come here)
    shapes = shape.split(b"\n")
    if shape.count(b".:") * 4 > len(order):  # dense: a test per line beats a search per hit
        cand = [k for k, sh in enumerate(shapes) if b".:" in sh and not order[k][:1].isspace()]
    else:
        cand = [k for k in _hit_lines(b".:", shape) if not order[k][:1].isspace()]
    if ks:
        cand = [k for k in cand if k not in ks]
    if not cand:
        return
    # A base name may hold ":" or "(": such lines are read if located.
    suspects = [k for k in cand if b":." in shapes[k]] if b":." in shape else []
    if suspects:
        odd = set(suspects)
        cand = [k for k in cand if k not in odd]
    if cand:
        block = "\n".join([order[k] for k in cand]).encode("utf-8", "surrogatepass").translate(_PIECES)
        lacking = compact.lacking(set(block.split()))
        if lacking:
            if len(lacking) > 16:
                rows = block.split(b"\n")
                suspects += [k for k, row in zip(cand, rows, strict=True) if not lacking.isdisjoint(row.split())]
            else:
                near: set[int] = set()
                for p in lacking:
                    near.update(_hit_lines(p, block))
                for i in near:
                    k = cand[i]
                    row = order[k].encode("utf-8", "surrogatepass").translate(_PIECES)
                    if not lacking.isdisjoint(row.split()):
                        suspects.append(k)
    for k in suspects:
        if _ext_loc(order[k].encode("utf-8", "surrogatepass").translate(_LOC, _LOC_DELETE)):
            ks.add(k)


class _Pieces:
    """The compact output's pieces (split at whitespace, ``:`` and ``(``): its text so translated, and their set once built."""

    __slots__ = ("_set", "text")

    def __init__(self, compact: str) -> None:
        self.text = compact.encode("utf-8", "surrogatepass").translate(_PIECES)
        self._set: set[bytes] | None = None

    def lacking(self, pieces: set[bytes]) -> set[bytes]:
        """Those of ``pieces`` that are no piece of the text: a few are searched; many, the set is built (once)."""
        if self._set is None:
            if len(pieces) <= 16:
                return {p for p in pieces if not _piece_of(self.text, p)}
            self._set = set(self.text.split())
        return pieces - self._set

    def holds(self, pieces: list[bytes]) -> bool:
        """Is each of ``pieces`` a piece of the text? (As ``lacking``, without a set of ``pieces``.)"""
        if self._set is None:
            if len(pieces) <= 16:
                return all(_piece_of(self.text, p) for p in pieces)
            self._set = set(self.text.split())
        return self._set.issuperset(pieces)


def _piece_of(text: bytes, p: bytes) -> bool:
    """Is ``p`` a piece of ``text`` (between whitespace)?"""
    n, end = len(p), len(text)
    i = text.find(p)
    while i >= 0 and not (
        (i == 0 or text[i - 1 : i].isspace()) and (i + n == end or text[i + n : i + n + 1].isspace())
    ):
        i = text.find(p, i + 1)
    return i >= 0


def _ext_loc(loc: bytes) -> bool:
    """Does ``.ext`` (1-5 letters and digits, a letter among them) stand right before ``:`` and a digit?"""
    if b".aa:0" in loc or b".a:0" in loc or b".aaa:0" in loc or b".aaaa:0" in loc:  # the common ones
        return True
    for needle in (b":0", b":u"):
        i = loc.find(needle)
        while i >= 0:
            pre = loc[:i]
            stem = pre.rstrip(b"a0u")
            ext = pre[len(stem) :]
            if stem.endswith(b".") and (b"u" in ext or (len(ext) <= 5 and b"a" in ext)):
                return True
            i = loc.find(needle, i + 1)
    return False


def _line_at(data: bytes, start: int) -> str:
    end = data.find(b"\n", start)
    return (data[start:end] if end >= 0 else data[start:]).decode("utf-8", "surrogatepass")
