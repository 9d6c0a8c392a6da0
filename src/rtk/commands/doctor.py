"""``rtk doctor``: for each detected agent, is the hook registered, does its command exist and run, a round trip; and permission settings that cannot be evaluated."""

from __future__ import annotations

import argparse
import os

USAGE = "rtk doctor [--agent NAME]..."


def show(run: bool = True) -> int:
    """``rtk init --show``: every install, the state of each part, the hook command and a round trip."""
    from rtk.agents import _status

    reps = _status.reports()
    if not reps:
        print("nothing installed by rtk init (rtk init --agent NAME sets an agent up)")
    for r in reps:
        where = "global" if r.rec["scope"] == "global" else r.rec["root"]
        print(f"{r.integ.name} ({r.integ.title}), {where}: installed by rtk {r.rec['rtk_version']} on {r.rec['at']}")
        for line in _status.describe_parts(r.parts):
            print("  " + line)
        for line in r.check_command(run):
            print(line)
        for p in r.problems:
            print(f"  ! {p}")
    bad = [r for r in reps if r.problems]
    if bad:
        agents = " ".join(f"--agent {r.integ.name}" for r in bad)
        print(f"to repair: rtk init {agents} (per scope; add --global for global installs)")
    return 1 if bad else 0


def main(args: list[str]) -> int:
    p = argparse.ArgumentParser(prog="rtk doctor", description=__doc__)
    p.add_argument("--agent", "-a", action="append", default=[], metavar="NAME")
    ns = p.parse_args(args)
    from rtk.agents import _install, _status, registry
    from rtk.agents._permline import sentence
    from rtk.errors import UsageError

    for a in ns.agent:
        if a not in registry.BY_NAME:
            raise UsageError(f"doctor: unknown agent {a!r} (known: {', '.join(registry.BY_NAME)})")
    reps = _status.reports()
    installed = {r.integ.name for r in reps}
    wanted = set(ns.agent) or {i.name for i, _ in registry.detect()} | installed
    failed = 0
    for integ in registry.INTEGRATIONS:
        if integ.name not in wanted:
            continue
        why = integ.detected()
        mine = [r for r in reps if r.integ.name == integ.name]
        print(f"{integ.name} ({integ.title}): {'detected, ' + why if why else 'not detected'}")
        if not mine:
            found = _status.unrecorded_hooks(integ, os.getcwd())
            if not found:
                print(f"  hook registered: no (rtk init --agent {integ.name} [--global] sets it up)")
                failed += bool(ns.agent)
            for path, cmd in found:
                why = _status.command_problem(cmd) if cmd and cmd != path else ""
                print(f"  hook registered: yes, not recorded by rtk init ({_install.short(path)})")
                print(f"  command  {cmd or '(unreadable)'}: {why or 'exists'}")
                if why:
                    print(f"    ! the agent runs a command that no longer exists; rtk init --agent {integ.name} "
                          "[--global] rewrites it, or remove the entry by hand")  # fmt: skip
                    failed += 1
            continue
        for r in mine:
            where = "global" if r.rec["scope"] == "global" else r.rec["root"]
            kind = {"hook": "hook", "plugin": "plugin", "rules": "rules file"}[integ.kind]
            print(f"  {kind} registered: yes ({where}, rtk {r.rec['rtk_version']})")
            for line in _status.describe_parts(r.parts):
                print("    " + line)
            for line in r.check_command(run=True):
                print("  " + line)
            for prob in r.problems:
                print(f"    ! {prob}")
            failed += bool(r.problems)
        line = sentence(integ.name)
        if line:
            print(f"  {line}")
    if not wanted:
        print("no coding agent detected and nothing installed (rtk init --agent NAME)")
    bad = permission_problems()
    if bad:
        print("permission settings that cannot be evaluated (nothing is auto-allowed while they stand):")
        for line in bad:
            print(f"  ! {line}")
        failed += 1
    return 1 if failed else 0


def permission_problems(cwd: str | None = None) -> list[str]:
    """Claude Code settings files and rtk ``[hooks]`` keys the permission check cannot use, each naming the key."""
    import json

    from rtk import config
    from rtk.rewrite import permissions
    from rtk.rewrite.permissions import permission_problem

    out: list[str] = []
    for path in permissions.sources(cwd):
        if not os.path.exists(path):
            continue
        try:
            with open(path, "rb") as f:
                doc = json.loads(f.read().decode("utf-8-sig"))
        except (OSError, ValueError) as e:
            out.append(f"{path}: cannot be read as JSON ({type(e).__name__})")
            continue
        out += [f"{path}: {p}" for p in permissions.check(doc)]
    from rtk.rewrite import hostperms

    for agent in sorted(hostperms.READS_HOST):
        broken = hostperms.host_rules(agent, cwd).broken
        out += broken.split("; ") if broken else []
    return out + [p.removeprefix("rtk: config ") for p in config.problems() if permission_problem(p)]
