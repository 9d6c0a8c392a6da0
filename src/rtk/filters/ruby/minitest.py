"""Filter for Minitest output under ``rake test``, ``rake test:*`` and ``rails test``.

Passing runs shrink to the ``N runs, N assertions, ...`` line. Failing runs keep
every ``Failure:``/``Error:`` block (test id, ``[file:line]``, expected/actual,
exception and backtrace, absolute paths below the directory they share said once;
bounded per failure), the summary line and rake's own
abort lines. Seed, ``# Running:``, progress dots, timing and the skip hint go.
Output without a Minitest summary prints raw; other rake/rails tasks run unfiltered.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.failblocks import Blocks, below_root, squeeze

COMMANDS = ("rake", "rails")

_SUMMARY = re.compile(r"^(\d+) (runs|tests), \d+ assertions, (\d+) failures, (\d+) errors, \d+ skips$")
_PROGRESS = re.compile(r"^[.FES]+$")
_ITEM = re.compile(r"^  \d+\) (Failure|Error):$")
_NOISE = re.compile(
    r"^(Run options: .*|# Running:|Finished in [\d.]+s, .*|You have skipped tests\. Run with --verbose for details\."
    r"|\(See full trace by running task with --trace\))$"
)
# A backtrace frame and a failure's location: ``    /app/lib/x.rb:6:in `vat'``, ``T#test_a [/app/test/t.rb:9]:``.
_PATHS = (re.compile(r"^\s+(?P<path>/[^\s:]+):\d+:in "), re.compile(r"^\S+#\S+ \[(?P<path>/[^\s:\]]+):\d+\]:$"))
_RAW = ("-h", "--help", "-T", "--tasks", "-P", "--prereqs", "-n", "--dry-run", "-D", "--describe", "-W", "--where")


def select(argv: list[str]) -> Spec | None:
    args = argv[1:]
    if any(a in _RAW for a in args):
        return None
    tasks = [a for a in args if not a.startswith("-") and "=" not in a]
    if not tasks:
        return None
    if argv[0].rsplit("/", 1)[-1] == "rails":
        if tasks[0] not in ("test", "t", "test:system", "test:all"):
            return None
    elif not all(t == "test" or t.startswith("test:") for t in tasks):
        return None
    return Spec("rake-test", minitest)


def minitest(argv: list[str], output: str, exit_code: int) -> str | Filtered:
    lines = output.splitlines()
    sums = [m for m in (_SUMMARY.match(ln.strip()) for ln in lines) if m]
    if not sums:
        raise Unrecognized("no Minitest summary line")
    bad = sum(int(m.group(3)) + int(m.group(4)) for m in sums)
    acc = Blocks()
    out, block, flush = acc.out, acc.block, acc.flush

    for ln in lines:
        s = ln.strip()
        if _ITEM.match(ln):
            flush()
            block.append(ln)
            continue
        if _SUMMARY.match(s):
            flush()
            out.append(s)
            continue
        if block:
            if s:
                block.append(ln)
            else:
                flush()
            continue
        if _PROGRESS.match(s) or _NOISE.match(s):
            continue
        out.append(ln)
    flush()
    text = squeeze(below_root(out, _PATHS))
    if exit_code != 0 and bad == 0:
        text += f"\nexited with code {exit_code} although no test failed"
    return Filtered(text, acc.cut)
