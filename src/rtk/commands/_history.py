"""Shared pieces of the history commands (discover, learn, session, cc-economics): flags, scope, tables."""

from __future__ import annotations

import argparse
import os
import time
from typing import NoReturn

from rtk.errors import UsageError
from rtk.history.scan import Scope

ESTIMATE_NOTE = (
    "token figures are estimates: ceil(characters / 4) of the shell output the agent received, not billed tokens"
)
PRIVACY_NOTE = "read from local transcript files only; nothing is sent anywhere"


class Parser(argparse.ArgumentParser):
    """argparse with rtk's one-line errors: ``rtk: discover: <what is wrong> (see rtk discover --help)``."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog.removeprefix('rtk ')}: {message} (see {self.prog} --help)")


def add_scope_flags(p: argparse.ArgumentParser, since_default: str | None = "30d", all_default: bool = False) -> None:
    scope = p.add_mutually_exclusive_group()
    scope.add_argument("-p", "--project", nargs="?", const=".", metavar="DIR",
                       help="sessions run in DIR (default: here) or below it (the default scope)")  # fmt: skip
    scope.add_argument("-a", "--all", action="store_true", default=all_default, help="every project, not just this one")
    default = f" (default {since_default})" if since_default else " (default: all time)"
    p.add_argument(
        "-s", "--since", metavar="WHEN", default=since_default, help=f"7d, 12h, 2w, YYYY-MM-DD or all{default}"
    )
    p.add_argument(
        "--agent", action="append", choices=("claude", "codex"), help="only this agent's sessions (repeatable)"
    )


def since_iso(text: str | None, now: float | None = None) -> str | None:
    """``--since`` as a UTC lower bound; None for ``all``."""
    if text is None or text.strip().lower() in ("all", "0", ""):
        return None
    from rtk.tracking.queries import parse_since

    try:
        return parse_since(text, now)
    except ValueError as e:
        raise UsageError(str(e).replace("7d, 12h, 2w or YYYY-MM-DD", "7d, 12h, 2w, YYYY-MM-DD or all")) from None


def scope(ns: argparse.Namespace) -> Scope:
    project = None
    if not ns.all:
        project = os.path.abspath(os.path.expanduser(ns.project)) if ns.project else os.getcwd()
    return Scope(project, since_iso(ns.since), tuple(ns.agent or ()))


def scope_words(sc: Scope) -> str:
    parts = [f"project {sc.project}" if sc.project else "all projects"]
    parts.append(f"since {sc.since[:10]}" if sc.since else "all time")
    if sc.agents:
        parts.append("agents: " + ", ".join(sc.agents))
    return ", ".join(parts)


def n(v: float) -> str:
    return f"{round(v):,}"


def clip(s: str, width: int) -> str:
    s = " ".join(s.split())
    return s if len(s) <= width else s[: width - 1] + "…"


def table(headers: list[str], rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]

    def fmt(cells: list[str]) -> str:
        return (
            "  "
            + "  ".join(
                c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()
        )

    return [fmt(headers), *(fmt(r) for r in rows)]


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
