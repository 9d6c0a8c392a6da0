"""What the Ruby test filters share: the per-failure bound and blank-line squeezing."""

from __future__ import annotations

MAX_BLOCK = 60  # lines kept per failure block; the rest is counted
TAIL = 15  # of which the last lines (the test's own frame is usually the last one)


def bound(block: list[str]) -> tuple[list[str], int]:
    """``block`` capped at MAX_BLOCK lines (head and tail), with a line saying how many were left out."""
    while block and not block[-1].strip():
        block = block[:-1]
    if len(block) <= MAX_BLOCK:
        return block, 0
    extra = len(block) - MAX_BLOCK
    head = block[: MAX_BLOCK - TAIL]
    note = f"     ... {extra} more lines of this failure (bound {MAX_BLOCK} per failure)"
    return [*head, note, *block[-TAIL:]], extra


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
