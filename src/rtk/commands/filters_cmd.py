"""``rtk filters list|show NAME|validate [FILE]``: the TOML filters of every tier, and their problems."""

from __future__ import annotations

import os
import sys

from rtk.errors import UsageError
from rtk.text import visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.dsl.catalog import Source

HELP = """\
usage: rtk filters list             every TOML filter, in lookup order (project, user, built-in)
       rtk filters show NAME        one filter's definition, where it comes from, its tests
       rtk filters validate [FILE]  check filter files: schema, types, regexes, anchoring,
                                    filters shadowed by a built-in Python filter or by an
                                    earlier tier; exits 1 on errors

Project filters (.rtk/filters/*.toml) apply only after `rtk trust`."""


def main(args: list[str]) -> int:
    if not args or args[0] in ("-h", "--help"):
        print(HELP, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    sub, rest = args[0], args[1:]
    if sub == "list":
        if rest:
            raise UsageError("filters list: takes no arguments")
        return _list()
    if sub == "show":
        if len(rest) != 1:
            raise UsageError("filters show: give one filter NAME")
        return _show(rest[0])
    if sub == "validate":
        if len(rest) > 1:
            raise UsageError("filters validate: give at most one FILE")
        return _validate(rest[0] if rest else None)
    raise UsageError(f"filters: unknown subcommand {sub!r} (list, show, validate)")


def _status(src: Source) -> str:
    if src.tier != "project":
        return src.tier
    return f"project, {src.status}"


def _shadow(d: dict[str, Any]) -> tuple[str | None, str]:
    """The family that shadows ``d`` (or None), and why it could not be told ('' when it could)."""
    from rtk.dsl import catalog, deadline

    try:
        return catalog.shadowing_family(d), ""
    except deadline.Timeout as e:
        return None, f"match_command stopped: {e}"


def _list() -> int:
    from rtk.dsl import catalog

    rows: list[tuple[str, str, str, str]] = []
    for src in catalog.all_sources():
        for d in src.defs:
            shadow, why = _shadow(d)
            note = f" [shadowed by rtk {shadow}]" if shadow else f" [{why}]" if why else ""
            desc = (d["description"] or "") + note  # a project file's text, maybe untrusted: shown escaped
            rows.append((visible(d["name"]), _status(src), visible(d["match_command"]), visible(desc)))
    if not rows:
        print("no TOML filters")
        return 0
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    for name, tier, pattern, desc in rows:
        print(f"{name:<{w0}}  {tier:<{w1}}  {desc}  ({pattern})")
    print(f"{len(rows)} filters")
    return 0


def _find(name: str) -> tuple[Source, dict[str, Any]] | None:
    from rtk.dsl import catalog

    for src in catalog.all_sources():
        for d in src.defs:
            if d["name"] == name:
                return src, d
    return None


def _show(name: str) -> int:
    from rtk.config import render_value
    from rtk.dsl import catalog, schema

    got = _find(name)
    if got is None:
        raise UsageError(f"filters show: no TOML filter named {name!r} (see rtk filters list)")
    src, d = got
    print(f"# {name}: {_status(src)} filter from {catalog.where(d['source'] if src.tier == 'builtin' else src.path)}")
    shadow, why = _shadow(d)
    if why:
        print(f"# {why}")
    if shadow:
        print(f"# never runs: `rtk {shadow}` has a built-in Python filter")
    print(f"[filters.{name}]")
    for key in schema.FIELDS:
        v = d.get(key)
        if v is None or v == [] or (v is False and key != "strip_ansi"):
            continue
        if key in ("replace", "match_output"):
            names = ("pattern", "replacement") if key == "replace" else ("pattern", "message", "unless")
            items = []
            for rule in v:
                parts = [f"{k} = {render_value(x)}" for k, x in zip(names, rule, strict=False) if x is not None]
                items.append("{ " + ", ".join(parts) + " }")
            print(f"{key} = [\n" + "".join(f"    {i},\n" for i in items) + "]")
        elif isinstance(v, list):
            print(f"{key} = {render_value(v)}")
        else:
            print(f"{key} = {render_value(v)}")
    tests = [t for t in src.tests if t["filter"] == name]
    print(f"# {len(tests)} inline test{'s' if len(tests) != 1 else ''}: rtk verify {name}")
    return 0


def _validate(path: str | None) -> int:
    from rtk.dsl import catalog, tiers

    if path is not None:
        if not os.path.isfile(path):
            raise UsageError(f"filters validate: no such file: {path}")
        full = os.path.abspath(path)
        tier = tiers.PROJECT if full.startswith(tiers.project_dir() + os.sep) else tiers.USER
        sources = [catalog.file_source(full, tier)]
    else:
        sources = catalog.all_sources()
    errors = warnings = 0
    seen: dict[str, str] = {}
    count = 0
    for src in sources:
        for level, msg, _ in src.problems:
            print(f"{level}: {msg}")
            errors += level == "error"
            warnings += level == "warning"
        for d in src.defs:
            count += 1
            label = f"{d['name']} ({catalog.where(d['source'] if src.tier == 'builtin' else src.path)})"
            shadow, why = _shadow(d)
            if why:
                errors += 1
                print(f"error: {label}: {why}")
            if shadow:
                warnings += 1
                print(f"warning: {label}: shadowed: `rtk {shadow}` has a built-in Python filter, so this never runs")
            if d["name"] in seen:
                print(f"note: {label}: takes precedence over the filter of the same name in {seen[d['name']]}")
            else:
                seen[d["name"]] = label
            if src.tier == "project" and not src.applies:
                print(f"note: {label}: {src.status}; applies only after `rtk trust`")
    print(f"{count} filters checked: {errors} errors, {warnings} warnings")
    return 1 if errors else 0
