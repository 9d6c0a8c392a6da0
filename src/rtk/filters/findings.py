"""Diagnostics (ruff, mypy): every one listed up to ``limits.lint_budget`` tokens; above it, counted by code."""

from __future__ import annotations

from rtk import config

NOUN = ("diagnostic", "diagnostics")


def budget() -> int:
    """``limits.lint_budget`` (tokens)."""
    return int(config.get("limits.lint_budget"))


def by_code(
    items: list[tuple[str, str, int]], limit: int | None = None, noun: tuple[str, str] = NOUN
) -> tuple[list[str], int] | None:
    """(code, text, diagnostics) items: None when every text fits ``limit`` tokens (the caller lists
    them as usual); else, in order of first appearance, each code's texts whole or one
    ``CODE  (N diagnostics)`` line (exact), the rarest codes shown first while they fit. Returns (lines, diagnostics not shown)."""
    from rtk import tokens
    from rtk.filters.files.paths import Unit, fit

    limit = budget() if limit is None else limit
    if sum(tokens.estimate(t) + 1 for _, t, _ in items) <= limit:
        return None
    groups: dict[str, tuple[list[str], list[int]]] = {}
    for code, text, n in items:
        g = groups.setdefault(code, ([], []))
        g[0].append(text)
        g[1].append(n)
    units = [Unit(code, "\n".join(texts), sum(ns), "") for code, (texts, ns) in groups.items()]
    shown, cut = fit(units, limit, noun, "code", smallest_first=True)
    return [ln for u in shown for ln in u.split("\n")], cut
