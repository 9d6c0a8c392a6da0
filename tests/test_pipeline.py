"""The filter pipeline: fail open, never worse, say what was cut, never a false summary."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from helpers import kept_path, path_with, stub_tool
from rtk import config, filters, options, pipeline, run, tokens

NOISE = "".join(f"noise line {i} with some padding text\n" for i in range(40))


@pytest.fixture
def testfilters(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setitem(filters.FAMILIES, "rtktest", "testfilters")
    return tmp_path


def rtk(tmp: Path, monkeypatch: pytest.MonkeyPatch, body: str, *args: str) -> int:
    bindir = stub_tool(tmp, "rtktest", body)
    monkeypatch.setenv("PATH", path_with(bindir))
    return run.run_tool(["rtktest", *args])


def keep_nothing(argv: list[str], raw: bytes) -> None:
    return None


def keep_fixed(argv: list[str], raw: bytes) -> str:
    return "/data/tee/x.log"


def test_filter_exception_prints_raw_and_keeps_exit_code(
    testfilters: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    code = rtk(testfilters, monkeypatch, "echo first; echo second; exit 4", "raise")
    out, err = capfd.readouterr()
    assert code == 4
    assert out == "first\nsecond\n"
    assert err == ""  # silent without -v


def test_filter_exception_is_named_with_verbose(
    testfilters: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    options.verbose = 1
    rtk(testfilters, monkeypatch, "echo first", "raise")
    _, err = capfd.readouterr()
    assert "filter test-raise failed (ValueError: boom)" in err


def test_failure_is_recorded_for_gain(
    testfilters: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    rtk(testfilters, monkeypatch, "echo first", "raise")
    from rtk.tracking import db

    conn = db.open_for_reading()
    rows = conn.execute("SELECT filter, error_message FROM parse_failures").fetchall()
    assert rows == [("test-raise", "ValueError: boom")]


def test_unrecognized_output_is_raw(
    testfilters: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    code = rtk(testfilters, monkeypatch, "echo 'weird output'; exit 1", "unrec")
    out, _ = capfd.readouterr()
    assert (code, out) == (1, "weird output\n")


def test_unrecognized_long_output_is_bounded_with_recovery(
    testfilters: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    body = 'i=1; while [ $i -le 1000 ]; do echo "line $i"; i=$((i+1)); done; exit 1'
    code = rtk(testfilters, monkeypatch, body, "unrec")
    out, _ = capfd.readouterr()
    lines = out.splitlines()
    assert code == 1
    # folded (issue 15): the first line, the run counted with its exact range, the last line of the counter
    assert lines[0] == "line 1" and lines[-2] == "line 1000"
    assert lines[1] == "… 993 more like: line <n>  (lines 2-994)"
    assert lines[2:-1] == [f"line {i}" for i in range(995, 1001)]
    hint = lines[-1]
    assert hint.startswith("[rtk] full output: rtk recall ")
    saved = Path(kept_path(hint)).read_text()
    assert saved.count("\n") == 1000


def test_a_failing_fold_in_the_fallback_still_prints_the_output(
    testfilters: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """The raw fallback is where a failing filter lands: a failing fold there gave 'internal error' and nothing."""
    from rtk import fold

    def broken(lines: list[str]) -> None:
        raise ZeroDivisionError

    monkeypatch.setattr(fold, "fold_output", broken)
    body = 'i=1; while [ $i -le 1000 ]; do echo "line $i"; i=$((i+1)); done; exit 3'
    code = rtk(testfilters, monkeypatch, body, "unrec")
    out, _ = capfd.readouterr()
    lines = out.splitlines()
    assert code == 3
    assert lines[0] == "line 1" and "line 1000" in lines and "lines omitted" in out
    assert lines[-1].startswith("[rtk] full output: rtk recall ")


def test_a_failing_fact_guard_prints_the_raw_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the guard ended the command with 'internal error' and its output lost."""
    from rtk import factguard

    def broken(*a: object, **k: object) -> tuple[str, int]:
        raise RecursionError

    monkeypatch.setattr(factguard, "restore", broken)
    raw = "".join(f"src/m{i}.py:{i}:1: error: bad thing {i}\n" for i in range(40))
    out = pipeline.finish(["x"], raw.encode(), raw, 1, "40 errors\n", 0, lambda a, b: None)
    assert out.text == raw


def test_bounding_that_would_cost_more_shows_all_of_it() -> None:
    """Just over the line limit, with short lines: the omission mark and hint outweigh the cut."""
    limit = int(config.get("limits.passthrough_max_lines"))
    # distinct words (nothing to fold since issue 15: repeated "x" lines now fold to a few lines)
    words = ["".join(w) for w in itertools.product("abcdefghij", repeat=3)]
    raw_text = "\n".join(words[: limit + 2])
    out = pipeline.bounded_raw(["tool"], raw_text.encode(), raw_text, 1, keep_fixed, "raw-unrecognized")
    assert (out.text, out.cut) == (raw_text + "\n", 0)
    assert out.tee_path == "/data/tee/x.log"
    long = "\n".join(["a long line that the head keeps " * 2] * (limit + 50))
    out = pipeline.bounded_raw(["tool"], long.encode(), long, 1, keep_fixed, "raw-unrecognized")
    # folded (issue 15): one line shown, the rest counted with their range, the last five lines whole
    assert out.cut == limit + 50 - 6 and f"… {limit + 44} more like: " in out.text
    assert f"(lines 2-{limit + 45})" in out.text


