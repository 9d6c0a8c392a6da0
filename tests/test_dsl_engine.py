"""The TOML filter DSL: schema validation, first-word keys, and the 8 stages in their normative order."""

from __future__ import annotations

from typing import Any

import pytest

from rtk.dsl import engine, schema


def make(**fields: Any) -> dict[str, Any]:
    body = {"match_command": "^tool(\\s|$)", **fields}
    d, problems = schema.validate_filter("t", body, "test.toml")
    assert d is not None, problems
    return d


def run(d: dict[str, Any], text: str, code: int = 0) -> str:
    return engine.apply(d, text, code).text


# --- stages ---------------------------------------------------------------------------


def test_strip_ansi_comes_first() -> None:
    d = make(strip_ansi=True, keep_lines_matching=["^error"])
    assert run(d, "\x1b[31merror\x1b[0m: bad\nok\n") == "error: bad"


def test_replace_is_per_line_chained_with_backreferences() -> None:
    d = make(
        replace=[
            {"pattern": "(\\w+)=(\\d+)", "replacement": "$2<-$1"},
            {"pattern": "<-", "replacement": " from "},
            {"pattern": "(?P<w>x+)", "replacement": "${w}!$$"},
        ]
    )
    assert run(d, "a=1 b=2\nxx\n") == "1 from a 2 from b\nxx!$"
    assert run(d, "") == ""


def test_replacement_backslashes_are_literal() -> None:
    d = make(replace=[{"pattern": "/", "replacement": "\\"}])
    assert run(d, "a/b") == "a\\b"


def test_match_output_short_circuits_unless_failure_words() -> None:
    d = make(
        match_output=[{"pattern": "total size is", "message": "ok", "unless": "error|failed"}],
        strip_lines_matching=["^noise"],
    )
    res = engine.apply(d, "noise\nfile\ntotal size is 3\n")
    assert res.text == "ok" and res.short_circuit and res.dropped == 3
    assert run(d, "noise\nerror: x\ntotal size is 3") == "error: x\ntotal size is 3"


def test_match_output_sees_replaced_text_and_first_rule_wins() -> None:
    d = make(
        replace=[{"pattern": "DONE", "replacement": "finished"}],
        match_output=[
            {"pattern": "finished", "message": "first"},
            {"pattern": "finished", "message": "second"},
        ],
    )
    assert run(d, "DONE") == "first"


def test_failed_command_never_gets_a_success_message() -> None:
    d = make(match_output=[{"pattern": "ok", "message": "all good"}], strip_lines_matching=["."], on_empty="fine")
    assert run(d, "ok", 0) == "all good"
    res = engine.apply(d, "ok", 1)
    assert res.text == "" and not res.short_circuit  # the runner then prints the raw output


def test_strip_and_keep_lines() -> None:
    assert run(make(strip_lines_matching=["^#", "^$"]), "# c\n\nx\ny") == "x\ny"
    assert run(make(keep_lines_matching=["^E", "^W"]), "E1\ni\nW2") == "E1\nW2"


def test_truncate_counts_characters_not_bytes() -> None:
    res = engine.apply(make(truncate_lines_at=3), "ééééé\nab\n")
    assert res.text == "ééé…(+2 chars)\nab" and res.shortened == 1  # says how much was cut


def test_head_tail_and_max_lines_markers() -> None:
    lines = "\n".join(str(i) for i in range(1, 11))
    assert run(make(head_lines=2, tail_lines=2), lines) == "1\n2\n... (6 lines omitted)\n9\n10"
    assert run(make(head_lines=3), lines) == "1\n2\n3\n... (7 lines omitted)"
    assert run(make(tail_lines=1), lines) == "... (9 lines omitted)\n10"
    assert run(make(max_lines=4), lines) == "1\n2\n3\n4\n... (6 lines truncated)"
    res = engine.apply(make(head_lines=2, tail_lines=2, max_lines=3), lines)
    assert res.text == "1\n2\n... (6 lines omitted)\n... (2 lines truncated)"
    assert res.dropped == 8


def test_head_tail_cut_keeps_a_problem_line_of_the_middle_in_place() -> None:
    # dmesg: a kernel WARNING line between the head and the tail was cut (the fact guard restored it).
    lines = [f"[    0.{i:06d}] boot step {i}" for i in range(20)]
    lines[9] = "[    0.311131] Speculative Return Stack Overflow: WARNING: See https://kernel.org/srso.html"
    res = engine.apply(make(head_lines=2, tail_lines=2), "\n".join(lines))
    out = res.text.split("\n")
    assert out[2:5] == ["... (7 lines omitted)", lines[9], "... (8 lines omitted)"]
    assert out[:2] == lines[:2] and out[-2:] == lines[-2:]
    assert res.dropped == 15


