"""Failure blocks of test runners (rspec, Minitest, phpunit): the per-block bound, blank-line squeezing, one root for paths."""

from __future__ import annotations

from rtk import config

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

TAIL = 10  # lines of the bound kept from a block's end (the test's own frame is usually the last one)


def bound(block: list[str]) -> tuple[list[str], int]:
    """``block`` capped at ``limits.test_failure_lines`` (head and tail), saying how many lines were left out."""
    limit = max(int(config.get("limits.test_failure_lines")), 2 * TAIL)
    while block and not block[-1].strip():
        block = block[:-1]
    if len(block) <= limit:
        return block, 0
    extra = len(block) - limit
    note = f"     ... {extra} more lines of this failure (bound {limit} per failure)"
    return [*block[: limit - TAIL], note, *block[-TAIL:]], extra


class Blocks:
    """The output being built: ``block`` collects one failure's lines, ``flush`` bounds it into ``out``."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.block: list[str] = []
        self.cut = 0

    def flush(self) -> None:
        if self.block:
            kept, extra = bound(self.block)
            self.cut += extra
            self.out.extend(kept)
            self.out.append("")
            self.block.clear()


def squeeze(lines: list[str]) -> str:
    """Join ``lines`` with runs of blank lines reduced to one and none at either end."""
    out: list[str] = []
    for ln in lines:
        if not ln.strip() and (not out or not out[-1].strip()):
            continue
        out.append(ln.rstrip())
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)


ROOT_MIN = 3  # paths below one directory before it is said once


def below_root(lines: list[str], patterns: tuple[re.Pattern[str], ...]) -> list[str]:
    """Absolute paths of frame and location lines below the directory they all share, said once on a first line.

    A line matching one of ``patterns`` has its absolute path in the group ``path``:
    ``/tmp/app/src/Billing/Tax.php:11`` becomes ``src/Billing/Tax.php:11`` under
    ``(file paths below /tmp/app/)``, the deepest directory holding every such path, at
    least two levels down, when at least ``ROOT_MIN`` lines share it. Other lines (a message
    naming a path) are left as they are.
    """
    spans: dict[int, tuple[int, int]] = {}
    for i, ln in enumerate(lines):
        for pat in patterns:
            m = pat.match(ln)
            if m:
                spans[i] = m.span("path")
                break
    if len(spans) < ROOT_MIN:
        return lines
    common: list[str] | None = None
    for i, (a, b) in spans.items():
        parts = lines[i][a:b].split("/")[:-1]
        if common is None:
            common = parts
            continue
        n = 0
        while n < min(len(common), len(parts)) and common[n] == parts[n]:
            n += 1
        common = common[:n]
    if common is None or len(common) < 3:  # "", "tmp": no deeper than one level below /
        return lines
    root = "/".join(common) + "/"
    out = [f"(file paths below {root})"]
    for i, ln in enumerate(lines):
        if i in spans:
            a = spans[i][0]
            ln = ln[:a] + ln[a + len(root) :]
        out.append(ln)
    return out