def test_never_worse_prints_raw(
    testfilters: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    rtk(testfilters, monkeypatch, "echo a; echo b", "bigger")
    out, _ = capfd.readouterr()
    assert out == "a\nb\n"


def test_filtered_output_with_cut_names_the_recovery_file(
    testfilters: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    body = 'i=1; while [ $i -le 50 ]; do echo "item number $i of the listing"; i=$((i+1)); done'
    code = rtk(testfilters, monkeypatch, body, "cut")
    out, _ = capfd.readouterr()
    assert code == 0
    assert out.startswith("item number 1 of the listing\nitem number 2 of the listing\n+48 more\n")
    path = kept_path(out.splitlines()[-1])
    assert Path(path).read_text().count("\n") == 50
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"


def test_cut_without_recovery_prints_raw() -> None:
    # tee disabled: a "+48 more" that cannot be recovered must not be printed.
    raw = "".join(f"item {i} of a long list\n" for i in range(50)).encode()
    res = pipeline.apply("t", lambda a, o, c: pipeline.Filtered("item 0\n+49 more\n", 49), ["x"], raw, 0, keep_nothing)
    assert res.text == raw.decode()
    assert res.mode == "raw-guard" and res.cut == 0


def test_cut_with_tee_disabled_by_config_prints_raw(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTK_TEE", "0")
    raw = "".join(f"item {i} of a long list\n" for i in range(50)).encode()
    res = pipeline.apply("t", lambda a, o, c: pipeline.Filtered("item 0\n+49 more\n", 49), ["x"], raw, 0)
    assert res.text == raw.decode()


def test_failure_adds_hint_only_when_output_differs() -> None:
    raw = (NOISE + "error: it broke\n").encode()
    res = pipeline.apply("t", lambda a, o, c: "error: it broke\n", ["x"], raw, 2, keep_fixed)
    assert res.text == "error: it broke\n[rtk] full output: /data/tee/x.log\n"
    assert res.mode == "filtered"
    small = b"error: it broke\n"
    res = pipeline.apply("t", lambda a, o, c: "error: it broke\n", ["x"], small, 2, keep_fixed)
    assert res.text == "error: it broke\n" and res.tee_path is None  # under tee.min_size


def test_success_without_cut_has_no_hint() -> None:
    res = pipeline.apply("t", lambda a, o, c: "ok\n", ["x"], NOISE.encode(), 0, keep_fixed)
    assert res.text == "ok\n" and res.tee_path is None


def test_none_means_raw() -> None:
    res = pipeline.apply("t", lambda a, o, c: None, ["x"], b"\x1b[31mred\x1b[0m\n", 0, keep_fixed)
    assert (res.text, res.mode) == ("red\n", "raw")


def test_cr_redraws_are_resolved() -> None:
    raw = b"Downloading 10%\rDownloading 50%\rDownloading 100%\ndone\r\n"
    res = pipeline.apply("t", lambda a, o, c: None, ["x"], raw, 0, keep_fixed)
    assert res.text == "Downloading 100%\ndone\n"


def test_never_worse_counts_real_token_shapes() -> None:
    """Issue 14, defect 11: fewer characters but more tokens (words turned into numbers) is served raw."""
    from test_tokens import DIGIT_OUT, DIGIT_RAW

    res = pipeline.apply("t", lambda a, o, c: DIGIT_OUT, ["x"], DIGIT_RAW.encode(), 0, keep_fixed)
    assert (res.mode, res.text) == ("raw-guard", DIGIT_RAW)
    assert res.raw_tokens == res.out_tokens == tokens.estimate_shaped(DIGIT_RAW)  # what tracking records


def test_never_worse_keeps_a_margin() -> None:
    raw = "".join(f"line {i} of the output\n" for i in range(100))
    nearly = raw.replace("line 7 of the output\n", "")  # one short line of 100 saved: within the 2% margin
    res = pipeline.apply("t", lambda a, o, c: nearly, ["x"], raw.encode(), 0, keep_fixed)
    assert res.mode == "raw-guard"
    half = "".join(raw.splitlines(keepends=True)[:50])
    res = pipeline.apply("t", lambda a, o, c: half, ["x"], raw.encode(), 0, keep_fixed)
    assert res.mode == "filtered" and res.out_tokens < res.raw_tokens


def test_tokens_are_chars_over_four() -> None:
    assert tokens.estimate("") == 0
    assert tokens.estimate("abcd") == 1
    assert tokens.estimate("abcde") == 2
    assert tokens.estimate("数据") == 1  # characters, not bytes
    assert tokens.savings_pct(100, 130) == -30.0  # negative savings stay negative
