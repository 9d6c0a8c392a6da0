"""A JSON-lines log event as fold tokens: its level, its message, then each field as ``key=value`` (no JSON parse)."""

from __future__ import annotations

from operator import add, itemgetter

from rtk import recache
from rtk.fold.budget import SKEL_BYTES, TOKEN_BYTES, Cache, line_cost
from rtk.fold.mask import kind, mask

# One ``"key": value`` pair and the punctuation before it (``,`` or closing ``}``/``]``, which tell the depth):
# the value a string, a flat array, a scalar, or the opening of an object or array (whose own pairs follow).
# Strings are taken whole, so a ``"k":`` inside one is never a key. Groups: the punctuation, the key, the
# opening quote of a string value and its inside, an array, a scalar (without its trailing blanks), an opening.
# The punctuation is read up to GAP characters: unbounded, a run of thousands of closing braces was scanned
# again from each of its characters (quadratic).
GAP = 64  # a pair after this much punctuation (nesting no log event has): the line is not taken as an event
_PAIR = recache.pattern(
    r'([\s,{}\[\]]{0,64})"([^"\\]*(?:\\.[^"\\]*)*)"\s*:\s*'
    r'(?:(")([^"\\]*(?:\\.[^"\\]*)*)"|(\[(?:[^\[\]{}"]|"[^"\\]*(?:\\.[^"\\]*)*")*\])'
    r'|([^\s"{}\[\],](?:[^{}\[\],]*[^\s{}\[\],])?)\s*|(\{|\[))'
)
TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable

    _Pair = tuple[str, str, str, str, str, str, str]
_SHAPE = itemgetter(0, 1, 2, 6)  # what a pair's part in an event depends on: depth, key, string or not, opening
_LEVEL_KEYS = frozenset(("level", "severity", "lvl", "levelname", "@l", "log.level"))
_MSG_KEYS = frozenset(("msg", "message", "@m", "@mt", "event"))
_PATH_KEYS = frozenset(("url", "path", "uri", "request_uri", "route", "originalUrl"))
_STATUS_KEYS = frozenset(("statusCode", "status", "status_code", "code"))
MAX_FIELDS = 40  # an event with more fields than this is taken as ordinary text
CACHE = 50_000  # masked values remembered before the cache starts again
# Each cache is bounded in entries and in bytes (budget.py): 4 MB of 500-key lines (each a skeleton of its own)
# held 100 MB in skeletons.
_masks: Cache[str, str] = Cache(CACHE, TOKEN_BYTES)  # a value -> its kind
_msgs: Cache[str, str] = Cache(CACHE, TOKEN_BYTES)  # a message -> it masked
_plans: Cache[str, _Plan | None] = Cache(CACHE, TOKEN_BYTES)  # an event's shape -> its plan (None: not an event)


class Event:
    """The tokens of one event (level, message, ``key=value``...), their masks, and its request if it has one."""

    __slots__ = ("masks", "request", "toks")

    def __init__(self, toks: list[str], masks: list[str], request: tuple[str, str] | None) -> None:
        self.toks = toks
        self.masks = masks
        self.request = request


_KINDS = frozenset(("<time>", "<ip>", "<uuid>", "<url>", "<path>"))


def _mask_value(value: str) -> str:
    """The kind of a field's value (a string's with its opening quote): ``<n>`` for a number; ``<time>``, ``<path>``... or ``<str>``."""
    got = _masks.get(value)
    if got is not None:
        return got
    if value[:1] != '"':
        k = "<n>" if value[:1] in "-0123456789" else "<str>"
    elif value[1:2] == "/":
        k = "<path>"
    else:
        k = kind(value[1:]) or "<str>" if len(value) > 1 else "<str>"
        k = k if k in _KINDS else "<str>"
    _masks.put(value, k, line_cost(len(value), 0))
    return k


def _mask_message(msg: str) -> str:
    """A message with its variable words masked (``"synced <n> vessels"``), its constant words kept."""
    got = _msgs.get(msg)
    if got is not None:
        return got
    words = [w for w in msg[1:-1].split(" ") if w]
    got = '"' + " ".join(map(mask, words)) + '"' if any(map(str.isdigit, msg)) or "/" in msg else msg
    _msgs.put(msg, got, line_cost(len(msg) + (len(got) if got is not msg else 0), 0))
    return got


