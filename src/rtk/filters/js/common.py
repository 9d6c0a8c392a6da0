"""Helpers shared by the JavaScript/TypeScript filters: launchers, flags, paths, frames, caps."""

from __future__ import annotations

import os

from rtk import config
from rtk.filterapi import Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filterapi import Filtered, LineFilter


def has_flag(args: list[str], *names: str) -> bool:
    """True if any of ``names`` appears as a flag (``--x`` or ``--x=value``) before ``--``."""
    for a in args:
        if a == "--":
            return False
        for n in names:
            if a == n or (n.startswith("--") and a.startswith(n + "=")):
                return True
    return False


def flag_value(args: list[str], *names: str) -> str | None:
    """The value of the last ``--name value`` / ``--name=value`` among ``names``."""
    val: str | None = None
    for i, a in enumerate(args):
        if a == "--":
            break
        for n in names:
            if a == n and i + 1 < len(args):
                val = args[i + 1]
            elif a.startswith(n + "=") and n.startswith("--"):
                val = a[len(n) + 1 :]
    return val


def wants_json(args: list[str]) -> bool:
    """``--json``, ``--format json``, ``--reporter=json`` and friends."""
    for i, a in enumerate(args):
        if a == "--":
            return False
        if a in ("--json", "--jsonl", "--ndjson") or a.startswith("--json="):
            return True
        if a.startswith(("--format", "--reporter", "--formatter", "-f", "-r", "--test-reporter", "--output-format")):
            val = a.split("=", 1)[1] if "=" in a else (args[i + 1] if i + 1 < len(args) else "")
            if "json" in val.lower():
                return True
    return False


def rel(path: str) -> str:
    """``/abs/cwd/src/a.ts`` -> ``src/a.ts`` when it lies under the current directory."""
    if path.startswith("file://"):
        path = path[7:]
    if not path.startswith("/"):
        return path
    try:
        cwd = os.getcwd()
    except OSError:
        return path
    if path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1 :]
    return path


def common_root(paths: list[str]) -> str:
    """The directory (ending in ``/``) shared by absolute ``paths``, or "" if they share none."""
    dirs = [p.rsplit("/", 1)[0] + "/" for p in paths if p.startswith("/")]
    if not dirs or len(dirs) != len(paths):
        return ""
    root = dirs[0]
    for d in dirs[1:]:
        while not d.startswith(root):
            root = root[:-1].rsplit("/", 1)[0] + "/"
    return root if root.count("/") > 2 else ""


def is_internal_frame(line: str) -> bool:
    """A stack frame inside node itself or a dependency, not the user's code."""
    s = line.strip()
    return (
        "node:internal" in s
        or "node_modules/" in s
        or "(node:" in s
        or s.startswith(("at node:", "node:", "at async Promise.all", "async Promise.all"))
        or s in ("at new Promise (<anonymous>)", "at processTicksAndRejections")
        or "(<anonymous>)" in s
    )


def is_frame(line: str) -> bool:
    s = line.strip()
    return s.startswith("at ") and ("(" in s or ":" in s)


def cap(items: list[str], limit: int, what: str, indent: str = "  ") -> tuple[list[str], int]:
    """At most ``limit`` items (all if only one more), then an exact ``+N more`` line."""
    if limit <= 0 or len(items) <= limit + 1:
        return items, 0
    n = len(items) - limit
    return [*items[:limit], f"{indent}+{n} more {what}"], n


def limit(key: str) -> int:
    return int(config.get(f"limits.{key}"))


def bounded_block(lines: list[str], max_lines: int) -> tuple[list[str], int]:
    """A failure block cut to ``max_lines`` lines, saying how many were left out."""
    if len(lines) <= max_lines + 1:
        return lines, 0
    n = len(lines) - max_lines
    return [*lines[:max_lines], f"    ... {n} more lines of this failure"], n


def peel(argv: list[str]) -> list[str] | None:
    """The tool command inside a launcher: ``npx -y tsc -p .`` -> ``["tsc", "-p", "."]``.

    Handles npx, ``npm exec``/``npm x``, ``pnpm exec``/``pnpm dlx``, ``yarn exec``,
    ``bunx``/``bun x``. Returns None if argv is not a launcher form or names no tool.
    """
    if not argv:
        return None
    tool = argv[0].rsplit("/", 1)[-1]
    rest = argv[1:]
    if tool in ("npm", "pnpm", "yarn", "bun") and rest and rest[0] in ("exec", "x", "dlx"):
        rest = rest[1:]
    elif tool not in ("npx", "bunx", "pnpx"):
        return None
    i = 0
    while i < len(rest):
        a = rest[i]
        if a == "--":
            i += 1
            break
        if a in ("-p", "--package", "-c", "--call", "-w", "--workspace", "--filter", "-F"):
            if a in ("-c", "--call"):
                return None  # a shell string: not a single tool
            i += 2
            continue
        if a.startswith("-"):
            i += 1
            continue
        break
    inner = rest[i:]
    if not inner or not inner[0]:
        return None
    word = inner[0]
    # npx package specs: "typescript@5" -> the binary name is not knowable; "@scope/pkg" idem.
    if "@" in word[1:] or word.startswith("@"):
        return None
    return inner


def delegate(inner: Spec, inner_argv: list[str], run_argv: list[str]) -> Spec:
    """Run ``run_argv`` (the launcher form) with the filter chosen for ``inner_argv``."""
    if inner.live:
        return Spec(inner.name, live=True, env=inner.env)
    if inner.stream is not None:
        factory = inner.stream

        def stream(argv: list[str]) -> LineFilter:
            return factory(inner_argv)

        return Spec(inner.name, stream=stream, run_argv=run_argv, env=inner.env, merge_stderr=inner.merge_stderr)
    func = inner.filter
    assert func is not None
    launcher = run_argv[0].rsplit("/", 1)[-1] if run_argv else ""

    def whole(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
        if launcher in ("npx", "npm") and "npm warn" in output:
            # npx's own config warnings are not the tool's output
            output = "".join(ln for ln in output.splitlines(keepends=True) if not ln.startswith("npm warn "))
        return func(inner_argv, output, exit_code)

    return Spec(inner.name, whole, run_argv=run_argv, env=inner.env, merge_stderr=inner.merge_stderr)


def lookup_inner(inner: list[str], run_argv: list[str]) -> Spec | None:
    """The registered filter for ``inner``, set up to run ``run_argv``; None if there is none."""
    from rtk import filters

    try:
        spec = filters.lookup(inner)
    except Exception:  # a broken filter module must not stop the command
        return None
    if spec is None:
        return None
    if spec.run_argv is not None and spec.run_argv != inner:
        return None  # the inner filter changes the command line: cannot apply it through a launcher
    return delegate(spec, inner, run_argv)


def split_command(cmd: str) -> list[str] | None:
    """A script line such as ``vitest run --coverage`` as argv; None if it uses shell syntax."""
    if any(c in cmd for c in "|&;<>$`(){}*?\\\"'\n"):
        return None
    words = cmd.split()
    i = 0
    while i < len(words) and "=" in words[i] and not words[i].startswith("-"):
        i += 1  # FOO=1 vitest run
    return words[i:] or None
