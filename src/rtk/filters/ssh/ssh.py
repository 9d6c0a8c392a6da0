"""Filter for ``ssh HOST COMMAND``: the remote output as it came, folded (rtk.fold) only when it is long.

Only non-interactive forms are filtered: a remote command is given and no
terminal is forced (``-t``), no forwarding-only or control mode (``-N``, ``-f``,
``-W``, ``-O``, ``-G``, ``-V``). Output up to ``limits.passthrough_max_lines``
lines, and JSON/YAML of any length, print raw; longer output goes through the
folding stage, which keeps errors, warnings and the first and last lines and
counts what it folds exactly.
"""

from __future__ import annotations

from rtk import config
from rtk.filterapi import Filtered, Spec
from rtk.filters.ssh.forms import remote_command

COMMANDS = ("ssh",)


def select(argv: list[str]) -> Spec | None:
    if remote_command(argv[1:]) is None:
        return None
    return Spec("ssh", remote)


def remote(argv: list[str], output: str, exit_code: int) -> Filtered | None:
    lines = output.splitlines()
    if len(lines) <= int(config.get("limits.passthrough_max_lines")):
        return None
    from rtk.fold import fold_output

    folded = fold_output(lines)
    if folded is None:  # JSON or YAML: data, printed whole
        return None
    out, cut = folded
    return Filtered("\n".join(out) + "\n", cut)
