"""Unit tests for the aws and psql families: what runs filtered, what stays raw."""

from __future__ import annotations

from rtk import filters
from rtk.filters import jsonview
from rtk.filters.aws import api, compact, s3
from rtk.filters.psql import psql


def name(argv: list[str]) -> str | None:
    spec = filters.resolve(argv)
    return spec.name if spec else None


def test_aws_select_passes_data_and_interactive_forms_through() -> None:
    assert name(["aws", "s3", "cp", "s3://b/k", "-"]) is None  # object bytes on stdout
    assert name(["aws", "configure"]) is None
    assert name(["aws", "ec2", "help"]) is None
    assert name(["aws", "logs", "tail", "/g", "--follow"]) is None
    assert name(["aws", "ec2", "describe-instances", "--output", "yaml"]) is None
    assert name(["aws", "--endpoint-url", "http://x", "s3", "ls"]) == "aws-s3"
    assert name(["aws", "--region", "eu-west-1", "sts", "get-caller-identity"]) == "aws"


def test_psql_select_needs_a_command_and_no_format_flag() -> None:
    assert name(["psql", "-d", "shop"]) is None  # interactive session
    assert name(["psql", "-c", "select 1", "-A"]) is None
    assert name(["psql", "--csv", "-c", "select 1"]) is None
    assert name(["psql", "-d", "shop", "-c", "select 1"]) == "psql"
    assert name(["psql", "--file=x.sql"]) == "psql"


def test_compact_keeps_every_value_and_quotes_what_would_read_back_differently() -> None:
    out = compact.render('{"A": "123", "B": 123, "C": "true", "D": "a, b", "E": [], "F": null, "G": "x: y"}')
    assert out.splitlines() == ['A: "123"', "B: 123", 'C: "true"', 'D: "a, b"', "E: []", "F: null", 'G: "x: y"']


def test_api_text_output_and_one_line_errors_stay_raw() -> None:
    assert api.api(["aws"], "i-1\tt3.micro\trunning\n", 0) is None
    err = "\nAn error occurred (AccessDenied) when calling the GetObject operation: Access Denied\n"
    assert api.api(["aws"], err, 255) is None


def test_s3_mixed_transfer_and_error_keeps_the_error() -> None:
    out = "upload: ./a to s3://b/a\nupload failed: ./c to s3://b/c An error occurred (AccessDenied)\n"
    text = s3.s3(["aws", "s3", "cp"], out, 1)
    assert isinstance(text, str) and "upload failed: ./c" in text and "AccessDenied" in text


def test_psql_multiline_cell_mark_and_single_column() -> None:
    raw = " n \n---\n 1\n 2\n(2 rows)\n\n"
    assert psql.psql(["psql"], raw, 0) == "n\n1\n2\n(2 rows)\n"
    raw2 = " a | b  \n---+----\n x | y +\n   | z\n(1 row)\n"
    assert psql.psql(["psql"], raw2, 0) == "a|b\nx|y +\n|z\n(1 row)\n"


def test_compact_object_list_becomes_a_table_with_every_value() -> None:
    doc = '{"Items": [{"k": "a|b", "n": 1, "e": ""}, {"k": "c", "n": 2, "x": null}, {"k": "d", "n": 3, "e": "z"}]}'
    # the list is too long for one line only when wide: force a block by a long value
    out = compact.render(doc.replace('"c"', '"' + "c" * 250 + '"'))
    assert "Items:" in out and "|" not in out.splitlines()[0][len("Items:") :]  # a cell over CELL: block form
    lines = compact.render(doc.replace('"d"', '"' + "d" * 110 + '"')).splitlines()
    assert lines[0] == "Items: [3 rows, empty cell: key absent] k|n|e|x"
    assert lines[1] == ' "a|b"|1|""|'  # the delimiter inside a value is quoted, the empty string is ""
    assert lines[2] == " c|2||null"
    assert lines[3] == " " + "d" * 110 + "|3|z|"


