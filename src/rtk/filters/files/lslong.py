"""``ls -l`` entries: the columns read exactly, and printed with what most entries share said once.

An entry keeps its mode (with setuid/sticky bits and the ``+``/``.``/``@`` ACL,
SELinux and xattr markers), owner and group, size as ``ls`` printed it, date, link
target and device numbers; only the link count and the ``total`` line go. A mode per
file type, an ``owner:group`` and a date (or a day) that most entries share are
named once on a header line (:func:`header`); an entry prints those fields only
where it differs (:func:`row`).
"""

from __future__ import annotations

from rtk.filterapi import Unrecognized

KIND = {"-": "f", "d": "d", "l": "l", "p": "p", "s": "s", "c": "c", "b": "b", "D": "D"}
_KIND_WORDS = {
    "d": "dirs", "f": "files", "l": "links", "p": "fifos", "s": "sockets", "c": "char devices",
    "b": "block devices", "D": "doors",
}  # fmt: skip
_SPECIAL = {"p": "fifo", "s": "socket", "c": "char device", "b": "block device", "D": "door"}
_MONTHS = frozenset(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])
_MODE_CHARS = frozenset("rwxsStTlL-?")  # "?": ls could not stat the entry


class Entry:
    """One entry of a listing; ``mode``/``owner``/``date`` are empty for the short forms."""

    __slots__ = ("date", "device", "exe", "kind", "mode", "name", "owner", "size", "target")

    def __init__(self, name: str, kind: str) -> None:
        self.name = name
        self.kind = kind  # d f l p s c b D
        self.size = ""  # as ls printed it, bytes as "20B"
        self.target = ""
        self.exe = False
        self.mode = ""  # permission bits and markers, without the type letter: "rwxr-xr-x", "rw-r--r--."
        self.owner = ""  # "owner:group", or "owner" without a group column
        self.date = ""  # "Nov 22 04:00", "Apr 10 2018", "2026-11-22 04:00"
        self.device = ""  # "4, 64"


