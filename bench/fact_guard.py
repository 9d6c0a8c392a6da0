"""Benchmark for the fact guard (loaded by bench/run.py, which calls ``run(bench)``; also runs alone).

- fact-guard-100kb: what the guard adds to a filtered run (``pipeline.may_lose_facts`` and
  ``factguard.restore``) on real captured outputs (tests/fixtures) repeated to 100 KB, with
  their filter's real compact output; every case keeps its facts, so nothing is restored.
  Budget: <= 1 ms per 100 KB (the worst case counts). In-process, medians of CPU time.
- fact-guard-restoring: the same outputs when the filter printed only a one-line summary, so
  every line with a fact comes back: the cost when the guard has work to do (no budget).
- fact-guard-stream: the stream guard (``rtk.run._for_guard``, ``StreamGuard.feed`` and
  ``finish``) over streamed 64 KB blocks of real ``cargo build`` lines (a build's progress
  lines; a build full of warnings) through the real ``cargo build`` filter, and of real
  ``pytest -v`` lines through the real pytest filter,
  against that filter's own CPU time: 1 GB (100 MB with ``--quick``) of output. The filter reports the
  lines it did not vouch for (``LineFilter.unvouched``), so the guard reads those only.
  Budget: <= 5 % added. Also reported, without a budget: a filter that does not report
  (the guard's generic fallback reads every line), on a tenth of the size. (Until the
  vouching design, this benchmark measured the fallback against a stand-in filter.)
- tokens-estimate-100kb: ``tokens.estimate_shaped`` (the never-worse guard's and tracking's
  measure) on the same 100 KB outputs. Aim: well under 1 ms.

Alone (``python bench/fact_guard.py [--quick] [--merge]``) it prints the figures; ``--merge``
writes them into bench/results.json next to the other benchmarks' (with the date and the
interpreter floor of the run, which says how loaded the machine was).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path
from typing import Any

# bench/run.py runs this file with exec(), without __file__; it is then argv[0]'s neighbour.
ROOT = Path(globals().get("__file__") or sys.argv[0]).resolve().parent.parent
CASES = (
    "du/shared-du-usr_centos-7.7",
    "dpkg-list/shared-dpkg-l_ubuntu-18.04",
    "rubocop/shared-rubocop-default_rails-app",
    "pytest/fail-tb-native",
    "cargo-test/workspace-pass",
    "go-test/failures-verbose",
    "stat/shared-stat-bin-star_ubuntu-18.04",
)
KB100 = 100_000


def _compact(name: str, raw_bytes: bytes) -> tuple[str, str, int, dict[str, str] | None]:
    """The raw text and what the fixture's filter prints for it (before the guard), its cut and its report."""
    sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]
    from fixturelib import FIXTURES, load, spec_for  # type: ignore[import-not-found,unused-ignore]
    from rtk.filterapi import Filtered
    from rtk.text import clean, decode

    fx = load(FIXTURES / f"{name}.toml")
    raw = clean(decode(raw_bytes))
    spec = spec_for(fx)
    argv = fx.argv[2:] if fx.argv[0] == "rtk" else fx.argv
    if spec.filter is not None:
        res = spec.filter(argv, raw, fx.exit_code)
        if isinstance(res, Filtered):
            return raw, res.text, res.cut, res.moved
        return raw, res or raw, 0, None
    assert spec.stream is not None
    f = spec.stream(argv)
    parts = [r + "\n" for r in map(f.feed, raw.split("\n")) if r is not None]
    return raw, "".join(parts) + (f.finish(fx.exit_code) or ""), f.cut, None


