"""Is a text a log (fold it) or data (never fold it silently)? Decided from a sample of its lines."""

from __future__ import annotations

from rtk import recache
from rtk.fold.mask import mask, tokens
from rtk.fold.miner import Miner

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

# A log line starts with a timestamp, a level, a syslog/kernel/glog/logcat prefix or a client address;
# or with one short field (a pid, ``pid:role``, a host or program name) and then a timestamp
# (``28080:M 24 Nov 2026 18:09:41.330 * Ready``, ``api 2026-11-24T07:00:01Z ...``).
_STAMP = r"\[?(?:\d{4}-\d{2}-\d{2}[T _]\d|\d{4}/\d{2}/\d{2} \d|\d{1,2} \w{3} \d{4} \d{2}:\d{2}:\d{2})"
_START = recache.pattern(
    r"\s*(?:\[?\d{4}-\d{2}-\d{2}[T _]\d|\[?\d{4}/\d{2}/\d{2} \d|\[?\d{1,2}/\w{3}/\d{4}"
    r"|\d{1,2} \w{3} \d{4} \d{2}:\d{2}:\d{2}|[\w.:@/-]{1,32} "
    + _STAMP
    + r"|\w{3} [ \d]\d \d{2}:\d{2}:\d{2}|\[?\d{2}:\d{2}:\d{2}|\[\s*\d+\.\d+\]|<\d>|[IWEFD]\d{4} \d"
    r"|\d{1,3}(?:\.\d{1,3}){3} |\[?(?i:trace|debug|info|notice|warn(?:ing)?|error|fatal|critical|severe)\b"
    r"|[VDIWEF]/\w|\d{10}(?:\.\d+)?:?\s|(?:time|ts|level)=)"
)
# Epoch seconds (2001-2286) then a colon (mosquitto's ``1795551994: New connection``) is a log line's time,
# not a YAML key: no YAML document keys 90% of its lines by a 10-digit number.
_EPOCH = recache.pattern(r"\d{10}(?:\.\d+)?: ")
_YAML = recache.pattern(r"\s*(?:- |[\w.\"'-]+:(?: |$))")
DATA_EXT = (".json", ".jsonl", ".ndjson", ".yaml", ".yml", ".csv", ".tsv", ".toml", ".xml", ".html", ".svg")


def data_kind(lines: list[str]) -> str | None:
    """``json``, ``yaml``, ``csv``, ``tsv`` or ``table`` when the lines are data, else None."""
    body = [ln for ln in lines if ln.strip()]
    if not body:
        return None
    first = body[0].strip()
    if first[:1] == "{" and json_log(body):
        return None
    # JSON opens with an object, or an array whose first line is only "[" or ends like JSON; a log
    # line that merely starts with a bracket (``[    0.000000] Linux``, ``[INFO] Building``) is not.
    if first[:1] == "{" or (
        first[:1] == "[" and (first == "[" or (first[-1:] in ']}[{,"' and first[1:2] in '[{"]0123456789-tfn '))
    ):
        return "json"
    if _json_after_preamble(body):
        return "json"
    if first.startswith("---") or _most(lambda ln: _YAML.match(ln) and not _EPOCH.match(ln), body, 0.9):
        return "yaml"
    for sep, name in (("\t", "tsv"), (",", "csv")):
        n = body[0].count(sep)
        if n < 2 or f"{sep} " in body[0]:
            continue
        if _most(lambda ln: ln.count(sep) == n, body, 0.95):  # noqa: B023  (used before the loop moves on)
            return name
    if _aligned(body):
        return "table"
    return None


# A structured log writes one JSON object a line with its level and its message (pino, bunyan, structlog,
# logrus/zap/slog JSON, python-json-logger, Serilog compact): each line is a log event, not a document.
_LEVEL_KEYS = (
    '"level":',
    '"level": ',
    '"severity":',
    '"severity": ',
    '"lvl":',
    '"levelname":',
    '"levelname": ',
    '"@l":',
    '"log.level":',
)
_MSG_KEYS = ('"msg":', '"msg": ', '"message":', '"message": ', '"@m":', '"@mt":', '"event":', '"event": ')


# What a level holds in a log event: a level's name, or a number (pino/bunyan 10-60, syslog 0-7).
# Data with a "level" member of its own ("beginner", "B2", 1200) is not a log.
LEVEL_NAMES = frozenset(
    [
        "trace",
        "debug",
        "verbose",
        "fine",
        "finer",
        "finest",
        "config",
        "info",
        "information",
        "informational",
        "notice",
        "warn",
        "warning",
        "error",
        "err",
        "severe",
        "fatal",
        "critical",
        "crit",
        "alert",
        "emerg",
        "emergency",
        "panic",
        "dpanic",
    ]
)


