"""The miner's work per line is bounded whatever the shape of the input: a leaf of 2,000 templates costs no more."""

from __future__ import annotations

import random
import sys
import time
from types import FrameType
from typing import Any

import pytest

import rtk.fold.miner as miner_mod
from rtk.fold import fold_lines
from rtk.fold.mask import masked
from rtk.fold.miner import WILD, Leaf, Miner, Template, _frame

MINER_FILE = miner_mod.__file__


def _word(i: int) -> str:
    """A word of letters only, another one for each ``i`` (no digit: a constant token for the miner)."""
    s = ""
    i += 1
    while i:
        i, k = divmod(i, 26)
        s += chr(97 + k)
    return s


def diff_of_numbers(n: int) -> list[str]:
    """``git diff`` of ``seq 1 N`` after ``sed 's/5$/five/'``: one-token lines, each ``+1five`` its own constant."""
    out = ["diff --git a/f b/f", "index a29ed18..ce9ee82 100644", "--- a/f", "+++ b/f"]
    k = 0
    while len(out) < n:
        base = 10 * k + 5
        out.append(f"@@ -{base - 3},7 +{base - 3},7 @@")
        out += [f" {base - 3 + j}" for j in range(3)]
        out += [f"-{base}", f"+{base // 10 or ''}five"]
        out += [f" {base + 1 + j}" for j in range(3)]
        k += 1
    return out[:n]


SHAPES = {
    "diff of numbers": diff_of_numbers,
    "a distinct first word": lambda n: [f"{_word(i)} {_word(i + 10**6)} at {i}" for i in range(n)],
    "a distinct number of tokens": lambda n: [" ".join(_word(i + j) for j in range(1 + i % 60)) for i in range(n)],
    "one word shared by all": lambda n: [f"{i} {i * 7} common {_word(i)} {_word(i + 10**6)}" for i in range(n)],
    "fields in other punctuation": lambda n: [f"{i} {f'[{i}]' if i % 2 else f'({i}'} {_word(i)}" for i in range(n)],
}


class _Steps:
    """Counts the lines of rtk/fold/miner.py executed (Python's line events): the miner's work, whatever its code."""

    def __init__(self, limit: int) -> None:
        self.n = 0
        self.limit = limit

    def __call__(self, frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != MINER_FILE:
            return None
        if event == "line":
            self.n += 1
            if self.n > self.limit:
                raise OverflowError(f"more than {self.limit} steps")
        return self


def _steps(lines: list[str], limit: int) -> int:
    toks = [masked(ln)[1][:41] for ln in lines]
    m = Miner()
    steps = _Steps(limit)
    sys.settrace(steps)
    try:
        for t in toks:
            m.add(t)
    finally:
        sys.settrace(None)
    return steps.n


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_line_costs_the_miner_a_bounded_number_of_steps(shape: str) -> None:
    # Before: each line was compared with every template of its leaf (up to 2,000 on these shapes).
    # Now: the tree walk, a merge (41 tokens at most) and at most BUCKET index entries: some 60 to 520 steps a line.
    n = 2000
    steps = _steps(SHAPES[shape](n), n * 800)  # (raises past the bound: the old scan's steps grew with the templates)
    assert steps > n


def test_ten_times_the_input_folds_in_less_than_twenty_times_the_time() -> None:
    # The case: a git diff of numbers falling back to the fold took 22 s for 300 KB (quadratic).
    lines = diff_of_numbers(40_000)

    def cpu(part: list[str]) -> float:
        best = float("inf")
        for _ in range(3):
            t = time.process_time()
            fold_lines(part)
            best = min(best, time.process_time() - t)
        return best

    small, big = cpu(lines[:4000]), cpu(lines)
    assert big < 20 * max(small, 0.01)


def _brute(self: Leaf, toks: list[str], any_score: bool) -> tuple[Template | None, float]:
    """Drain's search as written: every template of the leaf scored, the oldest best one not of another frame."""
    best: Template | None = None
    best_sim = -1.0
    for t in self.templates:
        if any(
            a != b and "<" in b and _frame(a) is not None and _frame(b) is not None
            for a, b in zip(t.toks, toks, strict=True)
        ):
            continue
        consts = [(a, b) for a, b in zip(t.toks, toks, strict=True) if not ("<" in b and ">" in b)]
        s = 1.0 if not consts else sum(a == b for a, b in consts) / len(consts)
        if s > best_sim:
            best, best_sim = t, s
    return best, max(best_sim, 0.0)


@pytest.mark.parametrize("scan", [0, miner_mod.SCAN])
def test_the_indexed_search_finds_the_templates_the_full_scan_finds(monkeypatch: pytest.MonkeyPatch, scan: int) -> None:
    monkeypatch.setattr(miner_mod, "SCAN", scan)  # 0: every leaf indexed from its first template
    vocab = ["a", "b", "c", "x1", "<n>", "[<n>]", "(<n>", "<path>", WILD, "k=<n>", "<str>", "d", "e"]
    for seed in range(400):
        r = random.Random(seed)
        lines = [[r.choice(vocab[: r.randint(3, len(vocab))]) for _ in range(r.randint(1, 6))] for _ in range(150)]
        kw: dict[str, Any] = {"max_templates": r.choice([5, 20, 2000]), "sim": r.choice([0.4, 0.0, 0.7])}
        got = [(t.id, t.toks) for t in map(Miner(**kw).add, lines)]
        with monkeypatch.context() as mp:
            mp.setattr(Leaf, "best", _brute)
            want = [(t.id, t.toks) for t in map(Miner(**kw).add, lines)]
        assert got == want, seed
