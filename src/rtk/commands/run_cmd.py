"""``rtk run -c LINE`` / ``rtk run ARGV``: run a command line and filter its output, exact exit code."""

from __future__ import annotations

import sys

from rtk.errors import UsageError

HELP = """\
usage: rtk run -c "<shell line>"     run the line with /bin/sh -c (stdin inherited) and filter it
       rtk run [--] <command> [args...]

A single simple command (plain words, no pipes, redirections, expansions,
variable assignments or shell builtins) goes through its own filter, exactly as `rtk <command>`
would. Anything else runs in the shell and its output goes through rtk's
generic path, streamed: shown whole when short, folded live when long (each kind
of line once, exact counts and line ranges, anomalies whole; a line waits at
most 200 lines and at most 1 s, so a slow script's lines show as they come) with
`[rtk] full output: rtk recall ID`. Data (JSON, YAML, CSV) is never folded:
its first and last lines are shown with the range left out.
The exit code is the command's (the shell's for -c; 128+N when signal N
killed it)."""

# A line holding any of these is not one simple command: the shell must run it. ``\r`` is
# no separator for the shell, but shlex splits on it.
SHELL_CHARS = set("|&;<>()$`*?[]{}~!#\n\r\\")
# Words the shell runs itself (builtins, keywords): no program does the same (`exit 3`, `cd /`, `set`).
SHELL_WORDS = frozenset(
    ("exit", "cd", "set", "unset", "export", "readonly", "exec", "eval", ".", "source", ":", "shift", "trap",
     "return", "break", "continue", "local", "read", "ulimit", "umask", "wait", "alias", "unalias", "command",
     "type", "hash", "getopts", "times", "jobs", "fg", "bg", "if", "then", "else", "elif", "fi", "case", "esac",
     "for", "while", "until", "do", "done", "in", "function", "select", "time", "declare", "typeset", "let",
     "builtin", "enable", "history", "logout", "pushd", "popd", "dirs", "shopt", "suspend", "disown")
)  # fmt: skip


def simple_words(line: str) -> list[str] | None:
    """The words of ``line`` when it is one simple command rtk can run itself, else None."""
    import shlex

    if not line.strip() or any(c in SHELL_CHARS for c in line):
        return None
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    if not words or "=" in words[0] or words[0] in SHELL_WORDS:
        return None
    return words


def generic(argv: list[str], output: str, exit_code: int) -> None:
    """No filter reads this output (``rtk pipe``): the pipeline's unrecognised-output path (whole, or folded) decides."""
    return None


def main(args: list[str]) -> int:
    if not args or args[0] in ("-h", "--help"):
        print(HELP, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    from rtk import filters
    from rtk.filterapi import Spec
    from rtk.run import run_spec

    if args[0] == "-c":
        if len(args) != 2:
            raise UsageError('run: -c takes exactly one argument, the shell line (quote it: rtk run -c "a | b")')
        line = args[1]
        words = simple_words(line)
        argv = words if words is not None else ["/bin/sh", "-c", line]
    else:
        argv = args[1:] if args[0] == "--" else args
        if not argv:
            raise UsageError("run: no command given")
        words = argv
    spec = None
    if words is not None:
        try:
            spec = filters.resolve(words)
        except Exception:  # a broken filter must not stop the command: the generic path runs it
            spec = None
    if spec is None:  # no filter reads this output: the live fold (whole when short)
        from rtk import config
        from rtk.fold import live as foldstream

        window = int(config.get("limits.passthrough_max_lines"))
        spec = Spec("run", stream=foldstream.factory(window if window > 0 else 1 << 30))
    return run_spec(argv, spec)
