"""Filter for ``ls``: directories first, noise dirs counted, ``ls -l`` columns with shared values said once.

The selection never changes: every entry ``ls`` printed is shown, except the
``.``/``..`` pseudo-entries and noise directories (``node_modules``, ``.git``...),
which are named and counted on a line of their own. Above ``limits.listing_budget``
tokens, directories of ``ls -R`` that do not fit are counted (``dir:  (N entries)``). Dotfiles follow ls's own
``-a``/``-A`` rules because the real ``ls`` runs with the user's flags. Long forms keep
every column but the link count (:mod:`rtk.filters.files.lslong`, docs/listings.md). Flags
that change the layout in ways this filter does not read run unfiltered.
"""

from __future__ import annotations

from rtk import config
from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.files import lslong
from rtk.filters.files.lslong import Entry
from rtk.filters.files.paths import Unit, fit, head
from rtk.text import plural, split_lines

COMMANDS = ("ls",)

ENV = {"LC_ALL": "C"}

# Short flags whose output this filter understands; anything else runs raw.
_OK_SHORT = frozenset("aAlhR1tSrUXvcunGLHd")
_SORT_SHORT = frozenset("tSrUXvcu")
_OK_LONG = {
    "--all", "--almost-all", "--human-readable", "--si", "--recursive", "--reverse", "--directory",
    "--dereference", "--dereference-command-line", "--group-directories-first", "--numeric-uid-gid",
    "--no-group", "--color", "--color=never", "--color=auto", "--color=always", "--color=none",
}  # fmt: skip
_SORT_LONG_PREFIX = ("--sort=", "--time=")


class _Opts:
    __slots__ = ("directory", "group", "long", "paths", "recursive", "sorted_by_user")

    def __init__(self) -> None:
        self.long = False
        self.group = True  # the long form has a group column (not -G/--no-group)
        self.recursive = False
        self.sorted_by_user = False
        self.directory = False
        self.paths: list[str] = []


def _parse(args: list[str]) -> _Opts | None:
    o = _Opts()
    only_paths = False
    for a in args:
        if only_paths or a == "-" or not a.startswith("-"):
            o.paths.append(a)
        elif a == "--":
            only_paths = True
        elif a.startswith("--"):
            if a in _OK_LONG:
                pass
            elif a.startswith(_SORT_LONG_PREFIX):
                o.sorted_by_user = True
            else:
                return None
            if a in ("--recursive",):
                o.recursive = True
            elif a == "--reverse":
                o.sorted_by_user = True
            elif a == "--directory":
                o.directory = True
            elif a == "--no-group":
                o.group = False
        else:
            letters = a[1:]
            if not letters or any(c not in _OK_SHORT for c in letters):
                return None
            o.long = o.long or "l" in letters or "n" in letters
            o.recursive = o.recursive or "R" in letters
            o.directory = o.directory or "d" in letters
            o.group = o.group and "G" not in letters
            o.sorted_by_user = o.sorted_by_user or any(c in _SORT_SHORT for c in letters)
    return o


def select(argv: list[str]) -> Spec | None:
    o = _parse(argv[1:])
    if o is None:
        return None
    if o.long:
        return Spec("ls", ls, env=ENV)
    # Short form: `ls -p` marks directories with "/", so the output alone says what is a dir.
    return Spec("ls", ls, env=ENV, run_argv=[argv[0], "-p", *argv[1:]])


def _parse_short(line: str) -> Entry:
    if line.endswith("/") and len(line) > 1:
        return Entry(line[:-1], "d")
    return Entry(line, "f")


def _blocks(lines: list[str], o: _Opts) -> list[tuple[str | None, list[str]]]:
    """Split ls output into (directory header or None, entry lines) blocks."""
    multi = o.recursive or len(o.paths) > 1
    if not multi:
        return [(None, lines)]
    blocks: list[tuple[str | None, list[str]]] = []
    cur: list[str] = []
    header: str | None = None
    expect_header = False
    for ln in lines:
        if ln == "":
            blocks.append((header, cur))
            cur, header, expect_header = [], None, True
            continue
        if (expect_header or (not blocks and not cur)) and ln.endswith(":") and header is None and not cur:
            header = ln[:-1]
            expect_header = False
            continue
        if expect_header:
            raise Unrecognized(f"expected a directory header, got {ln!r}")
        cur.append(ln)
    blocks.append((header, cur))
    return [(h, c) for h, c in blocks if h is not None or c]


def _noise_path(path: str | None, noise: frozenset[str]) -> bool:
    return path is not None and any(part in noise for part in path.replace("\\", "/").split("/"))


