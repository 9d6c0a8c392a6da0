"""A compact view of JSON for curl, wget and ``rtk json``: values kept as written, long arrays cut with counts.

Numbers are printed exactly as the document wrote them (``1.10``, ``1e400``),
strings with their value (escapes may be written differently), keys in their
order. Containers go on one line when they fit, else one member per line.
What is left out is counted: array items beyond the cap, the end of very long
strings, and containers below ``depth`` (shown as ``{…3 keys}``).
"""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

WIDTH = 100


class Num(str):
    """A JSON number (or NaN/Infinity), kept as its source text."""


# Parsed, each value costs about 250 bytes (the object, its key, the rendered part, the fact guard's
# reading): a document with more commas and colons than this (an upper bound of its values, counted
# at C speed before parsing) is not parsed but shown raw, so memory stays near 100 MiB.
MAX_VALUES = 300_000


class TooLarge(ValueError):
    """The document holds more than :data:`MAX_VALUES` values: shown raw rather than parsed."""


def loads(text: str) -> Any:
    """Parse JSON (a leading BOM tolerated), numbers kept as :class:`Num`; raises ``ValueError``
    (:class:`TooLarge` past :data:`MAX_VALUES`)."""
    if len(text) > MAX_VALUES and text.count(",") + text.count(":") > MAX_VALUES:
        raise TooLarge(f"more than {MAX_VALUES} values")
    return json.loads(text.lstrip("\ufeff"), parse_int=Num, parse_float=Num, parse_constant=Num)


# What ``json.dumps(s, ensure_ascii=False)`` returns for a string, without building an encoder per call
# (that was most of the time of a document with 600,000 keys).
_str: Callable[[str], str] = json.encoder.encode_basestring


class View:
    """Render parsed JSON compactly; ``cut`` counts the items left out."""

    def __init__(self, max_items: int, max_string: int, depth: int | None = None) -> None:
        self.max_items = max_items
        self.max_string = max_string
        self.depth = depth
        self.cut = 0

    def render(self, value: Any) -> str:
        return self._r(value, 0, 0)

    def _scalar(self, v: Any) -> str:
        if isinstance(v, Num):
            return str.__str__(v)
        if isinstance(v, str):
            if len(v) > self.max_string:
                self.cut += 1
                return _str(v[: self.max_string])[:-1] + f'…" (+{len(v) - self.max_string} chars)'
            return _str(v)
        if v is True:
            return "true"
        if v is False:
            return "false"
        if v is None:
            return "null"
        return json.dumps(v)  # pragma: no cover

    def _r(self, v: Any, ind: int, level: int) -> str:
        if isinstance(v, dict):
            if not v:
                return "{}"
            if self.depth is not None and level >= self.depth:
                self.cut += len(v)
                return f"{{…{len(v)} {'key' if len(v) == 1 else 'keys'}}}"
            parts = [f"{_str(k)}: {self._r(x, ind + 1, level + 1)}" for k, x in v.items()]
            return self._wrap("{", "}", parts, ind)
        if isinstance(v, list):
            if not v:
                return "[]"
            if self.depth is not None and level >= self.depth:
                self.cut += len(v)
                return f"[…{len(v)} {'item' if len(v) == 1 else 'items'}]"
            cap = self.max_items
            shown = v if len(v) <= cap + 1 else v[:cap]
            parts = [self._r(x, ind + 1, level + 1) for x in shown]
            if len(shown) < len(v):
                rest = len(v) - len(shown)
                self.cut += rest
                parts.append(f"… +{rest} more items ({len(v)} in all)")
            return self._wrap("[", "]", parts, ind)
        return self._scalar(v)

    @staticmethod
    def _wrap(op: str, cl: str, parts: list[str], ind: int) -> str:
        if 3 * len(parts) <= WIDTH:  # more parts cannot fit on one line (one character and ", " each)
            one = op + ", ".join(parts) + cl
            if "\n" not in one and len(one) + 2 * ind <= WIDTH:
                return one
        pad = "  " * (ind + 1)
        return op + "\n" + ",\n".join(pad + p for p in parts) + "\n" + "  " * ind + cl


def keys_only(value: Any) -> str:
    """The structure: keys (nested), array lengths, and the keys of the objects an array holds."""

    def shape(v: Any) -> str:
        if isinstance(v, dict):
            return "{" + ", ".join(_key(k) + suffix(x) for k, x in v.items()) + "}" if v else "{}"
        if isinstance(v, list):
            objs = [x for x in v if isinstance(x, dict)]
            if objs:
                merged: dict[str, Any] = {}
                for o in objs:
                    for k, x in o.items():
                        merged.setdefault(k, x)
                return f"[{len(v)}]: " + shape(merged)
            return f"[{len(v)}]"
        return ""

    def suffix(v: Any) -> str:
        s = shape(v)
        return ": " + s if s.startswith("{") else s

    if isinstance(value, dict):
        return "\n".join(_key(k) + suffix(x) for k, x in value.items()) if value else "{}"
    return shape(value) or "(a single value)"


def _key(k: str) -> str:
    return k if k and all(c.isalnum() or c in "_-.$@" for c in k) else _str(k)
