"""Contract tests over the filter registry: every family loads and agrees with the map."""

from __future__ import annotations

import pytest

from fixturelib import FIXTURES
from rtk import filters
from rtk.filterapi import Spec

FAMILY_MODULES = sorted(set(filters.FAMILIES.values()))


@pytest.mark.parametrize("module", FAMILY_MODULES)
def test_family_loads_and_declares_its_commands(module: str) -> None:
    mod = filters.family(next(k for k, v in filters.FAMILIES.items() if v == module))
    assert mod is not None and mod.__name__ == module
    assert mod.__doc__ and mod.__doc__.strip(), f"{module}: a one-line docstring says what it owns"
    assert callable(mod.select)
    declared = set(mod.COMMANDS)
    mapped = {k for k, v in filters.FAMILIES.items() if v == module}
    assert declared == mapped, f"{module}: COMMANDS {sorted(declared)} but the map routes {sorted(mapped)}"


@pytest.mark.parametrize("module", FAMILY_MODULES)
def test_select_never_raises_on_odd_argv(module: str) -> None:
    mod = filters.family(next(k for k, v in filters.FAMILIES.items() if v == module))
    assert mod is not None
    for cmd in mod.COMMANDS:
        for argv in ([cmd], [cmd, "--help"], [cmd, "-"], [cmd, "--"], [cmd, ""], [cmd, "\x00"], [cmd, "é", "-x"]):
            spec = mod.select(argv)
            assert spec is None or isinstance(spec, Spec)


def test_every_filter_id_with_fixtures_is_reachable() -> None:
    for d in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        assert list(d.glob("*.toml")), f"{d.name}: fixture dir without cases"


def test_absolute_tool_path_finds_the_filter() -> None:
    spec = filters.lookup(["/usr/bin/git", "status"])
    assert spec is not None and spec.name == "git-status"
    assert filters.lookup(["gitk"]) is None
    assert filters.lookup([]) is None
