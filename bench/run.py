#!/usr/bin/env python3
"""rtk benchmarks: per-command overhead against the interpreter floor, memory, streaming throughput.

usage: python bench/run.py [--rtk PATH] [--runs N] [--quick] [--only NAME ...] [--json FILE]

Everything is measured through the installed ``rtk`` command (the launcher pip
wrote), as an agent runs it. Times are medians of interleaved runs and are
reported as ratios to ``python -I -c pass`` from rtk's own interpreter, measured
in the same run, because absolute milliseconds vary from machine to machine.
Each benchmark states its budget; the exit code is 1 if any budget is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MiB = 1024 * 1024


def interpreter_of(script: str) -> str:
    with open(script, "rb") as f:
        first = f.readline().decode().strip()
    if not first.startswith("#!"):
        raise SystemExit(f"bench: {script} has no shebang")
    return first[2:].split()[0]


def spawn_wait(argv: list[str], env: dict[str, str], stdout: int | None = None) -> tuple[float, int, int]:
    """Run once; return (seconds, exit code, peak RSS of the process in KiB); ``LAST_CPU`` gets its CPU seconds."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        t0 = time.perf_counter()
        pid = os.posix_spawn(
            shutil.which(argv[0], path=env.get("PATH")) or argv[0],
            argv,
            env,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, stdout if stdout is not None else devnull, 1),
                (os.POSIX_SPAWN_DUP2, devnull, 2),
            ],
        )
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - t0
    finally:
        os.close(devnull)
    LAST_CPU[0] = usage.ru_utime + usage.ru_stime  # the process and the children it waited for
    return elapsed, os.waitstatus_to_exitcode(status), usage.ru_maxrss


LAST_CPU = [0.0]


def medians(cmds: dict[str, list[str]], env: dict[str, str], runs: int, warmup: int = 3) -> dict[str, float]:
    """Interleave the commands run by run (ABCABC...) so drift hits all of them alike."""
    samples: dict[str, list[float]] = {k: [] for k in cmds}
    for i in range(warmup + runs):
        for name, argv in cmds.items():
            t, code, _ = spawn_wait(argv, env)
            if code != 0:
                raise SystemExit(f"bench: {' '.join(argv)} exited {code}")
            if i >= warmup:
                samples[name].append(t)
    return {k: statistics.median(v) for k, v in samples.items()}


