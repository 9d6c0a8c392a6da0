"""``rtk init``: set rtk up for coding agents (hooks, plugins, rules files), show it, or take it out again.

Every file edit is surgical and recorded (``rtk.agents._manifest``); ``--dry-run``
prints each change as a diff; ``--uninstall`` removes exactly what was written and
puts back the original bytes of files nobody changed since.
"""

from __future__ import annotations

import argparse
import os
import sys

from rtk.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agents._artifacts import Options, Scope
    from rtk.agents.registry import Integration

EPILOG = """\
agents: claude, vscode, copilot, cursor, gemini, codex, qwen, droid (hooks that rewrite commands),
        vibe (global hook that rewrites; Vibe keeps its own approval),
        opencode, pi (plugins), hermes (global plugin), cline, windsurf, kiro (rules files; --block adds a hook that
        refuses a command rtk can shorten and names the rtk form, one extra model turn each),
        kilocode, antigravity, trae, amp (instructions only: rules files, no hook).
Project scope (default) writes into the current directory; --global into your home.
Hooks approve a rewritten command only where your rules allow it: Claude Code's settings,
or [hooks] allow/ask/deny in rtk's config for the other agents (see docs/agents.md).
Uninstalling rtk: run rtk init --uninstall (per scope; --global for the user-wide set-up)
BEFORE pip uninstall, or the agents keep calling a command that no longer exists."""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rtk init", description=__doc__.split("\n")[0].replace("``", ""), epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    p.add_argument("--agent", "-a", action="append", default=[], metavar="NAME", help="agent to set up (repeatable)")
    scope = p.add_mutually_exclusive_group()
    scope.add_argument("--global", "-g", dest="is_global", action="store_true", help="user-wide (your home)")
    scope.add_argument("--project", metavar="DIR", help="project directory (default: the current one)")
    p.add_argument("--dry-run", "-n", action="store_true", help="print every change, write nothing")
    p.add_argument("--show", action="store_true", help="what is installed where, and whether it works")
    p.add_argument("--uninstall", action="store_true", help="remove what rtk init wrote (do this before pip uninstall)")
    p.add_argument("--block", action="store_true", help="cline/windsurf/kiro: also install the suggesting hook")
    p.add_argument("--yes", "-y", action="store_true", help="set up every detected agent without asking")
    return p


def main(args: list[str]) -> int:
    ns = parser().parse_args(args)
    from rtk.agents import registry

    unknown = [a for a in ns.agent if a not in registry.BY_NAME]
    if unknown:
        raise UsageError(f"init: unknown agent {unknown[0]!r} (known: {', '.join(registry.BY_NAME)})")
    from rtk.agents._artifacts import Scope

    root = os.path.abspath(ns.project or os.getcwd())
    if ns.project and not os.path.isdir(root):
        raise UsageError(f"init: {ns.project}: not a directory")
    scope = Scope(True, "") if ns.is_global else Scope(False, root)
    if ns.show:
        from rtk.commands.doctor import show

        return show(run=True)
    if ns.uninstall:
        return _uninstall(ns, scope)
    if not ns.is_global and _same_dir(root, os.path.expanduser("~")):
        raise UsageError(f"init: {root} is your home directory, not a project; use --global for a user-wide "
                         "set-up, or run rtk init in a project directory")  # fmt: skip
    chosen = [registry.BY_NAME[a] for a in dict.fromkeys(ns.agent)]
    if not chosen:
        chosen = _offer(ns, scope)
        if not chosen:
            return 0 if registry.detect() else 1
    return _install(chosen, scope, ns)


