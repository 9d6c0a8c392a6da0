"""Benchmarks for ``rtk rewrite`` (loaded by bench/run.py, which calls ``run(bench)``).

- rewrite-latency: ``rtk rewrite "git status"`` through the installed launcher, with a
  Claude settings file that allows it (exit 0; the json parse is cached after the first
  run) and with no settings file at all (exit 3), against ``python -I -c pass``.
  Budget: median <= 1.5 x floor.
- classify-10k: ``classify()`` over 10,000 distinct recorded-style commands in one
  process. Budget: < 1 s.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# bench/run.py runs this file with exec(), without __file__; it is then argv[0]'s neighbour.
ROOT = Path(globals().get("__file__") or sys.argv[0]).resolve().parent.parent


def _spawn(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        t0 = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
        _, status = os.waitpid(pid, 0)
        return time.perf_counter() - t0, os.waitstatus_to_exitcode(status)
    finally:
        os.close(devnull)


def _interleaved(cmds: dict[str, tuple[list[str], dict[str, str], int]], runs: int) -> dict[str, float]:
    samples: dict[str, list[float]] = {k: [] for k in cmds}
    for i in range(runs + 3):
        for name, (argv, env, want) in cmds.items():
            t, code = _spawn(argv, env)
            if code != want:
                raise SystemExit(f"bench: {' '.join(argv)} exited {code}, expected {want}")
            if i >= 3:
                samples[name].append(t)
    return {k: statistics.median(v) for k, v in samples.items()}


def latency(bench: Any) -> None:
    home = Path(bench.tmp) / "rw-home"
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"allow": ["Bash(git status)"]}}))
    bare = Path(bench.tmp) / "rw-bare"
    bare.mkdir(exist_ok=True)
    with_settings = dict(bench.env, HOME=str(home))
    without = dict(bench.env, HOME=str(bare))
    sys.path.insert(0, str(ROOT / "bench"))
    from run import medians  # type: ignore[import-not-found,unused-ignore]

    here = os.getcwd()
    os.chdir(bench.tmp)  # no project .claude directory
    try:
        # Exit 0: the settings file allows it (the usual case for a Claude user).
        m = medians(
            {"floor": [bench.python, "-I", "-c", "pass"], "allow": [bench.rtk, "rewrite", "git status"]},
            with_settings,
            bench.runs,
        )
        # Exit 3 (ask): no settings file at all; medians() wants exit 0, hence our own loop.
        m2 = _interleaved(
            {
                "floor": ([bench.python, "-I", "-c", "pass"], without, 0),
                "ask": ([bench.rtk, "rewrite", "git status"], without, 3),
            },
            bench.runs,
        )
    finally:
        os.chdir(here)
    floor = m["floor"]
    if bench.floor is None:
        bench.floor = floor  # the report's floor line, when the core benchmarks did not run
    m["ask"] = m2["ask"] * floor / m2["floor"]  # on the first run's floor
    ratio = max(m["allow"], m["ask"]) / floor
    bench.record(
        "rewrite-latency",
        {
            "floor_ms": round(floor * 1000, 2),
            "rewrite_allow_ms": round(m["allow"] * 1000, 2),
            "rewrite_no_settings_ms": round(m["ask"] * 1000, 2),
            "ratio_allow": round(m["allow"] / floor, 2),
            "ratio_no_settings": round(m["ask"] / floor, 2),
        },
        "median <= 1.5 x floor",
        ratio <= 1.5,
    )


def corpus(n: int = 10000) -> list[str]:
    """``n`` distinct commands shaped like an agent's history (golden inputs, varied)."""
    base = []
    for line in (ROOT / "tests" / "rewrite" / "golden.txt").read_text(encoding="utf-8").split("\n"):
        if "⟶" in line:
            base.append(line.split("⟶")[0].strip().replace("␤", "\n").replace("⇥", "\t"))
    out: list[str] = []
    i = 0
    while len(out) < n:
        cmd = base[i % len(base)]
        k = i // len(base)
        out.append(cmd if k == 0 else f"{cmd} && ls dir{k}" if k % 2 else f"cd src{k} && {cmd}")
        i += 1
    return out


def classify(bench: Any) -> None:
    sys.path.insert(0, str(ROOT / "src"))
    from rtk.rewrite import engine

    cmds = corpus()
    engine.classify(cmds[0])  # imports and settings
    t0 = time.perf_counter()
    kinds: dict[str, int] = {}
    for c in cmds:
        k = engine.classify(c).kind
        kinds[k] = kinds.get(k, 0) + 1
    elapsed = time.perf_counter() - t0
    bench.record(
        "classify-10k",
        {"commands": len(cmds), "seconds": round(elapsed, 3), **kinds},
        "< 1 s",
        elapsed < 1.0,
    )


def run(bench: Any) -> None:
    latency(bench)
    classify(bench)
