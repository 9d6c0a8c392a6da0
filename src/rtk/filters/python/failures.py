"""Pytest failure blocks and warnings: keep the assertion, the diff and the user's frames.

A :class:`Block` receives the lines of one ``____ test_x ____`` entry of the
FAILURES or ERRORS section and gives back a bounded compact version: library
frames (site-packages, the standard library) are replaced by one counted marker
line, caret underlines and blank lines go, source context before the failing
line is trimmed, and every ``E`` line, exception message and location is kept
first when the block is over its line cap. :class:`Warnings` groups the
"warnings summary" section by category and message, with counts.
"""

from __future__ import annotations

import re

# "tests/test_a.py:12: in test_x" (short frame) / "calc/core.py:46: ZeroDivisionError" (long frame end)
_LOC_IN = re.compile(r"^(\S[^:]*?):(\d+): in (.+)$")
_LOC_END = re.compile(r"^(\S[^:]*?\.py|\S[^:]*?/[^:]*|<[^>]+>):(\d+):(?: (.*))?$")
_NATIVE = re.compile(r'^  File "(.+)", line (\d+), in (.+)$')
_SEP = re.compile(r"^(?:_ )+_?\s*$")
_CARET = re.compile(r"^\s*[\^~]+\s*$")
_SUB = re.compile(r"^-{3,} (.+?) -{3,}$")
_ARGS = re.compile(r"^[\w.]+ = ")
_PYLIB = re.compile(r"/lib/(?:python|pypy)\d(?:\.\d+)?/")
_XDIST_NODE = re.compile(r"^\[gw\d+\] ")

CAPTURE_LINES = 10  # lines kept per captured stdout/stderr/log section
HOLD_LINES = 400  # compact lines held per block at most (memory stays flat)
CONTEXT_LINES = 1  # source lines kept before the failing line of a frame

# item kinds, in the order they are given up when a block is over its cap
SRC, ARGS, CAP, KEEP = "src", "args", "cap", "keep"


def is_library(path: str) -> bool:
    """A frame outside the user's code: installed packages or the standard library."""
    return (
        "site-packages/" in path or "dist-packages/" in path or path.startswith("<") or _PYLIB.search(path) is not None
    )


def short_library_path(path: str) -> str:
    for marker in ("site-packages/", "dist-packages/"):
        if marker in path:
            return path.split(marker, 1)[1]
    m = _PYLIB.search(path)
    if m:
        return path[m.end() :]
    return path