def test_head_tail_cut_keeps_the_problem_line_in_place_after_non_ascii_lines() -> None:
    # The guard gives character offsets: counting line breaks in UTF-8 bytes put the kept line
    # 26 lines early (a plain line kept, the error dropped) when accented lines came before it.
    lines = [f"étape {i}: café préparé" for i in range(40)] + ["src/app.py:12: error: boom"]
    lines += [f"étape {i}: fin" for i in range(41, 50)]
    res = engine.apply(make(head_lines=2, tail_lines=2), "\n".join(lines))
    out = res.text.split("\n")
    assert out[2:5] == ["... (38 lines omitted)", "src/app.py:12: error: boom", "... (7 lines omitted)"]


def test_stage_order_strip_before_head() -> None:
    d = make(strip_lines_matching=["^x"], head_lines=2)
    assert run(d, "x\nx\na\nb\nc") == "a\nb\n... (1 lines omitted)"


def test_table_cells_keep_every_cell_in_its_column() -> None:
    """Issue 16: packing docker's padding into two spaces put a portless container's name under PORTS."""
    d = make(table_cells=True)
    table = (
        "CONTAINER ID   NAMES    PORTS       SIZE\n"
        "abc            web      80/tcp        1MB\n"
        "def            db                   200kB\n"
        "\n"
        "ghi            cache\n"
    )
    assert run(d, table).split("\n") == [
        "CONTAINER ID\tNAMES\tPORTS\tSIZE",
        "abc\tweb\t80/tcp\t1MB",
        "def\tdb\t\t200kB",  # an empty cell stays empty; a right-aligned one is read whole
        "",
        "ghi            cache",  # a blank line ends a table: a lone line after it is no table
    ]


def test_table_cells_one_space_padding_and_right_aligned_columns() -> None:
    """lsof/netstat pad with one space and right-align numbers: every empty cell keeps its neighbours in place."""
    lsof = (
        "COMMAND   PID  TID TASKCMD USER   FD      TYPE DEVICE SIZE/OFF NODE NAME\n"
        "python3  9870              root  cwd       DIR  254,0     4096    2 /tmp\n"
        "python3  9870 9913 python3 root  cwd       DIR  254,0     4096    2 /tmp\n"
        "proc_a      1              root  rtd   unknown                      /proc/1/root (readlink: denied)\n"
    )
    assert run(make(table_cells=True), lsof).split("\n") == [
        "COMMAND\tPID\tTID\tTASKCMD\tUSER\tFD\tTYPE\tDEVICE\tSIZE/OFF\tNODE\tNAME",
        "python3\t9870\t\t\troot\tcwd\tDIR\t254,0\t4096\t2\t/tmp",
        "python3\t9870\t9913\tpython3\troot\tcwd\tDIR\t254,0\t4096\t2\t/tmp",
        "proc_a\t1\t\t\troot\trtd\tunknown\t\t\t\t/proc/1/root (readlink: denied)",
    ]
    netstat = (
        "Active Internet connections (servers and established)\n"
        "Proto Recv-Q Send-Q Local Address           Foreign Address         State       PID/Program name    \n"
        "tcp        0      0 127.0.0.1:43459         0.0.0.0:*               LISTEN      9870/python3        \n"
        "udp        0      0 127.0.0.1:56274         0.0.0.0:*                           9870/python3        \n"
        "Active UNIX domain sockets (servers and established)\n"
        "Proto RefCnt Flags       Type       State         I-Node   Path\n"
        "unix  2      [ ACC ]     STREAM     LISTENING     21555    /run/x.sock\n"
    )
    assert run(make(table_cells=True), netstat).split("\n") == [
        "Active Internet connections (servers and established)",  # a title ends one table, starts none
        "Proto\tRecv-Q\tSend-Q\tLocal Address\tForeign Address\tState\tPID/Program name",
        "tcp\t0\t0\t127.0.0.1:43459\t0.0.0.0:*\tLISTEN\t9870/python3",
        "udp\t0\t0\t127.0.0.1:56274\t0.0.0.0:*\t\t9870/python3",  # no State: the program stays after it
        "Active UNIX domain sockets (servers and established)",
        "Proto\tRefCnt\tFlags\tType\tState\tI-Node\tPath",
        "unix\t2\t[ ACC ]\tSTREAM\tLISTENING\t21555\t/run/x.sock",
    ]


