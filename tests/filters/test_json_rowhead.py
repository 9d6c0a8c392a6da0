"""The JSON table view's header of shared and derived values: unit cases and a lossless round trip."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters.aws import compact
from rtk.filters.aws.rowhead import factor, ident
from rtk.filters.jsonview import Num, loads


def table(rows: list[Any], share: bool = True) -> list[str]:
    out = compact._table(loads(json.dumps(rows)), Num, share)
    assert out is not None
    return out


def headed(v: list[Any]) -> list[str] | None:
    """The table with its header of shared and derived values, whether or not it pays (``_table`` compares)."""
    plain = compact._table(v, Num, False)
    if plain is None:
        return None
    flat = compact._spread(v) if compact._dotless(v) else v
    cols = list(dict.fromkeys(k for x in flat for k in x))
    shared, derived, left = factor(flat, cols, Num)
    return compact._rows(flat, left, Num, shared, derived)


# --- a test-side reader of the table format ------------------------------------------------
def _split(s: str, sep: str) -> list[str]:
    """``s`` split at ``sep`` outside JSON strings and brackets."""
    parts, depth, quoted, i, start = [], 0, False, 0, 0
    while i < len(s):
        c = s[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif depth == 0 and s.startswith(sep, i):
            parts.append(s[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    parts.append(s[start:])
    return parts


def _key(s: str) -> tuple[str, str]:
    """A key (bare or JSON-quoted) at the start of ``s``, and the rest."""
    if s.startswith('"'):
        k, end = json.JSONDecoder().raw_decode(s)
        return k, s[end:]
    i = 0
    while i < len(s) and (s[i].isalnum() or s[i] in "_-.$@/"):
        i += 1
    return s[:i], s[i:]


def value(s: str) -> Any:
    """One inline value as the view prints it."""
    if s.startswith('"'):
        return json.loads(s)
    if s.startswith("{"):
        inner = s[1:-1]
        out = {}
        for part in _split(inner, ", ") if inner else []:
            k, rest = _key(part)
            assert rest.startswith(": ")
            out[k] = value(rest[2:])
        return out
    if s.startswith("["):
        inner = s[1:-1]
        return [value(p) for p in _split(inner, ", ")] if inner else []
    if s in ("true", "false", "null"):
        return {"true": True, "false": False, "null": None}[s]
    try:
        float(s)
    except ValueError:
        return s
    return Num(s)


def _fill(template: str, row: dict[str, Any]) -> str:
    out, i = [], 0
    while i < len(template):
        c = template[i]
        if template.startswith("{{", i) or template.startswith("}}", i):
            out.append(c)
            i += 2
        elif c == "{":
            end = template.index("}", i)
            src = row[template[i + 1 : end]]
            out.append(str.__str__(src))
            i = end + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _unspread(flat: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, x in flat.items():
        at = out
        *path, last = k.split(".")
        for p in path:
            at = at.setdefault(p, {})
        at[last] = x
    return out


def read(lines: list[str]) -> list[dict[str, Any]]:
    """The rows back from the header line, the optional ``every row:``/``per row:`` lines and the rows."""
    head = lines[0]
    count = int(head[1 : head.index(" ")])
    cols = [_key(c)[0] for c in _split(head[head.index("] ") + 2 :], "|")]
    shared: dict[str, Any] = {}
    derived: dict[str, str] = {}
    body = lines[1:]
    if body and body[0].startswith("every row: "):
        for part in _split(body.pop(0)[len("every row: ") :], ", "):
            k, rest = _key(part)
            shared[k] = value(rest[1:])
    if body and body[0].startswith("per row: "):
        for part in _split(body.pop(0)[len("per row: ") :], ", "):
            k, rest = _key(part)
            derived[k] = rest[3:]
    assert len(body) == count
    rows = []
    for line in body:
        cells = _split(line, "|")
        assert len(cells) == len(cols)
        row = {k: value(c) for k, c in zip(cols, cells, strict=True) if c != ""}
        row.update(shared)
        row.update({k: _fill(t, row) for k, t in derived.items()})
        rows.append(_unspread(row))
    return rows


def same(a: list[Any], b: list[Any]) -> bool:
    """Equal as JSON, types told apart, key order within an object ignored."""

    def norm(v: Any) -> Any:
        if isinstance(v, dict):
            return ("o", frozenset((k, norm(x)) for k, x in v.items()))
        if isinstance(v, list):
            return ("a", tuple(norm(x) for x in v))
        return ident(v, Num)

    return norm(a) == norm(b)


def roundtrip(rows: list[Any]) -> list[str]:
    original = loads(json.dumps(rows))
    lines = headed(original)
    assert lines is not None
    assert same(read(lines), original), lines
    return lines


# --- unit cases ----------------------------------------------------------------------------
URL = "https://api.example/repos/o/r/issues/"
TITLES = ["", "Crash on start", "Slow sync", "Docs typo", "Bad label", "Lost page", "Odd row"]


def issues(n: int) -> list[dict[str, Any]]:
    return [
        {"url": f"{URL}{i}", "comments_url": f"{URL}{i}/comments", "number": i, "locked": False, "title": TITLES[i]}
        for i in range(1, n + 1)  # numbers shorter than SOURCE_MIN: url stays a column
    ]


def test_a_value_every_row_has_is_said_once_and_left_out_of_the_rows() -> None:
    lines = roundtrip(issues(3))
    assert lines[1] == "every row: locked false"
    assert all("false" not in row for row in lines[3:])
    assert lines[0] == "[3 rows] url|number|title"


def test_a_value_one_row_lacks_or_changes_stays_in_every_row() -> None:
    rows = issues(3)
    rows[1]["locked"] = True
    assert "locked" in roundtrip(rows)[0]
    del rows[1]["locked"]
    lines = roundtrip(rows)
    assert "locked" in lines[0] and "key absent" in lines[0]


def test_a_string_built_from_another_field_is_a_template() -> None:
    lines = roundtrip(issues(3))
    assert lines[2] == "per row: comments_url = {url}/comments"
    assert not any("/comments" in row for row in lines[3:])


def test_a_url_that_breaks_the_template_in_one_row_keeps_the_column() -> None:
    rows = issues(3)
    rows[2]["comments_url"] = "https://elsewhere.example/c/3"
    lines = roundtrip(rows)
    assert not any(line.startswith("per row:") for line in lines)
    assert lines[-1].count("https://elsewhere.example/c/3") == 1


def test_literal_braces_in_a_template_are_doubled() -> None:
    rows = [{"url": f"{URL}{i}", "labels_url": f"{URL}{i}/labels{{/name}}", "n": i} for i in (5, 6)]
    lines = roundtrip(rows)
    assert lines[1] == "per row: labels_url = {url}/labels{{/name}}"


def test_nested_members_are_shared_as_spread_columns() -> None:
    rows = [{"id": i, "user": {"login": f"u{i}", "type": "User"}, "r": {"total": 0}} for i in (11, 12)]
    lines = roundtrip(rows)
    assert lines[1] == "every row: user.type User, r.total 0"
    assert lines[0] == "[2 rows] id|user.login"


def test_equal_text_of_another_type_is_not_shared() -> None:
    for vals in ([1, "1"], ["1", True], [1, True], [None, "null"], [1, 1.0], [{"a": 1}, {"a": "1"}]):
        rows = [{"k": v, "id": f"row{i}"} for i, v in enumerate(vals)]
        lines = roundtrip(rows)
        assert not lines[1].startswith("every row:"), (vals, lines)


def test_non_string_values_are_shared_with_their_type() -> None:
    rows = [{"id": i, "n": 0, "s": "0", "b": True, "z": None, "a": [1, "x"], "o": {}} for i in (1, 2)]
    lines = roundtrip(rows)
    assert lines[1] == 'every row: n 0, s "0", b true, z null, a [1, x], o {}'


def test_a_number_source_reads_as_written() -> None:
    rows = [{"id": Num(str(i)), "html": f"https://h.example/p/{i}"} for i in (1234, 1235)]
    lines = roundtrip([{"id": int(r["id"]), "html": r["html"]} for r in rows])
    assert lines[1] == "per row: html = https://h.example/p/{id}"


def test_a_template_is_never_built_on_a_short_value() -> None:
    rows = [{"id": f"c-700{i}", "n": str(i)} for i in (1, 2, 3)]
    assert not any(line.startswith("per row:") for line in roundtrip(rows))


def test_rows_all_alike_keep_their_first_column() -> None:
    lines = roundtrip([{"a": 1, "b": "x"}] * 3)
    assert lines == ["[3 rows] a", "every row: b x", "1", "1", "1"]


def test_the_header_is_dropped_when_it_does_not_pay() -> None:
    rows = [{"a": 1, "b": 2}, {"a": 3, "b": 2}]
    assert headed(loads(json.dumps(rows))) == ["[2 rows] a", "every row: b 2", "1", "3"]
    assert table(rows) == table(rows, share=False) == ["[2 rows] a|b", "1|2", "3|2"]


def test_the_header_is_used_when_it_pays() -> None:
    lines = table(issues(6))
    assert lines[1:3] == ["every row: locked false", "per row: comments_url = {url}/comments"]


def test_empty_arrays_and_non_tables_are_unchanged() -> None:
    assert compact._table([], Num) is None
    assert compact._table([{"a": 1}], Num) is None
    text = '{"items": [], "n": 1}'
    assert compact.render(text) == compact.render(text, share=False) == "items: []\nn: 1\n"


def test_render_is_never_larger_than_without_the_header() -> None:
    from rtk.tokens import estimate_shaped

    text = json.dumps({"Items": issues(6), "Count": 6})
    assert estimate_shaped(compact.render(text)) < estimate_shaped(compact.render(text, share=False))


def test_factor_reports_columns_left() -> None:
    shared, derived, left = factor(
        loads(json.dumps(issues(2))), ["url", "comments_url", "number", "locked", "title"], Num
    )
    assert shared == {"locked": False}
    assert derived == {"comments_url": "{url}/comments"}
    assert left == ["url", "number", "title"]


# --- the round trip over generated tables --------------------------------------------------
_KEYS = st.sampled_from(["id", "url", "name", "state", "n", "a b", "x|y", "k,1", "c_url", "q{"])
_TEXT = st.sampled_from(["", "1", "true", "null", "a, b", "x|y", "{z}", "https://h/p/{a}", "-", "open", ' s "q" '])
_SCALAR = st.one_of(
    st.integers(-5, 5000), st.booleans(), st.none(), _TEXT, st.text("ab/{}:, |", max_size=6), st.just(1.5)
)
_VALUE = st.recursive(
    _SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=2), st.dictionaries(_KEYS, inner, min_size=1, max_size=2)),
    max_leaves=4,
)


@st.composite
def _tables(draw: st.DrawFn) -> list[dict[str, Any]]:
    n = draw(st.integers(2, 5))
    keys = draw(st.lists(_KEYS, min_size=1, max_size=5, unique=True))
    common = {k: draw(_VALUE) for k in keys}
    rows = []
    for i in range(n):
        row: dict[str, Any] = {}
        for k in keys:
            kind = draw(st.sampled_from(["same", "same", "own", "built", "gone"]))
            if kind == "same":
                row[k] = common[k]
            elif kind == "own":
                row[k] = draw(_VALUE)
            elif kind == "built":
                row[k] = f"{draw(_TEXT)}{i * 1000 + 100}{draw(_TEXT)}"
        row["id"] = i * 1000 + 100
        row["url"] = f"https://h/x/{i * 1000 + 100}/{{y}}"
        rows.append(row)
    return rows


@settings(max_examples=300, deadline=None)
@given(_tables())
def test_every_value_reads_back_from_header_and_rows(rows: list[dict[str, Any]]) -> None:
    original = loads(json.dumps(rows))
    lines = headed(original)
    if lines is None:  # too sparse or a cell too long: not a table, nothing to prove here
        return
    assert same(read(lines), original), lines


def test_a_table_of_thousands_of_columns_is_factored_in_bounded_time() -> None:
    """Every column pair was tried against every row: 2000 columns (70 KB of JSON) took 14 s."""
    import time

    n = 2000
    rows = [{f"c{i}": "aaaa" for i in range(n)}, {f"c{i}": f"b{i:05d}" for i in range(n)}]
    text = json.dumps({"Items": rows})
    start = time.monotonic()
    out = compact.render(text)
    assert time.monotonic() - start < 5
    assert all(f"b{i:05d}" in out for i in range(n))


def test_the_work_limit_leaves_columns_in_the_rows_rather_than_guessing(monkeypatch: Any) -> None:
    from rtk.filters.aws import rowhead

    rows = [{"id": f"id-{i}", "url": f"https://x/id-{i}"} for i in range(5)]
    assert factor(rows, ["id", "url"], Num)[1] == {"url": "https://x/{id}"}
    monkeypatch.setattr(rowhead, "WORK", 3)  # runs out on the fourth row
    shared, derived, left = factor(rows, ["id", "url"], Num)
    assert (shared, derived, left) == ({}, {}, ["id", "url"])
