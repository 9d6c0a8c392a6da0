"""The fold's caches are bounded in bytes: lines of many distinct words, or JSON lines of 500 keys, fold in bounded memory."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

from helpers import rtk_argv
from rtk.fold import budget, jsonl
from rtk.fold.folder import fold_lines

PEAK = """
import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
out = p.stdout.read()
_, st, ru = os.wait4(p.pid, 0)
sys.stdout.buffer.write(out)
print("PEAK", ru.ru_maxrss, "EXIT", os.waitstatus_to_exitcode(st), file=sys.stderr)
"""


def _words_log(lines: int) -> list[str]:
    """A log whose lines have a time, a level and 36 distinct 8-letter words each (every line a shape of its own)."""
    rnd = random.Random(1)
    out = []
    for n in range(lines):
        words = " ".join("".join(chr(97 + rnd.randrange(26)) for _ in range(8)) for _ in range(36))
        out.append(f"2026-11-25T10:{n // 60000 % 60:02}:{n // 1000 % 60:02}.{n % 1000:03}Z INFO {words}")
    return out


def test_the_line_caches_of_a_fold_stay_within_their_bytes() -> None:
    # 10,000 lines of 36 distinct words: each cached by its shape (its 38 tokens' places: 24 MB of slices) and by
    # its masked tokens; bounded only in entries, the caches held 60 MB on 4 MB of such lines.
    lines = _words_log(10_000)
    out, f = fold_lines(lines)
    fast = sum(len(k) + budget.TOKEN * len(e[5]) for k, e in f._fast.items())
    seen = sum(sum(map(len, k)) + budget.TOKEN * len(k) for k in f._seen)
    assert 0 < fast <= budget.FAST_BYTES and 0 < seen <= budget.SEEN_BYTES
    assert out[0] == lines[0] and out[-1] == lines[-1]  # still a fold: its first and last lines
    assert len("\n".join(out)) < len("\n".join(lines))


def test_json_lines_of_500_keys_keep_their_skeletons_within_their_bytes() -> None:
    # Each line a skeleton of its own (10 kB): 50,000 of them were remembered (500 MB at most).
    jsonl._once.clear()
    rnd = random.Random(2)
    for n in range(1000):
        fields = ", ".join(f'"key{i}": "v{rnd.randrange(1 << 20):x}"' for i in range(500))
        jsonl.event(f'{{"level": "info", "msg": "tick {n}", {fields}}}')
    assert 0 < sum(map(len, jsonl._once)) <= budget.SKEL_BYTES


def test_rtk_run_folds_4_mb_of_many_word_lines_in_bounded_memory(tmp_path: Path) -> None:
    # 4 MB of 36-distinct-word lines: 106 MB peak before the caches were bounded in bytes.
    lines = _words_log(12_000)
    src = tmp_path / "words.log"
    src.write_text("\n".join(lines) + "\n")
    p = subprocess.run([sys.executable, "-c", PEAK, *rtk_argv("run", "-c", f"cat {src}")], capture_output=True)
    peak_kb, code = (int(x) for x in p.stderr.decode().rsplit("PEAK", 1)[1].split()[::2])
    assert code == 0
    assert peak_kb < 64 * 1024, f"peak RSS {peak_kb} kB"
    text = p.stdout.decode()
    assert text.startswith(lines[0] + "\n") and f"\n{lines[-1]}\n" in text
    assert " more like" in text and len(p.stdout) < src.stat().st_size // 2


def test_a_key_put_again_is_counted_once() -> None:
    # folder puts a source line's shape again for each of its locations: its bytes were added each time, so the
    # cache emptied itself long before its bound.
    from rtk.fold.budget import Cache

    c: Cache[str, int] = Cache(100, 1000)
    for i in range(30):
        c.put("shape", i, 100)
    assert c.size == 100 and c["shape"] == 29