def test_table_cells_heading_words_with_no_data_under_them() -> None:
    """A two-word heading stays one column when its cells grow towards the empty word; else each is a column."""
    d = make(table_cells=True)
    images = "IMAGE            ID             DISK USAGE\nmyimage:latest   87428fc52280           0B\n"
    assert run(d, images).split("\n") == ["IMAGE\tID\tDISK USAGE", "myimage:latest\t87428fc52280\t0B"]
    df = "Filesystem      Size Mounted on\n/dev/sda2        20G /\ntmpfs             2G /run\n"
    assert run(d, df).split("\n") == ["Filesystem\tSize\tMounted on", "/dev/sda2\t20G\t/", "tmpfs\t2G\t/run"]
    ss = "Netid State  Local Address:Port\ntcp   LISTEN      0.0.0.0:22\nudp   UNCONN    127.0.0.1:53\n"
    assert run(d, ss).split("\n") == [
        "Netid\tState\tLocal Address:Port",
        "tcp\tLISTEN\t0.0.0.0:22",
        "udp\tUNCONN\t127.0.0.1:53",
    ]
    # lsof with every NODE empty: NAME's cells start at its heading, so NODE stays a column of its own
    lsof = "COMMAND   PID TYPE NODE NAME\nproc_a      1  DIR      /tmp/x\n"
    assert run(d, lsof).split("\n") == ["COMMAND\tPID\tTYPE\tNODE\tNAME", "proc_a\t1\tDIR\t\t/tmp/x"]


def test_table_cells_widest_row_one_space_apart() -> None:
    """systemctl pads each column to its widest cell plus one space: that row has no two spaces, yet is a row."""
    d = make(table_cells=True)
    jobs = (
        " JOB UNIT                 TYPE  STATE  \n"
        "3543 nginxAfter.service   start waiting\n"
        "3545 glusterReady.service start running\n"
        "3506 nginx.service        start waiting\n"
        "\n"
        "3 jobs listed.\n"
    )
    assert run(d, jobs).split("\n") == [
        "JOB\tUNIT\tTYPE\tSTATE",
        "3543\tnginxAfter.service\tstart\twaiting",
        "3545\tglusterReady.service\tstart\trunning",  # was left padded as printed, the table cut in two
        "3506\tnginx.service\tstart\twaiting",
        "",
        "3 jobs listed.",
    ]
    last_row = (
        "LISTEN       UNIT           ACTIVATES\n/run/a.sock  a.socket       a.service\naudit 1      b-audit.socket\n"
    )
    assert run(d, last_row).split("\n") == [
        "LISTEN\tUNIT\tACTIVATES",
        "/run/a.sock\ta.socket\ta.service",
        "audit 1\tb-audit.socket\t",  # the last row's empty ACTIVATES stays a cell
    ]
    # a line that leaves a column empty or runs across a gap is no row: it ends the table, as printed
    title = "Proto Recv-Q  State\ntcp        0  LISTEN\nActive UNIX sockets\nab cd\n"
    assert run(d, title).split("\n") == [
        "Proto\tRecv-Q\tState",
        "tcp\t0\tLISTEN",
        "Active UNIX sockets",
        "ab cd",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Cannot connect to the Docker daemon at unix:///x.sock. Is the docker daemon running?\n",  # one column
        "NAME   SIZE\n",  # a header and no row
        "NAME   SIZE\nlong-value-here 1MB\n",  # a row that crosses a column start: not this table's shape
        "  PID TTY\n    1 ?\n",  # a header that does not start at the margin
        "NAME   SIZE\na\tb    1\n",  # a tab already in it
    ],
)
def test_table_cells_leave_other_shapes_as_printed(text: str) -> None:
    assert run(make(table_cells=True), text) == text.rstrip("\n")


def test_on_empty() -> None:
    d = make(strip_lines_matching=["."], on_empty="tool: ok")
    res = engine.apply(d, "noise\n")
    assert res.text == "tool: ok" and res.dropped == 1
    assert run(make(strip_lines_matching=["."]), "noise") == ""


def test_command_string_uses_the_base_name() -> None:
    assert engine.command_string(["/usr/bin/docker", "ps", "-a"]) == "docker ps -a"
    assert engine.command_string([]) == ""


# --- schema ---------------------------------------------------------------------------


def messages(problems: list[schema.Problem]) -> list[str]:
    return [f"{p.level}: {p.message}" for p in problems]


