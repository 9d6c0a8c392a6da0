"""``git add``, ``branch``, ``stash``, ``worktree`` and ``checkout``: compact lists and one-line results.

Every branch, stash entry, worktree and file git listed is kept; what goes is
alignment padding, advice and progress. Failures print git's own text (advice
lines aside) with git's exit code. Interactive forms (``add -p``,
``checkout -p``) run untouched with the terminal.
"""

from __future__ import annotations

import re

import rtk.filters.git.diff as _gitdiff
import rtk.filters.git.diffstat as _gitstat
from rtk.filterapi import C_LOCALE, Filtered, Spec, Unrecognized
from rtk.filters.git.status import status, upstream
from rtk.text import split_lines, unquote_path

_HELP = ("-h", "--help")


def _opts(args: list[str]) -> set[str]:
    """Options before ``--``: long names without values, short clusters split."""
    out: set[str] = set()
    for a in args:
        if a == "--":
            break
        if a.startswith("--"):
            out.add(a.split("=", 1)[0])
        elif a.startswith("-") and len(a) > 1:
            out.update("-" + c for c in a[1:])
    return out


def _text(lines: list[str], cut: int = 0) -> Filtered:
    return Filtered("\n".join(lines) + "\n", cut)


def _without_hints(output: str) -> str | None:
    """A failure: git's text without its advice lines (None when there were none)."""
    lines = split_lines(output)
    kept = [ln for ln in lines if not ln.startswith("hint:")]
    return "\n".join(kept) + "\n" if len(kept) < len(lines) else None


# ---------------------------------------------------------------------------
# git add
# ---------------------------------------------------------------------------


def add_spec(args: list[str]) -> Spec | None:
    opts = _opts(args)
    if opts & {"-i", "--interactive", "-p", "--patch", "-e", "--edit"}:
        return Spec("git-add", live=True)  # asks questions on the terminal
    if opts & set(_HELP):
        return None
    return Spec("git-add", add, env=C_LOCALE)


