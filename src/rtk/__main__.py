"""Entry point: dispatch ``rtk ...`` with as few imports as each path needs.

``rtk <tool> ...`` runs a wrapped tool (``rtk.run``); ``rtk <command> ...`` runs
one of rtk's own commands (``rtk.commands``). Nothing heavier than the chosen
path is imported.
"""

from __future__ import annotations

import os
import sys

from rtk import COMMANDS

USAGE = """\
usage: rtk [global options] <tool> [args...]     run a tool, print compact output
       rtk [global options] <command> [args...]  one of rtk's own commands

rtk runs the real tool and prints what an agent needs of its output: errors
with file:line, failing tests, changed files, counts, and the exact exit code.
Unknown tools run unfiltered. RTK_DISABLED=1 turns every rtk run into the plain
command. Token figures are estimates: character classes weighted to match o200k/cl100k
(older runs: ceil(characters / 4)).
"""


def _help() -> str:
    from rtk import options
    from rtk.filters import FAMILIES

    lines = [USAGE, "commands:"]
    width = max(len(n) for n in COMMANDS)
    for name in sorted(COMMANDS):
        lines.append(f"  {name:<{width}}  {COMMANDS[name][1]}")
    lines.append("")
    lines.append("filtered tools: " + ", ".join(sorted(FAMILIES)))
    lines.append("")
    lines.append(options.GLOBAL_FLAGS_HELP)
    return "\n".join(lines)


def _reopen_closed_streams() -> None:
    """An output stream the caller closed (``2>&-``, ``>&-``) is opened on /dev/null, as if redirected there.

    Python leaves ``sys.stderr`` None then (rtk's own writes raised), and the next file rtk opened (the
    tracking database) took descriptor 2, so a message meant for stderr could land in it.
    """
    for fd, name in ((1, "stdout"), (2, "stderr")):  # stdin closed stays closed, as for the raw command
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
            continue  # open after all: left as it is
        except OSError:
            pass
        try:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            os.set_inheritable(fd, True)  # os.open's descriptors are close-on-exec; the child gets this one
            setattr(sys, name, open(fd, "w", encoding="utf-8", errors="replace", closefd=False))  # noqa: SIM115 - lives as long as rtk
        except OSError:
            pass


def main(argv: list[str] | None = None) -> int:
    _reopen_closed_streams()
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "rewrite":
        # The hot path of every agent hook: nothing else is imported.
        from rtk.rewrite.cli import main as rewrite

        return rewrite(args[1:])
    if args and args[0] == "hook":
        if args[1:2] == ["check"]:
            # A dry run of the hook (a diagnostic, not the hot path); it imports rtk.hook, not the reverse.
            from rtk.commands.hook_check import main as check

            return check(args[2:])
        # Every agent tool call: the adapter decides on the tool name before importing more.
        from rtk.hook import main as hook

        return hook(args[1:])
    from rtk import options

    args, action = options.parse_global(args)
    if action == "version":
        from rtk import __version__

        print(f"rtk {__version__} (rtk-proxy, Python {sys.version_info[0]}.{sys.version_info[1]})")
        return 0
    if action == "help" or not args:
        print(_help(), file=sys.stdout if action == "help" else sys.stderr)
        return 0 if action == "help" else 2
    name = args[0]
    if name != "init":
        _daily_check()
    entry = COMMANDS.get(name)
    if entry is not None:
        import importlib

        from rtk.errors import guarded

        mod = importlib.import_module(entry[0])
        return guarded(lambda: int(mod.main(args[1:])), options.verbose)
    if name.startswith("-"):
        print(f"rtk: unknown option {name} (rtk's own options go before the tool: -v, --ultra-compact, "
              "--skip-env, --version, --help)\nusage: rtk [global options] <tool> [args...]; rtk --help "
              "lists rtk's commands", file=sys.stderr)  # fmt: skip
        return 2
    near = _near_command(name)
    if near and not _on_path(name):
        print(f"rtk: command not found: {name} (did you mean rtk {near}?)", file=sys.stderr)
        return 127
    if os.environ.get("RTK_DISABLED") == "1":
        return _exec_raw(args)
    from rtk.run import run_tool

    return run_tool(args)


def _near_command(word: str) -> str:
    """rtk's own command one edit (or one swap of neighbours) away from ``word``, or "" (no imports)."""
    if len(word) < 3:
        return ""
    for c in sorted(COMMANDS):
        if abs(len(c) - len(word)) > 1 or c == word:
            continue
        if len(c) == len(word):
            diff = [i for i in range(len(c)) if c[i] != word[i]]
            swap = (
                len(diff) == 2
                and diff[1] == diff[0] + 1
                and c[diff[0]] == word[diff[1]]
                and c[diff[1]] == word[diff[0]]
            )
            if len(diff) == 1 or swap:
                return c
        else:
            short_, long_ = (c, word) if len(c) < len(word) else (word, c)
            if any(long_[:i] + long_[i + 1 :] == short_ for i in range(len(long_))):
                return c
    return ""


def _on_path(name: str) -> bool:
    if os.sep in name:
        return True  # a path: the runner says what is wrong with it
    for d in os.environ.get("PATH", os.defpath).split(os.pathsep):
        p = os.path.join(d or ".", name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return True
    return False


def _daily_check() -> None:
    """Once a day (one stat of a marker that only ``rtk init`` creates): warn about modified or outdated hooks."""
    from rtk import paths

    try:
        st = os.stat(os.path.join(paths.data_dir(), ".hook_check"))
    except OSError:
        return
    import time

    if time.time() - st.st_mtime > 86400:
        try:
            from rtk.agents._integrity import daily

            daily()
        except Exception:  # an integrity check must never stop the user's command
            pass


def _exec_raw(args: list[str]) -> int:
    """RTK_DISABLED=1: become the plain command (same pid, streams, exit code)."""
    from rtk.runner import exec_raw

    return exec_raw(args)


if __name__ == "__main__":
    sys.exit(main())
