"""Simple commands: leading assignments and wrappers peeled, wrapper forms resolved to their tool.

``peel(words, transparent)`` finds where the real command starts in a simple command;
``resolve`` maps wrapper forms (``python -m pytest``, ``npx tsc``, ``uv run pytest``,
``bundle exec rspec``...) to the tool they run. See :mod:`rtk.shell.segments`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.shell.lexer import Token


def is_assignment(tok: Token) -> bool:
    """``NAME=value``: an environment assignment."""
    return _assign_value(tok.value) is not None


def tool_name(word: str) -> str:
    """``/usr/bin/git`` -> ``git``, ``./gradlew`` -> ``gradlew``."""
    return word.rsplit("/", 1)[-1]


class Simple:
    """Where the command of a simple segment starts, once prefixes are peeled.

    ``at``: index in ``words`` of the command word (``rtk `` goes before it);
    ``disabled``: an ``RTK_DISABLED=1`` assignment was seen; ``why``: set when the
    command must not be touched (``env -i``, ``command -v``...).
    """

    __slots__ = ("at", "disabled", "why")

    def __init__(self, at: int, disabled: bool, why: str) -> None:
        self.at = at
        self.disabled = disabled
        self.why = why


_PLAIN_WRAPPERS = frozenset(("nohup", "noglob", "nocorrect", "builtin", "!"))


def peel(values: list[str], transparent: tuple[tuple[str, ...], ...] = ()) -> Simple:
    """Step over assignments and process wrappers at the start of ``values``."""
    i = 0
    n = len(values)
    disabled = False
    while i < n and _assign_value(values[i]) is not None:
        if values[i].startswith("RTK_DISABLED=") and values[i][13:] not in ("", "0"):
            disabled = True
        i += 1
    while i < n:
        w = values[i]
        matched = False
        for pre in transparent:
            if tuple(values[i : i + len(pre)]) == pre:
                i += len(pre)
                matched = True
                break
        if matched:
            continue
        if w in _PLAIN_WRAPPERS:
            i += 1
        elif w == "env":
            i += 1
            while i < n:
                a = values[i]
                if a == "--":
                    i += 1
                    break
                if a in ("-u", "--unset"):
                    i += 2
                elif a.startswith("-u") or a.startswith("--unset="):
                    i += 1
                elif a.startswith("-"):
                    return Simple(i, disabled, f"env {a}")
                elif _assign_value(a) is not None:
                    if a.startswith("RTK_DISABLED=") and a[13:] not in ("", "0"):
                        disabled = True
                    i += 1
                else:
                    break
            while i < n and _assign_value(values[i]) is not None:
                if values[i].startswith("RTK_DISABLED=") and values[i][13:] not in ("", "0"):
                    disabled = True
                i += 1
        elif w == "command":
            i += 1
            while i < n and values[i].startswith("-"):
                if values[i] != "-p":
                    return Simple(i, disabled, "command -v lookup")
                i += 1
        elif w == "exec":
            i += 1
            while i < n and values[i].startswith("-"):
                i += 2 if values[i] == "-a" else 1
        elif w == "time":
            i += 1
            while i < n and values[i] in ("-p", "--"):
                i += 1
        elif w == "nice":
            i += 1
            while i < n and values[i].startswith("-"):
                a = values[i]
                i += 2 if a in ("-n", "--adjustment") else 1
        elif w == "timeout":
            i += 1
            while i < n and values[i].startswith("-") and values[i] != "-":
                a = values[i]
                i += 2 if a in ("-s", "-k", "--signal", "--kill-after") else 1
            i += 1  # the duration
            if i > n:
                return Simple(n, disabled, "timeout without a command")
        else:
            break
    return Simple(min(i, n), disabled, "")


def _assign_value(v: str) -> str | None:
    eq = v.find("=")
    if eq <= 0:
        return None
    name = v[:eq].removesuffix("+")
    if not name or not (name[0].isalpha() or name[0] == "_") or not name.isascii():
        return None
    for ch in name:
        if not (ch.isalnum() or ch == "_"):
            return None
    return v[eq + 1 :]


# Wrappers that run another tool. "inner": the tool runs with the wrapper's
# environment found through PATH, so ``rtk`` can go right before the tool
# (``uv run rtk pytest``). "launcher": the wrapper finds the tool itself (a module,
# a package bin), so only ``rtk <wrapper> ...`` is possible.
# word -> (words of the wrapper after the first, kind, options taking a value)
_UV_OPTS = frozenset(
    (
        "--with", "--with-editable", "--with-requirements", "--python", "-p", "--directory", "--project",
        "--package", "--extra", "--group", "--only-group", "--env-file", "--index", "--default-index", "-w",
        "--no-group", "--index-url", "--extra-index-url", "--find-links", "-f", "--config-file",
    )
)  # fmt: skip
WRAPPERS: dict[str, tuple[tuple[str, ...], str, frozenset[str]]] = {
    "uv": (("run",), "inner", _UV_OPTS),
    "poetry": (("run",), "inner", frozenset(("-C", "--directory", "-P", "--project"))),
    "pipenv": (("run",), "inner", frozenset()),
    "pdm": (("run",), "inner", frozenset(("-p", "--project"))),
    "bundle": (("exec",), "inner", frozenset()),
    "pnpm": (("exec",), "inner", frozenset(("-C", "--dir", "--filter", "-F"))),
    "npx": ((), "launcher", frozenset(("-p", "--package", "-c", "--call"))),
    "pnpx": ((), "launcher", frozenset()),
    "bunx": ((), "launcher", frozenset()),
    "npm": (("exec",), "launcher", frozenset(("-p", "--package", "-c", "--call", "-w", "--workspace"))),
    "yarn": (("dlx",), "launcher", frozenset(("-p", "--package"))),
    "bun": (("x",), "launcher", frozenset()),
}


# Commands that run another named by their words (rtk.rewrite.runs reads them; only these load it).
RUNS_BY_NAME = frozenset(
    (
        "npx", "pnpx", "bunx", "uvx", "npm", "pnpm", "yarn", "bun", "uv", "pipx", "poetry", "pipenv", "pdm", "hatch",
        "rye", "bundle", "conda", "mamba", "micromamba", "pixi", "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash",
        "fish", "yash", "busybox", "eval", "sudo", "doas", "xargs", "ssh", "watch", "parallel", "env"
    )
)  # fmt: skip


def is_python(word: str) -> bool:
    """python, python3, python3.12 (any path)."""
    t = tool_name(word)
    if not t.startswith("python"):
        return False
    rest = t[6:]
    return all(ch.isdigit() or ch == "." for ch in rest)


_PY_FLAGS = frozenset(("-u", "-B", "-O", "-OO", "-E", "-s", "-S", "-I", "-q", "-b", "-bb", "-P", "-R"))


class Resolved:
    """The tool a command runs, looking through one wrapper.

    ``tool``: tool name (``pytest`` for ``python -m pytest``); ``index``: index of
    the tool's own word in the values (``-1`` for ``python -m`` modules, which have
    no word of their own to put ``rtk`` in front of); ``rest``: index of the tool's
    first argument; ``wrapper``: ``""``, or the
    wrapper's words (``"uv run"``); ``kind``: ``""``, ``"inner"`` or ``"launcher"``.
    """

    __slots__ = ("index", "kind", "rest", "tool", "wrapper")

    def __init__(self, tool: str, index: int, wrapper: str = "", kind: str = "", rest: int = -1) -> None:
        self.tool = tool
        self.index = index
        self.wrapper = wrapper
        self.kind = kind
        self.rest = index + 1 if rest < 0 else rest  # index of the tool's first argument


def resolve(values: list[str], at: int) -> Resolved:
    """The tool run by ``values[at:]`` (through ``python -m``, ``npx``, ``uv run``...)."""
    word = values[at]
    t = tool_name(word)
    n = len(values)
    if is_python(word):
        i = at + 1
        while i < n and values[i] in _PY_FLAGS:
            i += 1
        if i + 1 < n and values[i] == "-m":
            return Resolved(values[i + 1], -1, t + " -m", "launcher", i + 2)
        return Resolved(t, at)
    spec = WRAPPERS.get(t)
    if spec is None:
        return Resolved(t, at)
    subwords, kind, value_opts = spec
    i = at + 1
    if subwords:
        # Global options before the subcommand are only accepted for pnpm/poetry/uv.
        while i < n and values[i].startswith("-") and values[i] in value_opts and t in ("pnpm", "poetry", "uv"):
            i += 2
        if tuple(values[i : i + len(subwords)]) != subwords:
            return Resolved(t, at)
        i += len(subwords)
    while i < n and values[i].startswith("-"):
        a = values[i]
        if a == "--":
            i += 1
            break
        if a in ("-m", "--module") and t == "uv":
            if i + 1 < n:
                return Resolved(values[i + 1], -1, "uv run -m", "launcher", i + 2)
            return Resolved(t, at)
        i += 2 if a in value_opts else 1
    if i >= n:
        return Resolved(t, at)
    inner = values[i]
    wrapper = " ".join((t, *subwords))
    if kind == "inner" and is_python(inner):
        # uv run python -m pytest: the module is the tool, rtk goes before python.
        sub = resolve(values, i)
        if sub.kind:
            return Resolved(sub.tool, i, wrapper, "inner-python", sub.rest)
    return Resolved(tool_name(inner), i, wrapper, kind)
