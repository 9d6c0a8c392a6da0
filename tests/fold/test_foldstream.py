"""The live fold (rtk.fold.live) behind rtk run and the follow modes (issue 15)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rtk.fold.live import FoldStream

LOGDATA = Path(__file__).resolve().parents[1] / "logdata"


def _run(lines: list[str], window: int = 200) -> tuple[list[str], FoldStream, int]:
    f = FoldStream(["x"], window)
    out: list[str] = []
    first_print = 0
    for i, ln in enumerate(lines, 1):
        r = f.feed(ln)
        if r is not None:
            first_print = first_print or i
            out.extend(r.split("\n"))
    rest = f.finish(0)
    if rest:
        out.extend(rest.split("\n"))
    return out, f, first_print


def test_docker_logs_output_streams_folded_with_errors_whole() -> None:
    """docker logs prints a container's stdout verbatim: the real python-service log of tests/logdata stands for it."""
    lines = (LOGDATA / "python-service.log").read_text(encoding="utf-8").split("\n")[:-1]
    out, f, first = _run(lines)
    assert 0 < first <= 200 + 200 + 1  # printing starts within the window and the hold, not at the end
    assert len(out) < len(lines) // 2 and f.cut > 0
    for ln in lines:
        if " ERROR " in ln or "Traceback" in ln:
            assert ln in out, ln
    assert out[-1] == lines[-1]


def test_short_output_is_whole() -> None:
    lines = [f"step {i} done" for i in range(50)]
    out, f, first = _run(lines)
    assert out == lines and f.cut == 0 and first == 0


def test_json_lines_pass_through_whole() -> None:
    """JSON (NDJSON too), YAML and padded tables are never folded or cut: every value reaches the agent."""
    lines = [f'{{"id": {i}, "name": "n{i}"}}' for i in range(1, 1001)]
    out, f, _ = _run(lines)
    assert out == lines and f.cut == 0


def test_csv_shows_head_and_tail_with_the_exact_range() -> None:
    lines = ["id,name,qty"] + [f"{i},n{i},{i % 9}" for i in range(1, 1000)]
    out, f, _ = _run(lines)
    assert out[:50] == lines[:50] and out[-150:] == lines[-150:]
    assert out[50] == "[rtk] ... 800 lines omitted (lines 51-850) ..."
    assert f.cut == 800


def test_idle_prints_what_is_held_and_numbering_continues() -> None:
    f = FoldStream(["x"], 20, idle_after=1.0)
    assert f.feed("server listening on :8080") is None
    assert f.idle() == "server listening on :8080"  # a quiet command's last line is not held back
    printed = []
    for i in range(400):
        printed.append(f.feed(f"GET /api/items/{i} 200 {i % 7}ms") or "")
    text = "\n".join(printed) + (f.idle() or "") + "\n" + f.finish(0)
    assert "(lines 3-" in text  # line numbers count from the start of the output


def test_rtk_run_streams_and_keeps_the_exit_code(tmp_path: Path) -> None:
    script = tmp_path / "imp.py"
    script.write_text(
        "import sys\nfor i in range(1, 401): print(f'INFO import batch {i}/400 rows=500 ok', flush=True)\n"
        "print('ERROR row 77 rejected: bad date')\nsys.exit(3)\n"
    )
    r = subprocess.run(
        [sys.executable, "-m", "rtk", "run", sys.executable, str(script)], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 3
    assert "ERROR row 77 rejected: bad date" in r.stdout
    assert "more like" in r.stdout and "rtk recall" in r.stdout
    assert len(r.stdout.splitlines()) < 40
