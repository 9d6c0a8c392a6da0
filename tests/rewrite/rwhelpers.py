"""Registries for rewrite tests: everything registered, or only what the base build had."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rtk.rewrite import engine
from rtk.shell import segments

BASE_FAMILIES = frozenset(("git", "ls"))
BASE_COMMANDS = frozenset(("config", "gain", "proxy", "rewrite"))


class AllRegistry(engine.Registry):
    """Every rule target exists (the goldens' full expectations)."""

    def family(self, word: str) -> bool:
        rules = engine._rules.BY_TOOL.get(word, ())
        return any(r.kind != "toml" for r in rules) or segments.is_python(word) or word in segments.WRAPPERS

    def command(self, word: str) -> bool:
        return True

    def toml(self, argv: list[str]) -> bool:
        """TOML filters exist for the table's TOML rows (and nothing else)."""
        if not argv:
            return False
        m = engine.match(argv[0].rsplit("/", 1)[-1], argv[1:])
        return m is not None and "toml" in m[0].kind


class SetRegistry(engine.Registry):
    """Exactly the given families, commands and TOML tools."""

    def __init__(self, families: frozenset[str], commands: frozenset[str], toml: frozenset[str] = frozenset()) -> None:
        self.families = families
        self.commands = commands
        self.tomls = toml

    def family(self, word: str) -> bool:
        return word in self.families

    def command(self, word: str) -> bool:
        return word in self.commands

    def toml(self, argv: list[str]) -> bool:
        return bool(argv) and argv[0].rsplit("/", 1)[-1] in self.tomls


@pytest.fixture(autouse=True)
def all_registered() -> Iterator[None]:
    """Every command counts as having a filter (autouse where a test module imports it); caches reset around it."""
    saved = engine.registry
    engine.registry = AllRegistry()
    engine.reset()
    yield
    engine.registry = saved
    engine.reset()
