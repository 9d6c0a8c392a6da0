"""Filter for ``php -l`` (syntax check): each error once, the verdict lines kept.

With ``display_errors`` on (a development php.ini), PHP prints every parse or
compile error twice: logged to stderr (``PHP Parse error:  msg in f.php on line N``)
and displayed on stdout (``Parse error: msg in f.php on line N``, after a blank
line). The displayed copy of a logged error goes, so does the blank line; every
other line (``No syntax errors detected in f.php``, ``Errors parsing f.php``,
``Could not open input file``) stays. Other php invocations run unfiltered: a
script's output is its own.
"""

from __future__ import annotations

import re

from rtk.filterapi import Spec

COMMANDS = ("php",)

_LOGGED = re.compile(r"^PHP ((?:Parse|Fatal|Compile|Core) error|Warning|Deprecated|Notice):  (.*)$")
_SHOWN = re.compile(r"^((?:Parse|Fatal|Compile|Core) error|Warning|Deprecated|Notice): (.*)$")


def select(argv: list[str]) -> Spec | None:
    args = iter(argv[1:])
    for a in args:
        if a in ("-l", "--syntax-check"):
            return Spec("php-lint", lint)
        if a in ("-c", "-d", "-z"):  # an option with a value: php -d display_errors=1 -l f.php
            next(args, None)
            continue
        if not a.startswith("-") or a in ("-r", "-a", "-i", "-h", "-v", "-m", "-S", "-t", "-s", "-w", "--"):
            return None  # a script (or another mode) before any -l: not a syntax check
    return None


def lint(argv: list[str], output: str, exit_code: int) -> str | None:
    """The displayed copy of each logged error dropped; None (raw) when there is none."""
    lines = output.split("\n")
    logged = set()
    for ln in lines:
        m = _LOGGED.match(ln)
        if m:
            logged.add((m.group(1), m.group(2)))
    if not logged:
        return None
    out: list[str] = []
    dropped = 0
    for ln in lines:
        m = _SHOWN.match(ln)
        if m and (m.group(1), m.group(2)) in logged:
            dropped += 1
            continue
        if not ln.strip():
            continue
        out.append(ln)
    if not dropped:
        return None
    return "\n".join(out) + "\n"
