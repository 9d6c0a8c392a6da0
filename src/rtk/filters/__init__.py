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
    "curl": "rtk.filters.http",
    "diff": "rtk.filters.diff",
    "env": "rtk.filters.env",
    "fd": "rtk.filters.find",
    "fdfind": "rtk.filters.find",
    "find": "rtk.filters.find",
    "grep": "rtk.filters.grep",
    "ls": "rtk.filters.ls",
    "rg": "rtk.filters.grep",
    "tree": "rtk.filters.tree",
    "wc": "rtk.filters.wc",
    "wget": "rtk.filters.http",
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
    "c++": "rtk.filters.cc",
    "cargo": "rtk.filters.cargo",
    "cc": "rtk.filters.cc",
    "clang": "rtk.filters.cc",
    "clang++": "rtk.filters.cc",
    "cmake": "rtk.filters.cmake",
    "ctest": "rtk.filters.cmake",
    "g++": "rtk.filters.cc",
    "gcc": "rtk.filters.cc",
    "go": "rtk.filters.go",
    "golangci-lint": "rtk.filters.golangci",
    "make": "rtk.filters.cc",
    # --- javascript, typescript ---
    "biome": "rtk.filters.jslint",
    "bun": "rtk.filters.jspm",
    "eslint": "rtk.filters.jslint",
    "jest": "rtk.filters.jstest",
    "mocha": "rtk.filters.jstest",
    "next": "rtk.filters.jsbuild",
    "node": "rtk.filters.jstest",
    "npm": "rtk.filters.jspm",
    "npx": "rtk.filters.jspm",
    "oxlint": "rtk.filters.jslint",
    "playwright": "rtk.filters.jstest",
    "pnpm": "rtk.filters.jspm",
    "prettier": "rtk.filters.jslint",
    "prisma": "rtk.filters.jsbuild",
    "tsc": "rtk.filters.tsc",
    "vite": "rtk.filters.jsbuild",
    "vitest": "rtk.filters.jstest",
    "yarn": "rtk.filters.jspm",
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


def resolve(argv: list[str]) -> Spec | None:
    """``lookup``, then a declarative (TOML) filter for a command word no Python family owns.

    ``rtk.dsl`` is imported only on that second path, so commands with a Python
    filter never pay for loading TOML filters.
    """
    spec = lookup(argv)
    if spec is None and argv and tool_name(argv[0]) not in FAMILIES:
        from rtk.dsl import lookup as toml

        m = toml.find(argv, report=True)  # cheap for words without a TOML filter
        if m is not None:
            from rtk.dsl.spec import spec_for_match

            spec = spec_for_match(m)
    return spec
