"""``rtk rewrite "<command line>"``: print the rtk form of a command; the exit code is the verdict."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.rewrite.engine import Decision

HELP = """\
usage: rtk rewrite [--json] [--host opencode] "<command line>"

Print the command line with rtk put in front of every command rtk can shorten
(git status -> rtk git status; compound lines segment by segment). Everything
else on the line is kept byte for byte. Hooks of coding agents call this.

exit codes (the contract):
  0  rewritten, and the agent's allow rules cover every segment: run it unprompted
  1  nothing to rewrite (or bad input): run the original; nothing is printed
  2  a deny rule matches: nothing is printed; the host's own deny applies
  3  rewritten, but the user should be asked as usual (no allow rule, an ask rule,
     or a construct that cannot be checked: $(...), backticks, output to a file)
The rewritten line is printed for 0 and 3.

  --json   print {"rewritten": str|null, "verdict": "allow"|"ask"|"deny"|"none",
           "reason": str, "exit": n} and exit 0 (exit 1 for bad input)
  --host opencode   (OpenCode's plugin) no rewrite when OpenCode's own permission
           patterns (opencode.json "permission" -> "bash") would treat the
           rewritten line more permissively than the original (git push under
           "git push*": "ask" stays git push)

Permission rules are the Bash(...) entries of Claude Code's settings files
(.claude/settings.json, .claude/settings.local.json, ~/.claude/settings.json...).
hooks.exclude_commands in rtk's config lists commands never rewritten
("git rebase", or "^regex"); RTK_DISABLED=1 turns rewriting off."""


def main(args: list[str]) -> int:
    try:
        return _main(args)
    except Exception:  # never a traceback for a hook: no rewrite
        return 1


def _main(args: list[str]) -> int:
    as_json = False
    host = ""
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-h", "--help"):
            _write(HELP)
            return 0
        if a == "--json":
            as_json = True
        elif a == "--host" and i + 1 < len(args):
            host = args[i + 1]
            i += 1
        elif a == "--":
            i += 1
            break
        else:
            break
        i += 1
    rest = args[i:]
    if not rest:
        if not args:
            print('usage: rtk rewrite [--json] "<command line>"', file=sys.stderr)
        return 1
    line = rest[0] if len(rest) == 1 else " ".join(rest)
    from rtk.rewrite.engine import _bad_input, decide
    from rtk.rewrite.launch import current

    if _bad_input(line):
        return 1
    d = decide(line, launch=current())
    if host == "opencode" and d.rewritten is not None:
        d = _opencode(line, d)
    if as_json:
        import json

        doc = {"rewritten": d.rewritten, "verdict": d.verdict, "reason": d.reason, "exit": d.exit_code}
        _write(json.dumps(doc))
        return 0
    if d.rewritten is not None:
        _write(d.rewritten)
    return d.exit_code


def _opencode(line: str, d: Decision) -> Decision:
    """``d``, or no rewrite when OpenCode's own bash patterns would treat the rewritten line more permissively."""
    from rtk.rewrite import opencodeperms
    from rtk.rewrite.engine import Decision
    from rtk.shell.segments import parse

    new = d.rewritten or ""
    old_segs, new_segs = parse(line).segments(), parse(new).segments()
    if len(old_segs) != len(new_segs):
        return Decision(None, "none", "OpenCode: the rewritten line splits differently: kept as written")
    pairs = [(line.strip(), new.strip())]
    pairs += [
        (line[a.start : a.end].strip(), new[b.start : b.end].strip()) for a, b in zip(old_segs, new_segs, strict=True)
    ]
    try:
        why = opencodeperms.widens(pairs, opencodeperms.rule_sets(os.getcwd()))
    except opencodeperms.Broken as e:
        why = f"OpenCode's config cannot be judged ({e})"
    return Decision(None, "none", f"{why}: kept as written") if why else d


def _write(text: str) -> None:
    try:
        sys.stdout.buffer.write((text + "\n").encode("utf-8", "surrogateescape"))
        sys.stdout.flush()
    except BrokenPipeError:
        pass