def add(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``git add`` is silent on success; ``-v``/``-n`` listings are grouped, warnings merged."""
    if exit_code != 0:
        return _without_hints(output)
    verbs: dict[str, list[str]] = {}
    warnings: dict[str, list[str]] = {}
    other: list[str] = []
    for ln in split_lines(output):
        verb, sep, rest = ln.partition(" '")
        if sep and verb in ("add", "remove") and rest.endswith("'"):
            verbs.setdefault(verb, []).append(unquote_path(rest[:-1]))
        elif ln.startswith("warning: in the working copy of '") and "', " in ln:
            path, _, what = ln[len("warning: in the working copy of '") :].partition("', ")
            warnings.setdefault(what, []).append(path)
        else:
            other.append(ln)
    if not verbs and not warnings:
        return None
    out = other
    for what, paths in warnings.items():
        out.append(f"warning: {what} (in the working copy of: {', '.join(paths)})")
    cut = [0]
    for verb, paths in verbs.items():
        label = "added" if verb == "add" else "removed"
        out.append(f"{label} ({len(paths)}):")
        out += _gitstat.files_line(paths, cut)
    return _text(out, cut[0])


# ---------------------------------------------------------------------------
# git branch
# ---------------------------------------------------------------------------

_BRANCH_LIST = {
    "-a", "--all", "-r", "--remotes", "-l", "--list", "-v", "-vv", "--verbose", "--contains", "--no-contains",
    "--merged", "--no-merged", "--points-at", "--sort", "--color", "--no-color", "-i", "--ignore-case",
    "--abbrev", "--no-abbrev", "--omit-empty",
}  # fmt: skip
_BRANCH_SELECT = {"-a", "--all", "-r", "--remotes", "-l", "--list", "--contains", "--no-contains", "--merged",
                  "--no-merged", "--points-at"}  # fmt: skip


def branch_spec(args: list[str]) -> Spec | None:
    opts = _opts(args)
    if not opts <= _BRANCH_LIST:
        return None  # creating, deleting, renaming, --format, --column, --show-current...: as git prints it
    if _gitdiff.operands(args) and not opts & _BRANCH_SELECT:
        return None  # `git branch name` creates a branch
    return Spec("git-branch", branch, env=C_LOCALE)


def branch(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``git branch`` listing -> current branch, then the others on one line per kind, each by its full name."""
    if exit_code != 0:
        return None
    lines = split_lines(output)
    if not lines:
        return None
    verbose = any(a in ("-v", "-vv", "--verbose") or (a.startswith("-v") and set(a[1:]) == {"v"}) for a in argv)
    remotes_only = bool(_opts(argv[1:]) & {"-r", "--remotes"})
    out: list[str] = []
    groups: dict[str, list[str]] = {}
    for ln in lines:
        if len(ln) < 3 or ln[0] not in "*+ " or ln[1] != " ":
            raise Unrecognized(f"branch line {ln!r}")
        mark, body = ln[0], ln[2:]
        if verbose:
            out.append(f"{mark} {_verbose_branch(body)}".lstrip())
            continue
        if " " in body and not (body.startswith("(") and body.endswith(")")) and " -> " not in body:
            raise Unrecognized(f"branch name with a space {body!r}")  # columns, or a format we do not know
        if mark == "*":
            out.append("* " + body)
            continue
        key = "branches"
        if mark == "+":
            key = "in other worktrees"
        elif body.startswith("remotes/") or remotes_only:
            key = "remote-tracking"  # names as git printed them: what the user types (origin/release/0.3)
        groups.setdefault(key, []).append(body)
    for key, names in groups.items():
        out.append(f"{key} ({len(names)}): " + ", ".join(names))
    return _text(out)


def _verbose_branch(body: str) -> str:
    """``main      1a2b3c4 [origin/main] subject`` -> single spaces between the columns."""
    if body.startswith("("):
        end = body.find(") ")
        if end == -1:
            return body
        name, rest = body[: end + 1], body[end + 2 :]
    else:
        name, _, rest = body.partition(" ")
    rest = rest.lstrip()
    if rest.startswith("-> "):
        return f"{name} {rest}"
    sha, _, subject = rest.partition(" ")
    if not sha or not all(c in "0123456789abcdef" for c in sha):
        raise Unrecognized(f"verbose branch line {body!r}")
    return f"{name} {sha} {subject}".rstrip()


# ---------------------------------------------------------------------------
# git stash
# ---------------------------------------------------------------------------

_STASH_SHOW_RAW = (
    "--name-only", "--name-status", "--numstat", "--shortstat", "--dirstat", "--summary", "--raw", "--word-diff",
    "--color-words", "--compact-summary", "--binary", "--check", "--format", "--pretty", "--oneline", "--stat",
    "-z", "--output", "--help",
)  # fmt: skip


def stash_spec(args: list[str]) -> Spec | None:
    if not args:
        return None  # `git stash`: one line already
    sub, rest = args[0], args[1:]
    if sub == "list":
        return Spec("git-stash-list", stash_list, env=C_LOCALE) if not rest else None
    if sub == "show":
        if _gitdiff.has_flag(rest, _STASH_SHOW_RAW, "zh"):
            return None
        opts = _opts(rest)
        if opts & {"-p", "--patch"}:
            return None  # the user chose the patch format explicitly (lesson 11): raw, as git diff -p
        if opts - {"--include-untracked", "--only-untracked", "-u"}:
            return None
        return Spec("git-stash-show", stash_show, env=C_LOCALE)
    if sub in ("pop", "apply"):
        if _opts(rest) & set(_HELP):
            return None
        return Spec("git-stash-apply", stash_apply, env=C_LOCALE)
    return None


def stash_list(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``stash@{0}: WIP on main: 1a2b3c4 subject`` -> ``stash@{0} main: WIP 1a2b3c4 subject``."""
    if exit_code != 0:
        return None
    out = []
    for ln in split_lines(output):
        ref, sep, rest = ln.partition(": ")
        if not sep or not ref.startswith("stash@{"):
            raise Unrecognized(f"stash line {ln!r}")
        if rest.startswith("WIP on "):
            where, _, msg = rest[len("WIP on ") :].partition(": ")
            out.append(f"{ref} {where}: WIP {msg}")
        elif rest.startswith("On "):
            where, _, msg = rest[len("On ") :].partition(": ")
            out.append(f"{ref} {where}: {msg}")
        else:
            out.append(f"{ref} {rest}")
    return _text(out) if out else None


def stash_show(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``git stash show`` (a diffstat) -> the counts, then every file with its changes."""
    if exit_code != 0:
        return None
    total = ""
    files: list[str] = []
    for ln in split_lines(output):
        summary = _gitstat.stat_summary(ln)
        if summary is not None:
            n, a, d = summary
            total = f"{n} file{'s' if n != 1 else ''} changed, +{a} -{d}"
            continue
        entry = _gitstat.stat_file(ln)
        if entry is None:
            raise Unrecognized(f"stat line {ln!r}")
        files.append(entry[0] + entry[1])
    if not total:
        raise Unrecognized("no summary line")
    cut = [0]
    out = [total, *_gitstat.files_line(files, cut)]
    return _text(out, cut[0])


def stash_apply(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``git stash pop/apply`` -> conflicts and errors as git said them, the status compacted."""
    lines = split_lines(output)
    start = next((k for k, ln in enumerate(lines) if ln.startswith(("On branch ", "HEAD detached "))), None)
    if start is None:
        return _without_hints(output) if exit_code else None
    end = len(lines)
    while end > start and lines[end - 1].startswith(("Dropped ", "The stash entry is kept")):
        end -= 1
    res = status(["git", "status"], "\n".join(lines[start:end]) + "\n", 0)
    if res is None:
        return None
    text, cut = (res, 0) if isinstance(res, str) else (res.text, res.cut)
    pre = [ln for ln in lines[:start] if not ln.startswith(("Auto-merging ", "hint:"))]
    post = []
    for ln in lines[end:]:
        if ln.startswith("Dropped refs/stash@{") and ln.endswith(")"):
            ref, _, sha = ln[len("Dropped refs/") : -1].partition(" (")
            post.append(f"dropped {ref} ({sha[:10]})")
        else:
            post.append(ln)
    return _text([*pre, text.rstrip("\n"), *post], cut)


# ---------------------------------------------------------------------------
# git worktree
# ---------------------------------------------------------------------------


# path (may contain spaces), commit or "(bare)", branch or "(detached HEAD)", states
_WORKTREE = re.compile(
    r"^(.*\S)\s+(\(bare\)|[0-9a-f]{4,64})(?: (\[.*\]|\(detached HEAD\)|\(error\)))?((?: locked| prunable)*)$"
)


def worktree_spec(args: list[str]) -> Spec | None:
    if args[:1] == ["list"] and not _opts(args[1:]) - {"-v", "--verbose", "--expire"}:
        return Spec("git-worktree-list", worktree_list, env=C_LOCALE)
    return None  # add/remove/move/prune/lock print a line or two already


def worktree_list(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``git worktree list`` -> path, commit, branch and state, without the column padding."""
    if exit_code != 0:
        return None
    out: list[str] = []
    for ln in split_lines(output):
        if ln.startswith("\t") and out:
            out[-1] += f" ({ln.strip()})"  # -v: "locked: reason", "prunable: reason"
            continue
        m = _WORKTREE.match(ln)
        if m is None:
            raise Unrecognized(f"worktree line {ln!r}")
        out.append(" ".join(p.strip() for p in m.groups() if p))
    return _text(out) if out else None


# ---------------------------------------------------------------------------
# git checkout
# ---------------------------------------------------------------------------


def checkout_spec(args: list[str]) -> Spec | None:
    opts = _opts(args)
    if opts & {"-p", "--patch"}:
        return Spec("git-checkout", live=True)  # asks about each hunk
    if opts & set(_HELP):
        return None
    return Spec("git-checkout", checkout, env=C_LOCALE)


def _quoted(ln: str, prefix: str) -> str:
    return ln[len(prefix) :].rstrip(".").strip("'")


def checkout(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``git checkout`` -> ``ok main, up to date with origin/main``; detached HEAD with its SHA."""
    if exit_code != 0:
        return None
    lines = split_lines(output)
    head = ""
    extra: list[str] = []
    notes: list[str] = []
    changes: list[str] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        if not ln.strip() or ln.startswith(("Updating files:", "hint:")):
            continue
        if ln.startswith("Switched to a new branch '"):
            head = f"ok {_quoted(ln, 'Switched to a new branch ')} (new branch)"
        elif ln.startswith("Switched to and reset branch '"):
            head = f"ok {_quoted(ln, 'Switched to and reset branch ')} (reset)"
        elif ln.startswith("Switched to branch '"):
            head = f"ok {_quoted(ln, 'Switched to branch ')}"
        elif ln.startswith("Already on '"):
            head = f"ok already on {_quoted(ln, 'Already on ')}"
        elif ln.startswith("Note: switching to '"):
            # detached HEAD advice: everything up to "HEAD is now at" goes
            while i < len(lines) and not lines[i].startswith("HEAD is now at "):
                if lines[i].startswith(("warning:", "error:", "fatal:")):
                    notes.append(lines[i])
                i += 1
            if i < len(lines):
                head = "ok HEAD detached at " + lines[i][len("HEAD is now at ") :]
                i += 1
        elif ln.startswith("HEAD is now at "):
            head = "ok " + ln
        elif ln.startswith("Previous HEAD position was "):
            extra.append("previous HEAD was " + ln[len("Previous HEAD position was ") :])
        elif ln.startswith("Your branch "):
            extra.append(upstream(ln[len("Your branch ") :].rstrip(".")))
        elif ln.startswith("and have ") and extra:
            words = ln.split()
            extra[-1] += f" {words[2]} ahead, {words[4]} behind" if len(words) > 4 else " " + ln
        elif ln.startswith("  (use ") and ln.endswith(")"):
            continue
        elif ln.startswith("branch '") and " set up to track " in ln:
            extra.append("tracking " + ln.split(" set up to track ", 1)[1].rstrip(".").strip("'"))
        elif len(ln) > 2 and ln[1] == "\t" and ln[0] in "MADTU":
            changes.append(f"{ln[0]} {unquote_path(ln[2:])}")
        elif ln.startswith("Warning: you are leaving ") or ln.startswith("warning: you are leaving "):
            # commits left behind: keep the statement and every commit git named
            said = ln.rstrip(":").removesuffix(", not connected to")
            commits: list[str] = []
            while i < len(lines) and not lines[i].startswith(("Switched to ", "HEAD is now at ", "Previous HEAD")):
                s = lines[i]
                if (
                    (s.startswith("  ") and not s.startswith("   "))
                    or s.startswith(" ... and ")
                    or s.startswith("... and ")
                ):
                    commits.append(s.strip())
                i += 1
            notes.append(f"{said}, not connected to any branch: " + "; ".join(commits))
        elif ln.startswith(("Updated ", "warning:", "error:")):
            notes.append(ln)
        else:
            raise Unrecognized(f"checkout line {ln!r}")
    if not head and not notes and not changes and not extra:
        return None
    first = head + (", " + ", ".join(extra) if extra else "") if head else ", ".join(extra)
    out = [*notes, first] if first else list(notes)
    out += ["  " + c for c in changes]
    return _text(out)
