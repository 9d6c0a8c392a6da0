"""Memory is bounded whatever the output size: whole-output filters hold a bounded output, the rest is folded live."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers import kept_path, path_with, rtk_argv, stub_tool
from rtk import paths

# Run rtk in a fresh interpreter and report the peak RSS of its process tree (rtk dominates it).
PEAK = """
import resource, subprocess, sys
p = subprocess.run(sys.argv[2:], stdin=open(sys.argv[1], "rb"), capture_output=True)
sys.stdout.buffer.write(p.stdout)
print("\\nPEAK", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "EXIT", p.returncode, file=sys.stderr)
"""


def _peak(stdin: Path, *argv: str) -> tuple[bytes, int, int]:
    """rtk's output, peak RSS in kB and exit code for ``rtk ARGV < stdin``."""
    p = subprocess.run([sys.executable, "-c", PEAK, str(stdin), *rtk_argv(*argv)], capture_output=True, timeout=300)
    peak_kb, code = (int(x) for x in p.stderr.decode().rsplit("PEAK", 1)[1].split()[::2])
    return p.stdout, peak_kb, code


def _short_line_diff(files: int, lines: int) -> bytes:
    """A diff of ``files`` files, each replacing ``lines`` short lines (the costliest shape per byte)."""
    out = []
    for k in range(files):
        out.append(f"diff --git a/f{k}.txt b/f{k}.txt\nindex 1111111..2222222 100644\n--- a/f{k}.txt\n+++ b/f{k}.txt\n")
        out.append(f"@@ -1,{lines} +1,{lines} @@\n")
        out.append("".join(f"-{i % 97}\n" for i in range(lines)))
        out.append("".join(f"+x{i % 89}\n" for i in range(lines)))
    return "".join(out).encode()


def _config(text: str) -> None:
    cfg = Path(paths.config_file())
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(text)


def _folds(out: str) -> list[tuple[int, int, int]]:
    """(count, first, last) of each ``… N more like: ... (lines A-B)`` line."""
    import re

    found = re.findall(r"^… ([\d,]+) more like.*\(lines (\d+)-(\d+)\)$", out, re.M)
    return [(int(n.replace(",", "")), int(a), int(b)) for n, a, b in found]


def test_a_diff_of_a_million_short_lines_is_folded_in_bounded_memory(tmp_path: Path) -> None:
    # 1.2 M lines, 5.6 MB: under the old 64 MiB hold it was parsed whole (lines, hunks, the joined
    # text, the fact guard's sets): 200 MB of RSS here, 966 MB for 6 M lines (26 MB). Past the line
    # bound it was then passed through raw; now it goes through the live fold.
    _config("[tee]\nmax_file_size = 8000000\n")
    raw = _short_line_diff(4, 150_000)
    src = tmp_path / "big.diff"
    src.write_bytes(raw)
    out, peak_kb, code = _peak(src, "pipe", "-f", "git diff")
    assert code == 0
    assert peak_kb < 100_000, f"peak RSS {peak_kb} kB"
    text = out.decode()
    assert text.startswith("diff --git a/f0.txt b/f0.txt\nindex 1111111..2222222 100644\n--- a/f0.txt\n")
    assert "\n+x34\n" in text  # the last line
    folds = _folds(text)
    assert sum(n for n, _, _ in folds) > 300_000 and all(n <= b - a + 1 for n, a, b in folds)
    assert len(out) < len(raw) * 0.6  # never larger than raw (numbers alone fold poorly: 2.6 of 5.3 MB)
    hint = text.splitlines()[-1]
    assert Path(kept_path(hint)).read_bytes() == raw


