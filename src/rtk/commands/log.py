"""``rtk log FILE``: a log with repeated lines printed once with their count, errors and warnings summarised."""

from __future__ import annotations

import re
import time

from rtk.commands._own import parse, read_input, track, write
from rtk.text import plural

HELP = """\
usage: rtk log [FILE...]                 (no FILE, or -: standard input)

Print a log with each distinct line once, in order of first appearance, and
"[×N]" in front of lines that occurred N times. Lines are compared with their
timestamps, UUIDs, hex addresses and [pids] ignored; the first occurrence is
the one shown. A header counts lines, distinct lines, errors and warnings (and
where the first error is). Error and warning lines are always shown; other
distinct lines beyond limits.log_max_lines are counted ("+N more").

options:
  -h, --help   this help"""

_TS = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2}"
    r"|\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b"
    r"|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
    r"|\b0x[0-9a-fA-F]+\b"
    r"|\[\d+\]"
)
_ERROR = re.compile(r"(?i)\b(?:error|err|fatal|critical|crit|panic|exception|traceback|failed|failure)\b")
_WARN = re.compile(r"(?i)\b(?:warn|warning)\b")


def _key(line: str) -> str:
    return _TS.sub("#", line).strip()


def main(args: list[str]) -> int:
    started = time.monotonic()
    a = parse("log", args, {})
    if a.help:
        print(HELP)
        return 0
    from rtk import config, pipeline, tee
    from rtk.text import clean, decode, split_lines

    raw = b"".join(read_input("log", n) for n in (a.pos or ["-"]))
    raw_text = clean(decode(raw))
    lines = split_lines(raw_text)
    counts: dict[str, int] = {}
    first: dict[str, tuple[int, str]] = {}
    for no, ln in enumerate(lines, 1):
        if not ln.strip():
            continue
        k = _key(ln)
        counts[k] = counts.get(k, 0) + 1
        first.setdefault(k, (no, ln))
    errors = [k for k in counts if _ERROR.search(first[k][1])]
    warns = [k for k in counts if k not in errors and _WARN.search(first[k][1])]
    n_err = sum(counts[k] for k in errors)
    n_warn = sum(counts[k] for k in warns)
    head = f"{plural(len(lines), 'line')}, {len(counts)} distinct"
    if errors:
        head += f"; errors: {n_err} ({len(errors)} distinct, first at line {min(first[k][0] for k in errors)})"
    else:
        head += "; no error lines"
    if warns:
        head += f"; warnings: {n_warn} ({len(warns)} distinct)"
    out = [head]
    cap = int(config.get("limits.log_max_lines"))
    shown_other = 0
    hidden_distinct = hidden_lines = 0
    important = set(errors) | set(warns)
    for k in counts:
        if k not in important:
            if shown_other >= cap:
                hidden_distinct += 1
                hidden_lines += counts[k]
                continue
            shown_other += 1
        n = counts[k]
        out.append((f"[×{n}] " if n > 1 else "") + first[k][1])
    if hidden_distinct:
        out.append(f"+{hidden_distinct} more distinct lines ({plural(hidden_lines, 'line')})")
    name = a.pos[0] if len(a.pos) == 1 else "-"

    def keep(argv: list[str], data: bytes) -> str | None:
        import os

        return os.path.abspath(name) if name != "-" else tee.write(argv, data)

    res = pipeline.finish(["log", *args], raw, raw_text, 0, "\n".join(out) + "\n", hidden_lines, keep)
    write(res.text)
    track("log", args, res.raw_tokens, res.out_tokens, started, 0, res.cut)
    return 0
