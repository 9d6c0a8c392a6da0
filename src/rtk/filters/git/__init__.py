"""Filters for git: the family's entry, which dispatches each subcommand to its module.

Global options (``-C dir``, ``-c k=v``, ``--no-pager``...) are forwarded to git
untouched. The subcommands live in this package's modules, imported only when
used: ``status`` (status), ``log`` (log, show), ``diff`` (diff), ``stream``
(commit, push, pull, fetch), ``ops`` (add, branch, stash, worktree, checkout),
``diffstat`` (diffstat and ref-update lines they share) and ``listing`` (path
lists over ``limits.git_list_tokens``, counted by directory). None of them
imports this module back. A subcommand without a filter, or with a flag that
asks for a specific output format, runs unfiltered.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filterapi import Spec

COMMANDS = ("git",)

# Global options that take a separate value (`-C dir`), and flags that do not.
_GLOBAL_WITH_VALUE = frozenset(
    ("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix")
)
_GLOBAL_FLAGS = frozenset(
    (
        "--no-pager", "-P", "--bare", "--no-replace-objects", "--literal-pathspecs", "--glob-pathspecs",
        "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--no-lazy-fetch", "--no-advice",
    )
)  # fmt: skip


def split_global(argv: list[str]) -> tuple[list[str], str | None, list[str]] | None:
    """``git [global opts] sub [args]`` -> (global opts, sub, args); None if unparseable."""
    if len(argv) > 1 and not argv[1].startswith("-"):
        return [], argv[1], argv[2:]  # no global option (each starts with "-"): the argv scanner is not needed
    from rtk.filters.argv import first_word

    i = first_word(argv, _GLOBAL_WITH_VALUE, _GLOBAL_FLAGS, start=1)
    if i is None:
        return None  # --help, --version, -p (pager), --exec-path...: leave it to git
    if i >= len(argv):
        return argv[1:], None, []
    return argv[1:i], argv[i], argv[i + 1 :]


def select(argv: list[str]) -> Spec | None:
    parts = split_global(argv)
    if parts is None or parts[1] is None:
        return None
    _, sub, args = parts
    if sub == "status":
        import rtk.filters.git.status as _gitstatus

        return _gitstatus.status_spec(args)
    at = len(argv) - len(args) - 1  # index of the subcommand word
    if sub in ("log", "show"):
        import rtk.filters.git.log as _gitlog

        return _gitlog.log_spec(argv, at) if sub == "log" else _gitlog.show_spec(argv, at)
    if sub == "diff":
        import rtk.filters.git.diff as _gitdiff

        return _gitdiff.diff_spec(args)
    if sub in ("push", "pull", "fetch", "commit"):
        import rtk.filters.git.stream as _gitstream

        return _gitstream.commit_spec(args) if sub == "commit" else _gitstream.remote_spec(sub, args)
    if sub in _OPS:
        import rtk.filters.git.ops as _gitops

        spec: Spec | None = getattr(_gitops, _OPS[sub])(args)
        return spec
    return None  # every other subcommand runs as git prints it


# Subcommands filtered by rtk.filters.git.ops, and the function that picks their Spec.
_OPS = {
    "add": "add_spec",
    "branch": "branch_spec",
    "stash": "stash_spec",
    "worktree": "worktree_spec",
    "checkout": "checkout_spec",
}