class _Plan:
    """What the pairs of events of one shape are: the level's, the message's, the fields' (their ``key=``) and the request's."""

    __slots__ = ("fields", "level", "level_key", "msg", "prefixes", "reqs")

    def __init__(self, level: int, level_key: str, msg: int, fields: list[int], keys: list[str]) -> None:
        self.level = level
        self.level_key = level_key
        self.msg = msg
        # The fields' pairs of a line, in C (itemgetter gives a tuple for two places or more).
        self.fields: Callable[[list[_Pair]], tuple[_Pair, ...]] = (
            itemgetter(*fields)
            if len(fields) > 1
            else itemgetter(slice(fields[0], fields[0] + 1) if fields else slice(0))
        )
        self.prefixes = [f"{k}=" for k in keys]
        # Fields that may name a request: (their place among the fields, whether a path)
        self.reqs = [(i, k in _PATH_KEYS) for i, k in enumerate(keys) if k in _PATH_KEYS or k in _STATUS_KEYS]


def _plan(pairs: list[_Pair]) -> _Plan | None:
    """The plan of an event's pairs (None: not an event); it depends only on what :data:`_SHAPE` takes of them."""
    depth = -1
    level = msg = -1
    level_key = ""
    fields: list[int] = []
    keys: list[str] = []
    for i, (gap, key, quote, _inside, _array, _scalar, opening) in enumerate(pairs):
        if gap != ",":
            if len(gap) >= GAP:  # the punctuation may go on before it: the depth is not known
                return None
            depth += gap.count("{") + gap.count("[") - gap.count("}") - gap.count("]")
        if opening:
            depth += 1
            continue
        if depth <= 0:
            if level < 0 and key in _LEVEL_KEYS:
                level, level_key = i, key
                continue
            if msg < 0 and key in _MSG_KEYS and quote:
                msg = i
                continue
        fields.append(i)
        keys.append(key)
    if level < 0 or msg < 0 or len(fields) > MAX_FIELDS:
        return None
    return _Plan(level, level_key, msg, fields, keys)


def event(line: str) -> Event | None:
    """The tokens of a one-line JSON log event with a level and a message at its top level, else None.

    The first token is the level (``level=30``), the second the message as written
    (``"request completed"``), then every other scalar field in order as ``key=value`` under
    its own name (a nested ``"req":{"url":...}`` gives ``url=...``). A field's mask is
    ``key=<kind>``, so an event's template is its level, its message and its fields' names.
    One regular expression finds the pairs (in C); no JSON parser runs. Which pair is the level,
    the message or a field depends only on the line's shape (its punctuation, keys and which
    values are strings): worked out once per shape.
    """
    if line[:1] != "{" or line[-1:] != "}":
        return None
    skel = line.encode("utf-8", "surrogatepass").translate(_ZEROS)
    recipe = _recipes.get(skel)
    if recipe is not None:
        return recipe.make(line)
    found: list[re.Match[str]] | None = None
    if skel in _once:  # a skeleton seen before: read with the places of its pairs, to make its recipe
        found = list(_PAIR.finditer(line))
        pairs: list[_Pair] = [m.groups("") for m in found]  # type: ignore[misc]  # (as ``findall`` gives them)
    else:
        _once.put(skel, None, line_cost(len(skel), 0))
        pairs = _PAIR.findall(line)
    # A NUL in a key could make two shapes one; such a line is planned on its own.
    shape = "\0".join(map("\0".join, map(_SHAPE, pairs))) if "\0" not in line else None
    if shape is None:
        plan = _plan(pairs)
    else:
        try:
            plan = _plans[shape]
        except KeyError:
            plan = _plan(pairs)
            _plans.put(shape, plan, line_cost(len(shape), len(pairs)))
    if plan is None:
        return None
    get = _masks.get
    toks: list[str] = []
    masks: list[str] = []
    fields = plan.fields(pairs)
    for prefix, (_gap, _key, quote, inside, array, scalar, _opening) in zip(plan.prefixes, fields, strict=True):
        value = inside or array or scalar
        toks.append(prefix + value)
        if quote:
            value = quote + value
            masks.append(prefix + (get(value) or _mask_value(value)))
        else:  # (its first character says: not remembered, as numbers are mostly each new)
            masks.append(prefix + ("<n>" if value[:1] in "-0123456789" else "<str>"))
    request = None
    if plan.reqs:
        path = status = None
        for i, is_path in plan.reqs:
            _gap, _key, quote, inside, _array, scalar, _opening = fields[i]
            if is_path:
                if quote and inside[:1] == "/":
                    path = inside
            elif len(scalar) == 3 and scalar.isdigit() and scalar[0] in "12345":
                status = scalar
        if path is not None and status is not None:
            request = (path, status)
    p = pairs[plan.level]
    level = f"{plan.level_key}={(p[2] + p[3] + p[2] if p[2] else p[4] or p[5]).strip(chr(34))}"
    msg = '"' + pairs[plan.msg][3] + '"'
    masked = _mask_message(msg)
    # (``0x`` is the one place a kind tells 0 from other digits; a key's digits would be lost in the skeleton)
    if (
        found is not None
        and shape is not None
        and b"0x" not in skel
        and not any(map(str.isdigit, "".join(map(itemgetter(1), pairs))))
    ):
        # (a recipe holds its line's matches, so the line: counted with its skeleton)
        _recipes.put(skel, _Recipe(plan, found, masks, masked), line_cost(len(skel) + len(line), 2 * len(found)))
    return Event([level, msg, *toks], [level, masked, *masks], request)


