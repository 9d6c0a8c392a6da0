"""The commands another command runs by name: package runners, shells' ``-c`` lines, ``sudo``, ``xargs``, ``ssh``...

Deny and ask rules are matched on them (``Bash(curl:*)`` refuses ``pnpm exec curl x`` and
``bash -c "curl x"``), never allow rules. Loaded only when a command's word is in ``RUNS_BY_NAME``.
"""

from __future__ import annotations

from rtk.shell.lexer import BODY, HEREDOC, REDIR, WORD
from rtk.shell.simple import RUNS_BY_NAME, peel, tool_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.rewrite.optexec import Parse
    from rtk.shell.segments import Line

# Runner -> (subcommand words that run a named program; "" = the words right after the runner's options,
# options taking a value). A subcommand tuple ("*",) means: any word that is not one of the runner's own
# commands (``pnpm curl`` runs curl when no script is named so).
_NPM_VALUE = frozenset(("-p", "--package", "-w", "--workspace", "--prefix", "-C", "--dir", "--filter", "-F"))
_CONDA_VALUE = frozenset(("-n", "--name", "-p", "--prefix", "--cwd", "--live-stream-cwd"))
_UV_VALUE = frozenset(
    ("--with", "--with-editable", "--with-requirements", "--python", "-p", "--from", "--directory", "--project",
     "--package", "--extra", "--group", "--env-file", "--index", "--default-index", "--index-url", "-w",
     "--extra-index-url", "--find-links", "-f", "--config-file", "--spec", "--pip-args", "-e", "--env")
)  # fmt: skip
_RUNNERS: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "npx": (("",), _NPM_VALUE),
    "pnpx": (("",), _NPM_VALUE),
    "bunx": (("",), _NPM_VALUE),
    "uvx": (("",), _UV_VALUE),
    "npm": (("exec", "x"), _NPM_VALUE),
    "pnpm": (("exec", "dlx", "*"), _NPM_VALUE),
    "yarn": (("exec", "dlx", "*"), _NPM_VALUE),
    "bun": (("x", "exec"), _NPM_VALUE),
    "uv": (("run", "tool run"), _UV_VALUE),
    "pipx": (("run",), _UV_VALUE),
    "poetry": (("run",), frozenset(("-C", "--directory", "-P", "--project"))),
    "pipenv": (("run",), frozenset()),
    "pdm": (("run",), frozenset(("-p", "--project"))),
    "hatch": (("run",), frozenset(("-e", "--env"))),
    "rye": (("run",), frozenset(("--pyproject",))),
    "bundle": (("exec",), frozenset(("--gemfile",))),
    "conda": (("run",), _CONDA_VALUE),
    "mamba": (("run",), _CONDA_VALUE),
    "micromamba": (("run",), _CONDA_VALUE),
    "pixi": (("run", "exec"), frozenset(("-e", "--environment", "--manifest-path"))),
}
_FOREACH_VALUE = frozenset(("--include", "--exclude", "--from", "-j", "--jobs"))  # (--since[=REF] optional)
# pnpm's and yarn's own commands (``pnpm rm lodash`` removes a package; it runs no rm).
_OWN = frozenset(
    (
        "add", "i", "install", "ci", "update", "up", "upgrade", "remove", "rm", "uninstall", "un", "link", "ln",
        "unlink", "import", "rebuild", "rb", "prune", "fetch", "install-test", "it", "patch", "patch-commit",
        "patch-remove", "audit", "list", "ls", "ll", "la", "outdated", "why", "licenses", "run", "run-script", "test",
        "t", "tst", "create", "start", "stop", "restart", "publish", "pack", "recursive", "m", "multi", "server",
        "store", "root", "bin", "setup", "init", "deploy", "doctor", "config", "c", "get", "set", "env", "dedupe",
        "help", "login", "logout", "whoami", "owner", "dist-tag", "version", "view", "info", "show", "search", "docs",
        "home", "repo", "bugs", "access", "adduser", "prefix", "profile", "cache", "catalog", "node", "npm", "plugin",
        "unplug", "workspace", "workspaces", "constraints", "explain", "tag", "team", "autoclean", "check",
        "generate-lock-entry", "global", "policies", "sdks", "self-update", "approve-builds", "ignored-builds",
        "cat-file", "cat-index", "find-hash", "upgrade-interactive", "stage", "deprecate", "undeprecate", "unpublish",
        "completion", "fund", "query", "sbom", "star", "stars", "unstar", "ping", "edit"
    )
)  # fmt: skip
_SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "busybox"))
_SUDO_VALUE = frozenset(
    ("-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D", "--chdir",
     "-r", "--role", "-t", "--type", "-U", "--other-user", "-T", "--command-timeout", "-R", "--chroot")
)  # fmt: skip
_XARGS_VALUE = frozenset(
    ("-a", "--arg-file", "-d", "--delimiter", "-E", "-e", "-I", "-L", "-l", "-n", "--max-args", "-P",
     "--max-procs", "-s", "--max-chars", "--process-slot-var")
)  # fmt: skip
_SSH_VALUE = frozenset(("-B", "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-p", "-Q", "-R", "-S", "-W", "-w"))  # fmt: skip
_WATCH_VALUE = frozenset(("-n", "--interval", "-d", "-q", "--equexit", "-s", "--shotsfile"))
_ENV_VALUE = frozenset(("-u", "--unset", "-C", "--chdir", "-P", "--path"))
TOOLS = frozenset(_RUNNERS) | _SHELLS | frozenset(("eval", "sudo", "doas", "xargs", "ssh", "watch", "parallel", "env"))
assert TOOLS == RUNS_BY_NAME  # the hot path's trigger (rtk.shell.simple) names exactly these


