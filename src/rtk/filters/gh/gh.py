"""Filters for ``gh``: ``gh pr diff`` through the git diff filter; every other form runs raw.

rtk runs ``gh`` with its output on a pipe, where gh already prints its terminal-free
forms: ``pr/issue/run/release list`` as tab-separated rows without a header, ``pr view``
as ``field:<TAB>value`` lines, ``gh api`` as unindented JSON. Those stay raw until real
captures of them exist here (there is no network on this machine: see
tests/fixtures/PROVENANCE.md). ``gh pr diff`` prints the pull request's unified diff,
which the git diff filter condenses while keeping every file and every hunk.
"""

from __future__ import annotations

from rtk.filterapi import Filtered, Spec

COMMANDS = ("gh",)

# Flags of gh's root and of every subcommand that take a value (so the value is not
# read as a subcommand or an operand).
_WITH_VALUE = frozenset(("-R", "--repo", "--color"))

# The user chose the output: machine-readable formats, the browser, or a form of the
# diff the git diff filter does not parse.
_FORMAT_FLAGS = ("--json", "--jq", "-q", "--template", "-t", "--web", "-w")
_DIFF_RAW_FLAGS = ("--name-only", "--patch")


def _flag_name(arg: str) -> str:
    return arg.split("=", 1)[0]


def words(args: list[str]) -> list[str]:
    """The non-flag words of ``args`` (subcommands and operands), skipping flag values."""
    out: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a == "--":
            continue
        elif a.startswith("-"):
            skip = a in _WITH_VALUE
        else:
            out.append(a)
    return out


def select(argv: list[str]) -> Spec | None:
    args = argv[1:]
    names = {_flag_name(a) for a in args if a.startswith("-")}
    if names & {"--help", "-h"} or names.intersection(_FORMAT_FLAGS):
        return None
    w = words(args)
    if w[:2] == ["pr", "diff"]:
        if names.intersection(_DIFF_RAW_FLAGS):
            return None
        return Spec("gh-pr-diff", pr_diff)
    return None


def pr_diff(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``gh pr diff``: the git diff filter's rendering; any failure of gh prints raw.

    Unlike ``git diff`` (exit 1 = differences found), gh exits 1 on errors, so only a
    zero exit is read as a diff.
    """
    if exit_code != 0:
        return None
    from rtk.filters.git.diff import diff

    return diff(argv, output, 0)
