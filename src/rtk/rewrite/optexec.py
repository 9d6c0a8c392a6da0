"""Programs a command runs through its options (``git -c core.pager=CMD``, ``rg --pre CMD``, ``npm x CMD``).

A host's rule (or rtk's) for ``git:*`` or ``rg:*`` reads such a line as git or rg; the
program named in the option runs all the same. :func:`program_option` says why a command
may run one (the line is then never auto-allowed) and gives the commands it names, so that
deny and ask rules are matched on them too. Imported only when a word of the command hints
at such an option (:data:`rtk.rewrite.matching.OPTION_HINTS`).
"""

from __future__ import annotations

from rtk.shell.segments import peel, tool_name

TYPE_CHECKING = False
if TYPE_CHECKING:  # collections.abc costs an import on the rewrite path; the aliases serve the type checker only
    from collections.abc import Callable

    Runs = Callable[[list[str]], list[list[str]]]  # the commands a command runs (find -exec, rtk proxy CMD...)
    Parse = Callable[[str, int], list[list[str]]]  # a shell line's commands (rtk.rewrite.permissions.commands)

# git's global options that take a value as the next word (``-c`` is read apart).
_GIT_GLOBAL_ARG = frozenset(("-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--list-cmds"))
# ``git -c KEY=VALUE`` keys that cannot run a program (lower case; a trailing dot: a whole section).
_GIT_SAFE_KEYS = (
    "color.",
    "advice.",
    "user.name",
    "user.email",
    "core.quotepath",
    "core.autocrlf",
    "core.safecrlf",
    "core.abbrev",
    "init.defaultbranch",
    "log.date",
    "log.decorate",
    "log.abbrevcommit",
    "diff.noprefix",
    "diff.renames",
    "column.",
    "i18n.",
    "pull.rebase",
    "pull.ff",
    "status.short",
    "status.branch",
    "status.showuntrackedfiles",
    "safe.directory",
)
# git subcommand -> options whose value is a program or a shell line it runs.
_GIT_SUB_OPTS: dict[str, tuple[str, ...]] = {
    "clone": ("--upload-pack", "-u", "--template", "--config", "-c"),
    "fetch": ("--upload-pack",),
    "pull": ("--upload-pack",),
    "ls-remote": ("--upload-pack",),
    "push": ("--receive-pack", "--exec"),
    "send-pack": ("--receive-pack", "--exec"),
    "archive": ("--exec",),
    "rebase": ("--exec", "-x"),
    "difftool": ("--extcmd", "-x"),
}
# git subcommands whose arguments are themselves a command to run.
_GIT_RUNS = {"bisect": "run", "submodule": "foreach", "filter-branch": ""}
# npm's words that run the command after them (``npm x rm``, ``npm exec -- rm``), and options with a value.
# ``exec`` is resolved to the command it runs already (rtk.shell.simple.WRAPPERS): an allow rule must cover it.
_NPM_RUNS = frozenset(("exec", "x", "explore"))
_NPM_VALUE = frozenset(("-p", "--package", "-w", "--workspace", "--prefix"))
_NPM_SHELL = ("-c", "--call")


def program_option(values: list[str], parse: Parse | None = None) -> tuple[str, list[list[str]]]:
    """``(why, commands)``: why ``values`` may run a program named in an option ("" if not), and the
    commands named there that can be read (shell lines parsed, a program as one word)."""
    at = peel(values).at
    if at >= len(values):
        return "", []
    tool = tool_name(values[at])
    if tool == "git":
        return _git(values, at + 1, parse)
    if tool == "rg":
        return _rg(values, at + 1)
    if tool == "npm":
        return _npm(values, at + 1, parse)
    return "", []


def _option(words: list[str], i: int, names: tuple[str, ...]) -> tuple[str, str | None, int] | None:
    """``(name, value, next index)`` when ``words[i]`` is one of ``names`` (``--x=V``, ``--x V``, ``-xV``)."""
    w = words[i]
    for name in names:
        if w == name:
            return name, (words[i + 1] if i + 1 < len(words) else None), i + 2
        if name.startswith("--") and w.startswith(name + "="):
            return name, w[len(name) + 1 :], i + 1
        if len(name) == 2 and w.startswith(name) and not w.startswith("--"):
            return name, w[2:], i + 1
    return None


