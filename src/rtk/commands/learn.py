"""``rtk learn``: commands that failed and were then corrected, as rules for the agent's instructions file.

``--write`` keeps the rules learnt from this project's own sessions (even with ``--all``),
listing each rule it adds, in a marked section of the instructions file
(``CLAUDE.md`` or ``AGENTS.md``): rules already there are not added again, the rest of
the file is never touched, and running it twice changes nothing the second time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rtk.commands import _history as H
from rtk.errors import RtkError
from rtk.history import Call, Problems, scan
from rtk.history import projects as _projects
from rtk.history.learn import Learner

BEGIN = "<!-- rtk learn: begin (maintained by `rtk learn --write`; edit freely, rules are never added twice) -->"
END = "<!-- rtk learn: end -->"
TITLE = "## Command corrections learned from past sessions"


def _parser() -> argparse.ArgumentParser:
    p = H.Parser(
        prog="rtk learn",
        description="Find commands that failed and were corrected right after (wrong flag, wrong path, missing"
        " subcommand...) in past agent sessions, and propose rules for the agent's instructions file.",
        epilog=H.PRIVACY_NOTE + ". Commands are shown with credentials masked.",
    )
    H.add_scope_flags(p)
    p.add_argument("--min-confidence", type=float, default=0.6, metavar="X", help="0..1 (default 0.6)")
    p.add_argument("--min-occurrences", type=int, default=1, metavar="N", help="default 1")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text")
    p.add_argument("--write", action="store_true", help="add the rules to the instructions file")
    p.add_argument(
        "--file",
        metavar="PATH",
        help="instructions file for --write (default: ./CLAUDE.md, or ./AGENTS.md if only it exists)",
    )
    return p


def instructions_file(explicit: str | None) -> str:
    if explicit:
        return explicit
    if not os.path.exists("CLAUDE.md") and os.path.exists("AGENTS.md"):
        return "AGENTS.md"
    return "CLAUDE.md"


def main(args: list[str]) -> int:
    ns = _parser().parse_args(args)
    if not 0.0 <= ns.min_confidence <= 1.0:
        _parser().error("--min-confidence must be between 0 and 1")
    sc = H.scope(ns)
    problems = Problems()
    learner = Learner()
    # --write only ever writes what this project's own sessions taught (never another project's paths).
    here = os.path.abspath(os.path.expanduser(ns.project)) if ns.project else os.getcwd()
    local = Learner() if ns.write and sc.project is None else learner
    for call in scan.calls(sc, problems):
        if isinstance(call, Call):
            learner.add(call)
            if local is not learner and _projects.under(call.cwd, here):
                local.add(call)
    rules = learner.report(ns.min_confidence, ns.min_occurrences)
    written: dict[str, Any] | None = None
    if ns.write:
        mine = [r["rule"] for r in local.report(ns.min_confidence, ns.min_occurrences)]
        written = write_rules(instructions_file(ns.file), mine)
        written["project"] = here
        written["rules"] = mine
        written["other_projects"] = len({r["rule"] for r in rules} - set(mine))
    if ns.format == "json":
        doc = {
            "scope": {"project": sc.project, "since": sc.since},
            "failures": learner.failures,
            "pairs": learner.pairs,
            "rules": rules,
            "written": written,
            "problems": problems.lines(50),
        }
        json.dump(doc, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render(learner, rules, sc, written))
    problems.print("learn")
    return 0


def render(learner: Learner, rules: list[dict[str, Any]], sc: scan.Scope, written: dict[str, Any] | None) -> str:
    out = [f"rtk learn ({H.scope_words(sc)})"]
    out.append(
        f"  {learner.failures} failed shell commands, {learner.pairs} followed by a correction;"
        f" {len(rules)} rule{'s' if len(rules) != 1 else ''} proposed"
    )
    for r in rules:
        out.append("")
        out.append(f"- {r['rule']}")
        out.append(f"    {r['kind']}, seen {r['occurrences']}x, confidence {r['confidence']:.2f}")
        out.append(f"    failed:    {r['failed']}")
        if r["error"]:
            out.append(f"    error:     {H.clip(r['error'], 100)}")
        out.append(f"    corrected: {r['corrected']}")
    if written is not None:
        out.append("")
        if written["added"]:
            out.append(f"added {written['added']} rule(s) to {written['file']} (section '{TITLE[3:]}'):")
            out += [f"  + {r}" for r in written["new"]]
        else:
            out.append(f"{written['file']}: nothing new to add")
        if written["other_projects"]:
            out.append(f"not written: {written['other_projects']} rule(s) learnt only from other projects' sessions"
                       f" (--write keeps to {written['project']})")  # fmt: skip
    elif rules:
        out.append("")
        out.append("add them to the agent's instructions file with: rtk learn --write [--file CLAUDE.md]")
    return "\n".join(out) + "\n"


def write_rules(path: str, rules: list[str]) -> dict[str, Any]:
    """Add ``rules`` missing from the marked section of ``path`` (created when absent)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as e:
        raise RtkError(f"learn: cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    lines = [f"- {r}" for r in rules]
    b, end = text.find(BEGIN), text.find(END)
    if b >= 0 and end > b:
        body = text[b + len(BEGIN) : end]
        have = {ln.strip() for ln in body.splitlines()}
        new = [ln for ln in lines if ln not in have]
        if not new:
            return {"file": path, "added": 0, "new": []}
        body = body.rstrip("\n") + "\n" + "\n".join(new) + "\n"
        text = text[: b + len(BEGIN)] + body + text[end:]
    else:
        new = lines
        if not new:
            return {"file": path, "added": 0, "new": []}
        sep = "" if not text else ("\n" if text.endswith("\n\n") else ("\n\n" if not text.endswith("\n") else "\n"))
        if text and not text.endswith("\n"):
            sep = "\n\n"
        text = text + sep + "\n".join([BEGIN, TITLE, "", *new, END]) + "\n"
    tmp = f"{path}.rtk-{os.getpid()}"
    try:
        from rtk import paths

        with os.fdopen(paths.create_new(tmp, 0o644), "w", encoding="utf-8") as f:  # never through a planted symlink
            f.write(text)
        os.replace(tmp, path)
    except OSError as err:
        raise RtkError(f"learn: cannot write {path}: {err.strerror or err}") from None
    return {"file": path, "added": len(new), "new": [ln[2:] for ln in new]}
