"""Correction pairs: a shell command that failed, then shortly after a corrected one that worked.

A pair is a failed call ``A`` followed, within :data:`WINDOW` shell calls of the same
transcript and after ``A``'s result came back, by a call ``B`` of the same tool that
did not fail and differs from ``A`` (re-running ``A`` unchanged after editing code is not a
correction). The error text of ``A`` gives the kind of mistake; the words that changed
from ``A`` to ``B`` give the rule. ``grep``/``rg``/``diff``-style exit 1 ("no match",
"differences") is not a failure, and calls that never ran are skipped.

Confidence (0..1): 0.3, +0.3 when the error text says what kind of mistake it was, +0.2
when the error names the word that changed or ``A`` and ``B`` share most words, +0.1
when exactly one word changed. A failure that the same command, re-run unchanged,
later passed is closed (the code changed, not the command).
"""

from __future__ import annotations

import re

from rtk.history import Call
from rtk.history import segments as _segments
from rtk.tracking import mask_command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

WINDOW = 5
EXIT1_OK = frozenset(("grep", "rg", "egrep", "fgrep", "diff", "cmp", "test", "[", "git diff", "ag", "ack"))

KINDS: list[tuple[str, re.Pattern[str]]] = [
    (
        "command-not-found",
        re.compile(r"(?i)command not found|not found in \$?PATH|No such file or directory.*exec|: not found$"),
    ),
    (
        "unknown-flag",
        re.compile(
            r"(?i)unknown (?:option|flag|argument|switch)|unrecognized (?:option|argument|arguments)|invalid option"
            r"|unexpected argument|illegal option|no such option|unknown shorthand flag|is not a valid option"
        ),
    ),
    (
        "wrong-path",
        re.compile(
            r"(?i)no such file or directory|cannot access|does not exist|no matches found|not a directory"
            r"|did not match any file|cannot find the path|ENOENT|pathspec .* did not match|cannot open"
        ),
    ),
    ("permission-denied", re.compile(r"(?i)permission denied|EACCES|operation not permitted")),
    (
        "missing-argument",
        re.compile(
            r"(?i)requires an argument|missing (?:required )?(?:argument|operand)|the following arguments are required"
            r"|expected \S+ argument|argument required|usage:"
        ),
    ),
    (
        "unknown-subcommand",
        re.compile(r"(?i)unknown (?:sub)?command|is not a \S+ command|invalid choice|no such command"),
    ),
]


def error_kind(text: str, exit_code: int | None) -> str:
    for kind, rx in KINDS:
        if rx.search(text):
            return kind
    if exit_code == 127:
        return "command-not-found"
    return ""


class _Failed:
    __slots__ = ("argv", "call", "index", "kind", "tool")

    def __init__(self, call: Call, index: int, tool: str, argv: list[str], kind: str) -> None:
        self.call = call
        self.index = index
        self.tool = tool
        self.argv = argv
        self.kind = kind


def _main_argv(command: str) -> tuple[str, list[str]]:
    """The tool and argv of the first real command of a line (``cd x && git log`` -> git)."""
    for s in _segments.of(command):
        if s.role != "ignored" or s.tool not in ("cd", "export", "source", ".", "set", "echo"):
            return s.tool, s.argv
    return "", []


def _failed(call: Call, tool: str) -> bool:
    if call.failed is not True:
        return False
    return not (call.exit_code == 1 and tool in EXIT1_OK)


