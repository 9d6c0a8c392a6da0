"""A 2,000-line JSON-lines log through rtk read (issue 15's 30 ms budget), interleaved with an older rtk.

``python bench/fold_jsonl.py [--old SRC [--label TEXT]] [--also DIR] [--runs N] [--record]``. The log is 2,000 lines of the real
captures tests/logdata/node-jsonl.log and structlog-sync.log in turn, each with a ``"seq"`` field added.
Each round runs ``rtk read --raw`` and ``rtk read`` of it (and, with ``--old``, the same with the
``src`` directory of another checkout, e.g. a detached worktree of main, first on the path); the
figures are CPU-time medians (user + system of the child, what load stretches least). With ``--old``
every tests/logdata log, the JSON log and the logs in DIR (``--also``) must read byte-identically
with both, or it stops.
``--record`` writes the figures under ``fold-jsonl-2000-lines`` in bench/results.json (that key only).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOGS = ("node-jsonl.log", "structlog-sync.log")


def json_log(n: int = 2000) -> bytes:
    """``n`` lines of the JSON-lines captures in turn, a running ``"seq"`` added to each event."""
    lines: list[bytes] = []
    for name in LOGS:
        lines += (ROOT / "tests" / "logdata" / name).read_bytes().splitlines()
    out = []
    for i in range(n):
        ln = lines[i % len(lines)]
        out.append(ln[:-1] + b', "seq": %d}' % i if ln.endswith(b"}") else ln)
    return b"".join(b"%s\n" % ln for ln in out)


def _run(argv: list[str], env: dict[str, str], out: bool = False) -> tuple[float, bytes]:
    """CPU seconds of the child (user + system) and, when asked, its output."""
    r, w = os.pipe()
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        acts = [(os.POSIX_SPAWN_DUP2, w if out else devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
        pid = os.posix_spawn(argv[0], argv, env, file_actions=acts)
        os.close(w)
        chunks = []
        while chunk := os.read(r, 1 << 16):
            chunks.append(chunk)
        _, _status, usage = os.wait4(pid, 0)
        return usage.ru_utime + usage.ru_stime, b"".join(chunks)
    finally:
        os.close(r)
        os.close(devnull)


def main(argv: list[str]) -> int:
    old = argv[argv.index("--old") + 1] if "--old" in argv else None
    also = sorted(Path(argv[argv.index("--also") + 1]).glob("*.log")) if "--also" in argv else []
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 20
    launcher = [sys.executable, "-c", "import sys; from rtk.__main__ import main; sys.exit(main())", "read"]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    envs = {"new": {**env, "PYTHONPATH": str(ROOT / "src")}}
    if old is not None:
        envs["old"] = {**env, "PYTHONPATH": old}
    with tempfile.TemporaryDirectory(prefix="rtk-bench-jsonl-") as tmp:
        log = Path(tmp) / "app-json-2000.log"
        log.write_bytes(json_log())
        if old is not None:  # the same output, byte for byte, for every log
            for path in [log, *sorted((ROOT / "tests" / "logdata").glob("*.log")), *also]:
                got = {k: _run([*launcher, str(path)], e, out=True)[1] for k, e in envs.items()}
                if got["new"] != got["old"]:
                    print(f"DIFFERENT OUTPUT: {path}", file=sys.stderr)
                    return 1
            print("same output: the JSON log and every tests/logdata log", file=sys.stderr)
        cpu: dict[str, list[float]] = {}
        for _ in range(runs):  # interleaved, so load changes hit all alike
            for k, e in envs.items():
                for way, args in (("raw", ["--raw", str(log)]), ("fold", [str(log)])):
                    cpu.setdefault(f"{k}_{way}", []).append(_run([*launcher, *args], e)[0] * 1000)
    med = {k: round(statistics.median(v), 2) for k, v in cpu.items()}
    figures: dict[str, Any] = {f"{k}_cpu_ms": v for k, v in med.items()}
    for k in envs:
        figures[f"{k}_fold_over_plain_read_cpu_ms"] = round(med[f"{k}_fold"] - med[f"{k}_raw"], 2)
    figures |= {"runs": runs, "lines": 2000, "load_average_1min": round(os.getloadavg()[0], 2)}
    figures["measured"] = time.strftime("%Y-%m-%d %H:%M")
    if old is not None:
        figures["old"] = argv[argv.index("--label") + 1] if "--label" in argv else old
    print(json.dumps(figures, indent=2))
    if "--record" in argv:
        path = ROOT / "bench" / "results.json"
        results = json.loads(path.read_text())
        ok = figures["new_fold_over_plain_read_cpu_ms"] <= 30
        entry = {**figures, "budget": "fold <= 30 ms over the plain read", "ok": ok}
        target = results.get("results", results)
        target["fold-jsonl-2000-lines"] = entry
        path.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
