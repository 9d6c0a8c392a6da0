"""Filter entry for ``just``: recipe runs (see ``recipes``) and ``just --list`` (alignment padding dropped).

just prints each recipe line to stderr before running it, then the command's own
output. rtk asks just to mark those echoed lines (``JUST_TIMESTAMP`` with a
timestamp format that is a fixed word) so the filter tells them apart from output
exactly; what it compares with and shows when it cannot save is the output
without the marks, as the user's own command prints it. Forms that print
something other than a run or the listing (``--dump``, ``--json``, ``--evaluate``,
``--show``, ``--summary``, ``--dry-run``, ``--choose``, ``--edit``...) and runs the
user made verbose, quiet or timestamped run unfiltered.
"""

from __future__ import annotations

import os

from rtk.filterapi import Spec

COMMANDS = ("just",)

# Options that print something other than a recipe run (subcommands, formats) or change how a run prints.
_RAW_LONG = frozenset(
    (
        "--changelog", "--choose", "--clean", "--command", "--completions", "--dump", "--edit", "--evaluate",
        "--fmt", "--groups", "--init", "--json", "--man", "--show", "--summary", "--usage", "--variables",
        "--help", "--version", "--dry-run", "--quiet", "--verbose", "--timestamp", "--timestamp-format",
        "--explain", "--time", "--dump-format", "--evaluate-format", "--list-heading", "--list-prefix",
        "--shell-command", "--check",
    )
)  # fmt: skip
_RAW_SHORT = frozenset("cehnqsvV")
# Options that take a value in the next word (``--set`` takes two).
_VALUE_LONG = frozenset(
    (
        "--alias-style", "--ceiling", "--chooser", "--color", "--command-color", "--cygpath", "--dotenv-command",
        "--dotenv-filename", "--dotenv-path", "--dump-format", "--evaluate-format", "--group", "--indentation",
        "--jobs", "--justfile", "--justfile-name", "--list-heading", "--list-prefix", "--shell", "--shell-arg",
        "--tempdir", "--timestamp-format", "--working-directory",
    )
)  # fmt: skip
_VALUE_SHORT = frozenset("FEfd")


def _options(args: list[str]) -> tuple[set[str], bool] | None:
    """The options before the first recipe (long names, short letters) and whether one asks for the listing.

    None when an option asks for output other than a run or the listing."""
    seen: set[str] = set()
    listing = False
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--" or not a.startswith("-") or a == "-":
            break  # recipes and their arguments from here on (options after them belong to the recipe)
        if a.startswith("--"):
            name = a.split("=", 1)[0]
            if name in _RAW_LONG:
                return None
            if name == "--list":
                listing = True
                break  # what follows are module names
            if name in _VALUE_LONG and "=" not in a:
                i += 1
            elif name == "--set":
                i += 2
            seen.add(name)
            continue
        for j, c in enumerate(a[1:], 1):
            if c in _RAW_SHORT:
                return None
            if c == "l":
                return seen, True
            if c in _VALUE_SHORT:
                if j == len(a) - 1:
                    i += 1
                break
            seen.add(c)
    return seen, listing


def select(argv: list[str]) -> Spec | None:
    found = _options(argv[1:])
    if found is None:
        return None
    if found[1]:
        return Spec("just-list", listing)
    if os.environ.get("JUST_TIMESTAMP", "").lower() not in ("", "false", "0"):
        return None  # the user asked for timestamps: their own marks are not ours to read
    from rtk.filters.just.recipes import ENV, run

    return Spec("just", run, env=ENV)


def listing(argv: list[str], output: str, exit_code: int) -> str | None:
    """``just --list``: the padding that aligns the ``#`` comments goes; names, parameters and comments stay."""
    if exit_code != 0:
        return None
    out = []
    changed = False
    for ln in output.splitlines():
        body = ln.lstrip(" ")
        at = body.find("  # ")
        if ln != body and at > 0 and body[:at].strip():
            pad = body[at:]
            out.append(ln[: len(ln) - len(body)] + body[:at].rstrip() + " " + pad.lstrip(" "))
            changed = True
        else:
            out.append(ln)
    return "\n".join(out) + "\n" if changed else None
