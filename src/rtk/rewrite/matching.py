"""Matching a command's words: its rtk rule, the flags that block a rewrite, and its resolved forms.

``resolved_forms`` is the one resolver behind ``hooks.exclude_commands`` and the permission
rules: env assignments and wrappers peeled (by the caller), the tool's path reduced to its
name, ``python -m``/``uv run``/``npx``-style wrappers resolved to the tool they run, and
the tool's global options (``git -C dir``, ``git --no-pager``, ``kubectl -n ns``...) stripped.
"""

from __future__ import annotations

import os

from rtk.rewrite import rules as _rules
from rtk.shell import segments as _seg
from rtk.shell.lexer import ANSI_C, CMDSUB, EXPAND, GLOB, PROCSUB
from rtk.shell.simple import RUNS_BY_NAME

UNSAFE_WORD = EXPAND | CMDSUB | GLOB | PROCSUB | ANSI_C  # a word whose value the shell computes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.rewrite.optexec import Parse, Runs
    from rtk.rewrite.rules import Rule
    from rtk.shell.lexer import Token

# Configuration (read only when the config file exists)


class Settings:
    """``hooks.exclude_commands`` and ``hooks.transparent_prefixes``."""

    __slots__ = ("exclude", "regexes", "transparent")

    def __init__(self, exclude: list[str], transparent: list[str]) -> None:
        self.exclude = [" ".join(e.split()) for e in exclude if not e.startswith("^") and e.strip()]
        self.regexes: list[str] = []  # searched through saferegex: a catastrophic one must not hang the hook
        pats = [e for e in exclude if e.startswith("^")]
        if pats:
            import re

            for p in pats:
                try:
                    re.compile(p)
                except (re.error, RecursionError, OverflowError):
                    continue  # not a regular expression: ignored (rtk config names it)
                self.regexes.append(p)
        self.transparent = tuple(tuple(p.split()) for p in transparent if p.split())

    def excluded(self, forms: list[str]) -> bool:
        for f in forms:
            for e in self.exclude:
                if f == e or f.startswith(e + " "):
                    return True
            if self.regexes:
                from rtk.rewrite import saferegex

                for rx in self.regexes:  # one it cannot search in bounded time excludes: the command runs as written
                    if saferegex.search(rx, f, fallback=True):
                        return True
        return False


_settings: list[Settings] = []


def settings() -> Settings:
    """The hook settings from the config file (defaults when there is none)."""
    if not _settings:
        from rtk import paths

        if os.path.exists(paths.config_file()):
            from rtk import config

            values = config.load(report=False)
            _settings.append(Settings(values["hooks.exclude_commands"], values["hooks.transparent_prefixes"]))
        else:
            _settings.append(Settings([], []))
    return _settings[0]


def reset() -> None:
    """Forget cached settings (tests, long-running hosts)."""
    _settings.clear()


# Rule matching


_GLUED = frozenset(("-o", "-F", "-f", "-c"))  # short options often written with their value: -ojson, -c3


def _flag_present(args: list[str], flags: tuple[str, ...]) -> str:
    """The first of ``flags`` present in ``args`` (before ``--``), or "" (``--output=json``: with that value)."""
    for i, a in enumerate(args):
        if a == "--":
            return ""
        if len(a) < 2 or a[0] != "-":
            continue
        for f in flags:
            if a == f:
                return f
            if "=" in f and a == f.split("=", 1)[0] and args[i + 1 : i + 2] == [f.split("=", 1)[1]]:
                return f
            if f.startswith("--"):
                if a.startswith(f + "="):
                    return f
            elif len(f) == 2 and not a.startswith("--"):
                if 2 < len(a) <= 4 and a[1:].isalpha() and f[1] in a[1:]:
                    return f  # in a cluster: -it, -ip
                if f in _GLUED and a.startswith(f):
                    return f
    return ""


def _words_after_opts(tool: str, args: list[str], count: int) -> list[str]:
    """The first ``count`` non-option words of ``args`` (skipping tool global options)."""
    opts = _rules.GLOBAL_OPTS.get(tool, frozenset())
    out: list[str] = []
    i = 0
    n = len(args)
    while i < n and len(out) < count:
        a = args[i]
        if a.startswith("-") and a != "-":
            if a == "--":
                break
            i += 2 if (a in opts and "=" not in a) else 1
            continue
        if a.startswith("+") and tool == "cargo" and not out:
            i += 1
            continue
        out.append(a)
        i += 1
    return out