def test_unknown_keys_are_warnings_and_the_filter_stays() -> None:
    doc = {"schema_version": 1, "filters": {"a": {"match_command": "^a\\b", "colour": 1}}, "extra": 2}
    defs, _, problems = schema.validate(doc, "f.toml")
    assert [d["name"] for d in defs] == ["a"]
    got = messages(problems)
    assert "warning: rtk: filters f.toml: filter a: colour: unknown key ignored" in got
    assert any("extra: unknown top-level key" in m for m in got)


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"match_command": "^a", "head_lines": "3"}, "filter a: head_lines: must be a positive integer"),
        ({"match_command": "^a", "head_lines": 0}, "filter a: head_lines: must be a positive integer"),
        ({"match_command": "^a", "strip_ansi": "yes"}, "filter a: strip_ansi: must be true or false"),
        ({"match_command": "^a", "strip_lines_matching": ["("]}, "filter a: strip_lines_matching[0]: bad regex"),
        ({"match_command": "^a", "replace": [{"pattern": "x"}]}, "filter a: replace[0]: missing 'replacement'"),
        (
            {"match_command": "^a", "match_output": [{"pattern": "[", "message": "m"}]},
            "match_output[0].pattern: bad regex",
        ),
        ({"match_command": "a|^b"}, "filter a: match_command: every alternative must start with ^"),
        ({"description": "x"}, "filter a: match_command: required"),
        ({"match_command": "^a", "strip_lines_matching": ["x"], "keep_lines_matching": ["y"]}, "exclude each other"),
    ],
)
def test_bad_filters_are_rejected_with_file_filter_and_key(body: dict[str, Any], needle: str) -> None:
    d, problems = schema.validate_filter("a", body, "f.toml")
    assert d is None
    assert any(needle in p.message and p.level == "error" for p in problems), messages(problems)
    assert all(p.message.startswith("rtk: filters f.toml") for p in problems)


def test_schema_version_and_toml_errors() -> None:
    assert "expected 1" in schema.validate({"filters": {}}, "f")[2][0].message
    _, _, problems = schema.parse_bytes(b"schema_version = 1\n[filters.a\n", "f.toml")
    assert problems[0].level == "error" and "not valid TOML" in problems[0].message


def test_tests_are_validated() -> None:
    doc = {
        "schema_version": 1,
        "filters": {"a": {"match_command": "^a\\b"}},
        "tests": {"a": [{"name": "n", "input": "x", "expected": "x", "exit_code": 2}, {"input": "x"}], "b": []},
    }
    _, tests, problems = schema.validate(doc, "f")
    assert [t["exit_code"] for t in tests] == [2]
    got = messages(problems)
    assert any("missing 'expected'" in m for m in got)
    assert any("filter b: tests: no filter of that name" in m for m in got)


@pytest.mark.parametrize(
    ("pattern", "ok"),
    [
        ("^liquibase(?:\\s|$)", True),
        ("^(liquibase\\b|/liquibase\\b)", True),
        ("^pnpm\\b|^npm\\b", True),
        ("(?i)^liquibase\\b", True),
        ("^liquibase\\b|/liquibase\\b", False),
        ("(?:^|/)liquibase(?:\\s|$)", False),
        ("(^a)?b", False),
        ("^a[|]b", True),
    ],
)
def test_anchoring(pattern: str, ok: bool) -> None:
    assert schema.anchored(pattern) is ok


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        ("^docker\\s+ps", [("exact", "docker")]),
        ("^(docker|podman)\\s+ps", [("exact", "docker"), ("exact", "podman")]),
        ("^df(\\s+-[ah]+)*\\s*$", [("exact", "df")]),
        ("^x(?!.*y)(\\s|$)", [("exact", "x")]),
        ("^ping\\b", [("prefix", "ping")]),
        ("^ping", [("prefix", "ping")]),
        ("^pings?\\s", [("any", "")]),
        ("^py.test\\s", [("any", "")]),
        ("^dfoo\\s*x", [("any", "")]),
        ("(?i)^docker\\s", [("any", "")]),
        ("^g\\+\\+\\s", [("exact", "g++")]),
    ],
)
def test_first_words_are_a_superset(pattern: str, words: list[tuple[str, str]]) -> None:
    assert schema.first_words(pattern) == words