def inner(values: list[str], parse: Parse | None = None) -> list[list[str]]:
    """The commands ``values`` runs by name (after assignments and process wrappers), each as a list of words."""
    at = peel(values).at
    if at >= len(values):
        return []
    if values[at].startswith("-"):  # peel stopped at an option of its wrapper (env -i CMD): back to the wrapper
        at = max((j for j in range(at) if tool_name(values[j]) in TOOLS), default=at)
    tool = tool_name(values[at])
    rest = values[at + 1 :]
    if tool in _RUNNERS:
        return _runner(tool, rest)
    if tool == "busybox" and rest and rest[0] not in _SHELLS:
        return [rest]  # busybox rm x: the applet is the command
    if tool in _SHELLS:
        return _shell_c(rest[1:] if tool == "busybox" and rest else rest, parse)
    if tool == "eval":
        return _line(" ".join(rest), parse)
    if tool in ("sudo", "doas"):
        return _after_options(rest, _SUDO_VALUE | frozenset(("-a", "-C")), assignments=True)
    if tool == "xargs":
        return _after_options(rest, _XARGS_VALUE)
    if tool == "env":
        return _env(rest, parse)
    if tool == "watch":
        cmd = _after_options(rest, _WATCH_VALUE)
        return _line(" ".join(cmd[0]), parse) if cmd else []
    if tool == "parallel":
        words = rest[: rest.index(":::")] if ":::" in rest else rest
        cmd = _after_options(words, frozenset(("-j", "--jobs", "-S", "--sshlogin", "--joblog", "-a", "--arg-file")))
        return _line(" ".join(cmd[0]), parse) if cmd else []
    if tool == "ssh":
        cmd = _after_options(rest, _SSH_VALUE)  # the host, then the remote line
        words = cmd[0][2:] if cmd and cmd[0][1:2] == ["--"] else cmd[0][1:] if cmd else []  # ssh HOST -- LINE
        return _line(" ".join(words), parse) if words else []
    return []


def _after_options(words: list[str], value_opts: frozenset[str], assignments: bool = False) -> list[list[str]]:
    i = 0
    n = len(words)
    while i < n and words[i].startswith("-") and words[i] != "-":
        if words[i] == "--":
            i += 1
            break
        w = words[i]
        # a value option, alone or ending a cluster of short ones (sudo -iu root CMD)
        takes = w in value_opts or (len(w) > 2 and w[1] != "-" and f"-{w[-1]}" in value_opts)
        i += 2 if takes else 1
    while assignments and i < n and "=" in words[i] and not words[i].startswith("="):
        i += 1
    return [words[i:]] if i < n else []


