"""Filter for rubocop's default (progress) output, also with ``-a``/``-A`` and under ``bundle exec``.

Offenses of one cop with the same severity, mark (``[Correctable]``, ``[Corrected]``) and
message become one line, followed by every location of that offense per file
(``  app/x.rb: 3:5 7:1``): each file, line and column is kept. An offense met once
keeps its own line as rubocop printed it. Message lines printed between the offense line
and the echoed source (Lint/Syntax's ``(Using Ruby 2.6 parser; ...)``) are part of the message. The echoed source and caret lines, the
``Inspecting N files`` line, the progress row and the ``Offenses:`` header go; the
``N files inspected, ...`` summary, warnings and errors stay. Output without that
summary prints raw; other formatters (``-f``/``--format``), listings and config
generation run unfiltered.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized

COMMANDS = ("rubocop",)

_RAW = (
    "-f", "--format", "-o", "--out", "-L", "--list-target-files", "--show-cops", "--show-docs-url",
    "--auto-gen-config", "--regenerate-todo", "-h", "--help", "-v", "--version", "-V", "--verbose-version",
    "--init", "--lsp", "--server", "--start-server", "--stop-server", "--restart-server", "--server-status",
    "-s", "--stdin", "--profile",
)  # fmt: skip
_OFFENSE = re.compile(r"^(?P<file>\S.*?):(?P<line>\d+):(?P<col>\d+): (?P<sev>[CWEFRI]): (?P<rest>.*)$")
_SUMMARY = re.compile(r"^\d+ files? inspected, ")
_INSPECTING = re.compile(r"^Inspecting \d+ files?$")
_PROGRESS = re.compile(r"^[.CWEFRI]+$")
_CARETS = re.compile(r"^\s*\^+\s*$")


def select(argv: list[str]) -> Spec | None:
    for a in argv[1:]:
        if a == "--":
            break
        name = a.split("=", 1)[0]
        if name in _RAW or (a.startswith("-f") and not a.startswith("--") and len(a) > 2):
            return None
    return Spec("rubocop", rubocop)


class _Group:
    """One offense text (severity, mark such as ``[Correctable]``, cop, message): its locations in order, per file."""

    __slots__ = ("first", "head", "moved", "places")

    def __init__(self, first: str, head: str) -> None:
        self.first = first  # the offense line as printed, for a group of one
        self.head = head  # "C: [Correctable] Style/X: message"
        self.places: dict[str, list[str]] = {}
        self.moved: dict[str, str] = {}  # each offense line -> its location prefix ("app/x.rb:3:5:")

    def count(self) -> int:
        return sum(len(v) for v in self.places.values())


def rubocop(argv: list[str], output: str, exit_code: int) -> Filtered:
    lines = output.splitlines()
    if not any(_SUMMARY.match(ln) for ln in lines):
        raise Unrecognized("no rubocop summary line")
    out: list[str] = []  # lines before the offenses (warnings) and after them (errors, summary)
    groups: dict[str, _Group] = {}
    order: list[str | _Group] = []  # kept lines and groups, in the order first met
    pending: tuple[str, re.Match[str]] | None = None  # the offense line whose following lines are being read
    block: list[str] = []  # the lines after it: more message lines, then the echoed source and its carets

    def close() -> None:
        # Lines before the echoed source line (the one over the carets) continue the message:
        # Lint/Syntax's "(Using Ruby 2.6 parser; configure using TargetRubyVersion ...)".
        assert pending is not None
        ln, m = pending
        carets = [i for i, x in enumerate(block) if _CARETS.match(x)]
        more = block[: carets[-1] - 1] if carets and carets[-1] >= 1 else []
        head = "\n".join([f"{m.group('sev')}: {m.group('rest')}", *more])
        g = groups.get(head)
        if g is None:
            g = groups[head] = _Group("\n".join([ln, *more]), head)
            order.append(g)
        g.places.setdefault(m.group("file"), []).append(f"{m.group('line')}:{m.group('col')}")
        g.moved[ln] = ln[: m.end("col") + 1]

    for ln in lines:
        m = _OFFENSE.match(ln)
        if pending is not None and (m or _SUMMARY.match(ln) or not ln.strip()):
            close()
            pending, block = None, []
        if m:
            # Without --display-cop-names (rubocop < 0.52 default) the message alone is the key.
            pending = (ln, m)
            continue
        if pending is not None:
            block.append(ln)
            continue
        if _INSPECTING.match(ln) or _PROGRESS.match(ln) or ln == "Offenses:":
            continue
        order.append(ln)
    if pending is not None:
        close()
    moved: dict[str, str] = {}  # the regrouped offense lines, reported to the fact guard (Filtered.moved)
    for item in order:
        if isinstance(item, str):
            out.append(item)
        elif item.count() == 1:
            out.append(item.first)
        else:
            out.append(f"{item.head} ({item.count()} offenses)")
            out.extend(f"  {f}: {' '.join(places)}" for f, places in item.places.items())
            moved.update(item.moved)
    text = "\n".join(out).strip("\n")
    while "\n\n" in text:
        text = text.replace("\n\n", "\n")
    return Filtered(text + "\n", moved=moved or None)
