"""Claude Code's settings files read into the rule lists of :class:`rtk.rewrite.permissions.Permissions`.

Imported only when a settings file changed; it imports nothing of rtk (``permissions`` builds the object).
"""

from __future__ import annotations

import json


def bash_pattern(entry: str) -> str | None:
    """``Bash(git push:*)`` -> ``git push:*``; ``Bash`` -> ``*``; other tools -> None."""
    e = entry.strip()
    if e == "Bash":
        return "*"
    if e.startswith("Bash(") and e.endswith(")"):
        inner = " ".join(e[5:-1].split())
        return inner or "*"
    return None


def parse(files: list[str]) -> tuple[list[str], list[str], list[str], str]:
    """The allow, ask and deny patterns of the files, and what was wrong with them ("" when nothing)."""
    allow: list[str] = []
    ask: list[str] = []
    deny: list[str] = []
    broken: list[str] = []
    for path in files:
        try:
            with open(path, "rb") as f:
                doc = json.loads(f.read().decode("utf-8-sig"))
        except (OSError, ValueError) as e:
            broken.append(f"{path}: {type(e).__name__}")
            continue
        for problem in check(doc):
            broken.append(f"{path}: {problem}")
        perms = doc.get("permissions") if isinstance(doc, dict) else None
        if not isinstance(perms, dict):
            continue
        for name, out in (("allow", allow), ("ask", ask), ("deny", deny)):
            entries = perms.get(name)
            if isinstance(entries, str) and name != "allow":
                entries = [entries]  # a malformed deny or ask still denies or asks
            if not isinstance(entries, list):
                continue
            for entry in entries:
                p = bash_pattern(entry) if isinstance(entry, str) else None
                if p is not None and not (name == "allow" and _empty(str(entry))):
                    out.append(p)
    return allow, ask, deny, "; ".join(broken)


def check(doc: object) -> list[str]:
    """Permission settings of an unexpected type in a parsed settings file, naming each key.

    Any of them makes the whole file "cannot be evaluated": nothing is auto-allowed.
    """
    if not isinstance(doc, dict):
        return [f"the file is a JSON {type(doc).__name__}, not an object"]
    perms = doc.get("permissions")
    if perms is None:
        return []
    if not isinstance(perms, dict):
        return [f"permissions is a {type(perms).__name__}, not an object"]
    out: list[str] = []
    for name in ("allow", "ask", "deny"):
        if name not in perms:
            continue
        entries = perms[name]
        if not isinstance(entries, list):
            out.append(f"permissions.{name} is a {type(entries).__name__}, not a list")
        elif not all(isinstance(e, str) for e in entries):
            out.append(f"permissions.{name} holds an entry that is not a string")
    return out


def _empty(entry: str) -> bool:
    """``Bash()``: Claude Code needs text in a rule's parentheses, so this is no rule for Bash commands
    (in an allow list it approves nothing; in deny or ask, ``bash_pattern``'s ``*`` refuses more, never less)."""
    e = entry.strip()
    return e.startswith("Bash(") and e.endswith(")") and not e[5:-1].strip()
