"""The folding stage on synthetic inputs: what is always whole, what folds, exact counts and line ranges."""

from __future__ import annotations

import re

from rtk.fold import Folder, data_kind, fold_lines, fold_output, fold_table, looks_like_log
from rtk.fold.markers import is_marker
from rtk.fold.mask import mask, tokens
from rtk.fold.miner import Miner


def _log(n: int) -> list[str]:
    return [
        f"2024-05-01T10:00:{i % 60:02d}Z INFO [http] GET /api/{'ab'[i % 2]} 200 {i % 90}ms req={i:08x}"
        for i in range(n)
    ]


def _check_accounting(lines: list[str], out: list[str]) -> None:
    """Every input line is shown or inside the range of a fold line that counts it."""
    shown = sum(1 for o in out if not o.startswith("… "))
    folded = sum(int(m.group(1).replace(",", "")) for o in out if (m := re.match(r"… ([\d,]+) more like", o)))
    assert shown + folded == len(lines)


def test_run_of_one_template_folds_with_count_and_range() -> None:
    lines = ["starting", *_log(1500), "done: 1500 requests"]
    out, f = fold_lines(lines)
    assert out[0] == "starting" and out[-1] == "done: 1500 requests"
    fold = [o for o in out if o.startswith("… ")]
    assert fold == [
        "… 1,495 more like: <time> INFO [http] GET <path> 200 <dur> <*>  (lines 3-1497); <path>: /api/a ×748, /api/b ×748"
    ]
    assert len(out) < 12 and f.folded == 1495
    _check_accounting(lines, out)


def test_markers_in_every_spelling_stay_whole() -> None:
    spellings = [
        "WARN disk almost full", "W/ActivityManager: slow start", "[error] 12#12: open() failed", "E1124 10:00:00.1 x.cc:3] bad",
        'ts=1 level=error msg="boom"', "severity: ERROR rpc failed", "<3>kernel: usb reset", "Exception in thread main",
        '10.0.0.1 - - [01/May/2024:10:00:00 +0000] "GET /missing HTTP/1.1" 404 12 "-" "curl"',
        'req 10.0.0.1 "POST /api HTTP/1.1" 503 0 ', "thread 'main' panicked at src/main.rs:2:5:", "FATAL out of memory",
    ]  # fmt: skip
    for s in spellings:
        assert is_marker(s), s
    for s in ["INFO all good", "0 errors, 0 warnings", 'x "GET / HTTP/1.1" 200 12 ', "compiled 3 files"]:
        assert not is_marker(s), s
    lines = _log(300)
    for k, s in enumerate(spellings):
        lines.insert(20 + k * 20, s)
    out, _ = fold_lines(lines)
    for s in spellings:
        assert s in out
    _check_accounting(lines, out)


BLOCKS = {
    "python": [
        "Traceback (most recent call last):", '  File "/srv/app.py", line 3, in <module>', "    main()",
        "ValueError: bad input",
    ],
    "java": [
        "java.lang.IllegalStateException: cannot start", "\tat com.example.App.start(App.java:42)",
        "\tat com.example.App.main(App.java:10)", "Caused by: java.io.IOException: disk", "\tat java.io.File.open(File.java:1)",
        "\t... 2 more",
    ],
    "go": [
        "panic: runtime error: index out of range [5] with length 3", "", "goroutine 1 [running]:", "main.main()",
        "\t/src/main.go:8 +0x1d", "exit status 2",
    ],
    "rust": [
        "thread 'main' panicked at src/main.rs:4:5:", "index out of bounds", "stack backtrace:",
        "   0: rust_begin_unwind", "             at /rustc/abc/library/std/src/panicking.rs:652:5",
    ],
}  # fmt: skip


def test_blocks_around_markers_stay_whole() -> None:
    for name, block in BLOCKS.items():
        lines = [*_log(200), *block, *_log(200)]
        out, _ = fold_lines(lines)
        at = out.index(block[0])
        assert out[at : at + len(block)] == block, name
        _check_accounting(lines, out)


def test_rare_lines_first_last_and_summary_lines_are_shown() -> None:
    lines = [
        "boot v1.2",
        *_log(100),
        "config reloaded from /etc/app.conf",
        *_log(100),
        "cache warmed: 31 keys",
        *_log(100),
    ]
    lines += ["summary: 300 ok", "bye"]
    out, _ = fold_lines(lines)
    for s in ["boot v1.2", "config reloaded from /etc/app.conf", "cache warmed: 31 keys", "summary: 300 ok", "bye"]:
        assert s in out
    _check_accounting(lines, out)


