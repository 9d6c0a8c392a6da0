"""Filters for ``find`` and ``fd`` (``fdfind`` on Debian): matches grouped by directory, noise dirs counted.

The real tool runs with the user's arguments, parsed with its own grammar: an
expression with an action other than ``-print`` (``-exec``, ``-delete``,
``-printf``, ``-print0``, ``-ls``...), or any predicate or flag not known here,
runs unfiltered. Every match is shown, one line per directory, except matches
inside noise directories (``node_modules``, ``.git``...) below the starting
point, which are counted per directory on a ``[hidden: ...]`` line. Above
``limits.listing_budget`` tokens, directories that do not fit are shown as
``dir/  (N entries)``. When fd ran
with its default visibility, the output says that hidden and gitignored paths
were not searched.
"""

from __future__ import annotations

from rtk import config
from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.files.paths import Hidden, asked_for, fold_paths, group_lines, noise_dirs, noise_index, rel_to_root
from rtk.text import plural, split_lines

COMMANDS = ("fd", "fdfind", "find")

# --- find's grammar -------------------------------------------------------------------
_FIND_LEADING = frozenset(("-H", "-L", "-P"))
_FIND_OPERATORS = frozenset(("(", ")", "!", ",", "-a", "-and", "-o", "-or", "-not"))
_FIND_NOARG = frozenset(
    (
        "-depth", "-d", "-ignore_readdir_race", "-noignore_readdir_race", "-mount", "-xdev", "-noleaf",
        "-daystart", "-follow", "-warn", "-nowarn", "-empty", "-executable", "-readable", "-writable",
        "-nogroup", "-nouser", "-false", "-true", "-prune", "-print", "-quit",
    )
)  # fmt: skip
_FIND_ONEARG = frozenset(
    (
        "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-regextype",
        "-lname", "-ilname", "-type", "-xtype", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin",
        "-newer", "-anewer", "-cnewer", "-perm", "-user", "-group", "-uid", "-gid", "-links", "-inum",
        "-samefile", "-used", "-maxdepth", "-mindepth", "-fstype", "-context",
    )
)  # fmt: skip


def _find_args(args: list[str]) -> tuple[list[str], list[str]] | None:
    """(starting points, expression words), or None to run unfiltered."""
    i = 0
    while i < len(args) and (args[i] in _FIND_LEADING or args[i].startswith("-O")):
        i += 1
    roots: list[str] = []
    while i < len(args) and not (args[i].startswith("-") or args[i] in ("(", "!", ")", ",")):
        roots.append(args[i])
        i += 1
    words: list[str] = []
    while i < len(args):
        a = args[i]
        if a in _FIND_OPERATORS or a in _FIND_NOARG:
            i += 1
        elif a in _FIND_ONEARG or (a.startswith("-newer") and len(a) == 8):
            if i + 1 >= len(args):
                return None  # find itself reports the missing argument
            words.append(args[i + 1])
            i += 2
        else:
            return None  # an action that prints something else (-exec, -printf, -ls...) or unknown
    return roots or ["."], words


# --- fd's grammar ---------------------------------------------------------------------
_FD_FLAGS = frozenset(
    (
        "-H", "--hidden", "-I", "--no-ignore", "--no-ignore-vcs", "--no-ignore-parent", "-u", "--unrestricted",
        "-s", "--case-sensitive", "-i", "--ignore-case", "-g", "--glob", "--regex", "-F", "--fixed-strings",
        "-a", "--absolute-path", "-L", "--follow", "-p", "--full-path", "--prune", "-1", "--show-errors",
        "--strip-cwd-prefix", "--no-require-git", "--one-file-system", "--no-global-ignore-file",
    )
)  # fmt: skip
_FD_VALUE = frozenset(
    (
        "-d", "--max-depth", "--min-depth", "--exact-depth", "-E", "--exclude", "-t", "--type", "-e",
        "--extension", "-S", "--size", "--changed-within", "--changed-before", "--change-newer-than",
        "--change-older-than", "-o", "--owner", "-j", "--threads", "--max-results", "--base-directory",
        "--path-separator", "--search-path", "--ignore-file", "-c", "--color", "--max-buffer-time",
    )
)  # fmt: skip


class _FdArgs:
    __slots__ = ("hidden", "ignored", "roots", "words")

    def __init__(self) -> None:
        self.roots: list[str] = []
        self.words: list[str] = []
        self.hidden = False  # -H: dotfiles searched
        self.ignored = False  # -I: gitignored paths searched