def make_repo(base: Path) -> str:
    repo = base / "repo"
    repo.mkdir()
    git = ["git", "-c", "init.defaultBranch=main", "-c", "user.name=b", "-c", "user.email=b@x"]
    subprocess.run([*git, "init", "-q", str(repo)], check=True)
    for i in range(30):
        (repo / f"file{i}.py").write_text(f"x = {i}\n")
    subprocess.run([*git, "-C", str(repo), "add", "."], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-q", "-m", "init"], check=True)
    for i in range(5):
        (repo / f"file{i}.py").write_text("changed\n")
    (repo / "new.txt").write_text("new\n")
    return str(repo)


class Bench:
    def __init__(self, rtk: str, runs: int, quick: bool) -> None:
        self.rtk = rtk
        self.python = interpreter_of(rtk)
        self.runs = runs
        self.quick = quick
        self.tmp = Path(tempfile.mkdtemp(prefix="rtk-bench-"))
        self.env = dict(os.environ)
        self.env.update(
            RTK_DATA_DIR=str(self.tmp / "data"),
            RTK_CONFIG=str(self.tmp / "no-config.toml"),
            HOME=str(self.tmp / "home"),
        )
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.results: dict[str, Any] = {}
        self.floor: float | None = None

    def floor_s(self) -> float:
        if self.floor is None:
            self.floor = medians({"floor": [self.python, "-I", "-c", "pass"]}, self.env, self.runs)["floor"]
        return self.floor

    def record(self, name: str, figures: dict[str, Any], budget: str, ok: bool) -> None:
        self.results[name] = {**figures, "budget": budget, "ok": ok}

    # -- benchmarks -------------------------------------------------------------

    def git_status(self) -> None:
        repo = make_repo(self.tmp)
        here = os.getcwd()
        os.chdir(repo)  # the children inherit it
        try:
            m = medians(
                {
                    "floor": [self.python, "-I", "-c", "pass"],
                    "git": ["git", "status"],
                    "rtk": [self.rtk, "git", "status"],
                },
                self.env,
                self.runs,
            )
            peaks = [spawn_wait([self.rtk, "git", "status"], self.env)[2] for _ in range(5)]
        finally:
            os.chdir(here)
        self.floor = m["floor"]
        overhead = m["rtk"] - m["git"]
        ratio = overhead / m["floor"]
        self.record(
            "git-status",
            {
                "floor_ms": round(m["floor"] * 1000, 2),
                "git_status_ms": round(m["git"] * 1000, 2),
                "rtk_git_status_ms": round(m["rtk"] * 1000, 2),
                "overhead_ms": round(overhead * 1000, 2),
                "overhead_x_floor": round(ratio, 2),
            },
            "overhead <= 1.7 x floor",
            ratio <= 1.7,
        )
        peak = max(peaks) / 1024
        self.record("git-status-memory", {"peak_rss_mib": round(peak, 1)}, "peak RSS <= 30 MiB", peak <= 30)

    def stream(self) -> None:
        from_filter = self._streaming_target()
        if from_filter is None:
            self.record("stream", {"skipped": "no streaming filter is registered"}, "n/a", True)
            return
        tool, args, line = from_filter
        gen = self.tmp / "gen.py"
        gen.write_text(
            "import sys\n"
            f"line = {line!r}.encode() + b'\\n'\n"
            "total = int(sys.argv[1])\n"
            "chunk = line * (1048576 // len(line))\n"
            "w = sys.stdout.buffer.write\n"
            "n = 0\n"
            "while n < total:\n"
            "    w(chunk)\n"
            "    n += len(chunk)\n"
        )
        bindir = self.tmp / "bin"
        bindir.mkdir(exist_ok=True)
        stub = bindir / tool
        size_small, size_big = (10 * MiB, 100 * MiB) if self.quick else (100 * MiB, 1024 * MiB)
        env = dict(self.env, PATH=f"{bindir}{os.pathsep}{self.env['PATH']}")
        figures: dict[str, Any] = {"filter_command": f"{tool} {' '.join(args)}"}
        times = {}
        for label, size in (("small", size_small), ("big", size_big)):
            stub.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{gen}" {size}\n')
            stub.chmod(0o755)
            t, _code, rss = spawn_wait([self.rtk, tool, *args], env)
            times[label] = t
            figures[f"{label}_bytes"] = size
            figures[f"{label}_seconds"] = round(t, 2)
            figures[f"{label}_cpu_seconds"] = round(LAST_CPU[0], 2)  # wall time drifts with the machine's load
            figures[f"{label}_mb_per_s"] = round(size / MiB / t, 1)
            figures[f"{label}_peak_rss_mib"] = round(rss / 1024, 1)
        scale = times["big"] / times["small"]
        figures["time_ratio_10x_output"] = round(scale, 2)
        ok = figures["big_peak_rss_mib"] <= 64 and figures["big_mb_per_s"] >= 50 and scale <= 11
        self.record("stream", figures, "peak RSS <= 64 MiB, >= 50 MB/s, 10x output <= 11x time", ok)

    def _streaming_target(self) -> tuple[str, list[str], str] | None:
        """A registered streaming filter and a line of noise it drops."""
        sys.path.insert(0, str(ROOT / "src"))
        from rtk import filters

        candidates = [
            ("cargo", ["build"], "   Compiling some-crate v0.1.0 (/home/dev/project/crates/some-crate)"),
            ("make", [], "make[2]: Entering directory '/home/dev/project/build/src/module'"),
            ("pytest", [], "tests/test_module.py::test_case_number_one PASSED                       [ 42%]"),
        ]
        for tool, args, line in candidates:
            spec = filters.lookup([tool, *args])
            if spec is not None and spec.stream is not None:
                return tool, args, line
        return None

    def extra(self, name: str) -> Callable[[], None] | None:
        """Benchmarks contributed by later features live in bench/<name>.py with run(bench)."""
        path = ROOT / "bench" / f"{name.replace('-', '_')}.py"
        if not path.exists():
            return None
        ns: dict[str, Any] = {}
        exec(compile(path.read_text(), str(path), "exec"), ns)
        return lambda: ns["run"](self)


CORE = ("git-status", "stream")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rtk", default=shutil.which("rtk"), help="the installed rtk launcher (default: rtk on PATH)")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--quick", action="store_true", help="smaller streaming sizes (10 MB / 100 MB)")
    ap.add_argument("--only", nargs="*", help="benchmarks to run (default: all)")
    ap.add_argument("--json", default=str(ROOT / "bench" / "results.json"))
    ns = ap.parse_args()
    if not ns.rtk:
        ap.error("rtk is not on PATH; install it (pip install .) or pass --rtk")
    b = Bench(ns.rtk, ns.runs, ns.quick)
    names = ns.only or [
        *CORE,
        *sorted(p.stem.replace("_", "-") for p in (ROOT / "bench").glob("*.py") if p.stem not in ("run", "__init__")),
    ]
    for name in names:
        fn = {"git-status": b.git_status, "stream": b.stream}.get(name) or b.extra(name)
        if fn is None:
            print(f"bench: unknown benchmark {name}", file=sys.stderr)
            return 2
        fn()
    meta = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "python": b.python,
        "python_version": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cpus",
        "runs": ns.runs,
        "floor_ms": round(b.floor_s() * 1000, 2),
    }
    out = {"meta": meta, "results": b.results}
    Path(ns.json).write_text(json.dumps(out, indent=2) + "\n")
    print(f"rtk benchmarks ({meta['date']}, Python {meta['python_version']}, {meta['machine']}, medians of {ns.runs})")
    print(f"interpreter floor (python -I -c pass): {meta['floor_ms']} ms")
    width = max(len(n) for n in b.results)
    failed = 0
    for name, r in b.results.items():
        figs = ", ".join(f"{k}={v}" for k, v in r.items() if k not in ("budget", "ok"))
        mark = "ok  " if r["ok"] else "MISS"
        failed += not r["ok"]
        print(f"  {mark} {name:<{width}}  {figs}")
        print(f"       {'':<{width}}  budget: {r['budget']}")
    shutil.rmtree(b.tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