def _same_dir(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _offer(ns: argparse.Namespace, scope: Scope) -> list[Integration]:
    from rtk.agents import registry
    from rtk.agents._artifacts import Options
    from rtk.agents._install import say, short

    here = "global" if ns.is_global else "project"
    found = [(i, why) for i, why in registry.detect() if here in i.scopes]
    if not found:
        say("rtk init: no coding agent detected; choose one with --agent NAME "
              f"({', '.join(registry.BY_NAME)})")  # fmt: skip
        return []
    say("detected:")
    for integ, why in found:
        say(f"  {integ.name:<9} {integ.title} ({why})")
    where = "global (your home)" if scope.is_global else f"project {short(scope.root)}"
    say(f"scope: {where}{'' if scope.is_global else '; --global for a user-wide set-up'}; files it would write:")
    for integ, _ in found:
        paths = dict.fromkeys(short(a.path) for a in integ.artifacts(scope, Options(registry.rtk_command())))
        say(f"  {integ.name:<9} {', '.join(paths)}")
    names = " ".join(f"--agent {i.name}" for i, _ in found)
    if ns.yes:
        return [i for i, _ in found]
    if not sys.stdin.isatty():
        say(f"to set them up: rtk init {names}{' --global' if ns.is_global else ''}")
        return []
    try:
        scope_word = "globally" if scope.is_global else f"in {short(scope.root)}"
        answer = input(f"set up rtk for {', '.join(i.name for i, _ in found)} {scope_word}? [y/N] ")
    except EOFError:
        answer = ""
    return [i for i, _ in found] if answer.strip().lower() in ("y", "yes") else []


def _options(integ: Integration, ns: argparse.Namespace, command: str) -> Options:
    from rtk.agents._artifacts import Options
    from rtk.agents._install import say

    suggest = False
    if integ.name == "copilot":
        from rtk.agents.copilot import needs_suggest

        suggest = needs_suggest()
        if suggest:
            say("copilot: this Copilot CLI is older than 1.0.24 and ignores rewrites; its hook will deny "
                  "a command rtk can shorten and name the rtk form instead (re-run rtk init after upgrading)")  # fmt: skip
    return Options(command, block=ns.block, suggest=suggest)


def _install(chosen: list[Integration], scope: Scope, ns: argparse.Namespace) -> int:
    from rtk.agents import _install, registry
    from rtk.agents._install import say

    here = "global" if scope.is_global else "project"
    for i in chosen:
        if here not in i.scopes:
            raise UsageError(f"init: {i.title} cannot be set up {'globally' if scope.is_global else 'per project'}: "
                             f"{i.scope_note}")  # fmt: skip
    command = registry.rtk_command()
    if not registry.launcher():
        say(f"rtk init: no rtk launcher found for this Python; hooks will run {command}", err=True)
    items = [(i, scope, _options(i, ns, command)) for i in chosen]
    code = _install.install(items, dry_run=ns.dry_run)
    if code == 0 and not ns.dry_run:
        from rtk.agents._permline import sentence

        for i in chosen:
            line = sentence(i.name)
            if line:
                say(line)
    return code


def _uninstall(ns: argparse.Namespace, scope: Scope) -> int:
    from rtk.agents import _install, registry
    from rtk.agents._install import say
    from rtk.agents._manifest import Manifest

    if ns.agent:
        chosen = [registry.BY_NAME[a] for a in dict.fromkeys(ns.agent)]
    else:
        m = Manifest.load()
        label = scope.label
        names = [r["agent"] for r in m.installs.values() if (r["scope"] == "global") == scope.is_global
                 and (scope.is_global or r["root"] == label)]  # fmt: skip
        chosen = [registry.BY_NAME[n] for n in names if n in registry.BY_NAME]
        if not chosen:
            say(f"rtk init: nothing installed by rtk init here ({'global' if scope.is_global else label})")
            for line in _elsewhere(m, scope):
                say(line)
            return 0
    return _install.uninstall([(i, scope, None) for i in chosen], dry_run=ns.dry_run)


def _elsewhere(m: object, scope: Scope) -> list[str]:
    """The installations in the other scope(s), each with the exact command that removes it."""
    import shlex

    from rtk.agents._install import short

    installs: dict[str, dict[str, str]] = getattr(m, "installs", {})
    by_place: dict[str, list[str]] = {}
    for r in installs.values():
        glob = r["scope"] == "global"
        if glob == scope.is_global and (glob or r["root"] == scope.label):
            continue
        by_place.setdefault("" if glob else r["root"], []).append(r["agent"])
    out = []
    for root, agents in sorted(by_place.items()):
        flags = " ".join(f"--agent {a}" for a in sorted(set(agents)))
        if not root:
            out.append(f"  found a global installation ({', '.join(sorted(set(agents)))}); "
                       f"to remove it: rtk init --uninstall --global {flags}")  # fmt: skip
        else:
            out.append(f"  found a project installation in {short(root)} ({', '.join(sorted(set(agents)))}); "
                       f"to remove it: rtk init --uninstall --project {shlex.quote(root)} {flags}")  # fmt: skip
    return out
