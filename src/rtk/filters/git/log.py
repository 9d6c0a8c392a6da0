"""``git log`` and ``git show``: every commit on one line, tags compact, diffs with every hunk whole.

``git log`` keeps every commit git printed (merges and their parents included), in
git's order, with its hash (10 hex digits, practically never ambiguous),
decorations and subject, under a line naming the author and day of each run of
commits; the first body line is kept and the rest counted. ``git show`` keeps the
whole message and the diff (every hunk whole, as ``git diff``). Both run with
``--decorate`` (which branch, tag or detached HEAD points where) unless the user
chose. Format flags run unfiltered.
"""

from __future__ import annotations

import rtk.filters.git.diff as _gitdiff
from rtk import options
from rtk.filterapi import C_LOCALE, Filtered, Spec, Unrecognized
from rtk.text import split_lines

_MONTHS = {
    m: i for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], 1)
}
_HEX = frozenset("0123456789abcdef")
# Hash digits shown: unique in practice even in repositories of millions of objects.
HASH_LEN = 10

# Flags after which the output is not the default medium format (or is a patch): raw.
LOG_RAW_LONG = (
    "--oneline", "--format", "--pretty", "--patch", "--stat", "--numstat", "--shortstat", "--dirstat",
    "--cumulative", "--summary", "--name-only", "--name-status", "--raw", "--word-diff", "--color-words",
    "--graph", "--show-signature", "--parents", "--children", "--left-right", "--boundary", "--source",
    "--cc", "--combined-all-paths", "--compact-summary", "--check", "--null", "--walk-reflogs",
    "--show-linear-break", "--unified", "--function-context", "--binary", "--line-prefix", "--log-size",
    "--cherry-mark", "--cherry", "--diff-merges", "--remerge-diff", "--dd", "--full-diff", "--help",
    "--output", "--ext-diff",
)  # fmt: skip
LOG_RAW_SHORT = "puzgcmtWLUXh"
# git show prints a patch by default, but an explicit -p/-u/--patch is the user's format choice: raw, as for log.
SHOW_RAW_LONG = tuple(f for f in LOG_RAW_LONG if f not in ("--cc", "--full-diff", "--unified", "--function-context"))
SHOW_RAW_SHORT = "puzgmLXh"


def _wants(args: list[str], names: tuple[str, ...]) -> bool:
    for a in args:
        if a == "--":
            return False
        if a.startswith("--") and a.split("=", 1)[0] in names:
            return True
    return False


def log_spec(argv: list[str], sub_index: int) -> Spec | None:
    if _gitdiff.has_flag(argv[sub_index + 1 :], LOG_RAW_LONG, LOG_RAW_SHORT):
        return None
    return Spec("git-log", log, run_argv=with_presentation(argv, sub_index), env=C_LOCALE)


def show_spec(argv: list[str], sub_index: int) -> Spec | None:
    args = argv[sub_index + 1 :]
    if _gitdiff.has_flag(args, SHOW_RAW_LONG, SHOW_RAW_SHORT):
        return None
    for a in _gitdiff.operands(args[: args.index("--")] if "--" in args else args):
        if ":" in a:
            return None  # `git show rev:path` prints a file (or tree): exact bytes, unfiltered
    return Spec("git-show", show, run_argv=with_presentation(argv, sub_index), env=C_LOCALE)


def with_presentation(argv: list[str], sub_index: int) -> list[str] | None:
    """argv plus ``--decorate`` right after the subcommand, unless the user chose."""
    args = argv[sub_index + 1 :]
    if _wants(args, ("--decorate", "--no-decorate")):
        return None
    return [*argv[: sub_index + 1], "--decorate", *args]


class Commit:
    """One commit (or annotated tag) of log/show output."""

    __slots__ = ("author", "date", "diff", "kind", "message", "name", "notes", "parents", "refs")

    def __init__(self, kind: str, name: str, refs: str) -> None:
        self.kind = kind  # commit | tag
        self.name = name  # hash or tag name
        self.refs = refs
        self.parents: list[str] = []
        self.author = ""
        self.date = ""
        self.message: list[str] = []
        self.notes: list[str] = []
        self.diff: list[_gitdiff.FileDiff] = []


def _commit_line(ln: str) -> Commit | None:
    """``commit <hex>[ (<refs>)]`` -> Commit; None for anything else."""
    if not ln.startswith("commit "):
        return None
    rest = ln[7:]
    sha, _, refs = rest.partition(" ")
    if len(sha) < 4 or not set(sha) <= _HEX:
        return None
    if refs and not (refs.startswith("(") and refs.endswith(")")):
        return None
    return Commit("commit", sha[:HASH_LEN], refs[1:-1])


def short_date(date: str, keep: bool) -> str:
    """``Mon Nov 2 05:29:00 2026 +0000`` -> ``2026-11-02`` (other formats verbatim)."""
    parts = date.split()
    if keep or len(parts) != 6 or parts[1] not in _MONTHS or not parts[2].isdigit() or not parts[4].isdigit():
        return date
    return f"{parts[4]}-{_MONTHS[parts[1]]:02d}-{int(parts[2]):02d}"


def _person(value: str) -> str:
    """``Name <mail>`` -> ``Name``."""
    name, sep, _ = value.rpartition(" <")
    return name if sep and value.endswith(">") else value


