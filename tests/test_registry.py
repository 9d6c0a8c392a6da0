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


def test_readme_filtered_commands_table_names_every_family_command() -> None:
    # The README's table had no row for aws, psql, ssh, jq, rspec, rake/rails, phpunit, composer or deno.
    readme = (FIXTURES.parent.parent / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Filtered commands", 1)[1].split("\n\n", 2)[1]
    named = {w for cell in table.replace("/", " ").split("`")[1::2] for w in cell.split()}
    named |= {row.split("|")[1].strip() for row in table.splitlines()[2:]}  # the family column: git, just
    aliases = {"fdfind": "fd", "pip3": "pip", "py.test": "pytest", "python3": "python", "c++": "g++", "cc": "gcc",
               "clang++": "clang"}  # fmt: skip
    missing = [w for w in filters.FAMILIES if aliases.get(w, w) not in named]
    assert not missing, f"README's Filtered commands table does not name: {missing}"
