"""Lines that are always shown whole: warning/error/failure markers and the blocks around them."""

from __future__ import annotations

from rtk import recache

# Level words as loggers print them (upper case, or inside brackets/after level= in any case).
_LEVEL = recache.pattern(
    r"\b(?:DETAIL|HINT|STATEMENT|CONTEXT):  "  # PostgreSQL's lines that go with an error
    r"|\b(?:WARN(?:ING)?|ERROR|ERR|FATAL|CRIT(?:ICAL)?|SEVERE|ALERT|EMERG(?:ENCY)?|PANIC|FAIL(?:ED|URE)?)\b"
    r"|\[(?i:warn(?:ing)?|error|err|fatal|crit(?:ical)?|alert|emerg|panic|severe)\]"
    r"|(?i:\b(?:level|lvl|severity|loglevel|priority)\s*[=:]\s*\"?(?:warn(?:ing)?|error|err|fatal|crit(?:ical)?|alert|emerg|panic|severe)\b)"
    r"|(?:^|\s)[WEF]/[\w.$-]+(?:\(\s*\d+\))?:"  # Android logcat W/Tag:
    r"|^[WEF]\d{4} \d{2}:\d{2}:\d{2}"  # glog E1124 12:00:00
    r"|^<[0-4]>"  # syslog priority emerg..warning
)
# Words anywhere in a line, any case: the failure itself in prose.
_WORD = recache.pattern(
    r"(?i)(?<!-)\b(?:errors?|exceptions?|traceback|panic(?:ked)?|fatal|fail(?:ed|s|ure|ures)?|warn(?:ing|ings)?"
    r"|critical|abort(?:ed)?|segmentation fault|core dumped|denied|refused|timed? ?out|unreachable|deprecat\w*)\b(?![-=])"
)
# A word that is part of a command-line option or its value (``--error-format=json``, ``no-panic``,
# ``--cap-lints warn``) names no failure: a compiler's command line is not an error.
_OPTION = recache.pattern(r"(?:^|\s)--?[\w-]+[ =]$")
# "0 errors", "no warnings", "errors=0": a count of nothing is not a failure.
_NOTHING = recache.pattern(
    r"(?i)\b(?:0|no|zero|without)\s+(?:\w+\s+)?(?:errors?|warnings?|failures?|failed)\b"
    r"|\b(?:errors?|warnings?|failures?|failed)\s*[=:]\s*0\b"
)
# A structured (JSON) log's level: a name, or pino/bunyan's number (40 warn, 50 error, 60 fatal).
_JSON_LEVEL = recache.pattern(
    r'"(?:level|severity|lvl|levelname|@l|log\.level)"\s*:\s*(?:[456]0\b|"(?i:warn(?:ing)?|error|err|fatal'
    r'|crit(?:ical)?|alert|emerg(?:ency)?|panic|severe)")'
)
_JSON_NUMBER = recache.pattern(r'"level"\s*:\s*\d')
# Access logs: "GET /x HTTP/1.1" 404 ... (common/combined), or the status after a slash-separated timing
# field and the request quoted at the end of the line (``0/0/0/1/1 404 396 ... "GET /x HTTP/1.1"``,
# HAProxy's HTTP log format).
_ACCESS = recache.pattern(r'"(?:[A-Z]+) (\S+)(?: HTTP/[\d.]+)?" ([1-5]\d\d) ')
_ACCESS_TIMED = recache.pattern(r'(?:-?\d+/){2,}-?\d+ ([1-5]\d\d) .*"[A-Z]+ (\S+)(?: HTTP/[\d.]+)?"$')

# Starts of multi-line blocks, kept whole with the lines that continue them.
_BLOCK = recache.pattern(
    r"^Traceback \(most recent call last\):"
    r"|^Exception in thread "
    r"|^(?:[\w$]+\.)+[\w$]*(?:Exception|Error|Throwable)(?::|$)"
    r"|^panic: |^fatal error: |^goroutine \d+ \["
    r"|^thread '.*' panicked at|^stack backtrace:"
)
_CONTINUE = recache.pattern(
    r"^(?:\s|Caused by:|Suppressed:|\.\.\. \d+ more|During handling of the above|The above exception"
    r"|goroutine \d+ \[|created by |\[signal |stack backtrace:|note: |exit status \d"
    r"|[\w./*()\[\]$-]+\(.*\)(?: \{\.\.\.\})?$)"
)
_FRAME = recache.pattern(r"\s+at [\w$.<>/-]+\(.*\)$|\s*\.\.\. \d+ (?:more|common frames omitted)$|Caused by: ")
# Where a diagnostic points (rustc's ` --> src/main.rs:4:9`, a JS frame, a Python frame): part of the line before.
_LOCATION = recache.pattern(r'\s*(?:--> \S+:\d+|at \S.*:\d+\)?$|File ".*", line \d+)')
BLOCK_MAX = 400  # a block longer than this ends there (its lines are still looked at one by one)


_KEYS = (
    "warn", "err", "fatal", "crit", "fail", "severe", "alert", "emerg", "panic", "exception", "traceback", "abort",
    "segmentation", "core dump", "denied", "refused", "timed", "timeout", "time out", "unreachable", "deprecat",
)  # fmt: skip