def _scaled(name: str) -> bytes:
    data = (ROOT / "tests" / "fixtures" / f"{name}.raw").read_bytes()
    return (data * (KB100 // len(data) + 1))[:KB100].rsplit(b"\n", 1)[0] + b"\n"


def _median_ms(fn: Any, runs: int) -> float:
    """The median CPU time of ``fn`` (the machine is shared: wall time counts the others' work too)."""
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times) * 1000


def guard_100kb(runs: int) -> tuple[dict[str, Any], dict[str, Any]]:
    from rtk import factguard, pipeline

    kept: dict[str, Any] = {}
    restoring: dict[str, Any] = {}
    for name in CASES:
        raw, text, cut, moved = _compact(name, _scaled(name))
        n = factguard.restore(raw, text, cut > 0, moved)[1] if pipeline.may_lose_facts(raw, text) else 0
        ms = _median_ms(
            lambda raw=raw, text=text, cut=cut, moved=moved: (
                pipeline.may_lose_facts(raw, text) and factguard.restore(raw, text, cut > 0, moved)
            ),
            runs,
        )
        kept[name] = {"ms": round(ms, 3), "restored": n}
        r = factguard.restore(raw, "summary: done\n")[1]
        ms = _median_ms(lambda raw=raw: factguard.restore(raw, "summary: done\n"), max(3, runs // 5))
        restoring[name] = {"ms": round(ms, 3), "restored": r}
    return kept, restoring


def estimate_100kb(runs: int) -> dict[str, Any]:
    from rtk import tokens

    cases = {}
    for name in CASES:
        text = _scaled(name).decode("utf-8", "replace")
        cases[name] = round(_median_ms(lambda text=text: tokens.estimate_shaped(text), runs), 3)
    return {"worst_ms": max(cases.values()), "median_ms": round(statistics.median(cases.values()), 3), "cases": cases}


def _blocks(names: tuple[str, ...], size: int = 64 * 1024) -> list[str]:
    """One streamed block (``size`` characters) of the real lines of ``names``, repeated."""
    lines: list[str] = []
    for name in names:
        lines += (ROOT / "tests" / "fixtures" / f"{name}.raw").read_text().split("\n")
    block: list[str] = []
    n = 0
    while n < size:
        for ln in lines:
            block.append(ln)
            n += len(ln) + 1
    return block


def _stream_case(filt: Any, block: list[str], total: int) -> dict[str, Any]:
    """``filt`` (a LineFilter) and the guard over ``total`` characters of ``block``, as ``rtk.run`` feeds them."""
    from rtk.factguard import StreamGuard
    from rtk.run import _for_guard

    if filt.reports:
        filt.unvouched = []  # as rtk.run enables it
    size = sum(map(len, block)) + len(block)
    blocks = max(1, total // size)
    guard = StreamGuard()
    filt_s = guard_s = 0.0
    clock = time.process_time  # CPU time: the machine is shared, wall time counts the others' work too
    for _ in range(blocks):
        t0 = clock()
        parts = [r + "\n" for r in map(filt.feed, block) if r is not None]
        t1 = clock()
        guard.feed(_for_guard(filt, block), parts)
        t2 = clock()
        filt_s += t1 - t0
        guard_s += t2 - t1
    t0 = clock()
    summary = filt.finish(0)
    t1 = clock()
    n = guard.finish(summary, filt.cut > 0)[1]
    guard_s += clock() - t1
    filt_s += t1 - t0
    return {
        "mb": round(blocks * size / 1e6),
        "reports": filt.unvouched is not None,
        "filter_cpu_s": round(filt_s, 2),
        "guard_cpu_s": round(guard_s, 3),
        "guard_pct_of_filter": round(100 * guard_s / filt_s, 2),
        "restored": n,
    }


def guard_stream(total: int) -> dict[str, Any]:
    """The stream guard's CPU time against its filter's, on real lines through real streaming filters.

    ``cargo build`` reports the lines it did not vouch for (``LineFilter.unvouched``): on a
    build's progress lines the guard reads nothing; on a build full of warnings it reads the
    diagnostics. ``fallback``: a filter that does not report (every line read, as before).
    """
    from rtk import filters
    from rtk.filterapi import LineFilter

    def cargo() -> Any:
        spec = filters.lookup(["cargo", "build"])
        assert spec is not None and spec.stream is not None
        return spec.stream(["cargo", "build"])

    class ProblemLines(LineFilter):  # a filter that prints problem lines and reports nothing
        def feed(self, line: str) -> str | None:
            return line if ("warning" in line or "error" in line or "FAILED" in line) else None

    pytest = filters.lookup(["pytest"])
    assert pytest is not None and pytest.stream is not None
    cases = {
        "cargo-build-progress": _stream_case(cargo(), _blocks(("cargo-build/clean-workspace",)), total),
        "cargo-build-warnings": _stream_case(cargo(), _blocks(("cargo-build/warnings",)), total),
        "pytest-verbose": _stream_case(pytest.stream(["pytest", "-v"]), _blocks(("pytest/pass-verbose",)), total),
        "fallback": _stream_case(
            ProblemLines([]),
            _blocks(("cargo-build/warnings", "pytest/pass-verbose", "cargo-test/workspace-pass")),
            total // 10,
        ),
    }
    worst = max(v["guard_pct_of_filter"] for k, v in cases.items() if v["reports"])
    return {"worst_pct_reporting": worst, "cases": cases}


def run(bench: Any) -> None:
    kept, restoring = guard_100kb(max(bench.runs, 20))
    worst = max(v["ms"] for v in kept.values())
    # In-process milliseconds scale with the machine's load: the interpreter floor measured in the
    # same run says how busy it was (12 ms on an idle 2-cpu box).
    floor = round(bench.floor_s() * 1000, 2) if hasattr(bench, "floor_s") else None
    bench.record(
        "fact-guard-100kb",
        {
            "worst_ms": worst,
            "median_ms": round(statistics.median(v["ms"] for v in kept.values()), 3),
            "floor_ms_this_run": floor,
            "cases": kept,
        },
        "guard <= 1 ms per 100 KB when the filter kept every fact",
        worst <= 1.0 and all(v["restored"] == 0 for v in kept.values()),
    )
    bench.record("fact-guard-restoring", {"cases": restoring}, "none (reported)", True)
    st = guard_stream(100_000_000 if bench.quick else 1_000_000_000)
    bench.record(
        "fact-guard-stream",
        st,
        "guard <= 5% of a reporting streaming filter's time (CPU)",
        st["worst_pct_reporting"] <= 5 and all(v["restored"] == 0 for v in st["cases"].values()),
    )
    est = estimate_100kb(max(bench.runs, 20))
    bench.record("tokens-estimate-100kb", est, "well under 1 ms per 100 KB", est["worst_ms"] < 1.0)


if __name__ == "__main__":
    import json
    import subprocess

    class _Bench:
        runs = 30
        quick = "--quick" in sys.argv
        results: dict[str, Any] = {}  # noqa: RUF012

        def floor_s(self) -> float:
            times = []
            for _ in range(10):
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-I", "-c", "pass"], check=True)
                times.append(time.perf_counter() - t0)
            return statistics.median(times)

        def record(self, name: str, figures: dict[str, Any], budget: str, ok: bool) -> None:
            self.results[name] = {**figures, "budget": budget, "ok": ok}
            print(name, "ok" if ok else "MISS", figures, budget)

    b = _Bench()
    run(b)
    if "--merge" in sys.argv:
        path = ROOT / "bench" / "results.json"
        data = json.loads(path.read_text())
        stamp = time.strftime("%Y-%m-%d %H:%M")
        for name, figures in b.results.items():
            data["results"][name] = {**figures, "measured": stamp}
        path.write_text(json.dumps(data, indent=2) + "\n")