def _tokens(line: str, count: int) -> list[tuple[int, int]]:
    """Start and end offsets of the first ``count`` whitespace-separated tokens."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(line)
    while len(spans) < count:
        while i < n and line[i] == " ":
            i += 1
        if i >= n:
            break
        j = i
        while j < n and line[j] != " ":
            j += 1
        spans.append((i, j))
        i = j
    return spans


def _is_time(t: str) -> bool:
    return len(t) == 5 and t[2] == ":" and t[:2].isdigit() and t[3:].isdigit()


def _date_tokens(words: list[str]) -> int:
    """How many of ``words`` (the tokens after the size) are the date; Unrecognized when it is no date."""
    first = words[0] if words else ""
    if first == "?":  # ls could not stat the entry
        return 1
    if first in _MONTHS and len(words) >= 3 and words[1].isdigit() and 1 <= int(words[1]) <= 31:
        if _is_time(words[2]) or (len(words[2]) == 4 and words[2].isdigit()):
            return 3
    elif len(first) == 10 and first[4] == "-" and first[7] == "-" and first.replace("-", "").isdigit():
        second = words[1] if len(words) > 1 else ""
        if _is_time(second):  # long-iso
            return 2
        if _is_time(second[:5]) and len(words) > 2 and words[2][:1] in "+-":  # full-iso
            return 3
        return 1  # iso, an old file
    elif len(first) == 5 and first[2] == "-" and len(words) > 1 and _is_time(words[1]):  # iso, a recent file
        return 2
    raise Unrecognized(f"no date in {' '.join(words)!r}")


def parse(line: str, group: bool) -> Entry:
    """One ``ls -l`` line; ``group`` is False for ``-G``/``--no-group`` (no group column)."""
    spans = _tokens(line, 11)
    words = [line[a:b] for a, b in spans]
    mode = words[0] if words else ""
    if len(mode) < 10 or mode[0] not in KIND or any(c not in _MODE_CHARS for c in mode[1:10]):
        raise Unrecognized(f"long line {line!r}")
    if len(words) < 7 or not (words[1].isdigit() or words[1] == "?"):
        raise Unrecognized(f"long line {line!r}")
    kind = KIND[mode[0]]
    at = 4 if group else 3
    owner = ":".join(words[2:at])
    device = ""
    if kind in ("c", "b") and words[at].endswith(","):
        device = f"{words[at]} {words[at + 1]}"
        at += 2
    else:
        if not (words[at][:1].isdigit() or words[at] == "?"):
            raise Unrecognized(f"size in {line!r}")
        at += 1
    size = "" if device else words[at - 1]
    n = _date_tokens(words[at:])
    last = at + n - 1
    if last >= len(spans) or spans[last][1] >= len(line) - 1 or line[spans[last][1]] != " ":
        raise Unrecognized(f"no name in {line!r}")
    name = line[spans[last][1] + 1 :]
    if kind == "d" and name.endswith("/") and len(name) > 1:
        name = name[:-1]
    e = Entry(name, kind)
    if kind == "l" and " -> " in name:
        e.name, _, e.target = name.partition(" -> ")
    e.size = size + "B" if size.isdigit() else size
    e.mode = mode[1:]
    e.exe = kind == "f" and any(c in "xs" for c in mode[1:10])
    e.owner = owner
    e.date = " ".join(words[at : at + n])
    e.device = device
    return e


def _most(values: list[str]) -> str:
    """The value more than half of ``values`` share (at least two of them), else ``""``."""
    counts: dict[str, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    best = max(counts.items(), key=lambda kv: kv[1], default=("", 0))
    return best[0] if best[1] >= 2 and best[1] * 2 > len(values) else ""


class Common:
    """What most entries share: a mode per kind, an owner, a date or a day."""

    __slots__ = ("date", "day", "modes", "owner")

    def __init__(self, entries: list[Entry]) -> None:
        entries = [e for e in entries if not e.mode.startswith("?")]  # ls could not stat them
        by_kind: dict[str, list[str]] = {}
        for e in entries:
            by_kind.setdefault(e.kind, []).append(e.mode)
        self.modes = {k: m for k, v in by_kind.items() if (m := _most(v))}
        self.owner = _most([e.owner for e in entries])
        self.date = _most([e.date for e in entries])
        self.day = ""
        if not self.date:
            self.day = _most([e.date[:-6] if _is_time(e.date[-5:]) and e.date[:3] in _MONTHS else "" for e in entries])


def header(c: Common) -> str:
    """The line naming what entries do not repeat, or ``""`` when nothing is shared."""
    parts = [f"owner {c.owner}"] if c.owner else []
    parts += [f"{_KIND_WORDS[k]} {c.modes[k]}" for k in _KIND_WORDS if k in c.modes]
    if c.date:
        parts.append(f"date {c.date}")
    elif c.day:
        parts.append(f"day {c.day} (time per entry)")
    return f"[unless shown per entry: {', '.join(parts)}]" if parts else ""


def row(e: Entry, c: Common) -> str:
    """An entry: its name (``/`` for a dir, ``*`` for an executable, ``-> target``), two spaces, then
    the size and what differs from the header, one space apart: ``app.py  120B rwx------ ann:dev Nov 2 09:14``."""
    if e.kind == "d":
        fields = [e.name + "/"]
    elif e.kind == "l":
        fields = [f"{e.name} -> {e.target}" if e.target else e.name + "@"]
    elif e.kind == "f":
        fields = [e.name + ("*" if e.exe else ""), e.size]
    else:
        dev = f" {e.device}" if e.device else ""
        fields = [f"{e.name} ({_SPECIAL[e.kind]}{dev})"]
    if e.mode.startswith("?????????"):  # ls could not stat it (its message says why)
        return f"{fields[0]}  ?"
    if e.mode != c.modes.get(e.kind):
        fields.append(e.mode)
    if e.owner != c.owner:
        fields.append(e.owner)
    if e.date != c.date:
        fields.append(e.date[-5:] if c.day and e.date[:-6] == c.day else e.date)
    rest = " ".join(f for f in fields[1:] if f)
    return f"{fields[0]}  {rest}" if rest else fields[0]
