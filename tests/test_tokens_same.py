"""The faster shaped estimate counts exactly what the first one did, and the pipeline estimates each text once.

``_reference`` is the first implementation of ``tokens.features`` (five ``bytes.translate``
passes, letter and digit runs found by counting ``".a"``/``".d"``), kept here as the oracle:
the never-worse guard and the recorded savings depend on the exact number.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtk import pipeline, tokens
from rtk.text import clean, decode

ROOT = Path(__file__).resolve().parent


def _map(groups: dict[str, bytes], rest: bytes) -> bytes:
    out = bytearray(rest * 256)
    for chars, c in groups.items():
        for ch in chars.encode("latin-1"):
            out[ch] = c[0]
    return bytes(out)


_L = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_D = "0123456789"
_P = "".join(chr(c) for c in range(33, 127) if not chr(c).isalnum())
_REF_CLASSES = _map({_L: b"a", _D: b"d", _P: b"p", " \t\r\f\v": b"s", "\n": b"n"}, b"h")
_REF_WORDS = _map({_L: b"a"}, b".")
_REF_NUMBERS = _map({_D: b"d"}, b".")
_REF_FILLS = _map({" -=*_#~.": b"q"}, b".")


def _reference(text: str) -> tuple[int, ...]:
    data = text.encode("utf-8", "surrogatepass")
    c = data.translate(_REF_CLASSES)
    digits, punct, spaces, breaks = c.count(b"d"), c.count(b"p"), c.count(b"s"), c.count(b"n")
    other = 0 if text.isascii() else c.count(b"h")
    letters = len(c) - digits - punct - spaces - breaks - other
    w = data.translate(_REF_WORDS)
    m = data.translate(_REF_NUMBERS)
    words = w.count(b".a") + (w[:1] == b"a")
    numbers = m.count(b".d") + (m[:1] == b"d")
    fills = data.translate(_REF_FILLS).count(b"qqqq")
    breaks -= c[-1:] == b"n"
    return (letters, digits, punct, spaces, breaks, other, words, numbers, fills)


def _reference_estimate(text: str) -> int:
    total = 0.0
    for w, n in zip(tokens.WEIGHTS, _reference(text), strict=True):
        total += w * n
    return int(total) + 1 if text else 0


def _same(text: str) -> None:
    assert tokens.features(text) == _reference(text)
    assert tokens.estimate_shaped(text) == _reference_estimate(text)


def _real_files() -> list[Path]:
    fixtures = sorted((ROOT / "fixtures").rglob("*.raw")) + sorted((ROOT / "fixtures").rglob("*.expected"))
    return fixtures + sorted((ROOT / "logdata").glob("*.log"))


def test_same_counts_on_every_fixture_and_log() -> None:
    files = _real_files()
    assert len(files) > 1000
    for path in files:
        raw = path.read_bytes()
        for text in (clean(decode(raw)), raw.decode("utf-8", "surrogateescape")):
            assert tokens.features(text) == _reference(text), path
            assert tokens.estimate_shaped(text) == _reference_estimate(text), path


def test_same_counts_on_texts_longer_than_a_chunk() -> None:
    n = tokens._CHUNK
    for text in (
        "a" * (n + 10),  # one letter run across the boundary
        "7" * (3 * n + 1),
        "x" * (n - 1) + "1" + "y" * 5,  # a digit right before the boundary, a word after it
        "ab12 " * (n // 2),
        ("-" * 37 + "é\n") * (n // 20),
    ):
        _same(text)


ALPHABET = st.sampled_from(
    [*"aZz09 \t\r\n\f\v-=*_#~.,:;()[]/\\\"'`!?@$%^&|<>{}+", "\x00", "\x1b", "\x7f", "é", "错", "✗", "\udcff", "😀"]
)


@settings(max_examples=400, deadline=None)
@given(st.text(ALPHABET, max_size=300))
def test_same_counts_on_generated_text(text: str) -> None:
    _same(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_same_counts_on_any_unicode(text: str) -> None:
    _same(text)


@settings(max_examples=300, deadline=None)
@given(st.text(ALPHABET, max_size=120), st.integers(1, 9))
def test_same_counts_whatever_the_chunk_size(text: str, chunk: int) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tokens, "_CHUNK", chunk)  # every run crossing a boundary is seen
        _same(text)


@settings(max_examples=200, deadline=None)
@given(st.text(ALPHABET, max_size=200))
def test_a_final_newline_added_for_printing_costs_nothing(text: str) -> None:
    # what lets the pipeline count the raw output once when it prints it (with the newline ensured)
    assert tokens.estimate_shaped(pipeline.ensure_newline(text)) == tokens.estimate_shaped(text)


class _Counting:
    def __init__(self, mp: pytest.MonkeyPatch) -> None:
        self.texts: list[str] = []
        real = tokens.estimate_shaped

        def counted(text: str) -> int:
            self.texts.append(text)
            return real(text)

        mp.setattr(tokens, "estimate_shaped", counted)


RAW = b"".join(
    b"src/app/module_%d.py:%d:1: E501 line too long (%d > 79 characters)\n" % (i, i, 80 + i) for i in range(40)
)


def _no_tee(argv: list[str], raw: bytes) -> str | None:
    return None


def test_raw_guard_estimates_the_raw_output_once(monkeypatch: pytest.MonkeyPatch) -> None:
    raw_text = RAW.decode()
    longer = raw_text + "".join(f"note {i}: nothing\n" for i in range(20))  # the filter's text is larger: raw wins
    calls = _Counting(monkeypatch)
    res = pipeline.finish(["lint"], RAW, raw_text, 0, longer, 0, _no_tee)
    assert res.mode == "raw-guard" and res.text == raw_text
    assert (res.raw_tokens, res.out_tokens) == (_reference_estimate(raw_text),) * 2
    assert sorted(map(len, calls.texts)) == [len(raw_text), len(longer)]  # was 4: raw again, twice


def test_filtered_outcome_reuses_the_guard_estimates(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = b"".join(b"Compiling package %s of the workspace\n" % w.encode() for w in ("alpha", "beta", "gamma") * 20)
    raw_text = raw.decode()  # no fact in it (no digit, colon, parenthesis or problem word): nothing to restore
    short = "Compiling 60 packages\n"
    calls = _Counting(monkeypatch)
    res = pipeline.finish(["build"], raw, raw_text, 0, short, 0, _no_tee)
    assert res.mode == "filtered" and res.text == short
    assert (res.raw_tokens, res.out_tokens) == (_reference_estimate(raw_text), _reference_estimate(short))
    assert len(calls.texts) == 2


def test_raw_output_shown_whole_is_estimated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = b"total 0\nok"  # no final newline: the printed text gains one, the estimate does not change
    raw_text = raw.decode()
    calls = _Counting(monkeypatch)
    res = pipeline.bounded_raw(["ls"], raw, raw_text, 0, _no_tee, "raw")
    assert res.text == raw_text + "\n"
    assert (res.raw_tokens, res.out_tokens) == (_reference_estimate(raw_text),) * 2
    assert calls.texts == [raw_text]  # was 2: the same text counted as raw and as printed


def test_different_texts_are_still_both_estimated(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _Counting(monkeypatch)
    res = pipeline.Outcome("abc 12\n", "abc 123\n", "raw")  # same length plus one, not the same text
    assert (res.raw_tokens, res.out_tokens) == (_reference_estimate("abc 123\n"), _reference_estimate("abc 12\n"))
    res = pipeline.Outcome("abc 1234", "abc 123", "raw")  # one longer, but not by a final newline
    assert res.out_tokens == _reference_estimate("abc 1234")
    assert len(calls.texts) == 4
