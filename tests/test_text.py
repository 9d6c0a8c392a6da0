"""Decoding and cleaning child output (lesson 19): never a lost line, never a crash, any script or byte."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rtk import text

# Text in the scripts lesson 19 names: CJK, emoji (with joiners), combining marks, RTL.
SCRIPTS = st.text(
    alphabet=st.sampled_from(list("abc xyz:/.-_\t") + list("错误文件テスト🚀👨\u200d👩\u0301\u0300क्ष\u202e")),
    max_size=80,
)


@given(st.binary(max_size=400))
def test_any_bytes_keep_every_line(data: bytes) -> None:
    assert text.decode(data).count("\n") == data.count(b"\n")


@given(st.lists(SCRIPTS, max_size=20))
def test_utf8_text_round_trips_exactly(lines: list[str]) -> None:
    joined = "\n".join(lines)
    assert text.decode(joined.encode("utf-8")) == joined


# What terminals get beyond text: colours, hyperlinks, CR redraws.
CONTROL = st.sampled_from(["\x1b[31m", "\x1b[0m", "\x1b]8;;http://x\x07", "\r", "\x1b(B"])
SCREEN = st.lists(st.one_of(SCRIPTS, CONTROL), max_size=6).map("".join)


@given(st.lists(SCREEN, max_size=20))
def test_cleaning_never_adds_or_drops_lines(lines: list[str]) -> None:
    joined = "\n".join(lines)
    assert text.clean(joined).count("\n") == joined.count("\n")
    for ln in lines:
        assert "\n" not in text.clean_line(ln)


def test_invalid_bytes_cost_only_themselves() -> None:
    assert text.decode(b"ok\n\xff\xfe bad\ncaf\xe9\nlast") == "ok\n\ufffd\ufffd bad\ncaf\ufffd\nlast"


def test_a_code_page_line_is_decoded_with_the_platform_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """On Windows a tool may print in the ANSI code page (GBK here): that line is decoded with it,
    UTF-8 lines around it stay UTF-8."""
    monkeypatch.setattr(text, "_fallback", "gbk")
    data = "错误: 找不到文件".encode("gbk") + b"\n" + "テスト ok".encode() + b"\n\xff"
    assert text.decode(data) == "错误: 找不到文件\nテスト ok\n\ufffd"


@pytest.mark.skipif(os.name == "nt", reason="Windows falls back to its ANSI code page")
def test_the_fallback_is_utf8_off_windows() -> None:
    assert text.fallback_encoding() == "utf-8"


# Segments of a line redrawn with CR (no escapes): what each one writes from column 0.
SEGMENT = st.text(alphabet=st.sampled_from([*'abc XYZ:/."()_-0123', "错", "🚀"]), max_size=30)


@given(st.lists(SEGMENT, min_size=1, max_size=6))
def test_a_cr_rewrite_overwrites_only_what_it_covers(segments: list[str]) -> None:
    """Issue 14, defect 1: cleaning follows the terminal and never deletes a character nothing overwrote."""
    shown = text.clean_line("\r".join(segments))
    assert len(shown) == max(len(s) for s in segments)  # never shorter than the longest write
    for col, ch in enumerate(shown):  # each column shows the last segment that reached it
        assert ch == [s for s in segments if len(s) > col][-1][col]


def test_a_cr_inside_a_fail_line_keeps_the_test_and_its_location() -> None:
    line = 'FAIL test_crlf_line_ending (tests/test_csv.c:70): expected "b", got "b\r"'
    assert text.clean_line(line) == '"AIL test_crlf_line_ending (tests/test_csv.c:70): expected "b", got "b'
    assert text.clean("PASS a\n" + line + "\n") == "PASS a\n" + text.clean_line(line) + "\n"


def test_progress_redraws_and_erases() -> None:
    assert text.clean_line("10%\r 50%\r100%") == "100%"
    assert text.clean_line("Downloading 40%\r\x1b[KDone") == "Done"  # erased first: replaced whole
    assert text.clean_line("\x1b[31mred\x1b[0m line\r") == "red line"  # CRLF


def test_clean_line_cr_storm_after_a_long_line_is_linear() -> None:
    """A long line redrawn over and over (one character each) was copied once per CR (1 MB x 1M CRs: hours)."""
    import time

    from rtk.text import clean_line

    line = "a" * 400_000 + "\rb" * 100_000
    start = time.process_time()
    got = clean_line(line)
    took = time.process_time() - start
    assert got == "b" + "a" * 399_999
    assert took < 1.0, took


def test_clean_line_keeps_what_later_segments_do_not_cover() -> None:
    from rtk.text import clean_line

    assert clean_line("abcdef\rxy\rz") == "zycdef"
    assert clean_line("abcdef\r\x1b[Kxy\rz") == "zy"  # the erase drops what came before it
    assert clean_line("long line here\r\x1b[31mok\x1b[0m") == "okng line here"