def _noise_below(header: str, roots: list[str], noise: frozenset[str]) -> bool:
    """True when ``header`` lies inside a noise dir that is below the root the user listed."""
    for root in roots:
        prefix = root.rstrip("/") + "/"
        if header.startswith(prefix):
            return _noise_path(header[len(prefix) :], noise)
    return False


def ls(argv: list[str], output: str, exit_code: int) -> Filtered:
    o = _parse(argv[1:])
    if o is None:
        raise Unrecognized("unsupported flags")
    noise = frozenset(config.get("filters.noise_dirs"))
    budget = int(config.get("limits.listing_budget"))
    errors: list[str] = []
    lines: list[str] = []
    for ln in split_lines(output):
        (errors if ln.startswith("ls: ") else lines).append(ln)
    blocks = _blocks(lines, o)
    out: list[str] = [*errors]
    hidden: list[str] = []
    hidden_entries = 0
    hidden_dirs = 0
    n_dirs = n_files = 0
    cut = 0
    show_headers = len(blocks) > 1
    kept: list[tuple[str | None, list[Entry]]] = []
    for head_, entry_lines in blocks:
        directory = head_ if head_ is not None else (o.paths[0] if len(o.paths) == 1 and not o.directory else None)
        if head_ is not None and head_ not in o.paths and _noise_below(head_, o.paths or ["."], noise):
            # contents of a hidden noise directory (ls -R recursed into it)
            hidden_dirs += 1
            hidden_entries += sum(1 for ln in entry_lines if not ln.startswith("total "))
            continue
        entries: list[Entry] = []
        for ln in entry_lines:
            if o.long and ln.startswith("total ") and ln[6:].replace(".", "").rstrip("KMGTPEkB").isdigit():
                continue
            e = lslong.parse(ln, o.group) if o.long else _parse_short(ln)
            if e.name in (".", ".."):
                continue
            entries.append(e)
        inside_noise = _noise_path(directory, noise)
        visible: list[Entry] = []
        for e in entries:
            if e.kind == "d" and e.name in noise and not inside_noise and not o.directory:
                hidden.append(e.name + "/")
                continue
            visible.append(e)
        if not o.sorted_by_user:
            visible.sort(key=lambda e: e.kind != "d")  # stable: keeps ls's order within each group
        kept.append((head_, visible))
    common = lslong.Common([e for _, visible in kept for e in visible]) if o.long else None
    if common is not None and (legend := lslong.header(common)):
        out.append(legend)
    units: list[Unit] = []  # directories under their own header
    single: list[str] = []  # entries of a listing without headers
    for head_, visible in kept:
        rows = [lslong.row(e, common) if common is not None else _fmt(e) for e in visible]
        if show_headers and head_ is not None:
            text = "\n".join([f"{head_}:", *("  " + r for r in rows)])
            units.append(Unit(f"{head_}:", text, len(visible), head_))
        else:
            single.extend(rows)
        for e in visible:
            if e.kind == "d":
                n_dirs += 1
            else:
                n_files += 1
    shown, left = head(single, budget)
    out.extend(shown)
    if left:
        out.append(f"+{left} more entries")
    listed, not_listed = fit(units, budget, ("entry", "entries"), "dir")
    out.extend(listed)
    cut += left + not_listed
    if hidden:
        extra = f" ({hidden_entries} entries in {plural(hidden_dirs, 'dir')} below them)" if hidden_dirs else ""
        out.append(f"[hidden noise dirs: {' '.join(sorted(set(hidden)))}{extra}]")
    elif hidden_dirs:
        out.append(f"[hidden: {hidden_entries} entries in {plural(hidden_dirs, 'noise dir')}]")
    out.append(f"{plural(n_dirs, 'dir')}, {plural(n_files, 'file')}")
    # Entries below hidden noise dirs were not listed at all: they are cut, recoverable.
    return Filtered("\n".join(out) + "\n", cut + hidden_entries, None if o.long else _plain_ls(output))


def _plain_ls(output: str) -> str:
    """What plain ``ls`` prints, from the output of the ``ls -p`` rtk ran: the never-worse baseline.

    ``-p`` adds one ``/`` to each directory entry (``ls -dp d/`` prints ``d//``);
    headers end with ``:`` and messages start with ``ls:``.
    """
    lines = output.split("\n")
    return "\n".join(ln[:-1] if ln.endswith("/") and not ln.startswith("ls: ") else ln for ln in lines)


def _fmt(e: Entry) -> str:
    return e.name + "/" if e.kind == "d" else e.name
