"""Filter for pytest (also ``python -m pytest``): failures in full, passing tests as counts, streamed.

The run is read line by line: the header and progress lines are dropped as they
come, each failure or error entry is printed (compacted, bounded) as soon as it
is complete, warnings are grouped and counted, and the closing line states the
real counts and what the exit code means. Output in a shape pytest's own
terminal reporter does not print (pytest-sugar and the like) is shown raw.
"""

from __future__ import annotations

import re

from rtk import config
from rtk.filterapi import LineFilter, Spec, Unrecognized
from rtk.filters.python.failures import Block, Warnings
from rtk.filters.python.launch import tool_args, tool_label

COMMANDS = ("pytest", "py.test")

# Flags whose output is a listing or an interactive session: run unfiltered.
_RAW_FLAGS = frozenset(
    (
        "--co", "--collect-only", "--collectonly", "--fixtures", "--funcargs", "--fixtures-per-test",
        "--markers", "--setup-plan", "--setup-only", "--setup-show", "--help", "-h", "--version", "-V",
        "--pdb", "--trace", "--pastebin", "--no-summary",
    )
)  # fmt: skip
# Short options that take a value (the rest of the cluster, or the next word).
_SHORT_WITH_VALUE = frozenset("kmcproWn")
_LONG_WITH_VALUE = frozenset(
    (
        "--tb", "--rootdir", "--basetemp", "--confcutdir", "--deselect", "--ignore", "--ignore-glob",
        "--junitxml", "--junit-xml", "--junit-prefix", "--log-level", "--log-file", "--log-cli-level",
        "--maxfail", "--durations", "--durations-min", "--capture", "--color", "--code-highlight",
        "--import-mode", "--show-capture", "--override-ini", "--verbosity", "--cov", "--cov-report",
        "--numprocesses", "--dist", "--maxprocesses", "--timeout", "--randomly-seed", "-p",
    )
)  # fmt: skip


def _raw_requested(args: list[str]) -> bool:
    """The user asked for a listing, passing-test reports or a debugger: leave the output alone."""
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            break
        if a in _RAW_FLAGS or a.startswith(("--pdb=", "--pdbcls", "--trace=")):
            return True
        if a.startswith("--"):
            if a in _LONG_WITH_VALUE:
                i += 1
            continue
        if not a.startswith("-") or len(a) < 2:
            continue
        for j, c in enumerate(a[1:], 1):
            if c in _SHORT_WITH_VALUE:
                value = a[j + 1 :]
                if not value and i < len(args):
                    value = args[i]
                    i += 1
                if c == "r" and any(ch in value for ch in "APp"):
                    return True  # -rA / -rP: reports of passing tests were asked for
                break
            if c in "hV":
                return True
    return False


def _showlocals(args: list[str]) -> bool:
    for a in args:
        if a == "--":
            break
        if a == "--showlocals":
            return True
        if a.startswith("-") and not a.startswith("--"):
            for c in a[1:]:
                if c == "l":
                    return True
                if c in _SHORT_WITH_VALUE:
                    break
    return False


def select(argv: list[str]) -> Spec | None:
    if _raw_requested(tool_args(argv)):
        return None
    return Spec("pytest", stream=PytestStream)


# ---------------------------------------------------------------------------
# line shapes
# ---------------------------------------------------------------------------

_BANNER = re.compile(r"^=+ (.+?) =+$")
_BLOCK = re.compile(r"^_{3,} (.+?) _{3,}$")
_BANG = re.compile(r"^!{3,} (.+?) !{3,}$")
_STATS = re.compile(
    r"^(?:=+ )?((?:\d+ [a-z]+(?: [a-z]+)?, )*\d+ [a-z]+(?: [a-z]+)? in [\d.]+s(?: \([\d:.]+\))?"
    r"|no tests ran in [\d.]+s(?: \([\d:.]+\))?)(?: =+)?$"
)
_COUNT = re.compile(r"(\d+) ([a-z]+)")
_PCT = r"(?:\s+\[\s*\d+(?:%|/\s*\d+)\])?"
_PCT_ONLY = re.compile(r"^\s+\[\s*\d+(?:%|/\s*\d+)\]$")
_PROGRESS = re.compile(r"^(?:\S+\.\w+ )?([.FEsxXR]+)" + _PCT + r"$")
_STATUS = r"(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN)"
_PROGRESS_V = re.compile(
    r"^(?:\S+::\S.*? |\[gw\d+\] \[\s*\d+%\] )" + _STATUS + r"\b.*?" + _PCT + r"$|^" + _STATUS + _PCT + r"$"
)
_SHORT_KEEP = ("FAILED ", "ERROR ")
_SHORT_CAPPED = ("SKIPPED ", "XFAIL ", "XPASS ", "RERUN ")
_HEADER_KEYS = (
    "platform ", "cachedir:", "rootdir:", "configfile:", "inifile:", "testpaths:", "plugins:", "collecting",
    "collected ", "created: ", "using ", "Using ", "hypothesis profile", "django:", "benchmark:",
    "run-last-failure:", "stepwise:", "asyncio:", "anyio", "metadata:", "sensitiveurl:", "cov:",
)  # fmt: skip
_WORKERS = re.compile(r"^\d+ workers? \[\d+ items?\]$")
_RUNNING = re.compile(r"^\S+\.\w+::\S+ ?$")  # xdist -v: a test id on its own line as it starts
_XML = re.compile(r"^-+ (generated xml file: .+?) -+$")
_NOISE = ("scheduling tests via ", "(to show a full traceback on KeyboardInterrupt")
_DURATIONS_HINT = re.compile(r"^\(\d+ durations? < [\d.]+s hidden\.")
_STATUS_CHARS = {".": "passed", "F": "failed", "E": "error", "s": "skipped", "x": "xfailed", "X": "xpassed"}
_STATUS_WORDS = {
    "PASSED": "passed", "FAILED": "failed", "ERROR": "error", "SKIPPED": "skipped", "XFAIL": "xfailed",
    "XPASS": "xpassed",
}  # fmt: skip

