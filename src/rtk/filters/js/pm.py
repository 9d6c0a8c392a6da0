"""Filters for JS package managers: npm, npx, pnpm, yarn, bun (install, scripts, ls/outdated, launchers).

``npx tool`` / ``pnpm exec tool`` / ``bun x tool`` use the tool's own filter when one is
registered and run untouched otherwise. ``npm run <script>`` reads the script from
package.json: dev servers and watchers run live; a script whose command has a filter
(``tsc``, ``vitest run``...) gets that filter on the script's output.
"""

from __future__ import annotations

import os

from rtk.filterapi import Spec
from rtk.filters.js.common import has_flag, lookup_inner, peel, split_command, wants_json

COMMANDS = ("bun", "npm", "npx", "pnpm", "yarn")

_HELP = ("--help", "-h", "--version", "-v", "-V", "--usage")
# Options taking a value that may come before the subcommand.
_VALUE_OPTS = frozenset(
    ("--prefix", "-C", "--dir", "-w", "--workspace", "--filter", "-F", "--cwd", "--loglevel", "--registry", "--cache")
)
_INSTALL = frozenset(("install", "i", "ci", "clean-install", "ic", "install-clean", "add", "isntall"))
_RUN = frozenset(("run", "run-script", "rum", "urn"))
_TEST = frozenset(("test", "t", "tst"))
_START = frozenset(("start", "restart", "serve", "dev"))
_LS = frozenset(("ls", "list", "ll", "la"))
# Script names that mean a long-running process.
_LIVE_SCRIPTS = frozenset(("dev", "start", "serve", "watch", "preview", "storybook", "develop"))
_LIVE_WORDS = (
    "--watch", " -w", "watch ", "nodemon", "next dev", "next start", "vite preview", "webpack serve",
    "webpack-dev-server", "http-server", "live-server", "serve ", "storybook dev", "astro dev", "nuxt dev",
    "remix dev", "tsx watch", "ts-node-dev", "concurrently", "pm2 ", "expo start", "react-scripts start",
)  # fmt: skip


def _split(args: list[str]) -> tuple[str | None, list[str]]:
    """Skip options before the subcommand; return (subcommand, its args)."""
    i = 0
    while i < len(args):
        a = args[i]
        if a in _VALUE_OPTS:
            i += 2
            continue
        if a.startswith("-"):
            i += 1
            continue
        return a, args[i + 1 :]
    return None, []


def select(argv: list[str]) -> Spec | None:
    tool = argv[0].rsplit("/", 1)[-1]
    args = argv[1:]
    if tool == "npx":
        inner = peel(argv)
        return lookup_inner(inner, argv) if inner else None
    sub, rest = _split(args)
    own = args[: len(args) - len(rest)]  # the package manager's options and the subcommand
    if has_flag(own, *_HELP) or wants_json(own) or has_flag(own, "--parseable", "-p", "--silent", "-s"):
        return None
    if sub not in _RUN and sub not in _TEST and sub not in ("exec", "x", "dlx") and tool not in ("pnpm", "yarn", "bun"):
        if has_flag(rest, *_HELP) or wants_json(rest) or has_flag(rest, "--parseable", "-p", "--silent", "-s"):
            return None
    elif sub in _INSTALL | _LS | {"outdated"} and (wants_json(rest) or has_flag(rest, "--parseable", "--help", "-h")):
        return None
    if tool == "yarn" and sub is None:
        sub = "install"  # a bare `yarn` installs
    if sub is None:
        return None
    if (sub in ("exec", "x", "dlx") and tool != "yarn") or (tool == "yarn" and sub == "exec"):
        inner = peel(argv)
        return lookup_inner(inner, argv) if inner else None
    if sub in _INSTALL or (tool in ("pnpm", "yarn", "bun") and sub in ("add", "update", "up", "upgrade")):
        from rtk.filters.js import packages as _jspkg

        return Spec(f"{tool}-install", _jspkg.install)
    if sub in _LS and tool in ("npm", "pnpm"):
        from rtk.filters.js import packages as _jspkg

        return Spec(f"{tool}-list", _jspkg.listing)
    if sub == "outdated" and tool in ("npm", "pnpm"):
        from rtk.filters.js import packages as _jspkg

        return Spec(f"{tool}-outdated", _jspkg.outdated)
    if tool == "bun" and sub == "test":
        if has_flag(rest, "--watch", "--hot"):
            return Spec("bun-test", live=True)
        if has_flag(rest, "--reporter", "--coverage", "--only-failures"):
            return None
        from rtk.filters.js import reporters as _jsrunners

        return Spec("bun-test", _jsrunners.bun_test)
    if sub in _RUN:
        words = [a for a in rest if not a.startswith("-")]
        if not words:
            return None  # `npm run` lists the scripts
        return _script_spec(tool, words[0], rest)
    if sub in _TEST:
        return _script_spec(tool, "test", rest)
    if sub in _START:
        return Spec(f"{tool}-run", live=True)
    if tool in ("pnpm", "yarn", "bun"):
        # `pnpm lint` / `yarn build` run a script of that name, else a local binary.
        scripts = _scripts()
        if scripts is not None and sub in scripts:
            return _script_spec(tool, sub, rest)
        if tool in ("pnpm", "yarn"):
            i = argv.index(sub)
            return lookup_inner(argv[i:], argv)
    return None


def _script_spec(tool: str, name: str, rest: list[str]) -> Spec:
    if name in _LIVE_SCRIPTS or has_flag(rest, "--watch", "-w"):
        return Spec(f"{tool}-run", live=True)
    scripts = _scripts()
    cmd = scripts.get(name) if scripts else None
    if cmd is not None and _is_live(cmd):
        return Spec(f"{tool}-run", live=True)
    from rtk.filters.js import packages as _jspkg

    return Spec(f"{tool}-run", _jspkg.run_script)


_depth = 0


def _is_live(cmd: str) -> bool:
    global _depth
    if _depth > 3:
        return False  # scripts calling scripts calling scripts: stop looking
    _depth += 1
    try:
        return _live_command(cmd)
    finally:
        _depth -= 1


def _live_command(cmd: str) -> bool:
    padded = f" {cmd} "
    if any(w in padded for w in _LIVE_WORDS):
        return True
    for part in cmd.replace("&&", ";").replace("||", ";").replace("|", ";").split(";"):
        inner = split_command(part.strip())
        if not inner:
            continue
        if inner[0] == "vite" and (
            len(inner) == 1 or inner[1] in ("dev", "serve", "preview") or inner[1].startswith("-")
        ):
            return True
        spec = lookup_inner(inner, inner)
        if spec is not None and spec.live:
            return True
    return False


def _scripts() -> dict[str, str] | None:
    """``scripts`` of the nearest package.json (as npm finds it), or None."""
    d = os.getcwd()
    while True:
        path = os.path.join(d, "package.json")
        if os.path.isfile(path):
            import json

            try:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
            except (OSError, ValueError):
                return None
            scripts = data.get("scripts") if isinstance(data, dict) else None
            if not isinstance(scripts, dict):
                return {}
            return {str(k): str(v) for k, v in scripts.items()}
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