class Block:
    """One failure or error entry, compacted as its lines arrive."""

    def __init__(self, title: str | None, header: str, rootdir: str = "", keep_args: bool = False) -> None:
        self.title = title
        self.keep_args = keep_args
        self.header = header
        self.rootdir = rootdir
        self.items: list[tuple[str, str]] = []
        self.held = 0  # lines beyond HOLD_LINES, dropped and counted
        self.frame: list[tuple[str, str]] = []
        self.frame_lib = False
        self.frame_headed = False  # started by "path:N: in f" or 'File "...", line N'
        self.hidden = 0
        self.hidden_where = ""
        self._where = ""
        self.first_file = ""  # the first frame in the user's code: the test's file
        self.collapsed = 0  # unchanged diff lines folded into "... N unchanged lines"
        self.capture: str | None = None
        self.capture_kept = 0
        self.capture_cut = 0

    # -- input -----------------------------------------------------------------

    def feed(self, line: str) -> bool:
        """Take one line; True when the line closed a block without a title (``--tb=line``)."""
        line = line.rstrip()
        if not line.strip() or _CARET.match(line) or _XDIST_NODE.match(line):
            return False
        if line.startswith(("Hint: make sure your test modules", "Traceback:", "Traceback (most recent call last):")):
            return False
        if self.title is None:
            m = _LOC_END.match(line)
            if m and not line.startswith("E ") and not _LOC_IN.match(line):
                self._close_capture()
                first_e = next((t for k, t in self.frame if t.startswith("E ")), "")
                self._close_frame()
                loc = self._rel(line)
                if m.group(3) and first_e[1:].strip() == m.group(3).strip():
                    loc = loc[: -len(m.group(3)) - 2]  # "path:N: <the E line again>" -> "path:N"
                self._add(KEEP, loc)
                return True
        sub = _SUB.match(line)
        if sub:
            self._close_frame()
            self._close_capture()
            self.capture = sub.group(1)
            self._add(CAP, f"--- {self.capture} ---")
            return False
        if self.capture is not None:
            if self.capture_kept < CAPTURE_LINES:
                self.capture_kept += 1
                self._add(CAP, line)
            else:
                self.capture_cut += 1
            return False
        if _SEP.match(line):
            self._close_frame()
            return False
        m = _NATIVE.match(line) or _LOC_IN.match(line)
        if m:
            self._close_frame()
            self.frame_lib = is_library(m.group(1))
            first = not self.first_file
            self._first(m.group(1))
            self.frame_headed = True
            self._where = f"{short_library_path(m.group(1))}:{m.group(2)}"
            text = self._rel(line)
            if first and self.first_file and self.title and m.group(3) == self._test_func():
                # the test function's own frame: its name is in the entry's header already
                text = f"{self.first_file}:{m.group(2)}" if text.endswith(" in " + m.group(3)) else text
            self.frame.append((KEEP, text))
            return False
        if (self.frame_headed and not line.startswith("    ")) or len(self.frame) >= HOLD_LINES:
            self._close_frame()  # (a frame is never held beyond HOLD_LINES lines)
        if line.startswith("E ") or line == "E":
            self.frame.append((KEEP, line))
            return False
        if line.startswith(">"):
            self.frame.append((">", line))
            return False
        m = _LOC_END.match(line)
        if m and not line.startswith(" "):
            self.frame_lib = is_library(m.group(1))
            self._first(m.group(1))
            self._where = f"{short_library_path(m.group(1))}:{m.group(2)}"
            self.frame.append((KEEP, self._rel(line)))
            self._close_frame()
            return False
        if line.startswith(" "):
            # the source line under "path:N: in f": two spaces of indent are enough
            self.frame.append((SRC, line[2:] if self.frame_headed else line))
        elif _ARGS.match(line):
            if self.keep_args:  # --showlocals / -l: the user asked for them
                self.frame.append((ARGS, line))
        else:
            self.frame.append((KEEP, line))
        return False

    def _first(self, path: str) -> None:
        if not self.first_file and not is_library(path):
            self.first_file = self._rel(path)

    def _test_func(self) -> str:
        return (self.title or "").partition("[")[0].rsplit(".", 1)[-1]

    def nodeid(self) -> str | None:
        """``tests/t.py::TestA::test_x[1.5]`` from the title and the first user frame, if known."""
        if not self.title or not self.first_file.endswith(".py"):
            return None
        name, bracket, params = self.title.partition("[")
        return f"{self.first_file}::{name.replace('.', '::')}{bracket}{params}"

    def _rel(self, line: str) -> str:
        if self.rootdir and line.startswith(self.rootdir + "/"):
            return line[len(self.rootdir) + 1 :]
        return line.replace(f'File "{self.rootdir}/', 'File "') if self.rootdir else line

    def _add(self, kind: str, text: str) -> None:
        if len(self.items) < HOLD_LINES:
            self.items.append((kind, text))
        else:
            self.held += 1

    def _close_capture(self) -> None:
        if self.capture is not None and self.capture_cut:
            self._add(CAP, f"... +{self.capture_cut} more captured lines")
        self.capture = None
        self.capture_kept = self.capture_cut = 0

    def _marker(self) -> None:
        if self.hidden:
            n = self.hidden
            self._add(KEEP, f"    [{n} library frame{'s' if n != 1 else ''} hidden, last {self.hidden_where}]")
            self.hidden = 0

    def _close_frame(self) -> None:
        frame, lib = self.frame, self.frame_lib
        self.frame, self.frame_lib, self.frame_headed = [], False, False
        if not frame:
            return
        if lib:
            self.hidden += 1
            self.hidden_where = self._where
            errors = [t for k, t in frame if k == KEEP and (t.startswith("E ") or t == "E")]
            if errors:
                self._marker()
                self._add_errors(errors)
            return
        self._marker()
        gt = next((i for i, (k, _) in enumerate(frame) if k == ">"), None)
        src_before = [i for i, (k, _) in enumerate(frame) if k == SRC and (gt is None or i < gt)]
        drop = set(src_before[:-CONTEXT_LINES]) if gt is not None else set()
        e_run: list[str] = []
        for i, (k, t) in enumerate(frame):
            if i in drop:
                continue
            if k == KEEP and (t.startswith("E ") or t == "E"):
                e_run.append(t)
                continue
            if e_run:
                self._add_errors(e_run)
                e_run = []
            self._add(SRC if k == ">" else k, t)
        self._add_errors(e_run)

    def _add_errors(self, e_run: list[str]) -> None:
        lines, cut = collapse_diff(_dedent_e(e_run))
        self.collapsed += cut
        for e in lines:
            self._add(KEEP, e)

    # -- output ----------------------------------------------------------------

    def close(self, cap: int) -> tuple[list[str], int]:
        """The compact lines (header first) and how many lines were left out."""
        self._close_capture()
        self._close_frame()
        self._marker()
        items = self.items
        cut = self.held
        budget = max(cap - 1, 4)
        if len(items) > budget:
            for kind in (SRC, ARGS, CAP):
                over = len(items) - budget
                if over <= 0:
                    break
                idx = [i for i, (k, _) in enumerate(items) if k == kind]
                drop = set(idx[:over]) if kind != CAP else set(idx[-over:])
                items = [it for i, it in enumerate(items) if i not in drop]
                cut += len(drop)
        lines = [t for _, t in items]
        if len(lines) > budget:
            cut += len(lines) - budget + 1
            lines = lines[: budget - 1]
        if cut:
            lines.append(f"    ... +{cut} lines of this entry cut (cap {cap} lines per failure)")
        return ([self.header] if self.header else []) + lines, cut + self.collapsed