def _fd_args(args: list[str]) -> _FdArgs | None:
    o = _FdArgs()
    positional: list[str] = []
    hidden = ignored = False
    i = 0
    only = False
    while i < len(args):
        a = args[i]
        if only or not a.startswith("-") or a == "-":
            positional.append(a)
        elif a == "--":
            only = True
        elif a.startswith("--") and "=" in a:
            name, _, val = a.partition("=")
            if name not in _FD_VALUE:
                return None
            o.words.append(val)
            if name == "--search-path":
                o.roots.append(val)
        elif a in _FD_VALUE:
            if i + 1 >= len(args):
                return None
            o.words.append(args[i + 1])
            if a == "--search-path":
                o.roots.append(args[i + 1])
            i += 1
        elif a in _FD_FLAGS:
            hidden = hidden or a in ("-H", "--hidden", "-u", "--unrestricted")
            ignored = ignored or a in ("-I", "--no-ignore", "-u", "--unrestricted")
        elif not a.startswith("--") and len(a) > 2 and all(f"-{c}" in _FD_FLAGS for c in a[1:]):
            hidden = hidden or "H" in a or "u" in a
            ignored = ignored or "I" in a or "u" in a
        else:
            return None  # -l, -0, -x/-X, -q, --format, --help... or unknown
        i += 1
    o.words.extend(positional[:1])
    o.roots.extend(positional[1:])
    o.hidden, o.ignored = hidden, ignored
    return o


def select(argv: list[str]) -> Spec | None:
    tool = argv[0].rsplit("/", 1)[-1]
    if tool == "find":
        return Spec("find", find) if _find_args(argv[1:]) is not None else None
    return Spec("fd", fd) if _fd_args(argv[1:]) is not None else None


def _listing(
    lines: list[str], roots: list[str], words: list[str], err_prefixes: tuple[str, ...]
) -> tuple[list[str], int]:
    """The grouped listing of ``lines`` (paths and tool errors); returns (output lines, items cut)."""
    all_noise = noise_dirs()
    noise = all_noise - asked_for(all_noise, [*roots, *words])
    errors: list[str] = []
    paths: list[str] = []
    for ln in lines:
        (errors if ln.startswith(err_prefixes) else paths).append(ln)
    hidden = Hidden()
    shown: list[str] = []
    noise_seen: set[str] = set()
    root_set = {r.rstrip("/") or "/" for r in roots} | {"."}
    for p in paths:
        if p.rstrip("/") in root_set:
            continue  # the starting point itself: it heads its own group
        base, rel = rel_to_root(p, roots)
        parts = rel.rstrip("/").split("/")
        root_noisy = noise_index([x for x in base.split("/") if x not in ("", ".")], noise) >= 0
        idx = -1 if root_noisy else noise_index(parts[:-1], noise)
        if idx >= 0:
            nd = base + "/".join(parts[: idx + 1])
            hidden.add(nd + "/")
            noise_seen.add(nd)
            continue
        shown.append(p)
    folded = fold_paths(shown)
    dirs: set[str] = set(noise_seen)
    for p, _ in folded:
        q = p.rstrip("/")
        while "/" in q:
            q = q.rsplit("/", 1)[0]
            if not q:
                break
            dirs.add(q)
    out = list(errors)
    if not shown and not hidden.total:
        if errors:
            return out, 0
        raise Unrecognized("no paths")
    listing, cut = group_lines(folded, dirs, int(config.get("limits.listing_budget")))
    out.extend(listing)
    if hidden.total:
        out.append(hidden.line("paths"))
    total = len(shown) + hidden.total
    out.append(f"{plural(total, 'path')}" + (f" ({len(shown)} shown)" if hidden.total else ""))
    return out, cut + hidden.total


def find(argv: list[str], output: str, exit_code: int) -> Filtered:
    parsed = _find_args(argv[1:])
    if parsed is None:
        raise Unrecognized("unsupported expression")
    roots, words = parsed
    out, cut = _listing(split_lines(output), roots, words, ("find: ",))
    return Filtered("\n".join(out) + "\n", cut)


def fd(argv: list[str], output: str, exit_code: int) -> Filtered:
    o = _fd_args(argv[1:])
    if o is None:
        raise Unrecognized("unsupported flags")
    out, cut = _listing(split_lines(output), o.roots, o.words, ("[fd error]", "fd: ", "error: "))
    skipped = [w for w, on in (("hidden", o.hidden), ("gitignored", o.ignored)) if not on]
    if skipped and out:
        flags = " ".join(f for f, on in (("-H", o.hidden), ("-I", o.ignored)) if not on)
        out[-1] += f"; {' and '.join(skipped)} paths were not searched (fd {flags} searches them)"
    return Filtered("\n".join(out) + "\n", cut)
