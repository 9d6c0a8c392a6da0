"""Fold long output: each kind of line once, with exact counts and line ranges; anomalies whole.

The API other commands use (see docs/folding.md):

- ``Folder(hold=None)``: ``feed(line) -> list[str]`` and ``finish() -> list[str]``, one
  pass over a stream, memory bounded by templates and held lines; ``hold=N`` for live
  output (a line is printed at most N input lines after it arrived).
- ``fold_output(lines)``: a whole output folded, or None when it is data to leave alone.
"""

from __future__ import annotations

from rtk.fold.detect import data_kind, fold_table, looks_like_log
from rtk.fold.folder import Folder, fold_lines

__all__ = ["Folder", "data_kind", "fold_lines", "fold_output", "fold_table", "looks_like_log"]


def fold_output(lines: list[str]) -> tuple[list[str], int] | None:
    """Fold a whole output: the printed lines and how many were left out; None for JSON/YAML (not folded)."""
    kind = data_kind(lines[:400])
    if kind in ("json", "yaml"):
        return None
    if kind is not None:
        return fold_table(lines)
    out, f = fold_lines(lines)
    return out, f.folded
