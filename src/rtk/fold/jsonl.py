"""A JSON-lines log event as fold tokens: its level, its message, then each field as ``key=value`` (no JSON parse)."""

from __future__ import annotations

from rtk import recache
from rtk.fold.mask import kind, mask

# One ``"key": value`` pair and the punctuation before it (``,`` or closing ``}``/``]``, which tell the depth):
# the value a string, a flat array, a scalar, or the opening of an object or array (whose own pairs follow).
# Strings are taken whole, so a ``"k":`` inside one is never a key. The punctuation is read up to GAP characters:
# unbounded, a run of thousands of closing braces was scanned again from each of its characters (quadratic).
GAP = 64  # a pair after this much punctuation (nesting no log event has): the line is not taken as an event
_PAIR = recache.pattern(
    r'([\s,{}\[\]]{0,64})"([^"\\]*(?:\\.[^"\\]*)*)"\s*:\s*'
    r'("[^"\\]*(?:\\.[^"\\]*)*"|\[(?:[^\[\]{}"]|"[^"\\]*(?:\\.[^"\\]*)*")*\]|[^\s"{}\[\],][^{}\[\],]*|\{|\[)'
)
_LEVEL_KEYS = frozenset(("level", "severity", "lvl", "levelname", "@l", "log.level"))
_MSG_KEYS = frozenset(("msg", "message", "@m", "@mt", "event"))
_PATH_KEYS = frozenset(("url", "path", "uri", "request_uri", "route", "originalUrl"))
_STATUS_KEYS = frozenset(("statusCode", "status", "status_code", "code"))
MAX_FIELDS = 40  # an event with more fields than this is taken as ordinary text
CACHE = 50_000  # masked values remembered before the cache starts again
_masks: dict[str, str] = {}  # a value -> its kind
_msgs: dict[str, str] = {}  # a message -> it masked


class Event:
    """The tokens of one event (level, message, ``key=value``...), their masks, and its request if it has one."""

    __slots__ = ("masks", "request", "toks")

    def __init__(self, toks: list[str], masks: list[str], request: tuple[str, str] | None) -> None:
        self.toks = toks
        self.masks = masks
        self.request = request


_KINDS = frozenset(("<time>", "<ip>", "<uuid>", "<url>", "<path>"))


def _mask_value(value: str) -> str:
    """The kind of a field's value: ``<n>`` for a number; ``<time>``, ``<ip>``, ``<path>``... or ``<str>`` for a string."""
    got = _masks.get(value)
    if got is not None:
        return got
    if value[:1] != '"':
        k = "<n>" if value[:1] in "-0123456789" else "<str>"
    elif value[1:2] == "/":
        k = "<path>"
    else:
        k = kind(value[1:-1]) or "<str>" if len(value) > 2 else "<str>"
        k = k if k in _KINDS else "<str>"
    if len(_masks) > CACHE:
        _masks.clear()
    _masks[value] = k
    return k


def _mask_message(msg: str) -> str:
    """A message with its variable words masked (``"synced <n> vessels"``), its constant words kept."""
    got = _msgs.get(msg)
    if got is not None:
        return got
    words = [w for w in msg[1:-1].split(" ") if w]
    got = '"' + " ".join(map(mask, words)) + '"' if any(map(str.isdigit, msg)) or "/" in msg else msg
    if len(_msgs) > CACHE:
        _msgs.clear()
    _msgs[msg] = got
    return got


def event(line: str) -> Event | None:
    """The tokens of a one-line JSON log event with a level and a message at its top level, else None.

    The first token is the level (``level=30``), the second the message as written
    (``"request completed"``), then every other scalar field in order as ``key=value`` under
    its own name (a nested ``"req":{"url":...}`` gives ``url=...``). A field's mask is
    ``key=<kind>``, so an event's template is its level, its message and its fields' names.
    One regular expression finds the pairs (in C); no JSON parser runs.
    """
    if line[:1] != "{" or line[-1:] != "}":
        return None
    depth = -1
    level: str | None = None
    msg: str | None = None
    toks: list[str] = []
    masks: list[str] = []
    path = status = None
    get = _masks.get
    for gap, key, value in _PAIR.findall(line):
        if gap != ",":
            if len(gap) >= GAP:  # the punctuation may go on before it: the depth is not known
                return None
            depth += gap.count("{") + gap.count("[") - gap.count("}") - gap.count("]")
        if value == "{" or value == "[":
            depth += 1
            continue
        if depth <= 0:
            if level is None and key in _LEVEL_KEYS:
                level = f"{key}={value.strip(chr(34))}"
                continue
            if msg is None and key in _MSG_KEYS and value[:1] == '"':
                msg = value
                continue
        quoted = value[:1] == '"'
        if not quoted:
            value = value.rstrip()
        toks.append(f"{key}={value[1:-1] if quoted else value}")
        masks.append(f"{key}={get(value) or _mask_value(value)}")
        if key in _PATH_KEYS and value[:2] == '"/':
            path = value[1:-1]
        elif key in _STATUS_KEYS and len(value) == 3 and value.isdigit() and value[0] in "12345":
            status = value
    if level is None or msg is None or len(toks) > MAX_FIELDS:
        return None
    request = (path, status) if path is not None and status is not None else None
    return Event([level, msg, *toks], [level, _mask_message(msg), *masks], request)


def request(line: str) -> tuple[str, str] | None:
    """``(path, status)`` of a JSON log event that records an HTTP request (a path and a status field), else None."""
    if '"/' not in line:
        return None
    e = event(line)
    return None if e is None else e.request
