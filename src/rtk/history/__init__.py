"""Agent session history: the records every session provider yields, and the providers.

A provider (one module per agent: :mod:`rtk.history.claude`, :mod:`rtk.history.codex`)
finds an agent's transcript files and streams them line by line into records:

- :class:`Call`: one tool call the agent made. ``kind`` is ``shell`` (a shell command
  line) or ``read`` (the agent's built-in file reader, kept because reading a recovery
  file is a re-run signal), or ``other`` (any other built-in tool, only counted).
- :class:`Usage`: one model request's token usage (Claude Code ``message.usage``).

Every provider module has ``NAME``, ``LABEL``, ``root()``, ``files(scope)`` and
``read(file, problems, usage=False)``; :mod:`rtk.history.scan` drives them. Nothing is
ever sent anywhere: these are local files, read only.
"""

from __future__ import annotations

import sys

PROVIDERS = ("rtk.history.claude", "rtk.history.codex")


class Call:
    """One tool call of an agent, with what is known of its result.

    ``ts``/``end_ts`` are UTC ``YYYY-MM-DDTHH:MM:SSZ`` (``end_ts`` "" when no result was
    seen); ``output_chars`` is the size of the output the agent received (None when no
    result was seen); ``exit_code`` None when unknown; ``failed`` True/False/None;
    ``error_head`` the first characters of a failed call's output (for ``rtk learn``);
    ``cancelled``: the call never ran (the user refused it, a sibling call failed).
    """

    __slots__ = (
        "agent", "cancelled", "command", "cwd", "done", "end_ts", "error_head", "exit_code", "failed", "file",
        "kind", "output_chars", "seq", "session", "subagent", "tool", "tool_id", "ts",
    )  # fmt: skip

    def __init__(
        self,
        agent: str,
        session: str,
        kind: str,
        command: str,
        *,
        ts: str = "",
        cwd: str = "",
        tool: str = "",
        tool_id: str = "",
        seq: int = 0,
        file: str = "",
        subagent: bool = False,
    ) -> None:
        self.agent = agent
        self.session = session
        self.kind = kind
        self.command = command
        self.tool = tool
        self.ts = ts
        self.end_ts = ""
        self.cwd = cwd
        self.tool_id = tool_id
        self.seq = seq
        self.file = file
        self.subagent = subagent
        self.output_chars: int | None = None
        self.exit_code: int | None = None
        self.failed: bool | None = None
        self.error_head = ""
        self.cancelled = False
        self.done = False  # the provider saw everything it will learn about this call

    @property
    def via_rtk(self) -> bool:
        """Written as an rtk command (``rtk git log``, ``uv run rtk pytest``; not ``rtk proxy``).

        A command a hook rewrote still reads raw in the transcript: ``rtk.history.tracked``
        finds those in the tracking database.
        """
        if self.kind != "shell" or "rtk" not in self.command:
            return False
        from rtk.history import segments

        return any(s.role == "rtk" for s in segments.of(self.command))

    def __repr__(self) -> str:
        return f"Call({self.agent}:{self.kind} {self.command[:40]!r} exit={self.exit_code} out={self.output_chars})"


class Usage:
    """The token usage of one model request (deduplicated by ``key``)."""

    __slots__ = (
        "cache_read",
        "cache_write_1h",
        "cache_write_5m",
        "cwd",
        "input",
        "key",
        "model",
        "output",
        "session",
        "ts",
    )

    def __init__(self, key: str, ts: str, model: str, session: str, cwd: str) -> None:
        self.key = key
        self.ts = ts
        self.model = model
        self.session = session
        self.cwd = cwd
        self.input = 0
        self.output = 0
        self.cache_write_5m = 0
        self.cache_write_1h = 0
        self.cache_read = 0

    @property
    def cache_write(self) -> int:
        return self.cache_write_5m + self.cache_write_1h


class SessionFile:
    """One transcript file to read: its provider, path, modification time and session id."""

    __slots__ = ("agent", "mtime", "path", "project_hint", "session", "subagent")

    def __init__(
        self, agent: str, path: str, mtime: float, session: str, project_hint: str = "", subagent: bool = False
    ) -> None:
        self.agent = agent
        self.path = path
        self.mtime = mtime
        self.session = session
        self.project_hint = project_hint
        self.subagent = subagent


class Problems:
    """Files that could not be read completely: each reported once."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def add(self, path: str, message: str) -> None:
        self.items.setdefault(path, message)

    def lines(self, limit: int = 5) -> list[str]:
        out = [f"{path}: {msg}" for path, msg in list(self.items.items())[:limit]]
        if len(self.items) > limit:
            out.append(f"... and {len(self.items) - limit} more files with problems")
        return out

    def print(self, prog: str) -> None:
        for line in self.lines():
            print(f"rtk {prog}: {line}", file=sys.stderr)
