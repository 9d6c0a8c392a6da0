"""Tokens of a line and their variable fields (numbers, hex, ids, paths, IPs, timestamps, quoted strings)."""

from __future__ import annotations

from rtk import recache

# One token is a maximal run of non-blank characters; a quoted string is one token even with blanks inside.
_TOKEN = recache.pattern(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|\S+')

# Kinds of variable field, tried in order on a token stripped of surrounding punctuation.
_KINDS: tuple[tuple[str, str], ...] = (  # only their union is compiled: one compile, not sixteen
    ("<time>", r"\d{4}-\d{2}-\d{2}(?:[T_ ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"),
    ("<time>", r"\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"),
    ("<time>", r"\d{1,2}/(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/\d{4}(?::\d{2}:\d{2}:\d{2})?"),
    ("<time>", r"\d{4}/\d{2}/\d{2}"),
    ("<uuid>", r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"),
    ("<ip>", r"\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?:/\d{1,2})?"),
    ("<ip>", r"\[?[0-9a-fA-F]{0,4}(?::[0-9a-fA-F]{0,4}){2,7}\]?(?::\d{1,5})?"),
    ("<hex>", r"0x[0-9a-fA-F]+|#?[0-9a-fA-F]*\d[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*|[0-9a-fA-F]{8,}"),
    ("<n>", r"[-+]?\d+(?:[.,]\d+)*(?:e[-+]?\d+)?"),
    ("<dur>", r"[-+]?\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d|min|sec|secs)"),
    ("<size>", r"[-+]?\d+(?:\.\d+)?(?:[KMGTP]i?B|[kKMGTP]|B|b|bytes)"),
    ("<pct>", r"[-+]?\d+(?:\.\d+)?%"),
    ("<n>", r"\d+/\d+|#\d+|v?\d+(?:\.\d+)+[\w.+-]*|\d+(?:st|nd|rd|th|x)"),
    ("<path>", r"(?:[A-Za-z]:)?(?:\.{0,2}/|~/)[\w@%+=:,.~/-]*|[\w.-]+(?:/[\w@%+=:,.~-]+)+/?"),
    ("<url>", r"[a-z][a-z0-9+.-]*://\S+"),
    ("<id>", r"(?=[\w.-]*\d)(?=[\w.-]*[A-Za-z])[\w.-]{6,}|\d\w*"),
    # a compiler's caret underline (``^``, ``~~^~~~``, ``^~~~~~``): its width is the code it points at
    ("<caret>", r"~*\^[~^]*"),
)
_ONE = recache.pattern("|".join(f"(?P<k{i}>{p})" for i, (_, p) in enumerate(_KINDS)))
_NAMES = {f"k{i}": name for i, (name, _) in enumerate(_KINDS)}
# Every kind a token can be masked as (a literal ``<NOSRV>`` in haproxy's log is none of them).
KIND_NAMES = frozenset((*_NAMES.values(), "<str>", "<…>"))
_EDGE = "()[]{}<>,;\"'`"
# Digits with punctuation only, no letters: nginx's ``14715#14715`` (pid#tid), ``*123`` (a connection).
_PUNCT_NUM = recache.pattern(r"[^\w\s]*\d+(?:[^\w\s]+\d+)*[^\w\s]*")
# A source location ``file.ext.NNN`` (lighttpd's ``response.c.203``, ``mod_x.c.153``): a file and a line number,
# one place in the program's code, so one kind of line (the template is per source line, as drain3's nearly is).
_SOURCE = recache.pattern(r"[A-Za-z_][\w-]*\.[A-Za-z]{1,4}\.\d{1,5}")


def source(tok: str) -> bool:
    """Whether a (masked) token is a source location ``file.ext.NNN``, bare or in brackets: ``(response.c.203)``."""
    return "." in tok and _SOURCE.fullmatch(tok.strip("()[]{}<>,;:")) is not None


_DIGIT = recache.pattern(r"\d")


def source_places(masks: tuple[str, ...], raw: list[str]) -> list[int] | None:
    """The places of a line's masked tokens that hold a digit, when each is a source location kept whole; else None.

    The fold's fast path (``Folder._fast``) knows a line by its shape (digits made 0): a constant with digits
    (``part1``, ``part2``) is not known so, except a source location, whose text is then part of the key.
    """
    if _DIGIT.search("".join(masks)) is None:
        return []
    at = [i for i, m in enumerate(masks) if _DIGIT.search(m) is not None]
    return at if all(masks[i] == raw[i] and source(masks[i]) for i in at) else None


def source_shape(shape: bytes, line: str, cuts: tuple[slice, ...]) -> bytes:
    """The fast path's key of a line naming source locations (``cuts``): its shape, then their text (no newline)."""
    if len(cuts) == 1:
        return shape + b"\n" + line[cuts[0]].encode("utf-8", "surrogatepass")
    return b"\n".join([shape, *(line[c].encode("utf-8", "surrogatepass") for c in cuts)])


def tokens(line: str) -> list[str]:
    """The tokens of ``line``: blank-separated, a quoted string counting as one."""
    return _TOKEN.findall(line)


def spans(line: str) -> tuple[slice, ...]:
    """Where the tokens of ``line`` are: a line of the same shape (digits aside) has its tokens at the same places."""
    return tuple(slice(*m.span()) for m in _TOKEN.finditer(line))


def kind(tok: str) -> str | None:
    """The variable kind of a bare token (``<n>``, ``<path>``...), or None when it is a constant word."""
    if tok[0] in "\"'" and len(tok) > 1 and tok[-1] == tok[0]:
        return "<str>"
    if tok.isdigit():
        return "<n>"
    m = _ONE.fullmatch(tok)
    if m is None:
        return None
    k = _NAMES[m.lastgroup or ""]
    return None if k == "<id>" and _SOURCE.fullmatch(tok) else k


def mask(tok: str) -> str:
    """``tok`` with its variable part replaced by its kind; punctuation around it and ``key=`` kept."""
    k = kind(tok)
    if k is not None and k != "<ip>":
        return k
    lo, hi = 0, len(tok)
    while lo < hi and tok[lo] in _EDGE:
        lo += 1
    while hi > lo and tok[hi - 1] in _EDGE + ".:":
        hi -= 1
    if k is not None:  # ``01:58:20:``, ``02:00:26]``: a time with its colon or bracket, not an IPv6 address
        return tok[:lo] + "<time>" + tok[hi:] if 0 < hi - lo < len(tok) and kind(tok[lo:hi]) == "<time>" else k
    if lo == hi:
        return tok
    core = tok[lo:hi]
    eq = core.find("=")
    if 0 < eq < len(core) - 1:
        value = core[eq + 1 :]
        vk = kind(value) or _inner(value)
        if vk is not None:
            return tok[:lo] + core[: eq + 1] + vk + tok[hi:]
        return tok
    if (lo or hi < len(tok)) and (ck := kind(core)) is not None:
        return tok[:lo] + ck + tok[hi:]
    if _PUNCT_NUM.fullmatch(core):
        return tok[:lo] + "<n>" + tok[hi:]
    return tok


def _inner(value: str) -> str | None:
    lo, hi = 0, len(value)
    while lo < hi and value[lo] in _EDGE:
        lo += 1
    while hi > lo and value[hi - 1] in _EDGE:
        hi -= 1
    if lo == hi or (lo == 0 and hi == len(value)):
        return None
    k = kind(value[lo:hi])
    return None if k is None else value[:lo] + k + value[hi:]


def masked(line: str) -> tuple[list[str], list[str]]:
    """The tokens of ``line`` and the same tokens masked."""
    toks = tokens(line)
    return toks, [mask(t) for t in toks]
