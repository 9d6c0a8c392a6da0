"""Filters for ``gh``: which form goes to which filter; ``gh pr diff`` through the git diff filter.

rtk runs ``gh`` with its output on a pipe, where gh prints its terminal-free forms:
``pr/issue/run/release list`` as tab-separated rows without a header (lists.py),
``pr/issue/repo view`` as ``field:<TAB>value`` lines and a body (views.py), ``pr checks``
as rows (checks.py), ``run view`` as a summary (runs.py) or, with ``--log`` or
``--log-failed``, as prefixed log lines (runlog.py), ``gh api`` as the server's body
(api.py). ``gh pr diff`` prints the pull request's unified diff, which the git diff
filter renders with every file and every hunk whole. Machine-readable output
(``--json``, ``--jq``, ``--template``), the browser (``--web``), watch modes and help
run raw; so does every other form. The fixtures were captured from gh 2.23 against a
local test-double API (scripts/fixtures/gh_server.py).
"""

from __future__ import annotations

from rtk.filterapi import Filtered, Spec

COMMANDS = ("gh",)

# Flags of gh's root and of every subcommand that take a value (so the value is not
# read as a subcommand or an operand).
_WITH_VALUE = frozenset(("-R", "--repo", "--color"))

# The user chose the output: machine-readable formats, the browser, or a form of the
# diff the git diff filter does not parse.
_FORMAT_FLAGS = ("--json", "--jq", "-q", "--template", "-t", "--web", "--watch")
_DIFF_RAW_FLAGS = ("--name-only", "--patch")
_LISTS = (("pr", "list"), ("issue", "list"), ("run", "list"), ("release", "list"))


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
    form = tuple(w[:2])
    if "-w" in names and form != ("run", "list"):  # --web, except `gh run list -w WORKFLOW`
        return None
    if w[:1] == ["api"]:
        from rtk.filters.gh.api import api

        return Spec("gh-api", api)
    if form == ("pr", "diff"):
        if names.intersection(_DIFF_RAW_FLAGS):
            return None
        return Spec("gh-pr-diff", pr_diff)
    if form in _LISTS:
        from rtk.filters.gh import lists

        return Spec(f"gh-{form[0]}-list", getattr(lists, f"{form[0]}_list"))
    if form in (("pr", "view"), ("issue", "view"), ("repo", "view")):
        from rtk.filters.gh.views import view

        return Spec(f"gh-{form[0]}-view", view)
    if form == ("pr", "checks"):
        from rtk.filters.gh.checks import checks

        return Spec("gh-pr-checks", checks)
    if form == ("run", "view"):
        if names & {"--log", "--log-failed"}:
            from rtk.filters.gh.runlog import run_log

            return Spec("gh-run-log", run_log)
        from rtk.filters.gh.runs import run_view

        return Spec("gh-run-view", run_view)
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