def _lead_flag(tool: str, args: list[str]) -> str:
    """The first argument after the options ``rules.SUB_FLAG_OPTS`` lets come before a flag subcommand."""
    opts = _rules.SUB_FLAG_OPTS.get(tool)
    i = 0
    if opts:
        valued, bare = opts
        while i < len(args):
            a = args[i]
            if a in valued:
                i += 2
            elif a in bare or (a[:2] in valued and len(a) > 2):
                i += 1
            else:
                break
    return args[i] if i < len(args) else ""


def match(tool: str, args: list[str]) -> tuple[Rule, str] | None:
    """The rule covering ``tool args`` and the subcommand it matched, or None."""
    cands = _rules.BY_TOOL.get(tool)
    if not cands:
        return None
    words: list[str] | None = None
    for rule in cands:
        if rule.subs is None:
            if words is None:
                words = _words_after_opts(tool, args, 2)
            return rule, (words[0] if words else "")
        for sub in rule.subs:
            if sub.startswith("-"):
                if _lead_flag(tool, args) == sub:
                    return rule, sub
                continue
            if words is None:
                words = _words_after_opts(tool, args, 2)
            if not sub:  # the tool with no subcommand word (bare `bundle` is `bundle install`)
                if not words:
                    return rule, sub
                continue
            parts = sub.split(" ")
            if len(words) < len(parts):
                continue
            ok = True
            for p, w in zip(parts, words, strict=False):
                if p.endswith("*"):
                    if not w.startswith(p[:-1]):
                        ok = False
                        break
                elif p != w:
                    ok = False
                    break
            if ok:
                return rule, sub
    return None


def _blocked(rule: Rule, sub: str, args: list[str]) -> str:
    """Why ``rule`` must not rewrite this invocation, or ""."""
    status = rule.sub_status.get(sub, rule.status)
    if status == "never":
        return f"{rule.id} {sub}: never rewritten".replace("  ", " ")
    for key in ("", sub) if sub else ("",):
        flags = rule.raw_flags.get(key)
        if flags:
            f = _flag_present(args, flags)
            if f and not (rule.views and _flag_present(args, rule.views)):
                return f"{f} asks for native output"
    if rule.requires and not _flag_present(args, rule.requires):
        return f"{rule.id} without {rule.requires[0]} is interactive"
    if rule.min_words and len(_words_after_opts(rule.tools[0], args, rule.min_words)) < rule.min_words:
        return f"{rule.id} without a command is interactive"
    if rule.id == "ssh":  # issue 16: ssh HOST alone is a login shell; only HOST COMMAND forms are filtered
        from rtk.filters.ssh.forms import remote_command

        if remote_command(args) is None:
            return "ssh without a remote command is interactive"
    return ""


# The resolved form (exclusions and permission rules)


def strip_global(tool: str, args: list[str]) -> list[str]:
    """``args`` without the tool's leading global options (``-C dir``, ``--no-pager``, ``-c k=v``)."""
    opts = _rules.GLOBAL_OPTS.get(tool)
    if opts is None:
        return args
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if (args[i] in opts and "=" not in args[i]) else 1
    return args[i:]


def resolved_forms(values: list[str], at: int, res: _seg.Resolved) -> list[str]:
    """The command from ``values[at]`` as written, with its tool's global options stripped, and
    through its wrapper (``uv run pytest`` -> ``pytest``); the last one is the fully resolved form."""
    tool = _seg.tool_name(values[at])
    forms = [" ".join(values[at:]), " ".join([tool, *strip_global(tool, values[at + 1 :])])]
    if res.kind:
        inner = _seg.tool_name(res.tool)
        forms.append(" ".join([inner, *values[res.rest :]]))
        forms.append(" ".join([inner, *strip_global(inner, values[res.rest :])]))
    return forms