def parse(lines: list[str], with_diff: bool) -> tuple[list[Commit], list[str]]:
    """Commits and tags of medium-format output; returns (items, warnings)."""
    items: list[Commit] = []
    notes: list[str] = []
    i = 0
    n = len(lines)
    while i < n:
        ln = lines[i]
        if not ln:
            i += 1
            continue
        if ln.startswith(("warning: ", "error: ")) and not items:
            notes.append(ln)
            i += 1
            continue
        c = _commit_line(ln)
        if c is None and with_diff and ln.startswith("tag ") and " " not in ln[4:]:
            c = Commit("tag", ln[4:], "")
        if c is None:
            raise Unrecognized(f"expected a commit, got {ln!r}")
        i += 1
        # headers up to the blank line
        while i < n and lines[i]:
            h = lines[i]
            key, sep, val = h.partition(":")
            val = val.strip()
            if not sep:
                raise Unrecognized(f"header {h!r}")
            if key == "Merge" and c.kind == "commit":
                c.parents = val.split()
            elif key in ("Author", "Tagger"):
                c.author = val
            elif key == "Date":
                c.date = val
            else:
                raise Unrecognized(f"header {h!r}")
            i += 1
        if not c.author:
            raise Unrecognized(f"no author for {c.name}")
        i += 1  # the blank line
        if c.kind == "tag":
            # tag messages are not indented: they run up to the tagged object
            while i < n and _commit_line(lines[i]) is None:
                c.message.append(lines[i])
                i += 1
            while c.message and not c.message[-1]:
                c.message.pop()
        else:
            while i < n and lines[i].startswith("    "):
                c.message.append(lines[i][4:])
                i += 1
            if i < n and not lines[i] and i + 1 < n and lines[i + 1].startswith("Notes"):
                i += 1
            if i < n and lines[i].startswith("Notes") and lines[i].endswith(":"):
                i += 1
                while i < n and lines[i].startswith("    "):
                    c.notes.append(lines[i][4:])
                    i += 1
            if with_diff:
                if i < n and not lines[i] and i + 1 < n and _gitdiff.is_diff_start(lines[i + 1]):
                    i += 1
                if i < n and _gitdiff.is_diff_start(lines[i]):
                    c.diff, i = _gitdiff.parse(lines, i)
            if i < n and lines[i] and _commit_line(lines[i]) is None:  # (an empty message has no blank line)
                raise Unrecognized(f"after commit {c.name}: {lines[i]!r}")
        items.append(c)
    return items, notes


def _subject(c: Commit) -> str:
    subject = c.message[0] if c.message else ""
    if c.kind == "tag":
        return f"tag {c.name}"
    out = c.name + (f" ({c.refs})" if c.refs else "") + (f" {subject}" if subject else "")
    if c.parents:
        out += f" [merge {' '.join(c.parents)}]"
    return out


def _who(c: Commit, keep_dates: bool) -> str:
    return f"{_person(c.author)}, {short_date(c.date, keep_dates)}"


def _body(lines: list[str]) -> list[str]:
    """Message lines after the subject, without leading/trailing blank lines."""
    body = lines[1:]
    while body and not body[0].strip():
        body.pop(0)
    while body and not body[-1].strip():
        body.pop()
    return body


def log(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``git log`` (medium format) -> author/day lines, one line per commit, first body line, counts."""
    if exit_code != 0 or not output.strip():
        return None  # an error, or no commit matched: as git printed it
    items, notes = parse(split_lines(output), with_diff=False)
    if not items:
        raise Unrecognized("no commits")
    keep_dates = _wants(argv, ("--date",))
    ultra = options.ultra_compact
    out = list(notes)
    cut = 0
    merges = 0
    group = None
    for c in items:
        who = _who(c, keep_dates)
        if who != group and not ultra:
            out.append(who + ":")
            group = who
        out.append(("" if ultra else "  ") + _subject(c))
        merges += bool(c.parents)
        for label, text in (("", _body(c.message)), ("notes: ", c.notes)):
            text = [t for t in text if t.strip()]
            if not text:
                continue
            more = len(text) - 1
            if ultra:
                more += 1
            else:
                out.append(
                    f"    {label}{text[0].strip()}" + (f" (+{more} more line{'s' if more > 1 else ''})" if more else "")
                )
            cut += more
    if len(items) > 1:
        out.append(f"{len(items)} commits" + (f", {merges} merges" if merges else ""))
    return Filtered("\n".join(out) + "\n", cut)


def show(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``git show`` of commits and tags -> header line, full message, the diff with every hunk whole."""
    if exit_code != 0:
        return None
    lines = split_lines(output)
    if not lines or not lines[0].startswith(("commit ", "tag ", "warning: ")):
        return None  # a blob or a tree: exactly as git printed it
    items, notes = parse(lines, with_diff=True)
    keep_dates = _wants(argv, ("--date",))
    out = list(notes)
    for c in items:
        out.append(_subject(c) + ("" if options.ultra_compact else f" · {_who(c, keep_dates)}"))
        body = c.message[1:] if c.kind == "commit" else c.message
        while body and not body[0].strip():
            body = body[1:]
        out.extend(("  " + b).rstrip() for b in body)
        out.extend("  notes: " + t for t in c.notes if t.strip())
        _gitdiff.render(c.diff, out)
    return Filtered("\n".join(out) + "\n", 0)
