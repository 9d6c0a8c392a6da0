"""The once-a-day check on normal commands: warn (stderr) when an installed hook was modified or is outdated.

``rtk.__main__`` only stats the marker file (``<data dir>/.hook_check``, touched by
``rtk init``); when it is more than a day old this module runs, touches it first (a
failure never repeats every command), and prints one line per problem. It never
raises and never runs the hooks themselves (that is ``rtk doctor``).
"""

from __future__ import annotations

import sys

DAY = 86400


def daily() -> None:
    from rtk.agents._manifest import touch_marker

    touch_marker()
    try:
        lines = problems()
    except Exception:  # a broken manifest must not break the user's command
        return
    for line in lines:
        print(line, file=sys.stderr)


def problems() -> list[str]:
    from rtk.agents import _status

    out = []
    for r in _status.reports():
        r.check_command(run=False)
        for p in r.problems:
            out.append(f"rtk: {r.integ.name} integration: {p}; `rtk init --show` for details, `rtk init` to repair")
    return out
