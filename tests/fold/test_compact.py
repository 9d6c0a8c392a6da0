"""Compact rendering of kept lines (issue 15, savings): repeated tracebacks, repeated warnings, command lines."""

from __future__ import annotations

from rtk.fold import fold_lines
from rtk.fold.markers import is_marker

FRAMES = [
    "Traceback (most recent call last):",
    '  File "/srv/app/worker.py", line 88, in main',
    "    process(db, order_id, items)",
    '  File "/srv/app/worker.py", line 51, in process',
    "    reserve(db, items)",
    '  File "/srv/app/worker.py", line 41, in reserve',
    '    raise ValueError(f"stock for {sku} would go negative")',
]


def _log(n: int) -> list[str]:
    lines: list[str] = []
    for i in range(n):
        lines += [
            f"2026-11-24 07:00:{i:02d},100 INFO    [w] order {1000 + i} processed: {i % 9} items" for _ in range(5)
        ]
        lines += [f"2026-11-24 07:00:{i:02d},200 ERROR   [w] order {2000 + i} failed", *FRAMES]
        lines.append(f"ValueError: stock for SKU-{i:04d} would go negative ({i} < {i + 3})")
    return [*lines, *[f"2026-11-24 07:01:00,{i:03d} INFO    [w] idle" for i in range(6)]]  # the last lines: whole


def test_a_repeated_traceback_names_the_first_one() -> None:
    lines = _log(6)
    out, _ = fold_lines(lines)
    assert out.count(FRAMES[1]) == 1  # its frames once
    first = lines.index(FRAMES[0]) + 1
    second = lines.index(FRAMES[0], first) + 1
    want = f"… lines {second}-{second + 6}: the same 7 lines as lines {first}-{first + 6}"
    assert want in out
    for i in range(6):  # every error line and every message stays whole
        assert f"2026-11-24 07:00:{i:02d},200 ERROR   [w] order {2000 + i} failed" in out
        assert f"ValueError: stock for SKU-{i:04d} would go negative ({i} < {i + 3})" in out


def test_a_different_traceback_stays_whole() -> None:
    lines = _log(2)
    lines[lines.index(FRAMES[4], 20)] = "    reserve(db, items, strict=True)"
    out, _ = fold_lines(lines)
    assert "    reserve(db, items, strict=True)" in out and out.count(FRAMES[1]) == 2
    assert not any(ln.startswith("… lines ") for ln in out)


def test_a_warning_repeated_many_times_is_counted_once() -> None:
    lines = []
    for i in range(60):
        lines += ["warning: unexpected `cfg` condition name: `no_std`", f"  --> src/lib{i}.rs:{i}:5", "   |"]
    lines += ["warning: `demo` (lib) generated 60 warnings", *[f"   Compiling x{i} v0.1.0" for i in range(6)]]
    out, _ = fold_lines(lines)
    assert out[0] == lines[0] and out[1] == lines[1]  # the first whole, with where it is
    assert out.count(lines[0]) == 2  # the first, then the head of the counted ones
    assert any(ln.startswith("… 58 more like: warning: unexpected `cfg` condition name: `no_std`") for ln in out)
    assert "warning: `demo` (lib) generated 60 warnings" in out and len(out) < 25


def test_a_warning_repeated_a_few_times_stays_whole() -> None:
    lines = [f"step {i} done in {i % 7} ms" for i in range(400)]
    for at in (50, 150, 250):
        lines[at] = "warning: disk almost full"
    out, _ = fold_lines(lines)
    assert out.count("warning: disk almost full") == 3


def test_option_words_are_not_failures() -> None:
    cmd = "Running `rustc --crate-name ryu --error-format=json --cap-lints warn --cfg 'feature=\"no-panic\"'`"
    assert not is_marker(cmd)
    assert is_marker("npm warn deprecated glob@7.2.3") and is_marker("error: could not compile `demo`")
    assert is_marker("3 tests failed")


def test_long_command_lines_fold_by_their_first_words() -> None:
    cmds = [
        f"Running `rustc --crate-name c{i} --edition=2021 src/lib.rs "
        + " ".join(f"-C opt{j}=v{i}" for j in range(i % 5 + 40))
        + "`"
        for i in range(12)
    ]
    lines = [f"   Compiling c{i} v1.0.{i}" for i in range(12)] + cmds + ["    Finished `dev` profile in 9.1s"] * 6
    out, _ = fold_lines(lines)
    assert sum(1 for ln in out if ln.startswith("Running")) <= 2
    assert any(ln.startswith("… ") and ln.startswith("… 1") and "Running" in ln for ln in out)


def test_a_repeated_traceback_reaching_into_the_last_lines_is_named_too() -> None:
    """A traceback whose end falls in the last 5 lines was printed whole even when the same as one before."""
    lines = _log(6)[:-6]  # the output ends with its sixth traceback and its message
    lines += ["2026-11-24 07:01:00,000 INFO    [w] worker stopping: 6 failed"]
    out, _ = fold_lines(lines)
    assert out.count(FRAMES[1]) == 1 and out.count(FRAMES[6]) == 1  # the frames once, the tail's included
    first = lines.index(FRAMES[0]) + 1
    last = len(lines) - 8  # the last traceback's first line
    assert f"… lines {last}-{last + 6}: the same 7 lines as lines {first}-{first + 6}" in out
    assert out[-4] == "2026-11-24 07:00:05,200 ERROR   [w] order 2005 failed"
    assert out[-2:] == lines[-2:]  # its message and the final line stay whole
    assert out[-2] == "ValueError: stock for SKU-0005 would go negative (5 < 8)"


def test_a_different_traceback_in_the_last_lines_stays_whole() -> None:
    lines = _log(2)[:-6]
    lines[-2] = '    raise KeyError("sku")'
    lines += ["2026-11-24 07:01:00,000 INFO    [w] worker stopping: 2 failed"]
    out, _ = fold_lines(lines)
    assert out[-9:] == lines[-9:]
