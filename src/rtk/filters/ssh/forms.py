"""Which ``ssh`` invocations run a remote command non-interactively (used by the filter and the rewrite rule)."""

from __future__ import annotations

_WITH_VALUE = frozenset("BbcDEeFIiJLlmOopQRSWw")
_NOT_A_RUN = frozenset("NfWOGVt")  # no remote command output to shape, or a terminal the user asked for


def remote_command(args: list[str]) -> list[str] | None:
    """The remote command words of ``ssh ARGS``, or None when there is none or the form is not a plain run."""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        for j, ch in enumerate(a[1:], 1):
            if ch in _NOT_A_RUN:
                return None
            if ch in _WITH_VALUE:
                if j == len(a) - 1:
                    i += 1  # the value is the next word
                break
        i += 1
    rest = args[i + 1 :]  # after the destination
    return rest or None
