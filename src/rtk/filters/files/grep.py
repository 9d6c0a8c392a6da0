"""Filters for ``grep`` and ``rg``: what the tool prints, regrouped by file; only minified lines are cut.

The engine the user called is the engine that runs, with the user's flags
parsed in that engine's own grammar, plus ``-n -H`` (and ``--no-heading`` for
rg) so every match carries its file and line for parsing. The display follows
what the user's command prints to a pipe (the agent's situation): line numbers
only with ``-n`` (rg numbers lines by default only on a terminal), file names
only when the tool names files (``-H``, several paths, a directory searched;
never for one file or standard input). Named files with several lines get one
``file (N):`` header, their lines as the tool prints them after the name
(``:``/``-`` marks match/context lines when context is on without ``-n``).
Lines keep their indentation; a line longer than ``limits.grep_max_line``
characters (minified code) is cut around the match and says how much. Above
``limits.grep_budget`` tokens, files that do not fit are counted exactly. Flags that change the shape of
the output (``-l``, ``-c``, ``-o``, ``-q``, ``-h``, ``-Z``, ``--json``...) and
any flag not known here mean the command runs unfiltered. Exit status 2 is an
error: the engine's messages are printed first, as they came, and never turned
into "no matches".
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rtk import config
from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.files.paths import Unit, fit, head
from rtk.text import plural, split_lines

COMMANDS = ("grep", "rg")

# --- GNU grep's grammar ---------------------------------------------------------------
_GREP_VALUE_SHORT = frozenset("efmABCdDX")
_GREP_OK_SHORT = frozenset("0123456789EFGHIPRUainrsvwxyU")
_GREP_VALUE_LONG = frozenset(
    (
        "--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context", "--directories",
        "--devices", "--binary-files", "--label", "--include", "--exclude", "--exclude-from", "--exclude-dir",
    )
)  # fmt: skip
_GREP_OK_LONG = frozenset(
    (
        "--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp", "--ignore-case",
        "--no-ignore-case", "--word-regexp", "--line-regexp", "--invert-match", "--line-number", "--with-filename",
        "--no-messages", "--text", "--recursive", "--dereference-recursive", "--line-buffered", "--binary",
        "--color", "--colour",
    )
)  # fmt: skip

# --- ripgrep's grammar ----------------------------------------------------------------
_RG_VALUE_SHORT = frozenset("ABCefgmMtTEjdr")
_RG_OK_SHORT = frozenset("aisSvwxFPUuLz.Hn")
_RG_VALUE_LONG = frozenset(
    (
        "--after-context", "--before-context", "--context", "--regexp", "--file", "--glob", "--iglob",
        "--max-count", "--max-columns", "--type", "--type-not", "--type-add", "--type-clear", "--encoding",
        "--threads", "--max-depth", "--max-filesize", "--ignore-file", "--replace", "--sort", "--sortr", "--color",
        "--colors", "--path-separator", "--pre", "--pre-glob", "--engine", "--regex-size-limit",
        "--dfa-size-limit", "--dfa-size-limit",
    )
)  # fmt: skip
_RG_OK_LONG = frozenset(
    (
        "--hidden", "--no-hidden", "--with-filename", "--line-number", "--no-ignore", "--no-ignore-vcs",
        "--no-ignore-dot", "--no-ignore-global", "--no-ignore-parent", "--no-ignore-exclude", "--no-ignore-files",
        "--ignore", "--follow", "--no-follow", "--multiline", "--multiline-dotall", "--smart-case",
        "--case-sensitive", "--ignore-case", "--fixed-strings", "--no-fixed-strings", "--text", "--no-text",
        "--search-zip", "--crlf", "--trim", "--no-messages", "--no-heading", "--one-file-system",
        "--max-columns-preview", "--unrestricted", "--invert-match", "--word-regexp", "--line-regexp", "--binary",
        "--no-binary", "--no-unicode", "--unicode", "--auto-hybrid-regex", "--pcre2", "--no-pcre2", "--sort-files",
        "--mmap", "--no-mmap", "--block-buffered", "--line-buffered", "--no-config", "--no-require-git",
        "--ignore-file-case-insensitive", "--no-ignore-messages", "--messages", "--no-column", "--no-pre",
    )
)  # fmt: skip


class _Args:
    __slots__ = (
        "context",
        "fixed",
        "icase",
        "names",
        "numbers",
        "paths",
        "pattern_file",
        "patterns",
        "recursive",
        "smart",
    )

    def __init__(self) -> None:
        # What the user's own command shows: -H, -n, -r and the paths searched (for the baseline).
        self.names = self.numbers = self.recursive = False
        self.paths: list[str] = []
        self.context = False
        self.patterns: list[str] = []
        self.pattern_file = False
        self.fixed = False
        self.icase = False
        self.smart = False


def _parse(engine: str, args: list[str]) -> _Args | None:
    """Read the user's flags in the engine's own grammar; None when the output shape would change."""
    grep = engine == "grep"
    value_short = _GREP_VALUE_SHORT if grep else _RG_VALUE_SHORT
    ok_short = _GREP_OK_SHORT if grep else _RG_OK_SHORT
    value_long = _GREP_VALUE_LONG if grep else _RG_VALUE_LONG
    ok_long = _GREP_OK_LONG if grep else _RG_OK_LONG
    o = _Args()
    positional: list[str] = []
    explicit = False
    i = 0
    only = False
    while i < len(args):
        a = args[i]
        if only or not a.startswith("-") or a == "-":
            positional.append(a)
        elif a == "--":
            only = True
        elif a.startswith("--"):
            name, eq, val = a.partition("=")
            if name in value_long:
                if not eq:
                    i += 1
                    if i >= len(args):
                        return None
                    val = args[i]
                o.context = o.context or name in ("--after-context", "--before-context", "--context")
                o.recursive = o.recursive or (name == "--directories" and val == "recurse")
                if name == "--regexp":
                    o.patterns.append(val)
                    explicit = True
                elif name == "--file":
                    o.pattern_file = explicit = True
                elif name in ("--color", "--colour") and val not in ("never", "auto", "always", "ansi"):
                    return None
            elif name in ok_long and (not eq or name in ("--color", "--colour")):
                o.fixed = o.fixed or name == "--fixed-strings"
                o.icase = (o.icase or name == "--ignore-case") and name not in ("--case-sensitive", "--no-ignore-case")
                o.smart = o.smart or name == "--smart-case"
                o.names = o.names or name == "--with-filename"
                o.numbers = o.numbers or name == "--line-number"
                o.recursive = o.recursive or name in ("--recursive", "--dereference-recursive")
            else:
                return None  # -l/-c/-o/--json/--heading... or a flag not known here: run it raw
        else:
            j = 1
            while j < len(a):
                c = a[j]
                if c in value_short:
                    val = a[j + 1 :]
                    if not val:
                        i += 1
                        if i >= len(args):
                            return None
                        val = args[i]
                    o.context = o.context or c in "ABC"
                    o.recursive = o.recursive or (grep and c == "d" and val == "recurse")
                    if c == "e":
                        o.patterns.append(val)
                        explicit = True
                    elif c == "f":
                        o.pattern_file = explicit = True
                    break
                if c not in ok_short:
                    return None
                o.context = o.context or c.isdigit()  # grep -NUM: context lines
                o.fixed = o.fixed or c == "F"
                o.icase = o.icase or c == "i"
                o.smart = o.smart or c == "S"
                o.names = o.names or c == "H"
                o.numbers = o.numbers or c == "n"
                o.recursive = o.recursive or (grep and c in "rR")
                j += 1
        i += 1
    if not explicit:
        if not positional:
            return None  # no pattern: let the engine say so
        o.patterns.append(positional[0])
        positional = positional[1:]
    o.paths = positional
    return o


def select(argv: list[str]) -> Spec | None:
    engine = argv[0].rsplit("/", 1)[-1]
    if _parse(engine, argv[1:]) is None:
        return None
    if engine == "rg":
        return Spec("rg", grep, run_argv=[argv[0], "--no-heading", "-n", "-H", *argv[1:]])
    return Spec("grep", grep, run_argv=[argv[0], "-n", "-H", *argv[1:]])


def _bre_to_python(p: str) -> str:
    """A POSIX basic regex as a Python one (``\\(`` groups, literal ``(``), for locating matches only."""
    out: list[str] = []
    i = 0
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            n = p[i + 1]
            out.append(n if n in "(){}|+?" else c + n)
            i += 2
            continue
        out.append("\\" + c if c in "(){}|+?" else c)
        i += 1
    return "".join(out)


def _matcher(engine: str, o: _Args, argv: list[str]) -> re.Pattern[str] | None:
    if o.pattern_file or not o.patterns:
        return None
    basic = engine == "grep" and not any(f in argv for f in ("-E", "-P", "--extended-regexp", "--perl-regexp"))
    basic = basic and not any(a.startswith("-") and not a.startswith("--") and ("E" in a or "P" in a) for a in argv[1:])
    parts = []
    for p in o.patterns:
        for q in p.split("\n"):
            parts.append(re.escape(q) if o.fixed else (_bre_to_python(q) if basic else q))
    flags = re.IGNORECASE if o.icase or (o.smart and all(not c.isupper() for c in "".join(o.patterns))) else 0
    try:
        return re.compile("|".join(f"(?:{p})" for p in parts), flags)
    except re.error:
        try:
            return re.compile("|".join(re.escape(p) for p in o.patterns), flags)
        except re.error:  # pragma: no cover
            return None


_WINDOW = 400  # characters kept of a cut line, around its first match


def _cut_line(text: str, limit: int, rx: re.Pattern[str] | None) -> tuple[str, bool]:
    """``text`` unchanged unless longer than ``limit``; then a window around the first match, saying what was cut."""
    if len(text) <= limit:
        return text, False
    window = min(limit, _WINDOW)
    m = rx.search(text) if rx is not None else None
    start = 0
    if m is not None:
        start = max(0, min(m.start() - window // 3, len(text) - window))
    end = start + window
    return (
        ("…" if start else "")
        + text[start:end]
        + ("…" if end < len(text) else "")
        + f" [line cut: {window} of {len(text)} chars shown]",
        True,
    )


class _File:
    __slots__ = ("lines", "matches", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[tuple[int, str, str]] = []  # (line number, ":" or "-" or "--", text)
        self.matches = 0


_SPLIT = re.compile(r"(?<=.):(?=\d+:)")  # every place a ``file:N:`` line could end its file name
_EXT = re.compile(r"\.[A-Za-z0-9_]{1,10}$")


def _name_of(line: str) -> str | None:
    """The file name of a ``file:N:text`` line.

    A name may itself hold ``:N:`` (``logs/app:10:backup.conf:1:text``), so every split is a
    candidate: the first that is a file here, else the first that ends in an extension, else the first.
    """
    names = [line[: m.start()] for m in _SPLIT.finditer(line)]
    if len(names) <= 1:
        return names[0] if names else None
    import os

    for name in names:
        try:
            if os.path.isfile(name):
                return name
        except (OSError, ValueError):
            continue
    return next((n for n in names if _EXT.search(n)), names[0])


def _in_file(line: str, name: str) -> tuple[int, str, str] | None:
    """(line number, ``:`` or ``-``, text) when ``line`` is a match or context line of file ``name``."""
    if not line.startswith(name) or len(line) < len(name) + 3:
        return None
    sep = line[len(name)]
    if sep not in ":-":
        return None
    num, s2, text = line[len(name) + 1 :].partition(sep)
    if not s2 or not num.isdigit():
        return None
    return int(num), sep, text


View = list["str | tuple[str, tuple[int, str, str]]"]


def _parse_lines(lines: list[str], context: bool, view: View | None = None) -> tuple[dict[str, _File], list[str]]:
    """Group output lines by file; lines that are not matches (errors, notices) go to the second list.

    ``view``, if given, receives every line in order: a match or context line as
    (file name, (line number, separator, text)), any other line as it is.

    Without context flags every line is ``file:N:text``. With them, context lines
    (``file-N-text``) are told apart by the file name of a match line in the same
    block: context is only printed around matches, so one always follows or precedes.
    """
    files: dict[str, _File] = {}
    other: list[str] = []
    cur: _File | None = None
    for i, ln in enumerate(lines):
        if ln == "--" and context:
            if cur is not None and cur.lines and cur.lines[-1][1] != "--":
                cur.lines.append((0, "--", ""))
            if view is not None:
                view.append(ln)
            continue
        hit = _in_file(ln, cur.name) if cur is not None else None
        if hit is None:
            name = None
            if not context:
                name = _name_of(ln)
            else:
                for j in range(i, min(len(lines), i + 2000)):
                    nxt = lines[j]
                    if nxt == "--":
                        break
                    cand = _name_of(nxt)
                    if cand is not None and _in_file(ln, cand) is not None:
                        name = cand
                        break
            hit = _in_file(ln, name) if name is not None else None
            if name is None or hit is None:
                other.append(ln)
                if view is not None:
                    view.append(ln)
                continue
            cur = files.get(name)
            if cur is None:
                cur = files[name] = _File(name)
        assert cur is not None
        cur.lines.append(hit)
        cur.matches += hit[1] == ":"
        if view is not None:
            view.append((cur.name, hit))
    for f in files.values():
        while f.lines and f.lines[-1][1] == "--":
            f.lines.pop()
    return files, other


def grep(argv: list[str], output: str, exit_code: int) -> Filtered:
    engine = argv[0].rsplit("/", 1)[-1]
    o = _parse(engine, argv[1:])
    if o is None:
        raise Unrecognized("unsupported flags")
    rx = _matcher(engine, o, argv)
    limit = int(config.get("limits.grep_max_line"))
    budget = int(config.get("limits.grep_budget"))
    view: View = []
    files, other = _parse_lines(split_lines(output), o.context, view)
    if not files and other and exit_code == 0:
        raise Unrecognized("no match lines")
    names = _shows_names(engine, o, files)
    cut = 0

    def body(f: _File, named: bool) -> list[str]:
        """The file's lines as the tool prints them, file name included when ``named``."""
        nonlocal cut
        rows = []
        for num, sep, text in f.lines:
            if sep == "--":
                rows.append("--")
                continue
            shown, was_cut = _cut_line(text, limit, rx)
            cut += was_cut
            prefix = (f.name + sep if named else "") + (f"{num}{sep}" if o.numbers else "")
            if not named and not o.numbers and o.context and names:
                prefix = sep  # under a file header: ":" a match, "-" a context line
            rows.append(prefix + shown)
        return rows

    out = list(other)
    total = sum(f.matches for f in files.values())
    if names:
        units = []
        for f in files.values():
            # one match and no context: the line as the tool prints it; else a header and the lines
            one = len(f.lines) == 1
            text = body(f, True)[0] if one else "\n".join([f"{f.name} ({f.matches}):", *body(f, False)])
            units.append(Unit(f.name, text, f.matches, f.name.rsplit("/", 1)[0] if "/" in f.name else ""))
        shown, hidden = fit(units, budget, ("match", "matches"), "file")
        out.extend(shown)
    else:
        shown, hidden = head([r for f in files.values() for r in body(f, False)], budget)
        out.extend(shown)
        if hidden:
            out.append(f"+{hidden} more lines")
    cut += hidden
    if files and (names or cut or exit_code >= 2):
        summary = plural(total, "match", "matches") + (f" in {plural(len(files), 'file')}" if names else "")
        if exit_code >= 2:
            summary += f"; {engine} reported errors (exit {exit_code})"
        out.append(summary)
    return Filtered("\n".join(out) + "\n", cut, _user_view(engine, o, view))


def _shows_names(engine: str, o: _Args, files: Iterable[str]) -> bool:
    """Whether the user's command prints file names: ``-H``, several paths, a directory searched."""
    if o.names or len(o.paths) > 1:
        return True
    if engine == "grep" and not o.recursive:
        return False  # one file, or standard input
    if o.paths:
        return any(f != o.paths[0] for f in files)  # a directory (its files are named), not a file
    # the current directory is searched, unless the engine read standard input
    return not set(files) <= {"(standard input)", "<stdin>"}


def _user_view(engine: str, o: _Args, view: View) -> str:
    """What the user's command prints, without the ``-n -H`` rtk added: the never-worse baseline."""
    files = {v[0] for v in view if not isinstance(v, str)}
    names = _shows_names(engine, o, files)
    out = []
    for v in view:
        if isinstance(v, str):
            out.append(v)
        else:
            name, (num, sep, text) = v
            out.append((name + sep if names else "") + (f"{num}{sep}" if o.numbers else "") + text)
    return "\n".join(out) + "\n" if out else ""
