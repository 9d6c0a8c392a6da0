"""Benchmark for ``rtk discover`` (loaded by bench/run.py, which calls ``run(bench)``).

- discover-1gb: ``rtk discover --all --since all --format json`` through the installed
  launcher over 1 GB of agent transcripts (100 MB with ``--quick``), built by repeating
  the six real transcripts in ``tests/history/transcripts`` as separate session files
  in a Claude Code and a Codex home. Wall time and the child's peak RSS.
  Budget: < 30 s and < 100 MiB. The files were just written, so they are read from the
  page cache (a cold disk adds its read time).
- discover-1gb-uncached: the same scan with the per-command classification cache cut
  to one entry, so every one of the ~61,000 commands is classified afresh: the cost when
  no command repeats (real histories repeat a lot; the repeated corpus repeats fully).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

# bench/run.py runs this file with exec(), without __file__; it is then argv[0]'s neighbour.
ROOT = Path(globals().get("__file__") or sys.argv[0]).resolve().parent.parent
REAL = ROOT / "tests" / "history" / "transcripts"
MiB = 1024 * 1024

CLAUDE = {
    "codemie-session-196820da_cc-2.0.76.jsonl": "-Users-user-repo/{n}-196820da.jsonl",
    "codemie-session-4c2ddfdc_cc-2.0.64.jsonl": "-tmp-private/{n}-4c2ddfdc.jsonl",
    "spotter-subagent-a7be2f0_cc-2.1.39.jsonl": "-home-USER-projects-spotter-fum/{n}-8463c716/subagents/agent-a7be2f0.jsonl",
    "spotter-tool-heavy_cc-2.1.38.jsonl": "-home-marco-projects-spotter/{n}-d6e0bada.jsonl",
}
CODEX = {
    "rollout-codex-exec-0.77-shell.jsonl": "2026/01/02/rollout-2026-01-02T18-39-45-{n}.jsonl",
    "rollout-codex-tui-0.125-exec-command.jsonl": "2026/05/11/rollout-2026-05-11T11-26-55-{n}.jsonl",
}


def build(base: Path, target: int) -> tuple[int, int, int]:
    """Copies of the real transcripts under ``base`` until ``target`` bytes; (bytes, files, sets)."""
    sources = [(REAL / "claude-code" / s, base / "claude" / "projects" / d) for s, d in CLAUDE.items()]
    sources += [(REAL / "codex" / s, base / "codex" / "sessions" / d) for s, d in CODEX.items()]
    blobs = [(src.read_bytes(), dst) for src, dst in sources]
    total = files = sets = 0
    while total < target:
        for data, dst in blobs:
            path = Path(str(dst).format(n=f"{sets:05d}"))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            total += len(data)
            files += 1
        sets += 1
    return total, files, sets


def run(bench: Any) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    from run import spawn_wait  # type: ignore[import-not-found,unused-ignore]

    base = Path(bench.tmp) / "history"
    target = 100 * MiB if bench.quick else 1024 * MiB
    size, files, sets = build(base, target)
    env = dict(bench.env, CLAUDE_CONFIG_DIR=str(base / "claude"), CODEX_HOME=str(base / "codex"))
    out = base / "discover.json"
    argv = [bench.rtk, "discover", "--all", "--since", "all", "--format", "json"]
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        seconds, code, rss_kib = spawn_wait(argv, env, stdout=fd)
    finally:
        os.close(fd)
    report = json.loads(out.read_text()) if code == 0 else {}
    probe = (
        "import sys; from rtk.history import segments; segments.MAX_CACHE = 1\n"
        "from rtk.commands import discover; sys.exit(discover.main(sys.argv[1:]))"
    )
    u_seconds, u_code, u_rss = spawn_wait([bench.python, "-c", probe, *argv[2:]], env)
    shutil.rmtree(base, ignore_errors=True)
    rss = rss_kib / 1024
    figures = {
        "bytes": size,
        "files": files,
        "copies_of_the_6_real_transcripts": sets,
        "shell_commands": report.get("shell_commands"),
        "seconds": round(seconds, 2),
        "mb_per_s": round(size / MiB / seconds, 1),
        "peak_rss_mib": round(rss, 1),
        "exit": code,
    }
    ok = code == 0 and report.get("shell_commands") == 98 * sets and seconds < 30 and rss < 100
    name = "discover-1gb" if not bench.quick else "discover-100mb"
    bench.record(name, figures, "< 30 s and < 100 MiB", ok)
    u_ok = u_code == 0 and u_seconds < 30 and u_rss / 1024 < 100
    bench.record(
        name + "-uncached",
        {"seconds": round(u_seconds, 2), "peak_rss_mib": round(u_rss / 1024, 1), "exit": u_code},
        "< 30 s and < 100 MiB",
        u_ok,
    )
