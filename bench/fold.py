"""Folding benchmarks (issue 15): a 2,000-line log through rtk read; a long log through rtk read and rtk run.

Run by bench/run.py (``--only fold``) or alone: ``python bench/fold.py [--quick] [--big-mb N]``.
The logs are built from the real captures in tests/logdata, with a running sequence number added
to each line so that no two lines are the same (as in a real log, whose ids and times move).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# bench/run.py runs this file with exec(), without __file__; it is then argv[0]'s neighbour.
ROOT = Path(globals().get("__file__") or sys.argv[0]).resolve().parent.parent
LOGS = ("nginx-access.log", "nginx-error.log", "python-service.log", "postgres.log", "jvm-ingest.log")
MiB = 1024 * 1024


def _lines() -> list[bytes]:
    out: list[bytes] = []
    for name in LOGS:
        out += (ROOT / "tests" / "logdata" / name).read_bytes().splitlines()
    return out


def write_log(path: Path, size: int, lines: list[bytes]) -> int:
    """A log of about ``size`` bytes: the real lines in turn, each with ``seq=N`` appended; its line count."""
    n = 0
    written = 0
    with path.open("wb") as f:
        while written < size:
            block = []
            for ln in lines:
                n += 1
                block.append(b"%s seq=%d\n" % (ln, n))
            data = b"".join(block)
            f.write(data)
            written += len(data)
    return n


def _spawn(argv: list[str], env: dict[str, str]) -> tuple[float, int, float]:
    """Seconds, peak RSS (KiB) and CPU seconds (user + system: what load does not stretch) of one run."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        t0 = time.perf_counter()
        pid = os.posix_spawn(
            argv[0], argv, env, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
        )
        _, _status, usage = os.wait4(pid, 0)
        return time.perf_counter() - t0, usage.ru_maxrss, usage.ru_utime + usage.ru_stime
    finally:
        os.close(devnull)


def run(bench: Any) -> None:
    rtk = shutil.which(getattr(bench, "rtk", "rtk")) or "rtk"
    python = getattr(bench, "python", sys.executable)
    env = dict(getattr(bench, "env", os.environ))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed rtk has its bytecode cached
    tmp = Path(tempfile.mkdtemp(prefix="rtk-bench-fold-"))
    try:
        lines = _lines()
        small = tmp / "app-2000.log"
        small.write_bytes(b"".join(b"%s\n" % ln for ln in lines[:2000]))
        runs = max(getattr(bench, "runs", 30), 10)
        times: dict[str, list[float]] = {"floor": [], "raw": [], "fold": [], "raw_cpu": [], "fold_cpu": []}
        for _ in range(runs):  # interleaved, so load changes hit all three alike
            times["floor"].append(_spawn([python, "-I", "-c", "pass"], env)[0])
            for key, args in (("raw", ["--raw", str(small)]), ("fold", [str(small)])):
                t, _rss, cpu = _spawn([rtk, "read", *args], env)
                times[key].append(t)
                times[f"{key}_cpu"].append(cpu)
        med = {k: statistics.median(v) * 1000 for k, v in times.items()}
        over = med["fold"] - med["raw"]
        bench.record(
            "fold-2000-lines",
            {
                "floor_ms": round(med["floor"], 2),
                "read_raw_ms": round(med["raw"], 2),
                "read_folded_ms": round(med["fold"], 2),
                "fold_over_plain_read_ms": round(over, 2),
                "fold_over_plain_read_cpu_ms": round(med["fold_cpu"] - med["raw_cpu"], 2),
                "lines": 2000,
                "bytes": small.stat().st_size,
                "load_average_1min": round(os.getloadavg()[0], 2),
            },
            "fold <= 30 ms over the plain read",
            over <= 30,
        )
        big_mb = int(os.environ.get("RTK_BENCH_FOLD_MB", "100" if getattr(bench, "quick", False) else "1024"))
        # Through rtk read (a log file) and through rtk run (`cat` of it: unrecognised output, folded as it streams).
        ways = {"read": lambda p: [rtk, "read", str(p)], "run": lambda p: [rtk, "run", "-c", f"cat {p}"]}
        for way, argv in ways.items():
            figures: dict[str, Any] = {}
            secs = {}
            for label, mb in (("small", big_mb // 10), ("big", big_mb)):
                path = tmp / f"{label}.log"
                nlines = write_log(path, mb * MiB, lines)
                t, rss, cpu = _spawn(argv(path), env)
                size = path.stat().st_size
                path.unlink()
                secs[label] = t
                figures[f"{label}_bytes"] = size
                figures[f"{label}_lines"] = nlines
                figures[f"{label}_seconds"] = round(t, 2)
                figures[f"{label}_mb_per_s"] = round(size / MiB / t, 1)
                figures[f"{label}_peak_rss_mib"] = round(rss / 1024, 1)
                figures[f"{label}_cpu_seconds"] = round(cpu, 2)
                figures[f"{label}_mb_per_cpu_s"] = round(size / MiB / cpu, 1)
            figures["time_ratio_10x_input"] = round(secs["big"] / secs["small"], 2)
            figures["floor_ms_this_run"] = round(med["floor"], 2)
            figures["load_average_1min"] = round(os.getloadavg()[0], 2)
            ok = (
                figures["big_peak_rss_mib"] <= 64
                and figures["big_mb_per_s"] >= 40
                and figures["time_ratio_10x_input"] <= 11
            )
            bench.record(f"fold-{way}-stream", figures, "peak RSS <= 64 MiB, >= 40 MB/s, 10x input <= 11x time", ok)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":

    class _Bench:
        runs = 20
        quick = "--quick" in sys.argv
        results: dict[str, Any] = {}  # noqa: RUF012

        def record(self, name: str, figures: dict[str, Any], budget: str, ok: bool) -> None:
            self.results[name] = {**figures, "budget": budget, "ok": ok}

    b = _Bench()
    run(b)
    print(json.dumps(b.results, indent=2))