def consumers_display_only(segs: list[_seg.Segment]) -> bool:
    """Every pipeline consumer in ``segs`` only displays text (head, tail without -f, less, cat)."""
    for s in segs:
        if s.opaque or not s.words or s.stdout_to_file():
            return False
        values = [w.value for w in s.words]
        simple = _seg.peel(values)
        if simple.why or simple.at >= len(values):
            return False
        tool = _seg.tool_name(values[simple.at])
        args = values[simple.at + 1 :]
        if tool not in _rules.DISPLAY_ONLY:
            return False
        if tool == "cat" and any(a != "-" for a in args):
            return False
        if tool == "tail" and _flag_present(args, ("-f", "-F", "--follow", "--retry")):
            return False
        if tool in ("head", "tail") and _flag_present(args, ("-c", "--bytes")):
            return False  # a byte count wants the exact bytes (a binary file's magic number), not rtk's view
    return True


# cat / head / tail -> rtk read


def _read_form(
    seg: _seg.Segment, line: str, words: list[Token], values: list[str], at: int, tool: str
) -> tuple[int, int, str] | None:
    """``cat``/``head``/``tail`` of one file as an exact ``rtk read`` (None: leave it)."""
    args = values[at + 1 :]
    argw = words[at + 1 :]
    tw = words[at]
    if not args:
        return None
    if tool == "cat":
        numbered = args[0] == "-n"
        files = argw[1:] if numbered else argw
        if not files or any(w.value.startswith("-") or not w.value for w in files):
            return None
        if numbered and (len(files) != 1 or files[0].flags & UNSAFE_WORD):
            return None
        return tw.start, tw.end, "rtk read"
    n = "10"
    file: Token | None = None
    i = 0
    counts = 0
    while i < len(args):
        a = args[i]
        if a in ("-n", "--lines") and i + 1 < len(args):
            n = args[i + 1]
            i += 2
            counts += 1
            continue
        if a.startswith("--lines="):
            n = a[8:]
        elif a.startswith("-n") and len(a) > 2:
            n = a[2:]
        elif i == 0 and len(a) > 1 and a[0] == "-" and _rules.line_count(a[1:]):
            n = a[1:]  # the obsolete -N: only first and alone (tail -5 -n 3 is an error)
        elif a.startswith("-") or a.startswith("+"):
            return None
        elif file is not None:
            return None  # several files: head prints headers
        else:
            file = argw[i]
        if a.startswith("-"):
            counts += 1
        i += 1
    if counts > 1 and args[0][:1] == "-" and _rules.line_count(args[0][1:]):
        return None
    if file is None or not _rules.line_count(n) or file.flags & UNSAFE_WORD or not file.value:
        return None
    end = words[-1].end
    for op, _target in seg.redirs:
        if tw.start < op.start < end:
            return None
    line_file = line[file.start : file.end]
    flag = "--head-lines" if tool == "head" else "--tail-lines"
    return tw.start, end, f"rtk read {line_file} {flag} {_rules.line_count(n)}"


# Scripts: run through ``rtk run`` (streamed, folded when long)

# Interpreter -> its options that take a value (the script is the first other word).
_INTERPRETERS: dict[str, frozenset[str]] = {
    "python": frozenset(("-W", "-X", "--check-hash-based-pycs")),
    "node": frozenset(("-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file",
                       "--conditions", "-C", "--input-type", "--stack-size", "--max-old-space-size")),
    "ruby": frozenset(("-I", "-r", "-C", "-E", "--encoding")),
    "perl": frozenset(("-I", "-M", "-m")),
    "bash": frozenset(("-o", "+o", "-O", "+O")),
    "sh": frozenset(("-o", "+o")),
    "zsh": frozenset(("-o", "+o")),
}  # fmt: skip
# Options after which the interpreter reads code from elsewhere, stays interactive, or prints and exits.
_NOT_A_SCRIPT = frozenset(
    ("-c", "-e", "-E", "-i", "-s", "-", "--", "-p", "-n", "-l", "-h", "--help", "-V", "--version", "-v",
     "--interactive", "--eval", "--print", "--test", "--watch", "--watch-path", "--inspect", "--inspect-brk",
     "-x", "--check", "--jitless", "--prof", "--run", "-a", "-F", "-0")
)  # fmt: skip
_SHELL_FLAGS = frozenset("euxvo")  # bash -eux deploy.sh still runs the script
# python -m modules that are servers, REPLs, debuggers, pagers, prompts or print data: left as written.
_LIVE_MODULES = frozenset(
    ("http.server", "SimpleHTTPServer", "pdb", "ipdb", "code", "IPython", "ipython", "jupyter", "notebook",
     "idlelib", "asyncio", "sqlite3", "json.tool", "pydoc", "webbrowser", "venv", "virtualenv", "pip", "pip3",
     "ensurepip", "timeit", "trace", "cProfile", "profile", "tkinter", "turtledemo", "uvicorn", "gunicorn",
     "flask", "django", "streamlit", "jupyterlab", "rtk", "this", "antigravity", "unittest", "doctest", "tox",
     "nox", "pytest", "mypy", "ruff", "black", "isort", "flake8", "pylint", "coverage", "build", "twine")
)  # fmt: skip
# Scripts that start servers, shells or prompts by name (Django's manage.py runserver/shell/test, the
# conventional entry points of web apps): left as written.
_LIVE_SCRIPTS = frozenset(
    ("manage.py", "wsgi.py", "asgi.py", "app.js", "server.js", "app.ts", "server.ts", "app.py", "server.py")
)