def test_the_line_bound_decides_between_the_filter_and_the_live_fold(tmp_path: Path) -> None:
    _config("[limits]\nbuffer_max_lines = 1000\n")
    small, big = tmp_path / "small.diff", tmp_path / "big.diff"
    small.write_bytes(_short_line_diff(60, 3))  # 660 lines: held and filtered
    big.write_bytes(_short_line_diff(120, 3))  # 1320 lines: folded as it streams
    env = dict(os.environ)
    p = subprocess.run(rtk_argv("pipe", "-f", "git diff"), stdin=small.open("rb"), capture_output=True, env=env)
    assert p.returncode == 0
    assert p.stdout.decode().startswith("60 files changed, +180 -180\n=== f0.txt +3 -3\n@@ -1,3 +1,3 @@\n-0\n")
    p = subprocess.run(rtk_argv("pipe", "-f", "git diff"), stdin=big.open("rb"), capture_output=True, env=env)
    assert p.returncode == 0
    out = p.stdout.decode()
    assert out.startswith("diff --git a/f0.txt b/f0.txt\n") and "files changed" not in out  # not the diff filter
    assert _folds(out) and len(p.stdout) < len(big.read_bytes()) // 2
    # the same through a tool whose filter holds the whole output (git diff): its exit code comes back
    stub_tool(tmp_path, "git", f"cat {big}; exit 1")
    env["PATH"] = path_with(tmp_path / "bin")
    p = subprocess.run(rtk_argv("git", "diff"), capture_output=True, env=env, cwd=tmp_path)
    assert p.returncode == 1
    assert _folds(p.stdout.decode()) and p.stdout.decode().splitlines()[-1].startswith("[rtk] full output: ")


def _service_log(lines: int, bad: int) -> bytes:
    """A service's log of ``lines`` lines, one of them (after line ``bad``) an error."""
    out = []
    for i in range(lines):
        out.append(
            f"2026-11-25T10:{i // 6000 % 60:02}:{i // 100 % 60:02}.{i % 1000:03}Z INFO  [worker-{i % 8}]"
            f" processed batch {i} in {i * 7 % 97} ms\n"
        )
        if i == bad:
            out.append(f"2026-11-25T10:20:34.567Z ERROR [worker-5] batch {i} failed: connection reset by peer\n")
    return "".join(out).encode()


def test_a_15_mb_log_past_the_bound_is_folded_with_its_facts_in_bounded_memory(tmp_path: Path) -> None:
    # 200,001 lines, 14.7 MB, no filter for it: passed through raw it was 8 M tokens; folded it is 18 k.
    _config("[tee]\nmax_file_size = 32000000\n")
    raw = _service_log(200_000, 123_456)
    src = tmp_path / "app.log"
    src.write_bytes(raw)
    out, peak_kb, code = _peak(src, "pipe")
    assert code == 0
    assert peak_kb < 100_000, f"peak RSS {peak_kb} kB"
    text = out.decode()
    assert "\n2026-11-25T10:20:34.567Z ERROR [worker-5] batch 123456 failed: connection reset by peer\n" in text
    assert text.startswith("2026-11-25T10:00:00.000Z INFO  [worker-0] processed batch 0 in 0 ms\n")
    assert "\n2026-11-25T10:33:19.999Z INFO  [worker-7] processed batch 199999 in 89 ms\n" in text  # the last
    assert len(out) < len(raw) // 100
    raw_lines = raw.split(b"\n")
    folds = _folds(text)
    assert sum(n for n, _, _ in folds) > 190_000
    for n, a, b in folds:  # each range: lines of the template at both ends, at least its count of them
        span = raw_lines[a - 1 : b]
        assert b" INFO " in span[0] and b" INFO " in span[-1] and sum(b" INFO " in ln for ln in span) >= n
    assert not any(a <= 123_458 <= b and b - a + 1 == n for n, a, b in folds)  # the error is in no fold
    hint = text.splitlines()[-1]
    assert Path(kept_path(hint)).read_bytes() == raw
    rid = hint.removeprefix("[rtk] full output: rtk recall ")
    r = subprocess.run(rtk_argv("recall", rid, "--lines", "123458"), capture_output=True)
    assert r.returncode == 0 and b"ERROR [worker-5] batch 123456 failed" in r.stdout


def test_read_all_stops_at_the_line_bound(tmp_path: Path) -> None:
    from rtk import runner

    src = tmp_path / "out"
    src.write_bytes(b"a\n" * 100_000)
    fd = os.open(src, os.O_RDONLY)
    try:
        data, over = runner.read_all(runner.Child(-1, fd), 1 << 30, 100)
        assert over and len(data) == 65536  # the first read already holds 100 lines
        assert data + os.read(fd, 1 << 20) == b"a\n" * 100_000  # nothing lost: the rest is still to read
        os.lseek(fd, 0, os.SEEK_SET)
        assert runner.read_all(runner.Child(-1, fd), 1 << 30, 0) == (b"a\n" * 100_000, False)
    finally:
        os.close(fd)