def test_fold_lines_folds_a_long_log_and_keeps_errors_whole() -> None:
    lines = [f"2024-05-01T10:00:{i % 60:02d}Z INFO [web] GET /api/items 200 {i % 40}ms req={i:06x}" for i in range(300)]
    lines[150] = "2024-05-01T10:02:30Z ERROR [web] GET /api/items 500 upstream refused"
    out = run(make(fold_lines=50, head_lines=10, tail_lines=10), "\n".join(lines))
    assert lines[150] in out.splitlines()  # the error line, which head/tail would have cut
    assert "more like: <time> INFO [web] GET /api/items 200" in out and "(lines 2-" in out
    assert len(out.splitlines()) < 20


def test_fold_lines_leaves_short_output_and_json_to_head_and_tail() -> None:
    short = "\n".join(f"line {i}" for i in range(30))
    assert (
        run(make(fold_lines=50, head_lines=2, tail_lines=2), short)
        == "line 0\nline 1\n... (26 lines omitted)\nline 28\nline 29"
    )
    data = "\n".join(["[", *[f'  {{"id": {i}}},' for i in range(80)], "]"])
    out = run(make(fold_lines=50, head_lines=2, tail_lines=1), data)
    assert out == '[\n  {"id": 0},\n... (79 lines omitted)\n]'


def test_table_cells_time_is_linear_in_lines_that_fit_without_padding() -> None:
    """Each such line re-read the table so far: 4000 of them took 22 s. Past a few, they end the table."""
    import time

    from rtk.dsl.table import FITS_MAX, table_cells

    lines = ["A  B", *(["x yy z"] * 20000)]
    start = time.monotonic()
    out = table_cells(lines)
    assert time.monotonic() - start < 3
    assert out[: FITS_MAX + 1] == ["A\tB", *(["x\tyy z"] * FITS_MAX)]
    assert out[FITS_MAX + 1 :] == lines[FITS_MAX + 1 :]  # left as printed, every line there


# --- table_common (issue 16, medians) ----------------------------------------------------------

_REPLICAS = (
    "CONTAINER ID   IMAGE          COMMAND        PORTS     NAMES\n"
    'a1             shop/api:1.2   "sleep 3600"             api-1\n'
    'b2             shop/api:1.2   "sleep 3600"             api-2\n'
    'c3             shop/api:1.2   "serve"        80/tcp    api-3\n'
)


def test_table_common_says_a_column_with_one_value_in_every_row_once() -> None:
    """A column the same in every row is said once above the table; every other cell stays in its column."""
    out = run(make(table_cells=True, table_common=True), _REPLICAS).split("\n")
    assert out == [
        "same in all 3 rows: IMAGE=shop/api:1.2",
        "CONTAINER ID\tCOMMAND\tPORTS\tNAMES",
        'a1\t"sleep 3600"\t\tapi-1',
        'b2\t"sleep 3600"\t\tapi-2',
        'c3\t"serve"\t80/tcp\tapi-3',
    ]


def test_table_common_an_empty_column_is_said_once_as_empty_only_when_shorter() -> None:
    """An empty column rides along (``PORTS=``); alone it is left, saying it costs more than its tabs."""
    img = "registry.example.com/shop/api:1.2"
    text = f"NAME   {'IMAGE':<34} PORTS   STATUS\n" + "".join(
        f"{n:<6} {img:<34}         {st}\n" for n, st in [("web", "Up"), ("db", "Up"), ("q", "Exited")]
    )
    out = run(make(table_cells=True, table_common=True), text).split("\n")
    assert out == [f"same in all 3 rows: IMAGE={img}\tPORTS=", "NAME\tSTATUS", "web\tUp", "db\tUp", "q\tExited"]
    alone = text.replace(img, "registry.example.com/shop/web:1.2", 1)
    assert run(make(table_cells=True, table_common=True), alone) == run(make(table_cells=True), alone)


@pytest.mark.parametrize(
    "text",
    [
        # two rows: too few to say anything once
        "NAME   IMAGE\nweb    shop/api:1.2\ndb     shop/api:1.2\n",
        # every column the same: nothing would be left to tell the rows apart
        "NAME   IMAGE\nweb    shop/api:1.2\nweb    shop/api:1.2\nweb    shop/api:1.2\n",
        # no column the same in every row
        "NAME   IMAGE\nweb    a:1\ndb     b:1\nq      a:1\n",
    ],
)
def test_table_common_leaves_tables_with_nothing_to_lift_as_cells(text: str) -> None:
    assert run(make(table_cells=True, table_common=True), text) == run(make(table_cells=True), text)
    assert "same in all" not in run(make(table_cells=True, table_common=True), text)


def test_table_cells_alone_does_not_lift_common_columns() -> None:
    assert "same in all" not in run(make(table_cells=True), _REPLICAS)
