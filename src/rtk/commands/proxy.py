"""``rtk proxy <command...>``: run a command raw, streams inherited, but track the run."""

from __future__ import annotations

import sys

HELP = """\
usage: rtk proxy <command> [args...]

Run the command exactly as written (no filter, stdin/stdout/stderr inherited)
and record the run in the savings database as passthrough (0 tokens saved).
Use it to see the raw output of something rtk normally filters."""


def main(args: list[str]) -> int:
    if not args or args[0] in ("-h", "--help"):
        print(HELP, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    if args[0] == "--":
        args = args[1:]
    from rtk.run import proxy

    return proxy(args)