_ZEROS = bytes.maketrans(b"123456789", b"000000000")


def _value_span(m: re.Match[str]) -> tuple[int, int]:
    """Where a pair's value is (``inside or array or scalar``: the group of them that matched; empty if none did)."""
    for g in (4, 5, 6):
        lo, hi = m.span(g)
        if lo >= 0 and hi > lo:
            return lo, hi
    return 0, 0


def _at(m: re.Match[str], group: int) -> slice:
    """Where a group of a pair is (an empty slice when it did not match)."""
    lo, hi = m.span(group)
    return slice(lo, hi) if lo >= 0 else slice(0, 0)


class _Recipe:
    """How :func:`event` reads any line of one skeleton (its bytes with every digit made 0), without a regex.

    Lines of one skeleton have their pairs at the same places (the pattern tells no digit from
    another), so the same plan, and the same kinds of value: every mask is the skeleton's (but
    ``0x``, read as hex while ``1x`` is not: such lines are never read so). What depends on the
    digits themselves (the values, the level, a status) is cut from the line at its place.
    """

    __slots__ = ("level", "masks", "msg", "prefixes", "reqs", "values")

    def __init__(self, plan: _Plan, found: list[re.Match[str]], masks: list[str], masked: str) -> None:
        picked: tuple[re.Match[str], ...] = plan.fields(found)  # type: ignore[arg-type,assignment]
        spans = [slice(*_value_span(m)) for m in picked]
        self.values: Callable[[str], tuple[str, ...]] = (
            itemgetter(*spans) if len(spans) > 1 else (lambda line: (line[spans[0]],)) if spans else (lambda line: ())
        )
        self.prefixes = plan.prefixes
        p = found[plan.level]
        quote = p.group(3)
        lo, hi = _value_span(p)
        self.level = (plan.level_key + "=", quote, slice(lo, hi))
        self.msg = slice(*found[plan.msg].span(4))
        self.masks = [masked, *masks]
        # The request fields: whether a path, whether a string, where its inside is and where its scalar is
        self.reqs = [
            (is_path, bool(picked[i].group(3)), _at(picked[i], 4), _at(picked[i], 6)) for i, is_path in plan.reqs
        ]

    def make(self, line: str) -> Event:
        key, quote, at = self.level
        raw = line[at]
        level = key + ((quote + raw + quote).strip(chr(34)) if quote else raw.strip(chr(34)))
        toks = list(map(add, self.prefixes, self.values(line)))
        request = None
        if self.reqs:
            path = status = None
            for is_path, quoted, inside, scalar in self.reqs:
                if is_path:
                    if quoted and line[inside][:1] == "/":
                        path = line[inside]
                elif len(v := line[scalar]) == 3 and v.isdigit() and v[0] in "12345":
                    status = v
            if path is not None and status is not None:
                request = (path, status)
        return Event([level, '"' + line[self.msg] + '"', *toks], [level, *self.masks], request)


_recipes: Cache[bytes, _Recipe] = Cache(CACHE, SKEL_BYTES)  # a line's skeleton (seen twice) -> how to read it
_once: Cache[bytes, None] = Cache(CACHE, SKEL_BYTES)  # skeletons seen once


def request(line: str) -> tuple[str, str] | None:
    """``(path, status)`` of a JSON log event that records an HTTP request (a path and a status field), else None."""
    if '"/' not in line:
        return None
    e = event(line)
    return None if e is None else e.request