def test_rtk_json_of_600k_keys_prints_the_document_fast_in_bounded_memory(tmp_path: Path) -> None:
    # 600,000 keys (14 MB): parsed, rendered whole and guarded it took 330 MB and 4 s of CPU (13 s wall
    # under load) to print the document unchanged. Past the value bound it is copied as it is.
    import json

    doc = tmp_path / "big.json"
    doc.write_text(json.dumps({f"key_{i}": i for i in range(600_000)}, indent=2))
    out, peak_kb, code = _peak(doc, "json", str(doc))
    assert code == 0
    assert out == doc.read_bytes()
    assert peak_kb < 100_000, f"peak RSS {peak_kb} kB"


def test_rtk_json_past_the_value_bound_is_shown_raw_and_under_it_is_viewed(tmp_path: Path) -> None:
    from rtk.filters import jsonview

    over = "[" + ",".join(["1"] * (jsonview.MAX_VALUES + 2)) + "]\n"
    doc = tmp_path / "over.json"
    doc.write_text(over)
    p = subprocess.run(rtk_argv("json", str(doc)), capture_output=True)
    assert p.returncode == 0 and p.stdout == over.encode()
    doc.write_text("[" + ",".join(["1"] * 5000) + "]\n")  # over limits.json_budget (1,000 fit it whole)
    p = subprocess.run(rtk_argv("json", str(doc)), capture_output=True)
    assert p.returncode == 0 and b"+4970 more items (5000 in all: items 31-5000 left out)" in p.stdout


def test_rtk_json_over_the_byte_bound_is_copied_from_a_file_or_stdin(tmp_path: Path) -> None:
    _config("[limits]\nbuffer_max_bytes = 1000\njson_budget = 100\n")  # the view below cuts
    text = '{"a": [' + ", ".join(str(i) for i in range(500)) + "]}\n"  # 2.4 kB: over the bound
    doc = tmp_path / "d.json"
    doc.write_text(text)
    p = subprocess.run(rtk_argv("json", str(doc)), capture_output=True)
    assert p.returncode == 0 and p.stdout == text.encode()
    p = subprocess.run(rtk_argv("json"), stdin=doc.open("rb"), capture_output=True)
    assert p.returncode == 0 and p.stdout == text.encode()
    small = '{"a": [' + ", ".join(f'"item-{i:03}"' for i in range(50)) + "]}\n"  # 700 bytes: the view
    doc.write_text(small)
    p = subprocess.run(rtk_argv("json", str(doc)), capture_output=True)
    assert p.returncode == 0 and b"+20 more items (50 in all: items 31-50 left out)" in p.stdout


def test_the_json_view_quotes_strings_as_json_dumps_does() -> None:
    import json

    from rtk.filters import jsonview

    for s in ["", "plain", 'q"uote', "back\\slash", "tab\tnl\ncr\r", "\x00\x1f\x7f", "é€😀", "\ud800"]:
        assert jsonview._str(s) == json.dumps(s, ensure_ascii=False)
    v = jsonview.View(30, 400)
    many = {f"k{i}": i for i in range(200)}
    assert v.render(many).splitlines()[:2] == ["{", '  "k0": 0,']  # too many members for one line
    assert v.render({"a": [1, 2], "b": "x"}) == '{"a": [1, 2], "b": "x"}'


def test_rtk_test_holds_at_most_buffer_max_lines_then_reads_generically(tmp_path: Path) -> None:
    _config("[limits]\nbuffer_max_lines = 40\n")
    out = tmp_path / "out.txt"

    def run(filler: int) -> str:
        lines = [
            "test_a.py::test_one FAILED",
            "E   assert 1 == 2",
            *["ok"] * filler,
            "== 1 failed, 3 passed in 0.1s ==",
        ]
        out.write_text("\n".join(lines) + "\n")
        p = subprocess.run(rtk_argv("test", "sh", "-c", f"cat {out}; exit 1"), capture_output=True)
        assert p.returncode == 1
        return p.stdout.decode()

    assert run(20).startswith("pytest: 1 failed, 3 passed in 0.1s")  # 23 lines: held, read as a whole
    assert run(60).startswith("test: exit 1; == 1 failed, 3 passed in 0.1s ==\ntest_a.py::test_one FAILED\n")
