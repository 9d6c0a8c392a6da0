"""estimate_shaped against real BPE tokenizers (gpt-tokenizer's bundled o200k/cl100k) over the fixtures."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtk import tokens

ROOT = Path(__file__).resolve().parent.parent
TS = ROOT / "tests" / "ts"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (TS / "node_modules" / "gpt-tokenizer").is_dir(),
    reason="needs node and `npm install` in tests/ts (gpt-tokenizer)",
)


def _calibration() -> object:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import calibrate_tokens
    finally:
        sys.path.pop(0)
    return calibrate_tokens


def test_shaped_estimate_is_close_and_leans_over_on_every_shape() -> None:
    cal = _calibration()
    texts: list[str] = cal.chunks()  # type: ignore[attr-defined]
    real: list[tuple[int, int]] = cal.real_counts(texts)  # type: ignore[attr-defined]
    by: dict[str, list[tuple[float, float]]] = {}
    for t, counts in zip(texts, real, strict=True):
        y = max(counts)
        if y:
            by.setdefault(cal.shape(t), []).append(((tokens.estimate(t) - y) / y, (tokens.estimate_shaped(t) - y) / y))  # type: ignore[attr-defined]
    assert set(by) == {"plain", "short lines", "digits", "punctuation"}
    for shape, errs in by.items():
        old = [e[0] for e in errs]
        new = sorted(e[1] for e in errs)
        mean_new = sum(new) / len(new)
        assert 0.0 <= mean_new <= 0.2, f"{shape}: mean error {mean_new:+.1%}"  # a margin, not a bias
        assert sum(abs(e) for e in new) < sum(abs(e) for e in old), shape  # closer than ceil(chars/4)
        assert new[len(new) // 50] > -0.2, f"{shape}: 2% of chunks under-counted by more than 20%"
        assert sum(old) / len(old) < 0  # ceil(chars/4) under-counts every shape


def test_counter_counts_real_tokens() -> None:
    p = subprocess.run(["node", "count_tokens.mjs"], cwd=TS, input=json.dumps(["hello world", "12345678"]),
                       capture_output=True, text=True, check=True)  # fmt: skip
    assert json.loads(p.stdout) == [[2, 2], [3, 3]]


def test_the_digit_example_is_larger_in_real_tokens() -> None:
    from test_tokens import DIGIT_OUT, DIGIT_RAW

    p = subprocess.run(["node", "count_tokens.mjs"], cwd=TS, input=json.dumps([DIGIT_RAW, DIGIT_OUT]),
                       capture_output=True, text=True, check=True)  # fmt: skip
    (raw_o200k, _), (out_o200k, _) = json.loads(p.stdout)
    assert out_o200k > 2 * raw_o200k
