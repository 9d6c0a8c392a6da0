"""What the rows of a JSON table repeat, said once: values every row shares, strings built from another field.

``factor`` splits a table's columns three ways. A column whose value is the same (same
type, same value: ``1``, ``"1"`` and ``true`` differ) in every row, present in all of
them, is *shared*: ``every row: locked false, reactions.total_count 0``. A string column
that equals another column of the same row with a fixed prefix and suffix in every row
is *derived*, printed as a template in Python's format syntax (``{url}`` the other
column's value: a string's text, a number as written; literal braces doubled):
``per row: comments_url = {url}/comments``. The other columns stay in the rows. Exact
equality in every row or the column stays; nothing is guessed.

``common_members`` finds what every object of a list too wide for a table shares (the
instances of one ec2 reservation: type, image, subnet, options), said once under the list as
``every item has:``.

``derive_members`` does the same inside one object (GitHub's ``forks_url`` is its ``url``
plus ``/forks``): ``built from members: forks_url = {url}/forks, keys_url = {url}/keys``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# A source field's value is at least this long in every row: a short one (an order count of 1
# inside "c-7001") matches by chance, and a template built on it would read as a relation.
SOURCE_MIN = 3
# In a single object there is no second row to confirm a relation: a source is this long, the
# derived value starts with it (a URL plus a path), and an object this large is left alone.
MEMBER_SOURCE_MIN = 12
MEMBERS_MAX = 400
# A source is a URL or a path, never a blob: bounding it bounds the prefixes each value tries
# (a megabyte of base64 holds thousands of '/').
MEMBER_SOURCE_MAX = 2048
# Steps (column pairs tried, places a source's text is tried at, rows compared) the search for
# derived columns may take: a table of thousands of columns made it quadratic (70 KB of JSON
# took 14 s). Past this the columns not yet derived stay in the rows, which is always correct.
WORK = 200_000


def ident(v: Any, num: type) -> Any:
    """A hashable identity of a JSON value that tells types apart (a number ``1``, the string ``"1"``, ``true``)."""
    if isinstance(v, dict):
        return ("o", tuple((k, ident(x, num)) for k, x in v.items()))
    if isinstance(v, list):
        return ("a", tuple(ident(x, num) for x in v))
    if isinstance(v, num):
        return ("n", str.__str__(v))
    if isinstance(v, str):
        return ("s", v)
    return ("k", repr(v))  # True, False, None


def _bare(k: str) -> bool:
    return bool(k) and all(c.isalnum() or c in "_-.$@/" for c in k)


def _text(v: Any, num: type) -> str | None:
    """The text a template puts in place of a source field: a string, or a number as written."""
    if isinstance(v, num):
        return str.__str__(v)
    if isinstance(v, str):
        return v
    return None


def _template(prefix: str, src: str, suffix: str) -> str | None:
    """``prefix{src}suffix`` with literal braces doubled, or None when it would not read back in the header."""
    t = prefix.replace("{", "{{").replace("}", "}}") + "{" + src + "}" + suffix.replace("{", "{{").replace("}", "}}")
    if ", " in t or t.strip() != t or t.startswith('"') or any(ord(c) < 32 for c in t):
        return None
    return t


def _derive(rows: list[dict[str, Any]], col: str, src: str, num: type, work: list[int]) -> str | None:
    """The template that builds ``col`` from ``src`` in every row, or None (``work[0]``: steps left, spent here)."""
    first = rows[0][col]
    g = _text(rows[0][src], num)
    work[0] -= 1 + len(first) // 1024 if type(first) is str else 1
    if type(first) is not str or not g or len(g) < SOURCE_MIN:
        return None
    at = first.find(g)
    while at >= 0 and work[0] > 0:
        prefix, suffix = first[:at], first[at + len(g) :]
        ok = True
        for x in rows[1:]:
            work[0] -= 1
            f, s = x[col], _text(x[src], num)
            if type(f) is not str or not s or len(s) < SOURCE_MIN or f != prefix + s + suffix or work[0] <= 0:
                ok = False
                break
        if ok:
            return _template(prefix, src, suffix)
        at = first.find(g, at + 1)
    return None


def factor(rows: list[dict[str, Any]], cols: list[str], num: type) -> tuple[dict[str, Any], dict[str, str], list[str]]:
    """(shared column -> value, derived column -> template, columns left in the rows), for rows holding ``cols``."""
    everywhere = [k for k in cols if all(k in x for x in rows)]
    shared: dict[str, Any] = {}
    for k in everywhere:
        first = ident(rows[0][k], num)
        if all(ident(x[k], num) == first for x in rows[1:]):
            shared[k] = rows[0][k]
    if len(shared) == len(cols):  # every row alike: the first column stays, so each row still has a line
        shared.pop(cols[0])
    derived: dict[str, str] = {}
    sources: set[str] = set()
    left = [k for k in everywhere if k not in shared]
    bare = [src for src in left if _bare(src)]
    work = [WORK]
    for k in left:
        if k in sources:
            continue
        for src in bare:
            if work[0] <= 0:
                break
            if src == k or src in derived:
                continue
            t = _derive(rows, k, src, num, work)
            if t is not None:
                derived[k] = t
                sources.add(src)
                break
    return shared, derived, [k for k in cols if k not in shared and k not in derived]


def derive_members(obj: dict[str, Any], num: type) -> dict[str, str]:
    """Members of one object that are another member's text plus a fixed suffix -> template (``{url}/forks``).

    The source is the longest member whose text (at least ``MEMBER_SOURCE_MIN`` long, bare
    key) starts the value (of a bare key too) followed by a path, query or fragment (``/``,
    ``?``, ``#``); a member that is a source itself stays as it is, so a template never needs
    another template to read back. Each value's prefixes are looked up, so the cost grows
    with the text, not with the square of the members.
    """
    if len(obj) > MEMBERS_MAX:
        return {}
    by_text: dict[str, str] = {}
    for k, x in obj.items():
        t = _text(x, num)
        if t is not None and MEMBER_SOURCE_MIN <= len(t) <= MEMBER_SOURCE_MAX and _bare(k):
            by_text.setdefault(t, k)
    if not by_text:
        return {}
    longest = max(map(len, by_text))
    chosen: dict[str, tuple[str, int]] = {}
    for k, x in obj.items():
        if type(x) is not str or not _bare(k):
            continue
        for i in range(min(len(x) - 1, longest), MEMBER_SOURCE_MIN - 1, -1):  # the longest source first
            if x[i] in "/?#" and x[:i] in by_text and by_text[x[:i]] != k:
                chosen[k] = (by_text[x[:i]], i)
                break
    sources = {src for src, _ in chosen.values()}
    out: dict[str, str] = {}
    for k, (src, i) in chosen.items():
        if k in sources:
            continue
        t = _template("", src, obj[k][i:])
        if t is not None:
            out[k] = t
    return out


def common_members(items: list[Any], num: type) -> dict[str, Any]:
    """Members every object of ``items`` holds with the same value and type, when each object keeps another one."""
    if len(items) < 2 or not all(isinstance(x, dict) and x for x in items):
        return {}
    first = items[0]
    common = {k: x for k, x in first.items() if all(k in y and ident(y[k], num) == ident(x, num) for y in items[1:])}
    if any(len(y) <= len(common) for y in items):  # an object left with nothing: say them all as they are
        return {}
    return common