def test_template_seen_five_times_is_shown_whole_six_times_folds() -> None:
    """Five is still "a few" (a service restarted five times: each attempt's start line whole)."""
    rare = [f"retrying upload of part {i} after 5s" for i in (1, 2, 3, 4, 5)]
    lines = [*_log(50), rare[0], *_log(50), rare[1], *_log(50), rare[2], *_log(50), rare[3], *_log(50)]
    lines += [rare[4], *_log(50)]
    out, _ = fold_lines(lines)
    assert all(r in out for r in rare)
    lines.insert(60, "retrying upload of part 9 after 5s")
    out, _ = fold_lines(lines)
    assert "retrying upload of part 1 after 5s" in out and "retrying upload of part 2 after 5s" not in out
    assert any(o.startswith("… 5 more like: retrying upload of part <n> after 5s  (lines 52-") for o in out)
    _check_accounting(lines, out)


def test_progress_folds_to_first_last_and_count() -> None:
    lines = ["importing vessels", *[f"progress {i}/400 rows ({i * 100 // 400}%)" for i in range(1, 401)]]
    lines += ["import done", "rows: 400", "errors: 0", "elapsed 3s", "ok"]
    out, _ = fold_lines(lines)
    assert out[:4] == [
        "importing vessels",
        "progress 1/400 rows (0%)",
        "… 398 more like: progress <n> rows (<pct>)  (lines 3-400)",
        "progress 400/400 rows (100%)",
    ]


def test_access_log_gets_status_and_path_summary() -> None:
    paths = ["/", "/health", "/api/x"]
    lines = [
        f'127.0.0.1 - - [01/May/2024:10:00:{i % 60:02d} +0000] "GET {paths[i % 3]} HTTP/1.1" {404 if i % 50 == 7 else 200} {i} "-" "ab"'
        for i in range(300)
    ]
    out, _ = fold_lines(lines)
    summary = [o for o in out if o.startswith("… access log:")]
    assert summary == ["… access log: 300 requests; status 200 ×294, 404 ×6; paths / ×100, /health ×100, /api/x ×100"]
    assert sum(1 for o in out if '" 404 ' in o) == 6  # every 4xx line whole


def test_live_hold_prints_every_line_within_the_window() -> None:
    f = Folder(hold=50)
    printed_at: dict[str, int] = {}
    lines = [*_log(400), "ERROR something broke", *_log(400)]
    for no, ln in enumerate(lines, 1):
        for o in f.feed(ln):
            printed_at.setdefault(o, no)
    assert printed_at["ERROR something broke"] <= 401 + 50 + 5
    rest = f.finish()
    out = [*printed_at, *rest]
    assert "ERROR something broke" in out


def test_memory_is_bounded_by_templates_not_lines() -> None:
    m = Miner(max_templates=50)
    for i in range(5000):
        m.add([f"word{chr(97 + i % 26)}{chr(97 + i // 26 % 26)}", "x", str(i)])
    assert len(m.templates) == 50 and m.other.count > 0
    f = Folder(max_templates=50)
    for i in range(20000):
        f.feed(f"kind{chr(97 + i % 26)}{chr(97 + i // 26 % 26)} value {i}")
    assert len(f.pending) <= 4096 + 2 and len(f.miner.templates) <= 50


