"""Error and warning blocks read line by line, and the streaming readings of ``rtk err`` and ``rtk summary``.

Each reading keeps only what it prints (the first blocks, the last lines, counts),
so memory stays flat however long the command's output is. The whole-output
functions of ``rtk.commands._generic`` feed the same classes, so both paths
print exactly the same text.
"""

from __future__ import annotations

import re
from collections import deque

from rtk.filterapi import Filtered, LineFilter, Unrecognized
from rtk.text import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    Block = tuple[str, list[str]]

_ERROR = re.compile(
    r"(?:^|[\s\[(])(?:error|ERROR|Error|FAIL|FAILED|FATAL|fatal|panic|panicked|Traceback|Exception|"
    r"[A-Z]\w*(?:Error|Exception))(?:\b|:|\[)|^E\s{3}"
)
_WARNING = re.compile(r"(?:^|[\s\[(])(?:warning|WARNING|Warning|warn|WARN)(?:\b|:|\[)")
_NOT_ERROR = re.compile(r"\b0 (?:errors?|failed|failures?)\b|\bno errors?\b|\berrors?: 0\b", re.I)
_CARET = re.compile(r"^\s*\|\s*[\^~]+\s*$")
_CONT = re.compile(r"^(?:\s+\S|\s*(?:at |-->|\||│|\^|~|File \"|note:|help:|= ))")

TAIL = 10  # rtk summary: last lines shown

_SUMMARY_LINE = re.compile(
    r"\b\d+ (?:passed|failed|passing|failing|pending|skipped|tests?|errors?|failures?|ok|examples?|assertions?)\b", re.I
)

# Every line _ERROR or _WARNING can match holds one of these (lower-cased) or starts with "E":
# a substring test per line is many times cheaper than the two searches.
_WORDS = ("rror", "fail", "fatal", "panic", "traceback", "exception", "warn")


def _may_match(line: str) -> bool:
    if line.startswith("E"):
        return True
    low = line.lower()
    return any(w in low for w in _WORDS)


def limits() -> tuple[int, int]:
    """(lines kept per block, blocks shown in full), from the config."""
    from rtk import config

    return int(config.get("limits.test_failure_lines")), int(config.get("limits.test_max_failures"))


class Scanner:
    """Error/warning lines with their context (the continuation lines that follow), one line at a time.

    ``feed`` returns the block the line closed, if any; ``close`` the last one.
    A block longer than ``max_lines + 1`` keeps ``max_lines`` and a count of the
    rest (added to ``cut``).
    """

    def __init__(self, max_lines: int) -> None:
        self.max_lines = max_lines
        self.cut = 0
        self._kind = ""
        self._lines: list[str] = []
        self._n = 0

    def feed(self, line: str) -> Block | None:
        announced = self._n == 1 and self._lines[0].endswith(":") and line.strip()
        if announced and not (_ERROR.search(line) or _WARNING.search(line)):
            # "thread 'main' panicked at src/lib.rs:9:26:" announces its message on the next line
            self._n += 1
            self._lines.append(line)
            return None
        if self._kind and line.strip() and _CONT.match(line) and not _ERROR.search(line.split(":", 1)[0]):
            if not _CARET.match(line):  # a bare "|   ^~~~" marker under the quoted line
                self._n += 1
                if len(self._lines) <= self.max_lines:
                    self._lines.append(line)
            return None
        done = self.close()
        if not _may_match(line):
            pass
        elif _ERROR.search(line) and not _NOT_ERROR.search(line):
            self._kind, self._lines, self._n = "error", [line], 1
        elif _WARNING.search(line) and not _NOT_ERROR.search(line):
            self._kind, self._lines, self._n = "warning", [line], 1
        return done

    def close(self) -> Block | None:
        if not self._kind:
            return None
        kind, block, n = self._kind, self._lines, self._n
        self._kind, self._lines, self._n = "", [], 0
        if n > self.max_lines + 1:
            self.cut += n - self.max_lines
            block = [*block[: self.max_lines], f"  ... {n - self.max_lines} more lines"]
        return kind, block