def script_form(word: str, args: list[str]) -> bool:
    """Whether ``word args`` runs a script (``python3 x.py``, ``python -m pkg.tool``, ``node x.js``,
    ``bash ./deploy.sh``, ``./run.sh``) rather than a REPL, inline code, a server module, a test runner
    or another tool: such commands go through ``rtk run`` (docs/rewrite.md, "Scripts")."""
    tool = _seg.tool_name(word)
    if _seg.is_python(word):
        tool = "python"
    opts = _INTERPRETERS.get(tool)
    if opts is None:
        # A script run directly: a path to it (./run.sh, scripts/build.sh), not a tool on PATH.
        if "/" not in word or not tool or tool in _LIVE_SCRIPTS or tool in _rules.BY_TOOL:
            return False  # a tool rtk has rules for (./gradlew bootRun) keeps them
        from rtk.filters import FAMILIES  # loaded already by the rewrite

        return tool not in FAMILIES
    i = 0
    while i < len(args):
        a = args[i]
        if a in _NOT_A_SCRIPT:
            return False
        if a == "-m" and tool == "python":
            mod = args[i + 1] if i + 1 < len(args) else ""
            return bool(mod) and mod.split(".", 1)[0] not in _LIVE_MODULES and mod not in _LIVE_MODULES
        if not a.startswith(("-", "+")):
            return _seg.tool_name(a) not in _LIVE_SCRIPTS and not a.startswith("<")
        if a in opts:
            i += 2
            continue
        if tool in ("bash", "sh", "zsh") and not (a[0] == "-" and set(a[1:]) <= _SHELL_FLAGS and len(a) > 1):
            return False  # -c, -i, -s, -l and the rest: not a plain script run
        plain = len(a) > 1 and a[1:].isalpha() and "i" not in a and "c" not in a  # python -u, -OO, -B
        if tool == "python" and not plain and a.split("=", 1)[0] not in opts:
            return False
        i += 1
    return False  # the interpreter alone: a REPL


def uv_script(values: list[str], res: _seg.Resolved) -> bool:
    """Whether ``uv run ...`` runs a script: ``uv run script.py``, ``uv run python x.py``, ``uv run
    python -m pkg.tool``, ``uv run -m pkg.tool``, ``uv run ./run.sh``; such commands go through
    ``rtk run`` as ``python3 script.py`` does (``uv run pytest`` keeps its tool's rule)."""
    if res.wrapper == "uv run -m":  # uv run -m pkg.tool: python -m pkg.tool
        mod = res.tool
        return bool(mod) and mod.split(".", 1)[0] not in _LIVE_MODULES and mod not in _LIVE_MODULES
    if res.wrapper != "uv run" or res.index < 0 or res.kind not in ("inner", "inner-python"):
        return False
    word = values[res.index]
    if res.kind == "inner" and word.endswith(".py") and not _seg.is_python(word):
        return _seg.tool_name(word) not in _LIVE_SCRIPTS  # uv runs a .py file with the project's python
    return script_form(word, values[res.index + 1 :])