class Learner:
    """Collects correction pairs from calls fed in file order; memory: a few calls per file."""

    def __init__(self) -> None:
        self._file = ""
        self._index = 0
        self._open: list[_Failed] = []
        self.rules: dict[tuple[str, str, str, str], dict[str, Any]] = {}
        self.pairs = 0
        self.failures = 0

    def add(self, call: Call) -> None:
        if call.kind != "shell" or call.cancelled:
            return
        if call.file != self._file:
            self._file = call.file
            self._index = 0
            self._open = []
        self._index += 1
        tool, argv = _main_argv(call.command)
        if not tool:
            return
        self._open = [f for f in self._open if self._index - f.index <= WINDOW]
        if _failed(call, tool):
            self.failures += 1
            kind = error_kind(call.error_head, call.exit_code)
            # a second failure of the same tool replaces the first: the later one is what B corrects
            self._open = [f for f in self._open if f.tool != tool]
            self._open.append(_Failed(call, self._index, tool, argv, kind))
            return
        if call.failed is None:
            return  # unknown outcome: neither a correction nor a failure
        self._open = [f for f in self._open if f.argv != argv]  # passed unchanged: not a command mistake
        for f in self._open:
            if call.ts and f.call.end_ts and call.ts < f.call.end_ts:
                continue  # issued in parallel with the failure, not after it
            same_tool = f.tool == tool
            if not same_tool and f.kind != "command-not-found":
                continue
            self._pair(f, call, tool, argv)
            self._open.remove(f)
            return

    def _pair(self, f: _Failed, good: Call, tool: str, argv: list[str]) -> None:
        self.pairs += 1
        bad = f.argv
        removed = [w for w in bad if w not in argv]
        added = [w for w in argv if w not in bad]
        common = len(set(bad) & set(argv))
        similar = common / max(len(set(bad) | set(argv)), 1)
        err = f.call.error_head
        named = [w for w in removed if len(w) > 1 and w in err]
        kind = f.kind or "other"
        if named and kind in ("wrong-path", "unknown-flag", "unknown-subcommand"):
            # The error names the bad word(s): the rule is about them alone.
            if kind == "wrong-path":
                removed = named[:2]
                added = [w for w in added if ("/" in w or "." in w) and not w.startswith("-")][:2] or added[:1]
            else:
                removed = named[:2]
                flags = [w for w in added if w.startswith("-")] if kind == "unknown-flag" else added
                added = flags[:2]
        conf = 0.3 + (0.3 if f.kind else 0.0) + (0.2 if similar >= 0.5 or named else 0.0)
        if len(removed) == 1 and len(added) == 1:
            conf += 0.1
        if f.tool != tool:
            kind = "command-not-found"
            text = f"`{f.tool}` is not available here; use `{tool}` instead (e.g. `{_show(argv)}`)"
            key = (kind, f.tool, tool, "")
        elif removed and not added and kind in ("unknown-flag", "unknown-subcommand"):
            was = " ".join(removed)
            text = f"`{tool}` does not accept `{_show(removed)}`; leave it out"
            key = (kind, tool, was, "")
        elif removed and added and len(removed) <= 2 and len(added) <= 2:
            was, now = " ".join(removed), " ".join(added)
            if kind == "wrong-path":
                text = f"`{tool}`: `{_show(removed)}` does not exist; use `{_show(added)}`"
            elif kind in ("unknown-flag", "unknown-subcommand"):
                text = f"`{tool}` does not accept `{_show(removed)}`; use `{_show(added)}`"
            elif named and kind == "wrong-path":
                text = f"`{tool}`: `{_show(removed)}` does not exist; use `{_show(added)}`"
            else:
                text = f"`{tool}`: use `{_show(added)}`, not `{_show(removed)}` (e.g. `{_show(argv)}`)"
            key = (kind, tool, was, now)
        elif added and not removed and kind in ("missing-argument", "unknown-subcommand", "other"):
            text = f"`{_show(bad)}` is incomplete; run `{_show(argv)}`"
            key = (kind, tool, _show(bad), _show(argv))
        else:
            text = f"instead of `{_show(bad)}`, run `{_show(argv)}`"
            key = (kind, tool, _show(bad), _show(argv))
        r = self.rules.get(key)
        if r is None:
            r = self.rules[key] = {
                "kind": kind,
                "tool": tool,
                "rule": text,
                "occurrences": 0,
                "confidence": 0.0,
                "failed": _show(bad),
                "corrected": _show(argv),
                "error": _error_line(f.call.error_head),
                "last": "",
            }
        r["occurrences"] += 1
        r["confidence"] = round(min(1.0, max(r["confidence"], conf) + 0.05 * (r["occurrences"] - 1)), 2)
        r["last"] = max(r["last"], good.ts)

    def report(self, min_confidence: float = 0.6, min_occurrences: int = 1) -> list[dict[str, Any]]:
        rules = [
            r for r in self.rules.values() if r["confidence"] >= min_confidence and r["occurrences"] >= min_occurrences
        ]
        rules.sort(key=lambda r: (-r["occurrences"], -r["confidence"], r["rule"]))
        return rules


def _show(argv: list[str]) -> str:
    from rtk.text import join

    s = mask_command(join(argv))
    return s if len(s) <= 120 else s[:119] + "…"


def _error_line(text: str) -> str:
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("Exit code", "Error: Exit code", ">")):
            return mask_command(line[:160])
    return ""
