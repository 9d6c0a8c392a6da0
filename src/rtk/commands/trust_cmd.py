"""``rtk trust`` / ``rtk untrust``: allow (or stop) a project's TOML filters, by the SHA-256 of each file."""

from __future__ import annotations

import os
import sys

from rtk.errors import UsageError
from rtk.text import visible

TRUST_HELP = """\
usage: rtk trust [-y|--yes] [FILE...]   trust the project filters (default: every .rtk/filters/*.toml here)
       rtk trust --list                 trusted files and whether they changed since

A project's filters can hide output from you, so they apply only after you
review them and run `rtk trust`, which records the SHA-256 of each file. A file
edited later stops applying (rtk says so on stderr) until trusted again.
Without a terminal to confirm on, pass --yes. In CI (CI set), the variable
RTK_TRUST_PROJECT_FILTERS=1 trusts every project file instead."""

UNTRUST_HELP = """\
usage: rtk untrust [FILE...]   stop trusting project filter files (default: every .rtk/filters/*.toml here)
       rtk untrust --all       forget every trusted file"""


def _targets(files: list[str]) -> list[str]:
    from rtk.dsl import tiers

    if files:
        for f in files:
            if not os.path.isfile(f):
                raise UsageError(f"no such file: {f}")
        return [os.path.abspath(f) for f in files]
    found = tiers.toml_files(tiers.project_dir())
    if not found:
        raise UsageError(f"no project filter files in {os.path.join('.rtk', 'filters')} (nothing to do)")
    return found


def main(args: list[str]) -> int:
    yes = False
    listing = False
    files: list[str] = []
    for a in args:
        if a in ("-h", "--help"):
            print(TRUST_HELP)
            return 0
        if a in ("-y", "--yes"):
            yes = True
        elif a == "--list":
            listing = True
        elif a.startswith("-"):
            raise UsageError(f"trust: unknown option {a} (see rtk trust --help)")
        else:
            files.append(a)
    if listing:
        if files or yes:
            raise UsageError("trust --list: takes no other arguments")
        return _list()
    from rtk.dsl import catalog, schema, trust

    targets = _targets(files)
    entries = trust.load()
    new: dict[str, str] = {}
    for path in targets:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise UsageError(f"cannot read {path}: {e.strerror}") from None
        digest = trust.sha256_hex(data)
        defs, _, problems = schema.parse_bytes(data, path)
        # The file is not trusted yet: none of its text may move the cursor or hide a line of this review.
        print(visible(f"{catalog.where(path)}  sha256 {digest[:16]}"))
        for d in defs:
            desc = f"  ({d['description']})" if d["description"] else ""
            print(visible(f"  {d['name']}: {d['match_command']}{desc}"))
        for p in problems:
            print(visible(f"  {p.level}: {p.message}"))
        new[trust.canonical(path)] = digest
    if not yes:
        if not sys.stdin.isatty():
            raise UsageError("trust: review the files above, then run `rtk trust --yes` (no terminal to confirm on)")
        answer = input(f"Trust {'these filters' if len(new) > 1 else 'this file'}? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            print("not trusted")
            return 1
    entries.update(new)
    trust.save(entries)
    print(f"trusted {len(new)} file{'s' if len(new) != 1 else ''}")
    return 0


def _list() -> int:
    from rtk.dsl import catalog, tiers, trust

    entries = trust.load()
    here = [trust.canonical(p) for p in tiers.toml_files(tiers.project_dir())]
    if not entries and not here:
        print("no trusted filter files")
        return 0
    for path in sorted(entries):
        try:
            with open(path, "rb") as f:
                state = "ok" if trust.sha256_hex(f.read()) == entries[path] else "changed (not applied)"
        except OSError:
            state = "missing"
        print(f"{state:<22} {catalog.where(path)}")
    for path in here:
        if path not in entries:
            print(f"{'untrusted':<22} {catalog.where(path)}")
    if trust.env_override():
        print(f"({trust.ENV_VAR}=1 in CI: every project filter file is trusted)")
    return 0


def untrust_main(args: list[str]) -> int:
    from rtk.dsl import trust

    everything = False
    files: list[str] = []
    for a in args:
        if a in ("-h", "--help"):
            print(UNTRUST_HELP)
            return 0
        if a == "--all":
            everything = True
        elif a.startswith("-"):
            raise UsageError(f"untrust: unknown option {a} (see rtk untrust --help)")
        else:
            files.append(a)
    entries = trust.load()
    if everything:
        if files:
            raise UsageError("untrust --all: takes no files")
        removed = len(entries)
        entries = {}
    else:
        if files:
            keys = [trust.canonical(os.path.abspath(f)) for f in files]
        else:
            keys = [trust.canonical(p) for p in _targets([])]
        removed = sum(1 for k in keys if entries.pop(k, None) is not None)
    trust.save(entries)
    print(f"untrusted {removed} file{'s' if removed != 1 else ''}")
    return 0
