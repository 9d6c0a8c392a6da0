"""A compact rendering of an aws JSON response: keys unquoted, small objects on one line, every value kept.

A list of objects that share their keys (events, functions, objects of a bucket, GitHub
issues) becomes a table: the keys once as a header, then one line per object with its values
split by ``|``. A member that is an object in every row that has it (``user``, ``reactions``)
is spread into one column per key, ``user.login``, when no key holds a dot (the header then
reads one way). Nothing is left out: a key an object lacks is an empty cell (an empty string
is ``""``).
"""

from __future__ import annotations

from rtk.filterapi import Unrecognized

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WIDTH = 160
CELL = 200  # a value longer than this inline keeps the list in block form (one member per line)
FILL = 0.75  # share of the cells an object list must fill to become a table


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
    if any(c in v for c in ',{}[]"|\n\t') or ": " in v or v.endswith(":"):
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


def _dotless(v: Any) -> bool:
    """True when no key of ``v``'s objects, at any depth, holds a dot or is empty."""
    if isinstance(v, dict):
        return all(k and "." not in k and _dotless(x) for k, x in v.items())
    if isinstance(v, list):
        return all(_dotless(x) for x in v)
    return True


def _spread(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Members that are a non-empty object in every row holding them become ``key.member`` columns."""
    nested = {k for x in rows for k, y in x.items() if isinstance(y, dict) and y}
    nested -= {k for x in rows for k, y in x.items() if not (isinstance(y, dict) and y)}
    if not nested:
        return rows
    out: list[dict[str, Any]] = []
    for x in rows:
        flat: dict[str, Any] = {}
        for k, y in x.items():
            if k in nested:
                flat.update((f"{k}.{m}", z) for m, z in y.items())
            else:
                flat[k] = y
        out.append(flat)
    return _spread(out)


def _table(v: list[Any], num: type, share: bool = True) -> list[str] | None:
    """A list of objects with shared keys as header lines + one ``|``-split line per object, or None.

    With ``share``, what every row repeats (``rowhead.factor``) is said once under the column
    header (``every row: ...``, ``per row: ...``) when that makes the table smaller.
    """
    if len(v) < 2 or not all(isinstance(x, dict) and x for x in v):
        return None
    if _dotless(v):
        v = _spread(v)
    cols: dict[str, None] = {}
    for x in v:
        cols.update(dict.fromkeys(x))
    if sum(len(x) for x in v) < FILL * len(v) * len(cols):
        return None
    plain = _rows(v, list(cols), num, {}, {})
    if not share:
        return plain
    from rtk.filters.aws.rowhead import factor

    shared, derived, left = factor(v, list(cols), num)
    if not shared and not derived:
        return plain
    headed = _rows(v, left, num, shared, derived)
    if headed is None:
        return plain
    if plain is not None:
        from rtk.tokens import estimate_shaped

        if estimate_shaped("\n".join(headed)) >= estimate_shaped("\n".join(plain)):
            return plain
    return headed


def _rows(
    v: list[dict[str, Any]], cols: list[str], num: type, shared: dict[str, Any], derived: dict[str, str]
) -> list[str] | None:
    """The column header, the ``every row:`` and ``per row:`` lines when any, and one line per object."""
    rows: list[str] = []
    for x in v:
        cells = [_inline(x[k], num) if k in x else "" for k in cols]
        if any(len(c) > CELL for c in cells):
            return None
        rows.append("|".join(cells))
    absent = any(k not in x for x in v for k in cols)
    note = ", empty cell: key absent" if absent else ""
    head = [f"[{len(v)} rows{note}] " + "|".join(_key(k) for k in cols)]
    if shared:
        head.append("every row: " + ", ".join(f"{_key(k)} {_inline(x, num)}" for k, x in shared.items()))
    if derived:
        head.append("per row: " + ", ".join(f"{_key(k)} = {t}" for k, t in derived.items()))
    return [*head, *rows]


def _block(v: Any, ind: int, num: type, out: list[str], lead: str, share: bool = True) -> None:
    """Append ``lead`` + v: on one line when it fits, else one member per line indented by one space."""
    one = lead + _inline(v, num)
    if len(one) + ind <= WIDTH or not isinstance(v, (dict, list)) or not v:
        out.append(" " * ind + one)
        return
    table = _table(v, num, share) if isinstance(v, list) else None
    if table is not None:
        out.append(" " * ind + lead + table[0])
        out.extend(" " * (ind + 1) + row for row in table[1:])
        return
    if isinstance(v, dict):
        if lead == "- ":  # a list item: its first member goes on the dash line
            first = len(out)
            _members(v, ind + 2, num, out, share)
            out[first] = " " * ind + "- " + out[first].lstrip(" ")
            return
        out.append(" " * ind + lead.rstrip())
        _members(v, ind + 1, num, out, share)
    else:
        out.append(" " * ind + lead.rstrip())
        common: dict[str, Any] = {}
        if share:
            from rtk.filters.aws.rowhead import common_members

            common = common_members(v, num)
        if common:  # what every object shares, once; then each object without it
            out.append(" " * (ind + 1) + "every item has:")
            _members(common, ind + 2, num, out, share)
            v = [{k: y for k, y in x.items() if k not in common} for x in v]
        for x in v:
            _block(x, ind + 1, num, out, "- ", share)


def _members(v: dict[str, Any], ind: int, num: type, out: list[str], share: bool) -> None:
    """Each member of an object on its own line(s); with ``share``, the members built from another
    member's value (``rowhead.derive_members``) on one ``built from members:`` line where the first was."""
    derived: dict[str, str] = {}
    if share:
        from rtk.filters.aws.rowhead import derive_members

        derived = derive_members(v, num)
    for k, x in v.items():
        if k not in derived:
            _block(x, ind, num, out, f"{_key(k)}: ", share)
        elif k == next(iter(derived)):
            out.extend(" " * ind + "built from members: " + line for line in _derived_lines(derived))


def _derived_lines(derived: dict[str, str]) -> list[str]:
    """``k = template`` entries on one line; three or more ``NAME_url = {src}/NAME`` members of one
    source said once each on their own line: ``X_url = {url}/X for X in forks, keys, teams``."""
    named: dict[str, list[str]] = {}
    for k, t in derived.items():
        name = k[:-4]
        if k.endswith("_url") and name and "," not in name and t.endswith("}/" + name) and t.startswith("{"):
            src = t[1 : -len(name) - 2]
            if _key(src) == src and "{" not in src and "}" not in src:
                named.setdefault(src, []).append(k)
    grouped = {k: src for src, ks in named.items() if len(ks) >= 3 for k in ks}
    lines = []
    rest = [f"{_key(k)} = {t}" for k, t in derived.items() if k not in grouped]
    if rest:
        lines.append(", ".join(rest))
    for src, ks in named.items():
        if len(ks) >= 3:
            lines.append(f"X_url = {{{src}}}/X for X in " + ", ".join(k[:-4] for k in ks))
    return lines


def render(text: str, share: bool = True) -> str:
    """The whole response, each member once, nothing left out; raises ``Unrecognized`` on invalid JSON.

    With ``share``, tables say their rows' shared and derived values once (``_table``); the
    result is never larger than the rendering without.
    """
    from rtk.filters.jsonview import Num, loads

    try:
        value = loads(text)
    except ValueError as e:
        raise Unrecognized(f"not JSON: {e}") from None

    def draw(share: bool) -> str:
        out: list[str] = []
        if isinstance(value, dict):
            _members(value, 0, Num, out, share)
        else:
            _block(value, 0, Num, out, "", share)
        return "\n".join(out) + "\n"

    plain = draw(False)
    if not share:
        return plain
    headed = draw(True)
    if headed == plain:
        return plain
    from rtk.tokens import estimate_shaped

    return headed if estimate_shaped(headed) < estimate_shaped(plain) else plain


def one_per_line(text: str) -> str:
    """Each element of a top-level array (or member of an object) on one line, inline, keys unquoted."""
    from rtk.filters.jsonview import Num, loads

    try:
        value = loads(text)
    except ValueError as e:
        raise Unrecognized(f"not JSON: {e}") from None
    if isinstance(value, dict):
        return "".join(f"{_key(k)}: {_inline(x, Num)}\n" for k, x in value.items())
    if isinstance(value, list):
        return "".join(f"- {_inline(x, Num)}\n" for x in value)
    return _inline(value, Num) + "\n"
