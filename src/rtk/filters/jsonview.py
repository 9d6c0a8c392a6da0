"""A compact view of JSON for curl, wget, jq and ``rtk json``: values kept as written, whole up to a token budget.

Numbers are printed exactly as the document wrote them (``1.10``, ``1e400``),
strings with their value (escapes may be written differently), keys in their
order. Containers go on one line when they fit, else one member per line.
A document is data: :func:`compact` shows it whole up to ``limits.json_budget``
tokens; above it every array item keeps its scalar members and says how many keys
or items its nested containers hold (``{…4 keys}``); above that too, arrays show their
first ``limits.json_max_items`` items and name the positions left out. What is left
out is counted: array items, the end of very long strings, and containers below ``depth``.
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

    def __init__(self, max_items: int, max_string: int, depth: int | None = None, flat: bool = False) -> None:
        self.max_items = max_items  # 0: no cap
        self.max_string = max_string
        self.depth = depth
        self.flat = flat  # array items: scalar members only, nested containers counted
        self.cut = 0
        self.lost = 0  # scalar values left out (array items cut, nested containers counted)

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
            shown = v if cap <= 0 or len(v) <= cap + 1 else v[:cap]
            if self.flat and _table(shown):
                keys = list(shown[0])
                parts = ["|".join(_key(k) for k in keys), *("|".join(self._counted(x[k]) for k in keys) for x in shown)]
                return (
                    "["
                    + f"{len(v)} rows, one per line: "
                    + ",\n".join("  " * (ind + 1) + p for p in parts).lstrip()
                    + "]"
                )
            item = self._flat if self.flat else self._r
            parts = [item(x, ind + 1, level + 1) for x in shown]
            if len(shown) < len(v):
                rest = len(v) - len(shown)
                self.cut += rest
                self.lost += sum(_leaves(x) for x in v[len(shown) :])
                parts.append(f"… +{rest} more items ({len(v)} in all: items {len(shown) + 1}-{len(v)} left out)")
            return self._wrap("[", "]", parts, ind)
        return self._scalar(v)

    def _flat(self, v: Any, ind: int, level: int) -> str:
        """An array item with its scalar members; a nested container as ``{…4 keys}`` / ``[…3 items]``."""
        if isinstance(v, dict):
            parts = [f"{_str(k)}: {self._counted(x)}" for k, x in v.items()]
            return self._wrap("{", "}", parts, ind) if parts else "{}"
        return self._counted(v)

    def _counted(self, v: Any) -> str:
        if isinstance(v, dict | list) and v:
            self.lost += _leaves(v)
        if isinstance(v, dict) and v:
            self.cut += len(v)
            return f"{{…{len(v)} {'key' if len(v) == 1 else 'keys'}}}"
        if isinstance(v, list) and v:
            self.cut += len(v)
            return f"[…{len(v)} {'item' if len(v) == 1 else 'items'}]"
        return self._scalar(v) if not isinstance(v, dict | list) else ("{}" if isinstance(v, dict) else "[]")

    @staticmethod
    def _wrap(op: str, cl: str, parts: list[str], ind: int) -> str:
        if 3 * len(parts) <= WIDTH:  # more parts cannot fit on one line (one character and ", " each)
            one = op + ", ".join(parts) + cl
            if "\n" not in one and len(one) + 2 * ind <= WIDTH:
                return one
        pad = "  " * (ind + 1)
        return op + "\n" + ",\n".join(pad + p for p in parts) + "\n" + "  " * ind + cl


def _leaves(v: Any) -> int:
    """Scalar values in ``v`` (itself when it is one)."""
    if isinstance(v, dict):
        return sum(_leaves(x) for x in v.values())
    if isinstance(v, list):
        return sum(_leaves(x) for x in v)
    return 1


def _table(items: list[Any]) -> bool:
    """At least two objects with the same keys in the same order: one header, then a row of values each."""
    if len(items) < 2 or not isinstance(items[0], dict) or not items[0]:
        return False
    keys = list(items[0])
    return all(isinstance(x, dict) and list(x) == keys for x in items)


def compact(value: Any, depth: int | None = None) -> tuple[str, int]:
    """The view of a parsed document and the values it leaves out: whole up to ``limits.json_budget``
    tokens; above it array items with their scalar members (nested containers counted, objects with
    the same keys as a table), when that fits the budget and leaves out fewer values than the third
    view: arrays cut at ``limits.json_max_items`` items, the positions left out named."""
    from rtk import config, tokens

    max_string = int(config.get("limits.json_max_string"))
    budget = int(config.get("limits.json_budget"))
    view = View(0, max_string, depth)
    text = view.render(value)
    if tokens.estimate(text) <= budget:
        return text, view.cut
    flat = View(0, max_string, depth, flat=True)
    flat_text = flat.render(value)
    view = View(int(config.get("limits.json_max_items")), max_string, depth)
    text = view.render(value)
    if tokens.estimate(flat_text) <= budget and flat.lost <= view.lost:
        return flat_text, flat.cut  # fewer values left out than the first items of each array
    return text, view.cut


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
