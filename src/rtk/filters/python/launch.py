"""How a Python tool was launched: ``pytest args`` or ``python [opts] -m pytest args``.

Filters for Python tools look at the tool's own arguments only; this module
finds them behind an interpreter and its options.
"""

from __future__ import annotations

# Interpreter options that take a separate value (``-W error``, ``-X dev``).
_PY_WITH_VALUE = frozenset("WX")
# Interpreter options that are plain switches (``-u``, ``-B``, ``-OO``...).
_PY_SWITCHES = frozenset("bBdEIOPqRsSuvx")


def is_python(word: str) -> bool:
    """``python``, ``python3``, ``python3.12``, ``/usr/bin/python3`` (not ``python3-config``)."""
    name = word.rsplit("/", 1)[-1]
    if not name.startswith("python"):
        return False
    rest = name[len("python") :]
    return all(c.isdigit() or c == "." for c in rest)


def module_args(argv: list[str]) -> tuple[str, list[str]] | None:
    """``python [opts] -m mod args`` -> (mod, args); None for scripts, ``-c``, ``-i``, help."""
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "-m":
            if i + 1 >= len(argv):
                return None
            return argv[i + 1], argv[i + 2 :]
        if a.startswith("-m") and len(a) > 2:
            return a[2:], argv[i + 1 :]
        if a.startswith("--") or a == "-" or not a.startswith("-"):
            return None  # --help/--version, stdin or a script: not a module run
        for j, c in enumerate(a[1:], 1):
            if c in _PY_WITH_VALUE:
                if j == len(a) - 1:
                    i += 1  # value in the next word
                break
            if c == "m":
                if j == len(a) - 1:
                    if i + 1 >= len(argv):
                        return None
                    return argv[i + 1], argv[i + 2 :]
                return a[j + 1 :], argv[i + 1 :]
            if c not in _PY_SWITCHES:
                return None  # -c, -i, -h, -V or something we do not know
        i += 1
    return None


def tool_args(argv: list[str]) -> list[str]:
    """The tool's own arguments, behind ``python -m tool`` if that is how it runs."""
    if argv and is_python(argv[0]):
        found = module_args(argv)
        if found is not None:
            return found[1]
    return argv[1:]


def tool_label(argv: list[str], default: str) -> str:
    """The name to print in summaries (``pytest`` also for ``python -m pytest``)."""
    if argv and is_python(argv[0]):
        found = module_args(argv)
        if found is not None:
            return found[0]
    return default
