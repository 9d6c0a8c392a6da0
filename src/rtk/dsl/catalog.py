"""Every TOML filter of every tier in one place, for ``rtk verify``, ``rtk filters`` and ``rtk trust``.

Unlike the command path (``rtk.dsl.lookup``), this parses the files for real,
including the built-ins and the inline tests.
"""

from __future__ import annotations

import os

from rtk.dsl import builtins, engine, schema, tiers, trust

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Source:
    """One filter file (or the built-in set), parsed: filters, tests, problems."""

    __slots__ = ("defs", "path", "problems", "status", "tests", "tier")

    def __init__(
        self,
        tier: str,
        path: str,
        defs: list[dict[str, Any]],
        tests: list[dict[str, Any]],
        problems: list[tuple[str, str, str]],
        status: str = trust.TRUSTED,
    ) -> None:
        self.tier = tier
        self.path = path
        self.defs = defs
        self.tests = tests
        self.problems = problems
        self.status = status

    @property
    def applies(self) -> bool:
        return self.status in (trust.TRUSTED, trust.ENV)


def builtin_source() -> Source:
    defs, tests, problems = builtins.load_all()
    return Source(tiers.BUILTIN, builtins.BUILTIN_DIR, defs, tests, [p.as_tuple() for p in problems])


def file_source(path: str, tier: str) -> Source:
    """Parse one file fresh (no cache), with its trust status for the project tier."""
    try:
        data = tiers._read(path)  # as the command path reads it: a FIFO never blocks, a huge file is not read
    except OSError as e:
        return Source(tier, path, [], [], [("error", f"rtk: filters {path}: cannot read ({e.strerror})", "")])
    defs, tests, problems = schema.parse_bytes(data, path)
    status = trust.check(path, trust.sha256_hex(data)) if tier == tiers.PROJECT else trust.TRUSTED
    return Source(tier, path, defs, tests, [p.as_tuple() for p in problems], status)


def all_sources(cwd: str | None = None) -> list[Source]:
    """Project files, user files, then the built-ins: lookup order."""
    out = [file_source(p, tiers.PROJECT) for p in tiers.toml_files(tiers.project_dir(cwd))]
    out += [file_source(p, tiers.USER) for p in tiers.toml_files(tiers.user_dir())]
    out.append(builtin_source())
    return out


SHADOW_SECONDS = 1.0  # all the family probes of one filter's match_command together (rtk.dsl.deadline)


def shadowing_family(d: dict[str, Any]) -> str | None:
    """The Python filter family word that takes ``d``'s commands first, if any.

    Raises :class:`rtk.dsl.deadline.Timeout` when ``match_command`` runs past its time limit.
    """
    from rtk import filters
    from rtk.dsl import deadline

    for kind, word in d["words"]:
        if kind == "exact" and word in filters.FAMILIES:
            return str(word)

    def probe() -> str | None:
        for fam in sorted(filters.FAMILIES):
            if engine.matches(d, fam) or engine.matches(d, fam + " x"):
                return fam
        return None

    return deadline.limited(SHADOW_SECONDS, probe)


def run_test(d: dict[str, Any], t: dict[str, Any], limit: float = 0.0) -> tuple[bool, str]:
    """Feed a test's input through filter ``d``: (passed, actual output).

    With ``limit``, a filter running longer raises :class:`rtk.dsl.deadline.Timeout`.
    """
    args = (d, t["input"], int(t.get("exit_code", 0)))
    if limit:
        from rtk.dsl import deadline

        res = deadline.limited(limit, engine.apply, *args)
    else:
        res = engine.apply(*args)
    actual = res.text.rstrip("\n")
    return actual == t["expected"].rstrip("\n"), actual


def diff(expected: str, actual: str) -> str:
    import difflib

    lines = difflib.unified_diff(
        expected.rstrip("\n").split("\n"), actual.split("\n"), "expected", "actual", lineterm="", n=2
    )
    return "\n".join(lines)


def where(path: str) -> str:
    """A path as shown to the user: relative below the current directory."""
    if path.startswith(builtins.BUILTIN_DIR):
        return builtins.rel(path) if path.endswith(".toml") else "built-in"
    try:
        cwd = os.getcwd()
    except OSError:
        return path
    return os.path.relpath(path, cwd) if path.startswith(cwd + os.sep) else path
