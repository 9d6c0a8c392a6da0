"""The tracking database seen from the sessions: which raw-looking commands a hook sent through rtk.

An agent hook rewrites ``git status`` to ``rtk git status`` before it runs, but the
transcript still shows ``git status``. The tracking database recorded the rtk run
(``original_cmd`` = the command after ``rtk``, at the end of the run), so a transcript
command with a tracked run of the same command, in the same directory tree, between
its call and its result (a few seconds of slack each side) went through rtk. Each
tracked run is matched once. The database also gives measured savings per filter.
"""

from __future__ import annotations

import calendar
import os
import time

from rtk.history import projects as _projects

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from typing import Any

    from rtk.history import Call

SLACK_S = 5
NO_RESULT_S = 600  # a call whose result was not seen: look this far after it
MIN_MEASURED = 5  # runs of a filter before its measured rate replaces the rule's estimate


def _epoch(ts: str) -> int:
    return calendar.timegm(time.strptime(ts, "%Y-%m-%dT%H:%M:%SZ"))


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


class Tracked:
    """Queries over the tracking database; every method answers "nothing" when there is none."""

    def __init__(self, db: sqlite3.Connection | None) -> None:
        self.db = db
        self.lo = self.hi = ""
        self.rates: dict[str, dict[str, int]] = {}
        self.used: set[int] = set()
        self.matched = 0
        if db is not None:
            from rtk.tracking import queries

            lo, hi = queries.time_bounds(db)
            self.lo, self.hi = lo or "", hi or ""
            self.rates = queries.filter_rates(db, queries.Scope())

    @classmethod
    def open(cls) -> Tracked:
        """The user's tracking database (journal ingested first), or an empty view when there is none."""
        from rtk import tracking

        path = tracking.db_path()
        if not os.path.exists(path) and not os.path.exists(tracking.pending_path()):
            return cls(None)
        try:
            from rtk.tracking import db

            return cls(db.open_for_reading())
        except Exception as e:  # sqlite3.Error, OSError: report, analyse without it
            import sys

            print(f"rtk: tracking database not used: {e}", file=sys.stderr)
            return cls(None)

    def close(self) -> None:
        if self.db is not None:
            self.db.close()

    def rate(self, filt: str) -> float | None:
        """The measured weighted savings rate (percent) of ``filt``, when there are enough runs."""
        r = self.rates.get(filt)
        if not r or r["runs"] < MIN_MEASURED or r["input"] <= 0:
            return None
        return r["saved"] * 100.0 / r["input"]

    def match(self, originals: list[str], call: Call) -> dict[str, Any] | None:
        """The tracked rtk run made for ``call`` of one of ``originals`` (forms of one command), or None."""
        if self.db is None or not self.lo or not call.ts:
            return None
        start = _epoch(call.ts) - SLACK_S
        end = (_epoch(call.end_ts) if call.end_ts else start + NO_RESULT_S) + SLACK_S
        a, b = _iso(start), _iso(end)
        if b < self.lo or a > self.hi:
            return None
        from rtk.tracking import mask_command, queries

        rows = [r for o in originals for r in queries.runs_between(self.db, mask_command(o), a, b)]
        rows.sort(key=lambda r: (r["timestamp"], r["id"]))
        for row in rows:
            if row["id"] in self.used:
                continue
            proj = row["project"]
            if proj and call.cwd and not (_projects.under(proj, call.cwd) or _projects.under(call.cwd, proj)):
                continue
            self.used.add(row["id"])
            self.matched += 1
            return row
        return None

    def tee_owner(self, path: str) -> str | None:
        if self.db is None:
            return None
        from rtk.tracking import queries

        return queries.tee_owner(self.db, path)
