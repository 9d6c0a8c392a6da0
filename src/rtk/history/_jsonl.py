"""Tolerant JSONL reading for transcripts: raw lines streamed, bad lines counted, problems reported once.

Lines are handed out as bytes so a provider can skip the ones it does not need
with a substring test before paying for ``json.loads``. A line longer than
:data:`MAX_LINE` is skipped without being held in memory; a last line without its
newline that does not parse is a write cut short (the agent was still writing, or
crashed) and is skipped; a file that does not start like JSONL is skipped whole.
"""

from __future__ import annotations

import json
from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from rtk.history import Problems

MAX_LINE = 32 * 1024 * 1024
_CHUNK = 1024 * 1024


class Reader:
    """The lines of one file, with the count of lines that did not parse."""

    def __init__(self, path: str, problems: Problems) -> None:
        self.path = path
        self.problems = problems
        self.bad = 0
        self.oversize = 0
        self.truncated = False

    def lines(self) -> Iterator[bytes]:
        try:
            f = open(self.path, "rb")  # noqa: SIM115 - closed below, the generator may stop early
        except OSError as e:
            self.problems.add(self.path, f"cannot read ({e.strerror or e})")
            return
        try:
            first = True
            while True:
                try:
                    raw = f.readline(MAX_LINE)
                except OSError as e:
                    self.problems.add(self.path, f"read error ({e.strerror or e})")
                    return
                if not raw:
                    break
                if len(raw) == MAX_LINE and not raw.endswith(b"\n"):
                    self.oversize += 1
                    self._skip_rest(f)
                    continue
                if first:
                    if not raw.strip():
                        continue
                    first = False
                    if not raw.lstrip().startswith(b"{"):
                        self.problems.add(self.path, "not a JSONL transcript; skipped")
                        return
                # The last line has no newline: it may be a write cut short.
                if not raw.endswith(b"\n") and loads(raw) is None:
                    self.truncated = True
                    continue
                yield raw
        finally:
            f.close()
            self.finish()

    @staticmethod
    def _skip_rest(f: Any) -> None:
        while True:
            chunk = f.readline(_CHUNK)
            if not chunk or chunk.endswith(b"\n"):
                return

    def parse(self, raw: bytes) -> dict[str, Any] | None:
        """The JSON object on ``raw``, or None (counted) when it is not one."""
        d = loads(raw)
        if d is None:
            self.bad += 1
        return d

    def finish(self) -> None:
        parts = []
        if self.truncated:
            parts.append("truncated last line skipped")
        if self.bad:
            parts.append(f"{self.bad} unreadable line{'s' if self.bad != 1 else ''} skipped")
        if self.oversize:
            parts.append(f"{self.oversize} line{'s' if self.oversize != 1 else ''} over {MAX_LINE >> 20} MiB skipped")
        if parts:
            self.problems.add(self.path, "; ".join(parts))


def loads(raw: bytes) -> dict[str, Any] | None:
    """``json.loads`` for one record: None for anything that is not a JSON object."""
    try:
        d = json.loads(raw)
    except ValueError:  # JSONDecodeError and UnicodeDecodeError
        return None
    return d if isinstance(d, dict) else None


def norm_ts(ts: object) -> str:
    """A transcript timestamp as UTC ``YYYY-MM-DDTHH:MM:SSZ`` ("" when unreadable)."""
    if not isinstance(ts, str) or len(ts) < 19:
        return ""
    if ts.endswith("Z") or ts.endswith("+00:00"):
        return ts[:19] + "Z"
    from datetime import UTC, datetime

    try:
        dt = datetime.fromisoformat(ts)
    except ValueError:
        return ""
    if dt.tzinfo is None:
        return ts[:19] + "Z"
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def text_of(content: object) -> str:
    """The text of a tool result's ``content`` (a string, or a list of text blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for b in content:
            if isinstance(b, dict):
                t = b.get("text")
                if isinstance(t, str):
                    parts.append(t)
            elif isinstance(b, str):
                parts.append(b)
        return "\n".join(parts)
    return ""
