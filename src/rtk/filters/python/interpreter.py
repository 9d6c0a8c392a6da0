"""``python -m <tool>``: hand module runs of pytest, mypy, pip and ruff to their filters.

Only module runs of those tools are claimed; scripts, ``-c`` code, the REPL and
every other module run unfiltered.
"""

from __future__ import annotations

from rtk.filters.python.launch import module_args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filterapi import Spec

COMMANDS = ("python", "python3")

_MODULES = {
    "pytest": "rtk.filters.python.pytest",
    "mypy": "rtk.filters.python.mypy",
    "pip": "rtk.filters.python.pip",
    "ruff": "rtk.filters.python.ruff",
}


def select(argv: list[str]) -> Spec | None:
    found = module_args(argv)
    if found is None:
        return None
    mod = _MODULES.get(found[0])
    if mod is None:
        return None
    from rtk import filters

    fam = filters.family(found[0])
    if fam is None or fam.__name__ != mod:
        return None
    spec: Spec | None = fam.select(argv)
    return spec
