"""Calibrate rtk.tokens.estimate against real BPE tokenizers, offline, over the project's fixtures.

Needs node and ``npm install`` in tests/ts (gpt-tokenizer ships the o200k_base and
cl100k_base ranks inside the package). Each fixture (.raw and .expected) is cut into
chunks of 20 lines; each chunk is put in one shape (digits, punctuation, short lines,
plain) and counted by both tokenizers. Prints the error of ``estimate`` (ceil(chars/4))
and of ``estimate_shaped`` per shape (mean signed error and worst under-count), and
with ``--fit`` the least-squares weights of the features (relative error against the
larger count) over the chunks and over every fixture's baseline and filtered candidate
(``scripts/guard_decisions.py``: the texts the never-worse guard weighs), as fitted and
scaled by 1.12 (what ``rtk.tokens.WEIGHTS`` holds, rounded).

usage: python scripts/calibrate_tokens.py [--fit]
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rtk import tokens  # noqa: E402

CHUNK = 20


def shape(text: str) -> str:
    n = len(text) or 1
    digits = sum(c.isdigit() for c in text)
    punct = sum(c.isascii() and not c.isalnum() and not c.isspace() for c in text)
    lines = text.count("\n") or 1
    if digits / n > 0.15:
        return "digits"
    if punct / n > 0.2:
        return "punctuation"
    if n / lines < 24:
        return "short lines"
    return "plain"


def chunks() -> list[str]:
    out: list[str] = []
    for p in sorted((ROOT / "tests" / "fixtures").glob("*/*")):
        if p.suffix not in (".raw", ".expected"):
            continue
        lines = p.read_bytes().decode("utf-8", "replace").splitlines(keepends=True)
        for i in range(0, len(lines), CHUNK):
            text = "".join(lines[i : i + CHUNK])
            if text.strip():
                out.append(text)
    return out


def real_counts(texts: list[str]) -> list[tuple[int, int]]:
    ts = ROOT / "tests" / "ts"
    p = subprocess.run(["node", "count_tokens.mjs"], cwd=ts, input=json.dumps(texts), capture_output=True,
                       text=True, check=True)  # fmt: skip
    return [(a, b) for a, b in json.loads(p.stdout)]


def old(text: str) -> int:
    return (len(text) + 3) // 4


def report(texts: list[str], real: list[tuple[int, int]]) -> None:
    by: dict[str, list[tuple[int, int, int]]] = {}
    for t, (o2, c1) in zip(texts, real, strict=True):
        by.setdefault(shape(t), []).append((max(o2, c1), old(t), tokens.estimate_shaped(t)))
    print(f"{'shape':12} {'chunks':>6}  {'old mean':>8} {'old worst':>9}  {'new mean':>8} {'new worst':>9}")
    for name in ("plain", "short lines", "digits", "punctuation"):
        rows = by.get(name, [])
        if not rows:
            continue
        cols = []
        for k in (1, 2):
            errs = [(r[k] - r[0]) / r[0] for r in rows if r[0]]
            cols += [f"{100 * sum(errs) / len(errs):+7.1f}%", f"{100 * min(errs):+8.1f}%"]
        print(f"{name:12} {len(rows):6}  {cols[0]:>8} {cols[1]:>9}  {cols[2]:>8} {cols[3]:>9}")
    print("(error = estimate vs the larger of o200k and cl100k; worst = largest under-count)")


def fit(texts: list[str], real: list[tuple[int, int]]) -> None:
    xs = [tokens.features(t) for t in texts]
    ys = [max(a, b) for a, b in real]
    k = len(xs[0])
    ata = [[0.0] * k for _ in range(k)]
    aty = [0.0] * k
    for x, y in zip(xs, ys, strict=True):
        if y <= 0:
            continue
        w = 1.0 / y  # relative error
        for i in range(k):
            aty[i] += w * w * x[i] * y
            for j in range(k):
                ata[i][j] += w * w * x[i] * x[j]
    # Gaussian elimination
    m = [[*row, aty[i]] for i, row in enumerate(ata)]
    for c in range(k):
        piv = max(range(c, k), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(k):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [a - f * b for a, b in zip(m[r], m[c], strict=True)]
    weights = [m[i][k] / m[i][i] for i in range(k)]
    print("weights per", tokens.FEATURES, [round(w, 4) for w in weights])
    print("scaled by 1.12:", [round(w * 1.12, 2) for w in weights])


def main() -> None:
    texts = chunks()
    real = real_counts(texts)
    report(texts, real)
    if "--fit" in sys.argv:
        from guard_decisions import candidates

        pairs = [str(r[k]) for r in candidates() if r["mode"] == "filtered" for k in ("base", "cand")]
        fit(texts + pairs, real + real_counts(pairs))


if __name__ == "__main__":
    main()
