"""Filter for ``ssh HOST COMMAND``: the remote command's own rtk filter when it has a safe one, else folded when long.

Only non-interactive forms are filtered: a remote command is given and no
terminal is forced (``-t``), no forwarding-only or control mode (``-N``, ``-f``,
``-W``, ``-O``, ``-G``, ``-V``). When the remote command is a plain one (no pipe,
redirection, substitution or list: see :func:`inner_argv`) and rtk has a filter for
it that reads the command's output as printed (``dpkg -l``, ``git status``, ``df``,
``journalctl``... listed in ``INNER``; rtk runs it with the user's argv),
that filter shapes the output; when it declines, the generic path applies. ``ls -l``
is among them (it keeps modes, owners, exact sizes and dates, and refuses a date form
other than C's or ISO, as a remote locale may print); the short forms of ``ls`` are not:
rtk runs them with ``-p`` added, which a remote ``ls`` lacks (the ``run_argv`` check). Output
up to ``limits.passthrough_max_lines`` lines, and JSON/YAML of any length, print raw;
longer output goes through the folding stage, which keeps errors, warnings and the
first and last lines and counts what it folds exactly. ssh's own failures (exit 255)
are never read as the remote command's output.
"""

from __future__ import annotations

from rtk import config
from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.ssh.forms import remote_command

COMMANDS = ("ssh",)

# Filters whose input is the command's output exactly as the user's argv prints it
# (no argv or environment rtk would add locally is needed to parse it) and that read
# nothing but that text: safe on the same command's output from another host.
INNER = frozenset(
    (
        "dpkg-list", "git-status", "git-diff", "df", "du", "ps", "journalctl", "systemctl-status",
        "systemctl-list", "docker-ps", "docker-images", "kubectl-get", "ip-addr", "ifconfig", "netstat",
        "ss", "mount", "lsblk", "dmesg", "last", "stat", "ls",
    )
)  # fmt: skip
# Characters that make the remote shell do more than run one command with arguments.
_SHELL = frozenset("|&;<>()$`\\\n*?[]{}~=")


def select(argv: list[str]) -> Spec | None:
    if remote_command(argv[1:]) is None:
        return None
    return Spec("ssh", remote)


def inner_argv(words: list[str]) -> list[str] | None:
    """The remote command as an argv, or None when the remote shell would do more than run it.

    ssh joins its command words with spaces and the remote shell splits them again, so
    ``ssh h 'dpkg -l'`` and ``ssh h dpkg -l`` run the same command. Quoting is read as
    the shell reads it; any operator, expansion or glob (outside single quotes or not)
    means the output may not be the one command's: None.
    """
    import shlex

    line = " ".join(words)
    if any(c in _SHELL for c in line):
        return None
    try:
        argv = shlex.split(line)
    except ValueError:
        return None
    return argv or None


def _inner(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """The remote command's own filter on its output, or None when it has none that fits (or declines)."""
    words = remote_command(argv[1:])
    cmd = inner_argv(words) if words and exit_code != 255 else None
    if cmd is None:
        return None
    from rtk import filters

    spec = filters.resolve(cmd)
    if spec is None or spec.name not in INNER or spec.filter is None or spec.run_argv is not None or spec.live:
        return None
    try:
        return spec.filter(cmd, output, exit_code)
    except Unrecognized:
        return None


def remote(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    inner = _inner(argv, output, exit_code)
    if inner is not None:
        return inner
    lines = output.splitlines()
    if len(lines) <= int(config.get("limits.passthrough_max_lines")):
        return None
    from rtk.fold import fold_output

    folded = fold_output(lines)
    if folded is None:  # JSON or YAML: data, printed whole
        return None
    out, cut = folded
    return Filtered("\n".join(out) + "\n", cut)