# Options after which find/fd take a command they run for each file (``find -exec CMD {} ;``).
_FD_EXEC = ("-x", "--exec", "-X", "--exec-batch")
_RUNS_COMMAND = {"find": ("-exec", "-execdir", "-ok", "-okdir"), "fd": _FD_EXEC, "fdfind": _FD_EXEC}


_RTK_FLAGS = frozenset(("-v", "-vv", "-vvv", "--verbose", "--ultra-compact", "--skip-env"))
_RTK_RUNS = frozenset(("proxy", "bypass", "err", "summary", "test", "run"))  # rtk commands that run a command


def _rtk_inner(values: list[str]) -> list[list[str]]:
    """The command ``rtk [flags] [proxy|err|test|...] CMD ...`` runs (``rtk run -c LINE``: LINE's commands)."""
    at = _seg.peel(values).at
    if at >= len(values) or _seg.tool_name(values[at]) != "rtk":
        return []
    i = at + 1
    while i < len(values) and values[i] in _RTK_FLAGS:
        i += 1
    if i < len(values) and values[i] in _RTK_RUNS:
        i += 1
        if values[i - 1] == "run" and i + 1 < len(values) and values[i] == "-c":
            return []  # a shell line: rtk_shell_line
    elif i < len(values) and values[i] in _rules_commands():
        return []  # one of rtk's own commands (gain, read...): nothing of the user's runs
    return [values[i:]] if i < len(values) else []


OPTION_HINTS = ("-c", "-u", "-x", "--c", "--e", "--pre", "--up", "--rec", "--t", "run", "foreach", "filter-", "x", "exp")  # fmt: skip
_OPT_TOOLS = frozenset(("git", "rg", "npm"))  # the tools rtk.rewrite.optexec reads (only past these and a hint word)


def option_programs(
    values: list[str], runs: Runs | None = None, parse: Parse | None = None
) -> tuple[str, list[list[str]]]:
    """Why ``values`` (or, given ``runs``, a command they run) may run a program named in an option, and its commands."""
    hinted = any(w.startswith(OPTION_HINTS) for w in values[1:])
    if not hinted or not any(_seg.tool_name(w) in _OPT_TOOLS for w in values):
        return "", []
    from rtk.rewrite import optexec

    return optexec.reason(values, runs, parse) if runs is not None else optexec.program_option(values, parse)


def rtk_shell_line(values: list[str]) -> str | None:
    """The shell line of ``rtk [flags] run -c LINE`` (its commands are the caller's to parse), else None."""
    at = _seg.peel(values).at
    if at >= len(values) or _seg.tool_name(values[at]) != "rtk":
        return None
    i = at + 1
    while i < len(values) and values[i] in _RTK_FLAGS:
        i += 1
    return values[i + 2] if values[i : i + 2] == ["run", "-c"] and i + 2 < len(values) else None


def _rules_commands() -> frozenset[str]:
    from rtk import COMMANDS

    return frozenset(COMMANDS)


def embedded_commands(values: list[str], parse: Parse | None = None) -> list[list[str]]:
    """The commands ``find``/``fd`` words in ``values`` run for each file, the one an ``rtk ...`` line runs
    (``rtk proxy git push``), those an option names and those a runner names (``pnpm exec X``, ``bash -c LINE``,
    :mod:`rtk.rewrite.runs`; ``parse`` reads a shell line), each as a list of words. Deny and ask rules are matched
    on them too (``Bash(rm:*)`` refuses ``find . -exec rm {} ;``)."""
    out: list[list[str]] = _rtk_inner(values) + option_programs(values, parse=parse)[1]  # + git -c core.pager=CMD...
    at = _seg.peel(values).at
    if any(_seg.tool_name(w) in RUNS_BY_NAME for w in values[: at + 1]):
        from rtk.rewrite.runs import inner  # pnpm exec X, bash -c LINE, sudo X...

        out += inner(values, parse)
    flags: tuple[str, ...] = ()
    cur: list[str] | None = None
    for w in values:
        if cur is not None:
            if w == ";" or (w == "+" and cur and cur[-1] == "{}"):
                out.append(cur)
                cur = None
            else:
                cur.append(w)
            continue
        flags = _RUNS_COMMAND.get(w.rsplit("/", 1)[-1], flags)
        if w in flags:
            cur = []
    if cur:
        out.append(cur)
    return [c for c in out if c]