def _json_after_preamble(body: list[str]) -> bool:
    """A JSON document after a few lines a tool printed first (``warning: ...`` then a report): data.

    The document opens on a line that is only ``[`` or ``{`` within the first five lines and the
    output ends on a line that is only ``]`` or ``}``: a log does not.
    """
    return body[-1].strip() in ("]", "}") and any(ln.strip() in ("[", "{") for ln in body[1:5])


def _has_level(s: str) -> bool:
    """Whether a level key of ``s`` holds a level: a name of :data:`LEVEL_NAMES` (any case) or a number up to 100."""
    for k in _LEVEL_KEYS:
        i = s.find(k)
        while i >= 0:
            v = s[i + len(k) :].lstrip()[:24]
            if v[:1] == '"':
                end = v.find('"', 1)
                if end > 0 and v[1:end].lower() in LEVEL_NAMES:
                    return True
            else:
                n = len(v) - len(v.lstrip("0123456789"))
                if 0 < n <= 3 and int(v[:n]) <= 100:
                    return True
            i = s.find(k, i + 1)
    return False


def json_log(body: list[str]) -> bool:
    """Whether 90% of the lines are one-line JSON objects that each name a level and a message (a structured log)."""

    def event(ln: str) -> bool:
        s = ln.strip()
        return s[:1] == "{" and s[-1:] == "}" and any(map(s.__contains__, _MSG_KEYS)) and _has_level(s)

    return len(body) >= 20 and _most(event, body, 0.9)


_GAP = recache.pattern(r"  +(?=\S)")


def _aligned(body: list[str]) -> bool:
    """A table padded into columns (``dpkg -l``, ``ps``, ``kubectl get``): at least two columns start at the
    same place (after two or more blanks) on 80% of the lines, a header among the first lines names them,
    and the lines do not start like log lines (a log padded after its level or logger is still a log)."""
    sample = body[:400]
    if len(sample) < 20 or _most(_START.match, sample, 0.6):  # log lines (looked at first: it is quicker)
        return False
    starts: dict[int, int] = {}
    for ln in sample:
        for m in _GAP.finditer(ln):
            starts[m.end()] = starts.get(m.end(), 0) + 1
    shared = {i for i, n in starts.items() if n >= 0.8 * len(sample)}
    if len(shared) < 2:
        return False
    # A header names the columns where they start: words, no digits (progress lines align too, without one).
    return any(
        not any(c.isdigit() for c in ln) and len(shared & {m.end() for m in _GAP.finditer(ln)}) >= 2
        for ln in sample[:5]
    )


def _most(test: Callable[[str], object], lines: list[str], share: float) -> bool:
    """Whether ``test`` holds for at least ``share`` of ``lines``: the same answer as counting them all, found
    as soon as it is known (a log's lines are not all looked at to know that most start like log lines)."""
    need = share * len(lines)
    n = len(lines)
    hits = misses = 0
    for ln in lines:
        if test(ln):
            hits += 1
            if hits >= need:
                return True
        else:
            misses += 1
            if n - misses < need:
                return False
    return hits >= need


def looks_like_log(lines: list[str]) -> bool:
    """Most lines start like log lines, or one template covers most of them; never data."""
    body = [ln for ln in lines if ln.strip()]
    if len(body) < 20 or data_kind(body) is not None:
        return False
    if _most(_START.match, body, 0.6) or json_log(body):
        return True
    m = Miner()
    for ln in body:
        m.add([mask(t) for t in tokens(ln)])
    return max(t.count for t in m.templates) >= 0.5 * len(body)


def fold_table(lines: list[str], keep: int = 5) -> tuple[list[str], int]:
    """A long CSV/TSV: its header, first and last rows, every row carrying a problem marker (an
    ``error`` or ``FAILED`` cell; a tab-separated log looks like a TSV), and the exact range of
    each run of rows left out."""
    if len(lines) <= 2 * keep + 2:
        return lines, 0
    from rtk.facts import is_marker as problem_line
    from rtk.fold.markers import is_marker as fold_marker

    def is_marker(line: str) -> bool:  # the fold's markers, and the fact guard's problem lines
        return fold_marker(line) or problem_line(line)

    out = lines[: keep + 1]
    left = 0
    gap = 0  # 1-based line number where the current run of rows left out starts (0: none)
    end = len(lines) - keep  # rows after this line number are shown
    for no in range(keep + 2, end + 1):
        line = lines[no - 1]
        if not is_marker(line):
            gap = gap or no
            continue
        if gap:
            out.append(_left_out(gap, no - 1))
            left += no - gap
            gap = 0
        out.append(line)
    if gap:
        out.append(_left_out(gap, end))
        left += end - gap + 1
    out.extend(lines[end:])
    return out, left


def _left_out(start: int, end: int) -> str:
    return f"… {end - start + 1:,} rows left out (lines {start}-{end}); every row is in the lines named"