def blocks(lines: Iterable[str], max_lines: int) -> tuple[list[Block], int]:
    """Every error/warning block of ``lines`` and the number of lines cut from long blocks."""
    scan = Scanner(max_lines)
    found = [b for b in map(scan.feed, lines) if b is not None]
    last = scan.close()
    if last is not None:
        found.append(last)
    return found, scan.cut


class Kept:
    """The first ``keep + 1`` blocks of a kind and how many there were: ``keep`` shown, or all if one more."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.blocks: list[list[str]] = []
        self.count = 0

    def add(self, block: list[str]) -> None:
        self.count += 1
        if len(self.blocks) <= self.keep:
            self.blocks.append(block)

    def shown(self) -> tuple[list[list[str]], int]:
        """The blocks to print and how many are left out."""
        if self.count <= self.keep + 1:
            return self.blocks, 0
        return self.blocks[: self.keep], self.count - self.keep


def run(filt: LineFilter, lines: Iterable[str], exit_code: int) -> Filtered:
    """A streaming reading applied to a whole output (the whole-output functions)."""
    for ln in lines:
        filt.feed(ln)
    text = filt.finish(exit_code)
    return Filtered(text, filt.cut)


class ErrStream(LineFilter):
    """``rtk err``: the error and warning blocks, a count line first; printed when the command ends."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        max_lines, max_blocks = limits()
        self.scan = Scanner(max_lines)
        self.kept = Kept(max_blocks)
        self.lines = 0
        self.errors = 0
        self.tail: deque[str] = deque(maxlen=20)  # a green run names what ran ("60 passed")

    def _take(self, b: Block | None) -> None:
        if b is not None:
            self.errors += b[0] == "error"
            self.kept.add(b[1])

    def feed(self, line: str) -> str | None:
        self.lines += 1
        self.tail.append(line)
        self._take(self.scan.feed(line))
        return None

    def finish(self, exit_code: int) -> str:
        self._take(self.scan.close())
        n = self.lines
        if not self.kept.count:
            if exit_code != 0:
                raise Unrecognized("failed, and no line looks like an error")
            summary = [ln.strip(" =") for ln in self.tail if _SUMMARY_LINE.search(ln)]
            done = f"err: no errors or warnings in {plural(n, 'line')} of output (exit 0)"
            return "; ".join([done, *dict.fromkeys(summary)])
        warnings = self.kept.count - self.errors
        out = [
            f"err: {plural(self.errors, 'error')}, {plural(warnings, 'warning')}"
            f" (exit {exit_code}, {plural(n, 'line')} of output)"
        ]
        shown, more = self.kept.shown()
        for b in shown:
            out.extend(b)
        self.cut = self.scan.cut + more
        if more:
            out.append(f"+{more} more error/warning blocks")
        return "\n".join(out)


