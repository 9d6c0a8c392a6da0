"""``rtk log FILE``: a log folded (each kind of line once, exact counts and line ranges), errors summarised."""

from __future__ import annotations

import re
import time

from rtk.commands._own import parse, read_input, track, write
from rtk.text import plural

HELP = """\
usage: rtk log [FILE...]                 (no FILE, or -: standard input)

Print a log folded: each kind of line (its template: the words that stay, with
numbers, ids, paths, addresses, timestamps and quoted strings as fields) is
shown once, followed by "… N more like: TEMPLATE  (lines A-B)" with the exact
count and line range (and the values of a field that takes few). Warnings,
errors, tracebacks and stack traces, rare lines and the last lines are always
shown whole. A header counts lines, kinds, errors and warnings (and where the
first error is). Exact lines: rtk read FILE --lines A-B, or the recovery file.

options:
  -h, --help   this help"""

_ERROR = re.compile(r"(?i)\b(?:error|err|fatal|critical|crit|panic|exception|traceback|failed|failure)\b")
_WARN = re.compile(r"(?i)\b(?:warn|warning)\b")


def main(args: list[str]) -> int:
    started = time.monotonic()
    a = parse("log", args, {})
    if a.help:
        print(HELP)
        return 0
    from rtk import pipeline, tee
    from rtk.text import clean, decode, split_lines

    raw = b"".join(read_input("log", n) for n in (a.pos or ["-"]))
    raw_text = clean(decode(raw))
    lines = split_lines(raw_text)
    from rtk.fold import Folder

    folder = Folder()
    body: list[str] = []
    n_err = n_warn = 0
    first_err = 0
    for no, ln in enumerate(lines, 1):
        if _ERROR.search(ln):
            n_err += 1
            first_err = first_err or no
        elif _WARN.search(ln):
            n_warn += 1
        body.extend(folder.feed(ln))
    body.extend(folder.finish())
    head = f"{plural(len(lines), 'line')}, {plural(len(folder.miner.templates), 'kind')}"
    head += f"; errors: {n_err} (first at line {first_err})" if n_err else "; no error lines"
    if n_warn:
        head += f"; warnings: {n_warn}"
    out = [head, *body]
    hidden_lines = folder.folded
    name = a.pos[0] if len(a.pos) == 1 else "-"

    def keep(argv: list[str], data: bytes) -> str | None:
        import os

        return os.path.abspath(name) if name != "-" else tee.write(argv, data)

    res = pipeline.finish(["log", *args], raw, raw_text, 0, "\n".join(out) + "\n", hidden_lines, keep)
    write(res.text)
    track("log", args, res.raw_tokens, res.out_tokens, started, 0, res.cut, res.mode)
    return 0
