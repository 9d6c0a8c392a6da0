"""Filter for ``poetry install``: the package operations in one summary, errors in full.

On success every install, update and removal is listed compactly with the
operation counts poetry states. On failure poetry's error text is kept whole
(progress lines go); a failure whose text is not one of poetry's error shapes
is shown raw.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.argv import subcommand
from rtk.text import split_lines

COMMANDS = ("poetry",)

_GLOBAL_WITH_VALUE = frozenset(("--directory", "-C", "--project", "-P"))
_GLOBAL_FLAGS = frozenset(("--no-interaction", "-n", "--no-plugins", "--no-cache", "--no-ansi", "--ansi"))
_RAW = ("--help", "-h", "--verbose", "-v", "-vv", "-vvv", "--quiet", "-q", "--version", "-V")


def select(argv: list[str]) -> Spec | None:
    parts = subcommand(argv[1:], _GLOBAL_WITH_VALUE, _GLOBAL_FLAGS)
    if parts is None or parts[0] != "install":
        return None
    if any(a in _RAW for a in parts[1]):
        return None
    return Spec("poetry-install", install)


_NOISE = (
    "Creating virtualenv ", "Using virtualenv: ", "Updating dependencies", "Resolving dependencies...",
    "Installing dependencies from lock file", "Writing lock file", "Skipping virtualenv creation",
)  # fmt: skip
_OPS = re.compile(r"^Package operations: (.+)$")
_OP = re.compile(r"^  - (Installing|Updating|Removing|Downgrading) (\S+) \((.+?)\)(: .+)?$")
_PROJECT = re.compile(r"^Installing the current project: (.+)$")
_VERBS = {"Installing": "installed", "Updating": "updated", "Removing": "removed", "Downgrading": "downgraded"}


def install(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``poetry install``: operations and counts on success; the error and the step it stopped at on failure."""
    ops_line = ""
    ops: dict[str, list[str]] = {}
    project = ""
    other: list[str] = []
    nothing = False
    step = ""
    for ln in split_lines(output):
        if not ln.strip():
            continue
        if ln.startswith(_NOISE):
            step = ln.rstrip(".").lower()
            continue
        m = _OPS.match(ln)
        if m:
            ops_line = m.group(1)
            step = "installing packages"
            continue
        o = _OP.match(ln)
        if o and not (o.group(4) or "").startswith(": Failed"):
            ops.setdefault(_VERBS[o.group(1)], []).append(f"{o.group(2)} {o.group(3)}")
            continue
        p = _PROJECT.match(ln)
        if p:
            project = p.group(1)
            step = f"installing the current project {project}"
            continue
        if ln.startswith("No dependencies to install or update"):
            nothing = True
            continue
        other.append(ln)
    from rtk.filters import names

    listed: list[str] = []
    cut = 0
    for verb, items in ops.items():
        got, n = names.listed(f"{verb} ({len(items)}): ", items)
        listed.extend(got)
        cut += n
    if exit_code == 0:
        if any(not o.startswith(("Warning: ", "  ")) for o in other):
            raise Unrecognized(f"poetry line {other[0][:60]!r}")
        done = [ops_line] if ops_line else (["no dependencies to install or update"] if nothing else [])
        if project:
            done.append(f"project {project} installed")
        out = [*other, *listed, "poetry install: ok" + (" - " + "; ".join(done) if done else "")]
        return Filtered("\n".join(out) + "\n", cut)
    if not other:
        raise Unrecognized(f"exit {exit_code} without an error message")
    where = f" while {step}" if step else ""
    return Filtered("\n".join([*other, *listed, f"poetry install: FAILED (exit {exit_code}){where}"]) + "\n", cut)