def test_s3_listing_groups_keys_under_prefixes_with_every_size_and_time() -> None:
    raw = (
        "2026-11-24 07:20:36          5 top.txt\n"
        "2026-11-24 07:20:36          0 service-logs/\n"
        "2026-11-24 07:20:36        700 service-logs/a b.log\n"
        "2026-11-23 09:00:00       7000 service-logs/2026/x.gz\n"
        "2026-11-24 07:20:36         12 service-logs/c.log\n"
        "2026-11-24 07:20:36         13 service-logs/d.log\n"
    )
    out = s3.s3(["aws", "s3", "ls", "--recursive", "s3://b/"], raw, 0)
    assert out == (
        "6 objects as size name under their prefix, modified 2026-11-24 07:20:36 unless the line says:\n"
        " 5 top.txt\n 0 service-logs/\nservice-logs/\n 700 a b.log\n 12 c.log\n 13 d.log\n"
        "service-logs/2026/\n 2026-11-23 09:00:00 7000 x.gz\n"
    )
    short = "2026-11-24 07:20:36          5 top.txt\n"
    assert s3.s3(["aws", "s3", "ls"], short, 0) == "2026-11-24 07:20:36 5 top.txt\n"


def test_s3_prefix_listing_loses_its_padding() -> None:
    raw = "                           PRE assets/\n2026-11-24 07:20:36         24 index.html\n"
    assert s3.s3(["aws", "s3", "ls", "s3://b/"], raw, 0) == "PRE assets/\n2026-11-24 07:20:36 24 index.html\n"


def test_psql_expanded_records_keep_every_key_value_and_continuation() -> None:
    raw = "-[ RECORD 1 ]------\nid   | 1\nbody | one   +\n     | two\nnote | \n-[ RECORD 2 ]------\nid   | 2\nbody | x\nnote | a | b\n\n"
    assert psql.psql(["psql", "-x"], raw, 0) == (
        "-[ RECORD 1 ]\nid|1\nbody|one   +\n|two\nnote|\n-[ RECORD 2 ]\nid|2\nbody|x\nnote|a | b\n"
    )


def test_psql_expanded_records_alike_become_one_table_with_every_value() -> None:
    raw = "-[ RECORD 1 ]-\nid   | 1\nname | Ada\nnote | \n-[ RECORD 2 ]-\nid   | 2\nname | Grace\nnote | x y\n\n"
    assert psql.psql(["psql", "-x"], raw, 0) == "[2 records] id|name|note\n1|Ada|\n2|Grace|x y\n"


def test_psql_expanded_records_stay_records_when_a_table_would_not_read_back() -> None:
    rec = "-[ RECORD {} ]-\nid   | {}\nname | {}\n"
    other_keys = rec.format(1, 1, "Ada") + "-[ RECORD 2 ]-\nid   | 2\nmail | g@x\n"
    pipe = rec.format(1, 1, "Ada") + rec.format(2, 2, "a | b")
    one = rec.format(1, 1, "Ada")
    wide = rec.format(1, 1, "A" * 300) + rec.format(2, 2, "B")
    text = "Expanded display is on.\n" + rec.format(1, 1, "Ada") + rec.format(2, 2, "Grace")
    for raw in (other_keys, pipe, one, wide, text):
        out = psql.psql(["psql", "-x"], raw, 0)
        assert isinstance(out, str) and "-[ RECORD 1 ]\n" in out and "records]" not in out, raw


def test_compact_table_spreads_nested_objects_into_member_columns() -> None:
    doc = (
        '{"Functions": [{"Name": "a", "Env": {"Vars": {"STAGE": "prod"}}, "Snap": {"On": "None", "St": "Off"}},'
        ' {"Name": "b", "Env": {"Vars": {"STAGE": "dev"}}, "Snap": {"On": "All", "St": "On"}}]}'
    )
    long = "x" * 90  # the list no longer fits on one line: a table, not inline
    lines = compact.render(doc.replace('"prod"', f'"{long}"')).splitlines()
    assert lines[0] == "Functions: [2 rows] Name|Env.Vars.STAGE|Snap.On|Snap.St"
    assert lines[1:] == [f" a|{long}|None|Off", " b|dev|All|On"]


