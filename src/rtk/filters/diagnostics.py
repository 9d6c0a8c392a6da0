"""Shared by the compiler and test-runner filters: bounded blocks, grouped warnings, limits."""

from __future__ import annotations

from rtk import config


class Limits:
    """The caps a build or test filter applies, read once per run."""

    __slots__ = ("error_lines", "failure_lines", "max_errors", "max_failures", "max_warnings")

    def __init__(self) -> None:
        self.max_errors = int(config.get("limits.build_max_errors"))
        self.error_lines = int(config.get("limits.build_error_lines"))
        self.max_warnings = int(config.get("limits.build_max_warnings"))
        self.max_failures = int(config.get("limits.test_max_failures"))
        self.failure_lines = int(config.get("limits.test_failure_lines"))


def bounded(lines: list[str], cap: int, what: str = "lines of this error") -> tuple[list[str], int]:
    """At most ``cap`` lines (plus one), then an exact ``... N more`` line; returns (lines, cut)."""
    if cap <= 0 or len(lines) <= cap + 1:
        return lines, 0
    n = len(lines) - cap
    return [*lines[:cap], f"  ... {n} more {what}"], n


class BoundedBuffer:
    """Keeps the first ``cap`` lines it is given and counts the rest (flat memory)."""

    __slots__ = ("cap", "dropped", "lines")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.lines: list[str] = []
        self.dropped = 0

    def add(self, line: str) -> None:
        if self.cap <= 0 or len(self.lines) < self.cap:
            self.lines.append(line)
        else:
            self.dropped += 1

    def render(self, what: str = "lines") -> list[str]:
        if not self.dropped:
            return self.lines
        return [*self.lines, f"  ... {self.dropped} more {what}"]

    def __len__(self) -> int:
        return len(self.lines) + self.dropped


class ErrorLines:
    """Errors past ``build_max_errors``: one line each (place, code, message); above ``limits.lint_budget``
    tokens, each file's lines whole or one ``FILE  (N errors)`` line (exact), the files with fewest first."""

    __slots__ = ("counted", "items")

    KEEP = 100_000  # lines held at most (flat memory); past it only the file is kept, counted

    def __init__(self) -> None:
        self.items: list[tuple[str, str, int]] = []  # (file, line, errors)
        self.counted: dict[str, int] = {}  # errors past KEEP, per file

    def add(self, path: str, line: str) -> None:
        if len(self.items) < self.KEEP:
            self.items.append((path, line, 1))
        else:
            self.counted[path] = self.counted.get(path, 0) + 1

    def __len__(self) -> int:
        return len(self.items) + sum(self.counted.values())

    def render(self) -> tuple[list[str], int]:
        """``+N more errors, one line each:`` then the lines (or per-file counts); returns (lines, errors not shown)."""
        if not len(self):
            return [], 0
        from rtk.filters import findings

        n = len(self)
        held = [
            *self.items,
            *((f, f"{f}: {c} more errors (past {self.KEEP} held)", c) for f, c in self.counted.items()),
        ]
        grouped = findings.by_code(held, noun=("error", "errors"))
        if grouped is None:
            return [f"+{n} more errors, one line each:", *(t for _, t, _ in held)], 0
        lines, cut = grouped
        return [f"+{n} more errors, one line each ({cut} counted by file):", *lines], cut


class Warnings:
    """Warnings grouped by a key (lint name, ``-W`` flag...), in first-seen order: every one listed up to
    ``limits.lint_budget`` tokens; above it, each key's warnings whole or ``[key]  (N warnings)``
    (exact), the rarest keys shown first."""

    __slots__ = ("groups", "kept", "omitted", "total")

    KEEP = 100_000  # warnings held at most (flat memory); past it only their key is counted

    def __init__(self) -> None:
        self.groups: dict[str, list[str]] = {}
        self.total = 0
        self.kept = 0
        self.omitted = 0  # warnings not shown by the last render (counted on a key's line)

    def add(self, key: str, item: str) -> None:
        self.total += 1
        items = self.groups.get(key)
        if items is None:
            items = self.groups[key] = []
        if self.kept >= self.KEEP:
            items.append("")  # counted, not held
            return
        items.append(item)
        self.kept += 1

    def _group(self, key: str, items: list[str]) -> list[str]:
        shown = [i for i in items if i]
        if not key:
            return [f"  {i}" for i in shown]
        if len(items) == 1 and shown:
            return [f"  [{key}] {shown[0]}"]
        return [f"  [{key}] ({len(items)})", *(f"    {i}" for i in shown)]

    def render(self, noun: str = "warnings") -> list[str]:
        """``[key] (n)`` headers with the items below, single items on one line; above the budget,
        the keys that do not fit as ``  [key]  (N warnings)``. Sets ``omitted``."""
        from rtk.filters import findings

        units = [
            (f"  [{k}]" if k else "  (no flag)", "\n".join(self._group(k, v)), len(v)) for k, v in self.groups.items()
        ]
        grouped = findings.by_code(units, noun=(noun[:-1], noun))
        held = self.total - self.kept
        if grouped is None:
            self.omitted = held
            out = [ln for _, t, _ in units for ln in t.split("\n") if t]
            return [*out, f"  +{held} more {noun} (not held)"] if held else out
        lines, self.omitted = grouped
        return lines
