"""``rtk hook check [--agent NAME] <command>``: a dry run of the hook decision, through the real decision path."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from rtk.agents._status import sample_payload
from rtk.hook import ADAPTERS, Context, run

USAGE = "usage: rtk hook check [--agent NAME [--block|--suggest]] [--json] <command line>"
HELP = f"""\
{USAGE}

Shows what the hook does with one command, without running it: the rtk form the
rewrite engine gives it, the permission verdict and its reason. With --agent, a
tool call in that agent's own JSON shape goes through `rtk hook NAME` in this
process, and the answer the agent would receive is printed as well; --block and
--suggest are passed to the hook as they are in its registered command.

exit codes: 0 the command is rewritten (and, with --agent, the answer carries it),
            1 it runs unchanged, 2 bad usage.
Permission rules are read from the current directory's settings, as the hook does."""


def main(args: list[str]) -> int:
    agent: str | None = None
    as_json = False
    flags: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-h", "--help"):
            print(HELP)
            return 0
        if a == "--json":
            as_json = True
        elif a in ("--block", "--suggest"):
            flags.append(a)
        elif a in ("--agent", "-a"):
            if i + 1 >= len(args):
                return _usage("--agent needs a name")
            i += 1
            agent = args[i]
        elif a.startswith("--agent="):
            agent = a.split("=", 1)[1]
        elif a == "--":
            i += 1
            break
        else:
            break
        i += 1
    rest = args[i:]
    if not rest:
        return _usage("no command given")
    line = rest[0] if len(rest) == 1 else " ".join(rest)
    if agent is not None and agent not in ADAPTERS:
        return _usage(f"unknown agent {agent!r} (known: {', '.join(sorted(ADAPTERS))})")
    cwd = os.getcwd()
    d = Context(agent or "claude", []).decide(line, cwd)
    report: dict[str, Any] = {"command": line, "rewritten": d.rewritten, "verdict": d.verdict, "reason": d.reason}
    applied = d.rewritten is not None
    if agent is not None:
        answer = _ask(agent, flags, line, cwd)
        report["agent"] = agent
        report["answer"] = answer
        from rtk.agents._permline import sentence

        report["rules"] = sentence(agent, cwd)
        applied = applied and _carries(answer, d.rewritten)
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print(report, applied)
    return 0 if applied else 1


def _ask(agent: str, flags: list[str], line: str, cwd: str) -> dict[str, Any]:
    """The hook's answer to a tool call of ``line`` in ``agent``'s shape."""
    payload = sample_payload(agent, cwd, line)
    out, err, code = run(agent, flags, json.dumps(payload).encode())
    text = out.decode("utf-8", "replace").strip()
    try:
        doc: object = json.loads(text) if text else None
    except ValueError:
        doc = text
    return {"stdout": doc, "stderr": err.decode("utf-8", "replace").strip(), "exit": code}


def _carries(answer: object, rewritten: str | None) -> bool:
    """Whether ``rewritten`` appears in the answer, also inside JSON-encoded strings (Copilot's toolArgs)."""
    if rewritten is None:
        return False
    if isinstance(answer, str):
        if rewritten in answer:
            return True
        if answer.startswith("{"):
            try:
                return _carries(json.loads(answer), rewritten)
            except ValueError:
                return False
        return False
    if isinstance(answer, dict):
        return any(_carries(v, rewritten) for v in answer.values())
    if isinstance(answer, list):
        return any(_carries(v, rewritten) for v in answer)
    return False


def _print(report: dict[str, Any], applied: bool) -> None:
    if report["rewritten"] is None:
        print(f"No rewrite for: {report['command']}")
    else:
        print(f"{report['command']}\n  -> {report['rewritten']}")
    print(f"  verdict: {report['verdict']} ({report['reason']})")
    answer = report.get("answer")
    if answer is None:
        return
    out = answer["stdout"]
    shown = json.dumps(out, ensure_ascii=False) if isinstance(out, (dict, list)) else (out or "(nothing)")
    print(f"  {report['agent']} hook answers (exit {answer['exit']}): {shown}")
    if answer["stderr"]:
        print(f"  stderr: {answer['stderr']}")
    if report["rewritten"] is not None and not applied:
        print(f"  the {report['agent']} hook leaves the command unchanged for this verdict")
    if report["rules"]:
        print(f"  {report['rules']}")


def _usage(msg: str) -> int:
    print(f"rtk hook check: {msg}\n{USAGE}", file=sys.stderr)
    return 2