def test_never_larger_than_raw_and_data_is_not_a_log() -> None:
    words = [chr(97 + i % 26) * (1 + i // 26) for i in range(300)]
    out, _ = fold_lines(words)
    assert out == words  # nothing repeats: nothing folds
    assert data_kind(['{"a": 1}'] * 300) == "json" and fold_output(['{"a": 1}'] * 300) is None
    assert data_kind(["a: 1", "b: [2]"] * 150) == "yaml" and fold_output(["a: 1", "b: 2"] * 150) is None
    rows = ["id,name,qty", *[f"{i},item{i},{i * 3}" for i in range(1, 301)]]
    assert data_kind(rows) == "csv" and not looks_like_log(rows)
    kept, left = fold_table(rows)
    assert kept[:6] == rows[:6] and kept[-5:] == rows[-5:] and left == 290
    assert kept[6] == "… 290 rows left out (lines 7-296); every row is in the lines named"
    assert looks_like_log(_log(100)) and not looks_like_log(
        [f"def f{i}(x):" if i % 2 else "    return x" for i in range(9)]
    )


def test_lines_sharing_only_variable_fields_are_not_one_template() -> None:
    # Timestamp, time and pid are variable: a checkpoint line is not like a disconnection line.
    m = Miner()
    conn = [
        f"2024-05-01 10:00:{i:02d}.5 UTC [{7000 + i}] LOG: disconnection: session time: 0:00:00.01{i % 10}"
        for i in range(30)
    ]
    for ln in conn:
        m.add([mask(t) for t in tokens(ln)])
    odd = "2024-05-01 10:01:00.1 UTC [7305] LOG: checkpoint starting: immediate wait"  # same length
    t = m.add([mask(x) for x in tokens(odd)])
    assert t.count == 1 and "checkpoint" in t.toks


def test_a_line_whose_field_is_of_another_kind_stays_whole() -> None:
    # "creating '<str>'" among many "creating <path>": Drain merges them, the fold keeps the odd one.
    lines = [f"  creating build/lib/pkg/zoneinfo/Zone{i}" for i in range(300)]
    lines.insert(150, "  creating '/tmp/meta-x/pkg-1.0.dist-info'")
    out, _ = fold_lines([*lines, "done", "", "ok", "end", "bye"])
    assert "  creating '/tmp/meta-x/pkg-1.0.dist-info'" in out


def test_a_location_line_goes_with_the_marker_before_it() -> None:
    lines: list[str] = []
    for i in range(60):
        lines += [
            f"warning: unused variable: `v{i}`",
            f"  --> /usr/share/cargo/registry/dep/src/lib.rs:{i + 3}:9",
            "   |",
            "",
        ]
    lines += ["warning: unused variable: `unused_scale`", " --> src/main.rs:4:9", "  |", ""]
    lines += [f"   Compiling crate{i} v1.0.{i}" for i in range(8)]
    out, _ = fold_lines(lines)
    assert " --> src/main.rs:4:9" in out
    assert "  --> /usr/share/cargo/registry/dep/src/lib.rs:33:9" in out  # every warning keeps its location
    _check_accounting(lines, out)


def test_a_value_far_above_its_field_usual_stays_whole() -> None:
    lines = [f"LOG: session {i} closed: session time: 0:00:00.0{i % 7 + 1}{i % 3} port={4000 + i}" for i in range(200)]
    slow = "LOG: session 77 closed: session time: 0:00:01.222 port=4077"
    lines[120] = slow
    out, _ = fold_lines([*lines, "a", "b", "c", "d", "e"])
    assert slow in out
    assert sum(1 for o in out if o.startswith("LOG:")) <= 4  # the rest still folds
    _check_accounting([*lines, *"abcde"], out)


def test_rare_is_relative_to_the_output_length() -> None:
    # Six "Processing" lines in a 2,000-line output are rare; six in a 300-line output fold (count stays exact).
    pkgs = [f"Processing /opt/files/pkg{i}-1.{i}-py3-none-any.whl (from req==2.{i})" for i in range(6)]
    bulk = [f"  copying build/lib/mod{i}/file{i}.py -> build/bdist/mod{i}" for i in range(1994)]
    long = [*pkgs, *bulk]
    out, _ = fold_lines(long)
    assert all(p in out for p in pkgs)
    _check_accounting(long, out)
    short = [*pkgs, *bulk[:294]]
    out, _ = fold_lines(short)
    assert sum(1 for p in pkgs if p in out) == 1
    _check_accounting(short, out)


def test_live_fold_counts_each_line_once() -> None:
    # With hold=N a rare-looking line printed before its template turned frequent is not counted again.
    lines = [f"2024-05-01T10:00:00Z INFO tick {i} ok" for i in range(3)]
    lines += [f"2024-05-01T10:00:{i % 60:02d}Z INFO step {i} of many" for i in range(100)]
    lines += [f"2024-05-01T10:01:00Z INFO tick {i} ok" for i in range(3, 60)]
    f = Folder(hold=5)
    out: list[str] = []
    for ln in lines:
        out.extend(f.feed(ln))
    out.extend(f.finish())
    _check_accounting(lines, out)


def test_a_log_whose_lines_start_with_a_bracket_is_not_json() -> None:
    # dmesg ("[    0.000000] Linux ..."), maven ("[INFO] ..."), bracketed timestamps: logs, folded.
    for first in (
        "[    0.000000] Linux version 6.18.44",
        "[INFO] Building rtk-demo 1.0",
        "[2024-05-01 10:00:00] INFO start",
    ):
        assert data_kind([first, "more text"]) is None, first
    for first in ("[", '[{"a": 1}, {"a": 2}]', "[1, 2, 3]", '{"a": 1}'):
        assert data_kind([first, "x"]) == "json", first
    lines = [f"[{i:5d}.{i:06d}] usb 1-{i % 3}: new device number {i}" for i in range(300)]
    assert fold_output(lines) is not None and fold_output(lines)[1] > 250  # type: ignore[index]