class SummaryStream(LineFilter):
    """``rtk summary``: exit code, counts, the first error block and the last lines."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        max_lines, self.max_blocks = limits()
        self.scan = Scanner(max_lines)
        self.first: list[str] | None = None
        # First lines of the other problems: the first ones, enough to fill the list after
        # those the tail shows are dropped; the rest are only counted.
        self.heads: list[str] = []
        self.unheld = 0
        self.errors = 0
        self.warnings = 0
        self.lines = 0
        self.tail: deque[str] = deque(maxlen=TAIL)

    def _take(self, b: Block | None) -> None:
        if b is None:
            return
        if b[0] == "warning":
            self.warnings += 1
        else:
            self.errors += 1
            if self.first is None:
                self.first = b[1]
                return
        if len(self.heads) < self.max_blocks + TAIL + 1:
            head = b[1][0]
            if head.rstrip().endswith(":") and len(b[1]) > 1 and b[1][1].strip():
                head += "\n" + b[1][1]  # "panicked at src/lib.rs:9:26:" announces the message on the next line
            self.heads.append(head)
        else:
            self.unheld += 1

    def feed(self, line: str) -> str | None:
        self.lines += 1
        self.tail.append(line)
        self._take(self.scan.feed(line))
        return None

    def finish(self, exit_code: int) -> str:
        self._take(self.scan.close())
        if not self.lines:
            raise Unrecognized("no output")
        out = [
            f"summary: exit {exit_code}, {plural(self.lines, 'line')}, {plural(self.errors, 'error line')},"
            f" {plural(self.warnings, 'warning line')}"
        ]
        shown = 0
        if self.first is not None:
            out.append("first error:")
            out.extend("  " + ln for ln in self.first)
            shown += len(self.first)
        # Every other problem by its first line (where it is; and the message it announces), unless the tail shows it.
        said = {w.strip(".:,;") or "." for w in " ".join(self.tail).split()} | {"."}
        others = [h for h in self.heads if not said.issuperset(w.strip(".:,;") or "." for w in h.split())]
        total = len(others) + self.unheld
        if total:
            out.append(f"other problems ({total}):")
            out.extend("  " + ln for h in others[: self.max_blocks] for ln in h.split("\n"))
            if total > self.max_blocks:
                out.append(f"  +{total - self.max_blocks} more")
            shown += sum(h.count("\n") + 1 for h in others[: self.max_blocks])
        out.append(f"last {plural(len(self.tail), 'line')}:")
        out.extend("  " + ln for ln in self.tail)
        shown += len(self.tail)
        self.cut = max(0, self.lines - shown)
        return "\n".join(out)


class FallbackStream(LineFilter):
    """``rtk test`` on output of no known runner: the failure blocks and the summary lines among the last 20."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        max_lines, max_blocks = limits()
        self.scan = Scanner(max_lines)
        self.kept = Kept(max_blocks)
        self.max_blocks = max_blocks
        self.warned: list[str] = []  # the first warnings, by where they are
        self.warnings = 0
        self.tail: deque[str] = deque(maxlen=20)

    def _take(self, b: Block | None) -> None:
        if b is None:
            return
        if b[0] == "error":
            self.kept.add(b[1])
            return
        self.warnings += 1
        if len(self.warned) < self.max_blocks:
            self.warned.append(_where(b[1][0]))

    def feed(self, line: str) -> str | None:
        self.tail.append(line)
        self._take(self.scan.feed(line))
        return None

    def finish(self, exit_code: int) -> str:
        self._take(self.scan.close())
        summary = "; ".join(dict.fromkeys(ln.strip() for ln in self.tail if _SUMMARY_LINE.search(ln)))
        if exit_code == 0:
            if not summary:
                raise Unrecognized("no summary line")  # nothing says what passed: show it raw
            return "test: exit 0; " + summary
        if not self.kept.count:
            raise Unrecognized("failed, and no line looks like a failure")
        out = [f"test: exit {exit_code}; " + (summary or "no summary line")]
        shown, more = self.kept.shown()
        for b in shown:
            out.extend(b)
        self.cut = self.scan.cut + more
        if more:
            out.append(f"+{more} more failure blocks")
        # A warning by where it is and its rule ("bad.c:2:25 [-Wunused-variable]"), else by its first line.
        if self.warnings:
            out.append(f"warnings ({self.warnings}): " + ", ".join(self.warned))
            if self.warnings > self.max_blocks:
                self.cut += self.warnings - self.max_blocks
                out.append(f"+{self.warnings - self.max_blocks} more warnings")
        return "\n".join(out)


def _where(line: str) -> str:
    """``path:line[:col]`` and a trailing ``[rule]`` of a diagnostic line, or the line when it has no location."""
    words = line.split()
    head = words[0].rstrip(":") if words else ""
    if ":" not in head or not head.split(":")[1].isdigit():
        return line.strip()
    rule = words[-1] if words[-1].startswith("[") and words[-1].endswith("]") else ""
    return f"{head} {rule}".rstrip()