DIFF_CONTEXT = 2  # unchanged lines kept on each side of a change in a "Full diff"


def collapse_diff(lines: list[str]) -> tuple[list[str], int]:
    """Shorten runs of unchanged lines in pytest's ``Full diff:``; every -/+/? line stays."""
    start = next((i for i, ln in enumerate(lines) if ln.lstrip("E ").startswith("Full diff:")), None)
    if start is None:
        return lines, 0
    col = len(lines[start]) - len(lines[start].lstrip("E ").lstrip())
    out = lines[: start + 1]
    run: list[str] = []
    cut = 0

    def flush() -> None:
        nonlocal cut
        if len(run) > 2 * DIFF_CONTEXT + 1:
            n = len(run) - 2 * DIFF_CONTEXT
            out.extend(run[:DIFF_CONTEXT])
            out.append(f"E{' ' * max(col - 1, 1)}... {n} unchanged lines")
            out.extend(run[-DIFF_CONTEXT:])
            cut += n
        else:
            out.extend(run)
        run.clear()

    for ln in lines[start + 1 :]:
        mark = ln[col : col + 1]
        if mark in ("-", "+", "?"):
            flush()
            out.append(ln)
        else:
            run.append(ln)
    flush()
    return out, cut


def _dedent_e(lines: list[str]) -> list[str]:
    """``E       assert 4 == 5`` -> ``E   assert 4 == 5`` (relative indentation kept)."""
    bodies = [ln[1:] for ln in lines]
    widths = [len(b) - len(b.lstrip(" ")) for b in bodies if b.strip()]
    strip = max(min(widths, default=3) - 3, 0)
    return ["E" + b[strip:] if b.strip() else "E" for b in bodies]


# ---------------------------------------------------------------------------
# warnings summary
# ---------------------------------------------------------------------------

_WARN_MSG = re.compile(r"^  (\S.*?):(\d+): (\w[\w.]*): (.*)$")
_WARN_COUNT = re.compile(r"^(\S.*): (\d+) warnings?$")
MAX_GROUPS = 200  # distinct (category, message) pairs remembered; more go to "other"
MAX_PLACES = 3


class _Group:
    __slots__ = ("count", "places")

    def __init__(self) -> None:
        self.count = 0
        self.places: list[str] = []


class Warnings:
    """The "warnings summary" section, grouped by category and message, counted."""

    def __init__(self, rootdir: str = "") -> None:
        self.rootdir = rootdir
        self.groups: dict[tuple[str, str], _Group] = {}
        self.other = 0
        self.nodes = 0
        self.in_messages = False
        self.node_file = ""

    def feed(self, line: str) -> None:
        if not line.strip():
            self.nodes, self.in_messages = 0, False
            return
        if line.startswith("-- Docs: "):
            return
        if line.startswith("    "):
            return  # the source line that warned
        m = _WARN_MSG.match(line)
        if m:
            path, lineno, cat, msg = m.groups()
            if not self.rootdir and self.node_file and path.endswith("/" + self.node_file):
                self.rootdir = path[: -len(self.node_file) - 1]  # -q prints no "rootdir:" line
            if self.rootdir and path.startswith(self.rootdir + "/"):
                path = path[len(self.rootdir) + 1 :]
            n = self.nodes or 1
            self.in_messages = True
            key = (cat, msg.strip())
            g = self.groups.get(key)
            if g is None:
                if len(self.groups) >= MAX_GROUPS:
                    self.other += n
                    return
                g = self.groups[key] = _Group()
            g.count += n
            where = f"{path}:{lineno}"
            if where not in g.places and len(g.places) <= MAX_PLACES:
                g.places.append(where)
            return
        if line.startswith("  "):
            return  # continuation of a multi-line message
        if self.in_messages:
            self.nodes, self.in_messages = 0, False
        c = _WARN_COUNT.match(line)
        self.nodes += int(c.group(2)) if c else 1
        self.node_file = c.group(1) if c else line.split("::", 1)[0]

    def total(self) -> int:
        return sum(g.count for g in self.groups.values()) + self.other

    def render(self, max_groups: int) -> tuple[list[str], int]:
        """Lines for the grouped warnings and the number of kinds left out."""
        if not self.groups and not self.other:
            return [], 0
        groups = sorted(self.groups.items(), key=lambda kv: -kv[1].count)
        kinds = len(groups)
        out = [f"warnings ({self.total()}, {kinds} kind{'s' if kinds != 1 else ''}):"]
        cut = 0
        for (cat, msg), g in groups[:max_groups]:
            where = ", ".join(g.places[:MAX_PLACES])
            if len(g.places) > MAX_PLACES:
                where += ", ..."
            out.append(f"  {g.count}x {cat}: {msg} ({where})")
        rest = groups[max_groups:]
        if rest:
            out.append(f"  +{len(rest)} more kinds ({sum(g.count for _, g in rest)} warnings)")
            cut += len(rest)
        if self.other:
            out.append(f"  +{self.other} more warnings of other kinds")
            cut += 1
        return out, cut