def _runner(tool: str, rest: list[str]) -> list[list[str]]:
    subs, value_opts = _RUNNERS[tool]
    i = 0
    n = len(rest)
    while i < n and rest[i].startswith("-") and rest[i] != "--":  # global options (pnpm -r exec, yarn -s dlx)
        i += 2 if rest[i] in value_opts else 1
    if "" not in subs:
        if i >= n:
            return []
        if tool == "yarn" and i + 2 < n and rest[i] == "workspace":  # yarn workspace NAME exec X
            return _runner(tool, rest[i + 2 :])
        if tool == "yarn" and i + 1 < n and rest[i : i + 2] == ["workspaces", "foreach"]:
            cmd = _after_options(rest[i + 2 :], _FOREACH_VALUE)
            return _runner(tool, cmd[0]) if cmd else []
        if tool == "yarn" and rest[i] == "run":  # yarn run X: a script, else a binary named X
            return _after_options(rest[i + 1 :], frozenset())
        if rest[i] in subs or (i + 1 < n and f"{rest[i]} {rest[i + 1]}" in subs):
            i += 1 if rest[i] in subs else 2
        elif "*" in subs and rest[i] not in _OWN and rest[i] != "--":
            return [rest[i:]]
        else:
            return []
    cmd = _after_options(rest[i:], value_opts)
    if cmd and tool in ("hatch", "pixi") and ":" in cmd[0][0]:  # hatch run test:cov runs a script
        return []
    return cmd


def _shell_c(rest: list[str], parse: Parse | None) -> list[list[str]]:
    i = 0
    while i < len(rest) and rest[i].startswith(("-", "+")) and rest[i] != "--":
        a = rest[i]
        if a.startswith("-") and not a.startswith("--") and "c" in a:
            j = i + 2 if rest[i + 1 : i + 2] == ["--"] else i + 1  # bash -c -- LINE
            return _line(rest[j], parse) if j < len(rest) else []
        i += 2 if a in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file") else 1
    return []


def _env(rest: list[str], parse: Parse | None) -> list[list[str]]:
    for k, a in enumerate(rest):
        if a in ("-S", "--split-string") and k + 1 < len(rest):
            return _line(" ".join(rest[k + 1 :]), parse)
        if a.startswith(("-S", "--split-string=")) and a not in ("-S", "--split-string"):
            tail = a[2:] if a.startswith("-S") else a.split("=", 1)[1]
            return _line(" ".join([tail, *rest[k + 1 :]]), parse)
        if not a.startswith("-"):
            break
    return _after_options(rest, _ENV_VALUE, assignments=True)


def _line(text: str, parse: Parse | None) -> list[list[str]]:
    if not text.strip():
        return []
    return parse(text, 1) if parse is not None else [text.split()]


def fed_to_shell(parsed: Line, parse: Parse) -> list[list[str]]:
    """The commands of the text a shell reads on its stdin: a here-string, a here-document, or the words
    ``echo``/``printf`` pipe into it (``echo 'rm x' | bash``, ``bash <<< 'rm x'``)."""
    out: list[list[str]] = []
    bodies = [t.value for t in parsed.tokens if t.kind == BODY]
    for pipeline in parsed.pipelines:
        segs = pipeline.segments
        for k, seg in enumerate(segs):
            if seg.opaque or not _reads_stdin([w.value for w in seg.words]):
                continue
            toks = seg.tokens
            for i, t in enumerate(toks):
                if t.kind == REDIR and t.value == "<<<" and i + 1 < len(toks) and toks[i + 1].kind == WORD:
                    out += parse(toks[i + 1].value, 1)
                elif t.kind == HEREDOC:
                    out += [c for b in bodies for c in parse(b, 1)]
            prev = [w.value for w in segs[k - 1].words] if k > 0 else []
            at = peel(prev).at
            if at < len(prev) and tool_name(prev[at]) in ("echo", "printf"):
                out += parse(" ".join(w for w in prev[at + 1 :] if not w.startswith("-")), 1)
    return out


def _reads_stdin(values: list[str]) -> bool:
    """A shell with no ``-c`` and no script operand (or ``-s``): it runs what it reads."""
    at = peel(values).at
    if at >= len(values) or tool_name(values[at]) not in _SHELLS:
        cmds = inner(values) if at < len(values) and tool_name(values[at]) in ("sudo", "doas", "env") else []
        return bool(cmds) and len(cmds[0]) < len(values) and _reads_stdin(cmds[0])  # sudo bash
    args = values[at + 1 :]
    for a in args:
        if not a.startswith(("-", "+")):
            return "-s" in args
        if not a.startswith("--") and "c" in a:
            return False
    return True
