"""Find the filter for a command without importing any other filter module."""

from __future__ import annotations

import importlib

from rtk.filters._map import FAMILIES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from rtk.filterapi import Spec


def tool_name(word: str) -> str:
    """The command word as the registry knows it: ``/usr/bin/git`` -> ``git``."""
    return word.rsplit("/", 1)[-1]


def family(tool: str) -> ModuleType | None:
    """The filter module for a command word, imported on demand, or None."""
    mod = FAMILIES.get(tool_name(tool))
    if mod is None:
        return None
    return importlib.import_module(mod)


def lookup(argv: list[str]) -> Spec | None:
    """The Spec that handles ``argv``, or None when the command runs unfiltered."""
    if not argv:
        return None
    fam = family(argv[0])
    if fam is None:
        return None
    spec: Spec | None = fam.select(argv)
    return spec
