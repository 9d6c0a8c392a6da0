"""JSON for the hook hot path: CPython's C scanner and string encoder, without importing ``json``.

``import json`` pulls in ``re`` and costs more than the rest of a hook run. The
C accelerator ``_json`` holds the parts that matter; this module drives them.
Output is always ASCII (``\\uXXXX`` escapes), compact and on one line.
"""

from __future__ import annotations

import _json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _constant(name: str) -> float:
    """NaN and Infinity are not JSON: refused (an answer could not carry them back)."""
    raise ValueError(f"not JSON: {name}")


def _finite(text: str) -> float:
    """A number; one past a double's range (1e999) is refused, as it could only be echoed back as null."""
    v = float(text)
    if v in (float("inf"), float("-inf")):
        raise ValueError(f"number out of range: {text[:20]}")
    return v


class _Context:
    """The attributes ``_json.make_scanner`` reads from a ``json.JSONDecoder``."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = staticmethod(_finite)
    parse_int = int
    parse_constant = staticmethod(_constant)
    memo: dict[str, str] = {}  # noqa: RUF012 - read by the C scanner


_scan = _json.make_scanner(_Context())  # type: ignore[arg-type]
_WS = " \t\n\r"


def loads(text: str) -> Any:
    """Parse one JSON document; ``ValueError`` if ``text`` is not exactly one."""
    i = 0
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    try:
        value, end = _scan(text, i)
    except StopIteration:
        raise ValueError("not JSON") from None
    while end < n and text[end] in _WS:
        end += 1
    if end != n:
        raise ValueError("extra data after the JSON document")
    return value


_str = _json.encode_basestring_ascii


def dumps(value: Any) -> str:
    """Compact, ASCII-only JSON for dicts, lists, strings, numbers, booleans and None."""
    out: list[str] = []
    _dump(value, out)
    return "".join(out)


def _dump(v: Any, out: list[str]) -> None:
    if isinstance(v, str):
        out.append(_str(v))
    elif v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(int.__repr__(v))
    elif isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError("NaN and infinities have no JSON form")  # never a changed value
        out.append(float.__repr__(v))
    elif isinstance(v, dict):
        out.append("{")
        first = True
        for k, x in v.items():
            if not first:
                out.append(",")
            first = False
            out.append(_str(k if isinstance(k, str) else str(k)))
            out.append(":")
            _dump(x, out)
        out.append("}")
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            _dump(x, out)
        out.append("]")
    else:
        out.append(_str(str(v)))