def is_marker(line: str) -> bool:
    """Whether ``line`` carries a warning, error, failure or panic marker (in any common spelling)."""
    if line[:1] in "WEF<" and _LEVEL.search(line):
        return True
    if line[:1] == "{" and _JSON_LEVEL.search(line):
        return True
    if ":  " in line and _LEVEL.search(line):
        return True
    if access_hint(line):
        hit = access(line)
        if hit is not None and hit[1][0] in "45":
            return True
    low = line.lower()
    for k in _KEYS:
        if k in low:
            break
    else:
        return ("/" in line[:3] or " W/" in line or " E/" in line or " F/" in line) and _LEVEL.search(line) is not None
    if _LEVEL.search(line):
        return True
    words = [m for m in _WORD.finditer(line) if not _OPTION.search(line, max(0, m.start() - 60), m.start())]
    if not words:
        return False
    return not (_NOTHING.search(line) and len(words) <= len(_NOTHING.findall(line)))


def is_marker_unhinted(line: str) -> bool:
    """:func:`is_marker` of a line without a hint (:func:`has_hint`) that is no failed request: its level tests only."""
    return bool(
        (line[:1] in "WEF<" and _LEVEL.search(line))
        or (line[:1] == "{" and _JSON_LEVEL.search(line))
        or (":  " in line and _LEVEL.search(line))
    )


# What a line may carry a marker or open a block with, lowered: the words of is_marker's first test,
# PostgreSQL's DETAIL:, HINT:, STATEMENT: and CONTEXT: with their two spaces (not every ``LOG:  `` line),
# logcat's `` W/`` and Java's Throwable (lines starting with W, E, F, <, a blank or ``...`` are looked at
# whole anyway).
_HINTS = (*_KEYS, "detail:  ", "hint:  ", "statement:  ", "context:  ", " w/", " e/", " f/", "throwable")


def has_hint(line: str) -> bool:
    """Whether ``line`` holds a hint (any case): only such a line can be a marker unless it starts like one."""
    return any(map(line.lower().__contains__, _HINTS))


def hinted(lines: list[str]) -> set[int]:
    """The indexes of the lines (none holding a newline) that hold a hint: :func:`has_hint` of each, searched for in C.

    The lines are lowered together and each hint found in the whole text; a hint holds no newline,
    so each one found lies in one line, named by where the lines start.
    """
    from bisect import bisect_right
    from itertools import accumulate

    low = "\n".join(lines).lower()
    starts = list(accumulate(len(x) + 1 for x in low.split("\n")))  # where each next line starts
    out: set[int] = set()
    for h in _HINTS:
        i = low.find(h)
        while i >= 0:
            k = bisect_right(starts, i)
            out.add(k)
            i = low.find(h, starts[k])
    return out


class Hints:
    """:func:`has_hint` of the lines of a block; a JSON event's found with all the block's at once, when first asked."""

    __slots__ = ("found", "lines")

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.found: set[int] | None = None

    def has(self, i: int, line: str) -> bool:
        """Whether ``line``, the block's line ``i``, holds a hint."""
        if line[:1] != "{":
            return has_hint(line)
        if self.found is None:
            self.found = hinted(self.lines)
        return i in self.found


def level_in_digits(line: str) -> bool:
    """Whether ``line`` is a JSON log event with a numeric level: lines alike but for digits differ in level."""
    return line[:1] == "{" and _JSON_NUMBER.search(line) is not None


def is_location(line: str) -> bool:
    """Whether ``line`` only says where something is (`` --> src/main.rs:4:9``): it goes with a marker before it."""
    return line[:1] in " \tFa-" and _LOCATION.match(line) is not None


def access_hint(line: str) -> bool:
    """Whether ``line`` may be an access-log line (a quoted request followed by a blank or ending it)."""
    return '" ' in line or line[-1:] == '"'


def access(line: str) -> tuple[str, str] | None:
    """``(path, status)`` of an access-log line, else None."""
    m = _ACCESS.search(line)
    if m is not None:
        return m.group(1), m.group(2)
    if line[-1:] == '"' and (m := _ACCESS_TIMED.search(line)) is not None:
        return m.group(2), m.group(1)
    return None


# What a log collector puts before each line of a program's output: a journal/syslog prefix
# (``Nov 24 09:21:32 host ingest[26851]: ``) or a compose service prefix (``api-1  | ``). A
# traceback behind it is still a traceback.
_PREFIX = recache.pattern(r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ [^\s:]+: |[\w.-]+\s+\| ")


class Blocks:
    """Follows a stream line by line and says which lines belong to a traceback, stack trace or panic."""

    __slots__ = ("kind", "length", "take_next")

    def __init__(self) -> None:
        self.kind = ""  # "" outside a block, else "py" / "other"
        self.length = 0
        self.take_next = False

    def feed(self, line: str) -> bool:
        """Whether ``line`` is part of a block (the line that starts one included)."""
        if line[:1].isalpha() and (m := _PREFIX.match(line)):
            line = line[m.end() :]
        if _FRAME.match(line):  # a stack frame is part of a trace wherever the trace started
            self.kind = self.kind or "other"
            self.length += 1
            return True
        if _BLOCK.match(line):
            self.kind = "py" if line.startswith("Traceback") else "other"
            self.length = 1
            self.take_next = not line.startswith(("Traceback", "stack backtrace", "goroutine"))
            return True
        if not self.kind:
            return False
        self.length += 1
        if self.length > BLOCK_MAX:
            self.kind = ""
            return False
        if self.take_next:  # the message after "panic:" / "panicked at" / an exception's first line
            self.take_next = False
            return True
        if not line.strip():
            self.take_next = False
            return self.kind == "other"  # Go separates its goroutines with blank lines
        if _CONTINUE.match(line):
            return True
        if self.kind == "py":  # the exception line closes a Python traceback
            self.kind = ""
            return True
        self.kind = ""
        return False
