"""Drive the session providers over a scope: which agents, which project, since when.

``Scope(project=None)`` covers every project; ``since`` is a UTC
``YYYY-MM-DDTHH:MM:SSZ`` lower bound (files last written before it are not opened,
calls before it are dropped). Records stream one at a time; nothing is kept here.
"""

from __future__ import annotations

import calendar
import importlib
import time

from rtk.history import PROVIDERS, Call, Problems, SessionFile, Usage
from rtk.history import projects as _projects

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import ModuleType


class Scope:
    """What a report covers."""

    def __init__(self, project: str | None = None, since: str | None = None, agents: tuple[str, ...] = ()) -> None:
        self.project = project
        self.since = since
        self.since_epoch = calendar.timegm(time.strptime(since, "%Y-%m-%dT%H:%M:%SZ")) if since else None
        self.agents = agents

    def wants(self, call_ts: str, cwd: str) -> bool:
        if self.since and call_ts and call_ts < self.since:
            return False
        return not self.project or _projects.under(cwd, self.project)


def providers(agents: tuple[str, ...] = ()) -> list[ModuleType]:
    mods = [importlib.import_module(m) for m in PROVIDERS]
    return [m for m in mods if not agents or m.NAME in agents]


def session_files(scope: Scope) -> Iterator[tuple[ModuleType, SessionFile]]:
    for mod in providers(scope.agents):
        for sf in mod.files(scope):
            yield mod, sf


def records(
    scope: Scope, problems: Problems, *, usage: bool = False, files: list[tuple[ModuleType, SessionFile]] | None = None
) -> Iterator[Call | Usage]:
    """Every call (and usage record) in ``scope``, file after file, in each file's call order."""
    for mod, sf in files if files is not None else session_files(scope):
        for rec in mod.read(sf, problems, usage=usage, project=scope.project):
            if scope.wants(rec.ts, rec.cwd):
                yield rec


def calls(scope: Scope, problems: Problems) -> Iterator[Call]:
    for rec in records(scope, problems):
        if isinstance(rec, Call):
            yield rec


def calls_from(scope: Scope, problems: Problems, files: list[tuple[ModuleType, SessionFile]]) -> Iterator[Call]:
    """The calls in ``scope`` of the given files only."""
    for rec in records(scope, problems, files=files):
        if isinstance(rec, Call):
            yield rec
