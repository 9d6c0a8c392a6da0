"""Filter for rspec (progress and documentation-free default output), also under ``bundle exec``.

Passing runs shrink to the summary line. Failing runs keep every failure block
(description, ``Failure/Error`` line, expected/got, diff, ``# ./file:line`` frames;
bounded per failure), the pending list one line per example, the summary and the
``rspec ./spec/x_spec.rb:N`` rerun list. Progress dots and timing lines go. Output
without an rspec summary line prints raw; ``--format``/``-f`` and other listing
modes run unfiltered.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.failblocks import bound, squeeze

COMMANDS = ("rspec",)

_RAW = ("-f", "--format", "-o", "--out", "--dry-run", "--init", "-h", "--help", "-v", "--version", "--bisect")
_SUMMARY = re.compile(r"^\d+ examples?, (\d+) failures?(, \d+ pending)?(, \d+ errors? occurred outside of examples)?$")
_PROGRESS = re.compile(r"^[.FP*E]+$")
_ITEM = re.compile(r"^  (\d+)\) (.*)$")
_NOISE = re.compile(r"^(Finished in [\d.]+ seconds?.*|Randomized with seed \d+)$")
_RERUN = re.compile(r"^(rspec \S+:\d+(?:\[[\d:,]+\])?) # ")


def select(argv: list[str]) -> Spec | None:
    for a in argv[1:]:
        if a == "--":
            break
        if a.startswith(_RAW) and (a in _RAW or a.startswith(("-f", "--format=", "--out=", "-o"))):
            return None
    return Spec("rspec", rspec)


def _pending(block: list[str]) -> str:
    """``  1) desc`` / ``# reason`` / ``# ./spec/x.rb:5`` -> one line."""
    m = _ITEM.match(block[0])
    desc = m.group(2) if m else block[0].strip()
    notes = [b.strip().lstrip("# ").strip() for b in block[1:] if b.strip()]
    where = notes.pop() if notes else ""
    reason = f" ({'; '.join(notes)})" if notes else ""
    return f"  pending: {desc}{reason} {where}".rstrip()


def rspec(argv: list[str], output: str, exit_code: int) -> str | Filtered:
    lines = output.splitlines()
    summary = [i for i, ln in enumerate(lines) if _SUMMARY.match(ln.strip())]
    if not summary:
        raise Unrecognized("no rspec summary line")
    last = lines[summary[-1]].strip()
    failures = int(_SUMMARY.match(last).group(1))  # type: ignore[union-attr]
    section = ""
    out: list[str] = []
    block: list[str] = []
    cut = 0

    def flush() -> None:
        nonlocal cut
        if not block:
            return
        if section == "pending":
            out.append(_pending(block))
        else:
            kept, extra = bound(block)
            cut += extra
            out.extend(kept)
            out.append("")
        block.clear()

    for ln in lines:
        s = ln.strip()
        if s.startswith("Pending: (Failures listed here"):
            flush()
            section = "pending"
            out.append("Pending:")
            continue
        if s == "Failures:":
            flush()
            section = "failures"
            out.append("Failures:")
            out.append("")
            continue
        if s == "Failed examples:":
            flush()
            section = "rerun"
            out.append("Failed examples:")
            continue
        if _SUMMARY.match(s):
            flush()
            section = ""
            out.append("")
            out.append(s)
            continue
        if _NOISE.match(s):
            flush()
            section = ""
            continue
        if section in ("pending", "failures"):
            if _ITEM.match(ln):
                flush()
                block.append(ln)
            elif block:
                if s != "(compared using ==)":
                    block.append(ln)
            elif s:
                out.append(ln)
            continue
        if _PROGRESS.match(s):
            continue
        m = _RERUN.match(s) if section == "rerun" else None
        out.append(m.group(1) if m else ln)  # the description repeats the failure's header
    flush()
    text = squeeze(out)
    if exit_code != 0 and failures == 0:
        # Errors outside examples, a coverage gate, at_exit hooks: the summary alone would read as a pass.
        text += f"\nrspec exited with code {exit_code} although no example failed"
    return Filtered(text, cut)
