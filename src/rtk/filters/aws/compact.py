"""A compact rendering of an aws JSON response: keys unquoted, small objects on one line, every value kept."""

from __future__ import annotations

from rtk.filterapi import Unrecognized

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WIDTH = 160


def _scalar(v: Any, num: type) -> str:
    import json

    if isinstance(v, num):
        return str.__str__(v)
    if isinstance(v, str):
        return v if _plain(v) else json.dumps(v, ensure_ascii=False)
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    return json.dumps(v)  # pragma: no cover


def _plain(v: str) -> bool:
    """True when a string reads back as itself unquoted: not a number, keyword, or text with delimiters."""
    if not v or v.strip() != v or v in ("true", "false", "null") or v[0] in "-\"'#&*!|>%@`?":
        return False
    if any(c in v for c in ',{}[]"\n\t') or ": " in v or v.endswith(":"):
        return False
    try:
        float(v)
    except ValueError:
        return True
    return False


def _key(k: str) -> str:
    import json

    return k if k and all(c.isalnum() or c in "_-.$@/" for c in k) else json.dumps(k, ensure_ascii=False)


def _inline(v: Any, num: type) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)}: {_inline(x, num)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_inline(x, num) for x in v) + "]"
    return _scalar(v, num)


def _block(v: Any, ind: int, num: type, out: list[str], lead: str) -> None:
    """Append ``lead`` + v: on one line when it fits, else one member per line indented by one space."""
    one = lead + _inline(v, num)
    if len(one) + ind <= WIDTH or not isinstance(v, (dict, list)) or not v:
        out.append(" " * ind + one)
        return
    if isinstance(v, dict):
        if lead == "- ":  # a list item: its first member goes on the dash line
            first = len(out)
            for k, x in v.items():
                _block(x, ind + 2, num, out, f"{_key(k)}: ")
            out[first] = " " * ind + "- " + out[first].lstrip(" ")
            return
        out.append(" " * ind + lead.rstrip())
        for k, x in v.items():
            _block(x, ind + 1, num, out, f"{_key(k)}: ")
    else:
        out.append(" " * ind + lead.rstrip())
        for x in v:
            _block(x, ind + 1, num, out, "- ")


def render(text: str) -> str:
    """The whole response, each member once, nothing left out; raises ``Unrecognized`` on invalid JSON."""
    from rtk.filters.jsonview import Num, loads

    try:
        value = loads(text)
    except ValueError as e:
        raise Unrecognized(f"not JSON: {e}") from None
    out: list[str] = []
    if isinstance(value, dict):
        for k, x in value.items():
            _block(x, 0, Num, out, f"{_key(k)}: ")
    else:
        _block(value, 0, Num, out, "")
    return "\n".join(out) + "\n"