def _shell(text: str | None, parse: Parse | None) -> list[list[str]]:
    if not text or parse is None:
        return []
    try:
        return parse(text.removeprefix("!"), 1)
    except Exception:  # an unreadable value still makes the line unapproved; it just matches no rule
        return []


def _git_key(assignment: str | None) -> tuple[str, str | None]:
    key, eq, value = (assignment or "").partition("=")
    return key.lower(), (value if eq else None)


def _git(words: list[str], i: int, parse: Parse | None) -> tuple[str, list[list[str]]]:
    why: list[str] = []
    inner: list[list[str]] = []
    while i < len(words) and words[i].startswith("-"):
        w = words[i]
        opt = _option(words, i, ("-c", "--config-env"))
        if opt is not None:
            key, value = _git_key(opt[1])
            if opt[0] == "--config-env" or not key.startswith(_GIT_SAFE_KEYS):
                why.append(f"git {opt[0]} {key}")
                inner += _shell(value, parse) if opt[0] == "-c" else []
            i = opt[2]
            continue
        if w.startswith("--exec-path="):
            why.append("git --exec-path")
        i += 2 if w in _GIT_GLOBAL_ARG else 1
    sub = words[i] if i < len(words) else ""
    if sub in _GIT_RUNS and (not _GIT_RUNS[sub] or _GIT_RUNS[sub] in words[i + 1 :]):
        why.append(f"git {sub} {_GIT_RUNS[sub]}".rstrip())
        j = words.index(_GIT_RUNS[sub], i + 1) + 1 if _GIT_RUNS[sub] else len(words)
        inner += [words[j:]] if j < len(words) else []
    names = _GIT_SUB_OPTS.get(sub, ())
    j = i + 1
    while names and j < len(words) and words[j] != "--":
        opt = _option(words, j, names)
        if opt is None:
            j += 1
            continue
        why.append(f"git {sub} {opt[0]}")
        if opt[0] == "-c" or opt[0] == "--config":
            key, value = _git_key(opt[1])
            if key.startswith(_GIT_SAFE_KEYS):
                why.pop()
            else:
                inner += _shell(value, parse)
        elif opt[0] != "--template":
            inner += _shell(opt[1], parse)
        j = opt[2]
    return ", ".join(why), inner


def _rg(words: list[str], i: int) -> tuple[str, list[list[str]]]:
    while i < len(words) and words[i] != "--":
        opt = _option(words, i, ("--pre",))
        if opt is not None:
            return "rg --pre", [[opt[1]]] if opt[1] else []
        i += 1
    return "", []


def _npm(words: list[str], i: int, parse: Parse | None) -> tuple[str, list[list[str]]]:
    while i < len(words) and words[i].startswith("-"):
        i += 2 if words[i] in _NPM_VALUE else 1
    sub = words[i] if i < len(words) else ""
    if sub not in _NPM_RUNS:
        return "", []
    why = "" if sub == "exec" else f"npm {sub}"
    i += 1
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        opt = _option(words, i, _NPM_SHELL)
        if opt is not None:
            return f"npm {sub} {opt[0]}", _shell(opt[1], parse)
        i += 2 if words[i] in _NPM_VALUE else 1
    if sub == "explore":  # npm explore PKG -- CMD
        i = words.index("--", i) if "--" in words[i:] else len(words)
    if i < len(words) and words[i] == "--":
        i += 1
    return why, [words[i:]] if i < len(words) else []


def reason(values: list[str], runs: Runs, parse: Parse | None, depth: int = 0) -> tuple[str, list[list[str]]]:
    """:func:`program_option` for ``values`` or, if it finds nothing, for a command they run (``runs``: the
    commands of ``rtk proxy git -c``, ``find -exec``, ``rtk run -c LINE``...), up to a few levels deep."""
    why, inner = program_option(values, parse)
    if why or depth > 3:
        return why, inner
    for cmd in runs(values):
        if (why := reason(cmd, runs, parse, depth + 1)[0]) != "":
            return why, []
    return "", []