def test_compact_table_does_not_spread_when_a_key_has_a_dot_or_the_member_is_not_always_an_object() -> None:
    dotted = '[{"n": 1, "u": {"a.b": 1}}, {"n": 2, "u": {"a.b": 2}}]'
    assert compact._table(jsonview.loads(dotted), jsonview.Num)[0] == "[2 rows] n|u"  # type: ignore[index]
    empty = '[{"n": 1, "u": {"": 1}}, {"n": 2, "u": {"": 2}}]'
    assert compact._table(jsonview.loads(empty), jsonview.Num)[0] == "[2 rows] n|u"  # type: ignore[index]
    mixed = '[{"n": 1, "u": {"a": 1}}, {"n": 2, "u": {}}, {"n": 3, "u": null}]'
    rows = compact._table(jsonview.loads(mixed), jsonview.Num)
    assert rows == ["[3 rows] n|u", "1|{a: 1}", "2|{}", "3|null"]


def test_one_per_line_keeps_every_element_whole() -> None:
    doc = '[{"id":1,"title":"a, b","user":{"login":"x"}},{"id":2,"title":"c","labels":[]}]'
    assert compact.one_per_line(doc) == '- {id: 1, title: "a, b", user: {login: x}}\n- {id: 2, title: c, labels: []}\n'
    assert compact.one_per_line('{"a":{"b":[1,2]},"c":null}') == "a: {b: [1, 2]}\nc: null\n"


_DT = (
    "            List of relations\n"
    " Schema |     Name      | Type  |  Owner   \n"
    "--------+---------------+-------+----------\n"
    " public | bins          | table | postgres\n"
    " public | items         | table | postgres\n"
    " public | stock_levels  | table | postgres\n"
    " public | stock_history | view  | postgres\n"
    "(4 rows)\n"
)


def test_psql_column_with_one_value_in_every_row_said_once() -> None:
    """Issue 16 (medians): Schema and Owner the same in every row are said once; every name and type stays."""
    assert psql.psql(["psql"], _DT, 0) == (
        "List of relations\n"
        "same in all 4 rows: Schema=public|Owner=postgres\n"
        "Name|Type\nbins|table\nitems|table\nstock_levels|table\nstock_history|view\n(4 rows)\n"
    )


def test_psql_said_once_only_when_empty_on_continuation_lines() -> None:
    """A value going on over the next line (`` +``): its column is never said once, the rows stay rows."""
    raw = (
        " name | owner    | acl\n"
        "------+----------+-----------------\n"
        " a    | postgres | =c/postgres    +\n"
        "      |          | postgres=CTc/x\n"
        " b    | postgres | =c/postgres    +\n"
        "      |          | postgres=CTc/x\n"
        " c    | postgres | =c/postgres    +\n"
        "      |          | postgres=CTc/x\n"
        "(3 rows)\n"
    )
    out = psql.psql(["psql"], raw, 0)
    assert isinstance(out, str)
    assert out.startswith("same in all 3 rows: owner=postgres\nname|acl\na|=c/postgres +\n|postgres=CTc/x\n")
    assert out.count("postgres=CTc/x") == 3


def test_psql_tables_with_nothing_to_say_once_stay_rows() -> None:
    two = " a | b \n---+---\n x | 1\n y | 1\n(2 rows)\n"  # two rows: too few
    assert psql.psql(["psql"], two, 0) == "a|b\nx|1\ny|1\n(2 rows)\n"
    alike = " a | b \n---+---\n x | 1\n x | 1\n x | 1\n(3 rows)\n"  # every column the same
    assert psql.psql(["psql"], alike, 0) == "a|b\nx|1\nx|1\nx|1\n(3 rows)\n"
    short = " a | b \n---+---\n x | 1\n y | 1\n z | 1\n(3 rows)\n"  # saying `b=1` once is not shorter
    assert psql.psql(["psql"], short, 0) == "a|b\nx|1\ny|1\nz|1\n(3 rows)\n"
