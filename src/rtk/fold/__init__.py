"""Fold long output: each kind of line once, with exact counts and line ranges; anomalies whole.

The API other commands use (see docs/folding.md):

- ``Folder(hold=None)``: ``feed(line) -> list[str]`` and ``finish() -> list[str]``, one
  pass over a stream, memory bounded by templates and held lines; ``hold=N`` for live
  output (a line is printed at most N input lines after it arrived).
- ``fold_output(lines)``: a whole output folded, or None when it is data to leave alone (JSON, YAML); a table shown whole.
"""

from __future__ import annotations

from rtk.fold.detect import data_kind, fold_table, looks_like_log
from rtk.fold.folder import Folder, fold_lines

TABLE_WHOLE = 2000  # a table with at most this many lines is shown whole (its rows are data)
CSV_WHOLE = 200  # a CSV/TSV with at most this many lines too (the passthrough limit's default)

__all__ = ["Folder", "data_kind", "fold_lines", "fold_output", "fold_table", "looks_like_log"]


def fold_output(lines: list[str]) -> tuple[list[str], int] | None:
    """Fold a whole output: the printed lines and how many were left out.

    Data is never folded into templates. None for JSON and YAML (the caller shows it whole or
    cut with the exact count and the recovery file). A table padded into columns (``dpkg -l``,
    ``ps``: each row is a fact, a package and its version) passes whole up to
    :data:`TABLE_WHOLE` rows, a CSV/TSV up to :data:`CSV_WHOLE`; a longer one shows its header,
    first and last rows and the exact range of rows left out.
    """
    kind = data_kind(lines[:400])
    if kind in ("json", "yaml"):
        return None
    if kind is not None:
        if len(lines) <= (TABLE_WHOLE if kind == "table" else CSV_WHOLE):
            return lines, 0
        return fold_table(lines)
    out, f = fold_lines(lines)
    return out, f.folded
