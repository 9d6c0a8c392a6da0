"""The filter registry: command word -> filter family module, and the lookup itself.

``FAMILIES`` holds literals only, and nothing else is imported here, so finding
the filter for a command never imports a filter it does not use. Each module
named here exposes ``select(argv) -> Spec | None`` and ``COMMANDS``, the command
words it handles (a test checks that both sides agree). Keep the sections
sorted; each tool family adds its own lines in its own section.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from rtk.filterapi import Spec

FAMILIES: dict[str, str] = {
    # --- git ---
    "git": "rtk.filters.git",
    # --- files, search, text ---
    "ls": "rtk.filters.ls",
    # --- python ---
    "mypy": "rtk.filters.mypy",
    "pip": "rtk.filters.pip",
    "pip3": "rtk.filters.pip",
    "poetry": "rtk.filters.poetry",
    "py.test": "rtk.filters.pytest",
    "pytest": "rtk.filters.pytest",
    "python": "rtk.filters.python",
    "python3": "rtk.filters.python",
    "ruff": "rtk.filters.ruff",
    "uv": "rtk.filters.uv",
    # --- rust, go, c/c++ ---
    # --- javascript, typescript ---
    # --- generic runners ---
}


def tool_name(word: str) -> str:
    """The command word as the registry knows it: ``/usr/bin/git`` -> ``git``."""
    return word.rsplit("/", 1)[-1]


def family(tool: str) -> ModuleType | None:
    """The filter module for a command word, imported on demand, or None."""
    mod = FAMILIES.get(tool_name(tool))
    if mod is None:
        return None
    module = sys.modules.get(mod)
    if module is None:
        __import__(mod)  # importlib.import_module would import the importlib package too
        module = sys.modules[mod]
    return module


def lookup(argv: list[str]) -> Spec | None:
    """The Spec that handles ``argv``, or None when the command runs unfiltered."""
    if not argv:
        return None
    fam = family(argv[0])
    if fam is None:
        return None
    spec: Spec | None = fam.select(argv)
    return spec