PREAMBLE_MAX = 40  # unknown lines accepted before pytest's own output starts
STRAY_MAX = 40  # lines of unknown kind kept (test prints with -s, plugin notes)
SECTION_HEAD, SECTION_TAIL = 8, 4  # kept of sections we do not parse (durations, coverage...)
SHORT_CAPPED_MAX = 10  # SKIPPED / XFAIL lines of the short summary kept per kind
SHORT_MORE_MAX = 8  # continuation lines kept of a multi-line summary message (-vv)


def _plain_pass(line: str) -> bool:
    """``tests/a.py::test_x PASSED [ 42%]`` (or a bare ``PASSED [ 42%]``): a plain passing id and the progress."""
    head, sep, rest = line.partition(" PASSED")
    if not sep and line.startswith("PASSED"):
        head, sep, rest = "", "PASSED", line[len("PASSED") :]
    plain_id = "::" in head and " " not in head and "[" not in head  # a parameter in brackets is free text
    return bool(sep) and (not head or plain_id) and (not rest or bool(_PCT_ONLY.match(rest)))


class PytestStream(LineFilter):
    """Streaming filter for a pytest run."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.label = tool_label(argv, "pytest")
        self.keep_args = _showlocals(tool_args(argv))
        self.cap = int(config.get("limits.test_failure_lines"))
        self.max_blocks = int(config.get("limits.test_max_failures"))
        self.state = "start"  # start | header | progress | section
        self.section = ""
        self.structured = False
        self.preamble: list[str] = []
        self.rootdir = ""
        self.seed = ""
        self.header_seen = False
        self.block: Block | None = None
        self.blocks = 0
        self.warnings: Warnings | None = None
        self.stats: str | None = None
        self.counts: dict[str, int] = {}  # from progress lines
        self.bangs: list[str] = []
        self.stray = 0
        self.short_seen: dict[str, int] = {}
        self.short_more = 0
        self.sec_head = 0
        self.sec_tail: list[str] = []
        self.sec_cut = 0
        self.internal: Block | None = None
        self.detailed: set[str] = set()  # ids of failures shown in detail
        self.titleless = False
        # The stream fact guard reads only the lines ``feed`` reports: all but the progress lines
        # (``..F.s [ 42%]``, ``tests/a.py::test_x PASSED [ 42%]``), which name no problem, location or test.
        self.reports = True
        self.vouched = False

    # -- helpers ---------------------------------------------------------------

    def _stray(self, line: str) -> str | None:
        if self.stray < STRAY_MAX:
            self.stray += 1
            return line
        self.cut += 1
        return None

    def _count_progress(self, line: str) -> bool:
        if _PCT_ONLY.match(line):
            self.vouched = True
            return True  # the end of a progress line another stream wrote into
        m = _PROGRESS.match(line)
        if m:
            for ch in m.group(1):
                key = _STATUS_CHARS.get(ch)
                if key:
                    self.counts[key] = self.counts.get(key, 0) + 1
            # A file name and status letters (failing tests are named in their sections); a colon may be
            # a location a test printed under -s (src/app.py:12:x.py F): the guard reads that line.
            self.vouched = ":" not in line
            return True
        m = _PROGRESS_V.match(line)
        if m:
            key = _STATUS_WORDS.get(m.group(1) or m.group(2))
            if key:
                self.counts[key] = self.counts.get(key, 0) + 1
            self.vouched = key == "passed" and _plain_pass(line)
            return True
        return False

    def _end_block(self) -> str | None:
        block, self.block = self.block, None
        if block is None:
            return None
        self.blocks += 1
        detailed = self.blocks <= self.max_blocks
        lines, cut = block.close(self.cap if detailed else 2)
        nodeid = block.nodeid() if block.header.startswith("FAILED ") else None
        if nodeid and lines:
            lines[0] = f"FAILED {nodeid}"
        if detailed and block.title:
            self.detailed.add(nodeid or block.title)
        self.cut += cut
        return "\n".join(lines) if lines else None

    def _end_section(self) -> list[str]:
        out: list[str] = []
        done = self._end_block()
        if done:
            out.append(done)
        if self.sec_cut:
            out.append(f"... {self.sec_cut} lines of this section cut")
            self.cut += self.sec_cut
        out.extend(self.sec_tail)
        self.sec_head, self.sec_tail, self.sec_cut = 0, [], 0
        return out

    # -- LineFilter ------------------------------------------------------------

    def feed(self, line: str) -> str | None:
        self.vouched = False
        out = self._feed(line)
        if not self.vouched and self.unvouched is not None:
            self.unvouched.append(line)
        if not out:
            return None
        return "\n".join(out)

    def _feed(self, line: str) -> list[str]:
        if line.startswith("INTERNALERROR>"):
            if self.internal is None:
                self.internal = Block(
                    "INTERNALERROR", "INTERNALERROR (traceback, library frames hidden):", self.rootdir
                )
            self.internal.feed(line[len("INTERNALERROR> ") :])
            return []
        if self.state == "start":
            return self._start(line)
        if self.state == "header":
            if not line.strip():
                self.state = "progress"
            elif line.startswith("rootdir: "):
                self.rootdir = line[len("rootdir: ") :].split(",", 1)[0].strip()
            elif line.startswith("Using --randomly-seed="):
                self.seed = line  # needed to reproduce a failure: shown when the run fails
            elif not (line.startswith(_HEADER_KEYS) or _WORKERS.match(line)):
                return self._common(line)
            return []
        return self._common(line)

    def _start(self, line: str) -> list[str]:
        if line.startswith("Test session starts ("):
            raise Unrecognized("pytest-sugar output")
        if _BANNER.match(line) and "test session starts" in line:
            self.state = "header"
            self.header_seen = True
            return self._flush_preamble()
        if not line.strip():
            return []
        if (
            _BANNER.match(line)
            or _STATS.match(line)
            or _BANG.match(line)
            or self._count_progress(line)
            or line.startswith(_SHORT_KEEP)
        ):
            self.state = "progress"
            return self._flush_preamble() + self._common(line, counted=True)
        if len(self.preamble) >= PREAMBLE_MAX:
            raise Unrecognized("no pytest output in the first lines")
        self.preamble.append(line)
        return []

    def _flush_preamble(self) -> list[str]:
        self.structured = True
        pre, self.preamble = self.preamble, []
        return pre

    def _common(self, line: str, counted: bool = False) -> list[str]:
        self.structured = True
        m = _BANNER.match(line)
        if m:
            title = m.group(1)
            out = self._end_section()
            if _STATS.match(line):
                self.stats = _STATS.match(line).group(1)  # type: ignore[union-attr]
                self.state, self.section = "done", ""
                return out
            self.state, self.section = "section", title
            if title == "warnings summary":
                self.warnings = Warnings(self.rootdir)
            return out
        st = _STATS.match(line)
        if st and self.section != "FAILURES" and self.section != "ERRORS":
            out = self._end_section()
            self.stats = st.group(1)
            self.state, self.section = "done", ""
            return out
        b = _BANG.match(line)
        if b:
            out = self._end_section()
            self.bangs.append(b.group(1).removeprefix("Interrupted: "))
            self.section = ""
            return out
        x = _XML.match(line)
        if x:
            return [f"{x.group(1)}"]  # --junitxml: where the report went
        if self.state == "section":
            return self._in_section(line)
        if not line.strip() or (not counted and self._count_progress(line)):
            return []
        if counted:
            return []
        if line.startswith(_NOISE) or _RUNNING.match(line):
            return []
        s = self._stray(line)
        return [s] if s is not None else []

    def _in_section(self, line: str) -> list[str]:
        sec = self.section
        if sec in ("FAILURES", "ERRORS"):
            bm = _BLOCK.match(line)
            if bm:
                out = self._end_section()
                title = bm.group(1)
                header = title if sec == "ERRORS" else f"FAILED {title}"
                self.block = Block(title, header, self.rootdir, self.keep_args)
                return out
            if self.block is None:
                if not line.strip():
                    return []
                first = not self.titleless
                self.titleless = True
                self.block = Block(None, f"{sec}:" if first else "", self.rootdir, self.keep_args)
            if self.block.feed(line):
                done = self._end_block()
                return [done] if done else []
            return []
        if sec == "warnings summary":
            assert self.warnings is not None
            self.warnings.feed(line)
            return []
        if sec == "short test summary info":
            if line.startswith(_SHORT_KEEP):
                short = self._short(line)
                self.short_more = -1 if short is None else 0
                return [short] if short is not None else []
            if line.startswith(" ") or not line:
                # -vv: the rest of a multi-line message
                if self.short_more < 0 or not line.strip():
                    return []
                if self.short_more < SHORT_MORE_MAX:
                    self.short_more += 1
                    return [line]
                self.cut += 1
                return []
            self.short_more = 0
            for prefix in _SHORT_CAPPED:
                if line.startswith(prefix):
                    n = self.short_seen.get(prefix, 0) + 1
                    self.short_seen[prefix] = n
                    if n <= SHORT_CAPPED_MAX:
                        return [line]
                    self.cut += 1
                    return []
            if not line.strip():
                return []
            s = self._stray(line)
            return [s] if s is not None else []
        # A section we do not parse (durations, coverage, plugin reports): head and tail.
        if not line.strip() or _DURATIONS_HINT.match(line):
            return []
        if self.sec_head < SECTION_HEAD:
            self.sec_head += 1
            return [line]
        self.sec_tail.append(line)
        if len(self.sec_tail) > SECTION_TAIL:
            self.sec_tail.pop(0)
            self.sec_cut += 1
        return []

    def _short(self, line: str) -> str | None:
        """A FAILED/ERROR summary line; its message goes when the entry above already showed it."""
        kind, _, rest = line.partition(" ")
        nodeid, sep, _msg = rest.partition(" - ")
        if (kind == "FAILED" and nodeid in self.detailed) or (
            kind == "ERROR" and f"ERROR collecting {nodeid}" in self.detailed
        ):
            return None  # the entry above carries this id and its message
        if not sep or not self.detailed:
            return line
        test = nodeid.split("::", 1)[1].replace("::", ".") if "::" in nodeid else nodeid
        titles = (test,) if kind == "FAILED" else (f"ERROR at setup of {test}", f"ERROR at teardown of {test}")
        if any(t in self.detailed for t in titles):
            return f"{kind} {nodeid}"
        return line

    def finish(self, exit_code: int) -> str:
        out = self._end_section()
        if self.internal is not None:
            lines, cut = self.internal.close(self.cap)
            out.extend(lines)
            self.cut += cut
        if not self.structured:
            if self.preamble and exit_code in (2, 3, 4):
                out.extend(self.preamble)
            elif not self.internal:
                raise Unrecognized("no pytest output structure")
        if self.warnings is not None:
            lines, cut = self.warnings.render(15)
            out.extend(lines)
            self.cut += cut
        if self.seed and exit_code != 0:
            out.append(self.seed)
        out.append(self._summary(exit_code))
        return "\n".join(out)

    def _summary(self, code: int) -> str:
        label = self.label
        stats = self.stats
        counts: dict[str, int] = {}
        if stats:
            for n, word in _COUNT.findall(stats):
                key = {"errors": "error", "warnings": "warning"}.get(word, word)
                counts[key] = counts.get(key, 0) + int(n)
        progress = ", ".join(f"{n} {k}" for k, n in self.counts.items() if n)
        bad = counts.get("failed", 0) + counts.get("error", 0)
        notes = "; ".join(b for b in self.bangs if b != "KeyboardInterrupt")
        if code == 0:
            if stats is None:
                # only -qq runs (no header either) end without a summary line
                if self.header_seen or not self.counts or self.counts.get("failed") or self.counts.get("error"):
                    raise Unrecognized("exit 0 without a summary line")
                return f"{label}: {progress} (counted from progress; no summary line)"
            if bad:
                raise Unrecognized("exit 0 but the summary reports failures")
            return f"{label}: {stats}"
        if code == 1:
            if stats is None:
                return f"{label}: FAILED (exit 1), no summary line" + (f"; progress: {progress}" if progress else "")
            if not bad:
                return f"{label}: FAILED (exit 1) although the summary reports no failure: {stats}"
            return f"{label}: {stats}" + (f" ({notes})" if notes else "")
        what = {
            2: "interrupted",
            3: "internal error",
            4: "usage error",
            5: "no tests collected",
        }.get(code, "did not finish")
        if code == 2 and "KeyboardInterrupt" in self.bangs:
            what = "interrupted (KeyboardInterrupt)"
        parts = [f"{label}: {what} (exit {code})"]
        if notes:
            parts.append(notes)
        if stats:
            parts.append(stats)
        elif progress:
            parts.append(f"progress before it stopped: {progress}")
        return ": ".join(parts[:2]) + ("; " + "; ".join(parts[2:]) if len(parts) > 2 else "")
