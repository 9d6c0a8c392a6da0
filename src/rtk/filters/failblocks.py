"""Failure blocks of test runners (rspec, Minitest, phpunit): the per-block bound and blank-line squeezing."""

from __future__ import annotations

from rtk import config

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
