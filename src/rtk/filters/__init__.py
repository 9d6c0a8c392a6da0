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
    "curl": "rtk.filters.files.http",
    "diff": "rtk.filters.files.diff",
    "env": "rtk.filters.files.env",
    "fd": "rtk.filters.files.find",
    "fdfind": "rtk.filters.files.find",
    "find": "rtk.filters.files.find",
    "grep": "rtk.filters.files.grep",
    "ls": "rtk.filters.files.ls",
    "rg": "rtk.filters.files.grep",
    "tree": "rtk.filters.files.tree",
    "wc": "rtk.filters.files.wc",
    "wget": "rtk.filters.files.http",
    # --- python ---
    "mypy": "rtk.filters.python.mypy",
    "pip": "rtk.filters.python.pip",
    "pip3": "rtk.filters.python.pip",
    "poetry": "rtk.filters.python.poetry",
    "py.test": "rtk.filters.python.pytest",
    "pytest": "rtk.filters.python.pytest",
    "python": "rtk.filters.python.interpreter",
    "python3": "rtk.filters.python.interpreter",
    "ruff": "rtk.filters.python.ruff",
    "uv": "rtk.filters.python.uv",
    # --- rust, go, c/c++ ---
    "c++": "rtk.filters.cc.cc",
    "cargo": "rtk.filters.rust.cargo",
    "cc": "rtk.filters.cc.cc",
    "clang": "rtk.filters.cc.cc",
    "clang++": "rtk.filters.cc.cc",
    "cmake": "rtk.filters.cc.cmake",
    "ctest": "rtk.filters.cc.cmake",
    "g++": "rtk.filters.cc.cc",
    "gcc": "rtk.filters.cc.cc",
    "go": "rtk.filters.go.go",
    "golangci-lint": "rtk.filters.go.golangci",
    "make": "rtk.filters.cc.cc",
    # --- javascript, typescript ---
    "biome": "rtk.filters.js.lint",
    "deno": "rtk.filters.js.deno",
    "bun": "rtk.filters.js.pm",
    "eslint": "rtk.filters.js.lint",
    "jest": "rtk.filters.js.test",
    "mocha": "rtk.filters.js.test",
    "next": "rtk.filters.js.build",
    "node": "rtk.filters.js.test",
    "npm": "rtk.filters.js.pm",
    "npx": "rtk.filters.js.pm",
    "oxlint": "rtk.filters.js.lint",
    "playwright": "rtk.filters.js.test",
    "pnpm": "rtk.filters.js.pm",
    "prettier": "rtk.filters.js.lint",
    "prisma": "rtk.filters.js.build",
    "tsc": "rtk.filters.js.tsc",
    "vite": "rtk.filters.js.build",
    "vitest": "rtk.filters.js.test",
    "yarn": "rtk.filters.js.pm",
    # --- ruby ---
    "bundle": "rtk.filters.ruby.bundle",
    "rails": "rtk.filters.ruby.minitest",
    "rake": "rtk.filters.ruby.minitest",
    "rspec": "rtk.filters.ruby.rspec",
    "rubocop": "rtk.filters.ruby.rubocop",
    # --- data and remote shells ---
    "jq": "rtk.filters.jq.jq",
    "ssh": "rtk.filters.ssh.ssh",
    # --- php ---
    "composer": "rtk.filters.php.composer",
    "php": "rtk.filters.php.lint",
    "phpunit": "rtk.filters.php.phpunit",
    # --- github cli ---
    "gh": "rtk.filters.gh.gh",
    # --- cloud and databases ---
    "aws": "rtk.filters.aws.cli",
    "psql": "rtk.filters.psql.psql",
    # --- task runners ---
    "just": "rtk.filters.just.just",
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
