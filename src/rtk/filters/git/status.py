"""``git status`` in its long form, compacted: branch state, operations in progress, files by section.

Loaded by the family's dispatcher (``rtk.filters.git``) for ``git status``; ``ops``
(stash pop/apply, checkout) and ``stream`` (a commit that did not happen) reuse
:func:`status` and :func:`upstream`.
"""

from __future__ import annotations

from rtk import config, options
from rtk.filterapi import C_LOCALE, Filtered, Spec, Unrecognized
from rtk.text import split_lines, unquote_path
from rtk.tokens import fits

_STATUS_RAW_FLAGS = ("-s", "--short", "--porcelain", "-z", "-v", "-vv", "--verbose", "--column", "--null", "--help")


def status_spec(args: list[str]) -> Spec | None:
    """``git status ARGS`` -> its Spec; None when a flag asks for a format of its own."""
    for a in args:
        if a == "--":
            break
        if a.startswith(_STATUS_RAW_FLAGS) or (
            a.startswith("-") and not a.startswith("--") and ("s" in a[1:] or "z" in a[1:] or "v" in a[1:])
        ):
            return None  # a format the user asked for: pass it through
    return Spec("git-status", status, env=C_LOCALE)


_SECTIONS = {
    "Changes to be committed:": "staged",
    "Changes not staged for commit:": "unstaged",
    "Unmerged paths:": "conflicts",
    "Untracked files:": "untracked",
    "Ignored files:": "ignored",
}

_CODES = {
    "new file": "A", "modified": "M", "deleted": "D", "renamed": "R", "copied": "C", "typechange": "T",
    "both modified": "both modified", "both added": "both added", "both deleted": "both deleted",
    "added by us": "added by us", "added by them": "added by them",
    "deleted by us": "deleted by us", "deleted by them": "deleted by them",
}  # fmt: skip

# Lines git prints that carry no information once the state is known.
_DROP_PREFIXES = (
    "no changes added to commit",
    "nothing added to commit but untracked files present",
    "nothing to commit (create/copy files and use",
    "It took ",  # "It took 2.31 seconds to enumerate untracked files..." (advice)
    "See 'git help status'",
    "Enable the untracked cache",
    "may speed it up",
    "but you have to be careful",
    "to include in what will be committed",
)

# Statements about an operation in progress: kept, with git's own hints joined on.
_STATE_PREFIXES = (
    "You have unmerged paths.",
    "All conflicts fixed but you are still merging.",
    "You are currently rebasing",
    "You are currently editing a commit while rebasing",
    "You are currently splitting a commit",
    "You are currently cherry-picking",
    "You are currently reverting",
    "You are currently bisecting",
    "You are in the middle of an am session",
    "The current patch is empty.",
    "Cherry-pick currently in progress.",
    "Revert currently in progress.",
    "You are in a sparse checkout",
    "interactive rebase in progress",
    "rebase in progress",
    "All conflicts fixed but you are still",
    "You are currently",
)


def _entry(section: str, body: str) -> str:
    """One file line of a section, as ``M path`` / ``R old -> new`` / ``path``."""
    if section in ("untracked", "ignored"):
        return unquote_path(body)
    label, sep, rest = body.partition(":")
    if not sep or label not in _CODES:
        raise Unrecognized(f"status entry {body!r}")
    rest = rest.strip()
    suffix = ""
    if rest.endswith(")") and " (" in rest:  # submodules: "sub (new commits, modified content)"
        rest, _, tail = rest.rpartition(" (")
        suffix = " (" + tail
    if " -> " in rest and label in ("renamed", "copied"):
        old, _, new = rest.partition(" -> ")
        path = f"{unquote_path(old)} -> {unquote_path(new)}"
    else:
        path = unquote_path(rest)
    return f"{_CODES[label]} {path}{suffix}"


def _branch_line(lines: list[str]) -> list[str]:
    """Condense the branch/upstream sentences into one line."""
    out: list[str] = []
    branch = None
    for ln in lines:
        if ln.startswith("On branch "):
            branch = ln[len("On branch ") :]
        elif ln.startswith(("HEAD detached at ", "HEAD detached from ", "Not currently on any branch")):
            out.append(ln)
        elif ln == "No commits yet" or ln == "Initial commit":
            out.append(f"on {branch}, no commits yet" if branch else "no commits yet")
            branch = None
        elif ln.startswith("Your branch"):
            text = ln[len("Your branch ") :].rstrip(".")
            if branch:
                out.append(f"on {branch}, {upstream(text)}")
                branch = None
            else:
                out.append(upstream(text))
        elif ln.startswith("and have ") and out:
            # "and have 1 and 2 different commits each, respectively." (ours first)
            words = ln.split()
            if len(words) > 4 and words[2].isdigit() and words[4].isdigit():
                out[-1] += f" {words[2]} ahead, {words[4]} behind"
            else:
                out[-1] += " " + ln
        else:
            out.append(ln)
    if branch:
        out.insert(0, f"on {branch}")
    return out


def upstream(text: str) -> str:
    """Git's sentence about the upstream, shortened: ``ahead of origin/main by 2 commits``."""
    # "is up to date with 'origin/main'" / "is ahead of 'origin/main' by 2 commits" /
    # "and 'origin/main' have diverged," / "is based on 'origin/x', but the upstream is gone"
    t = text.replace("'", "")
    if t.startswith("is "):
        t = t[3:]
    t = t.replace(", and can be fast-forwarded", " (can fast-forward)")
    if t.startswith("and ") and t.endswith("have diverged,"):
        t = "diverged from " + t[4 : -len(" have diverged,")] + ":"
    return t


def status(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``git status`` in long form -> branch state, in-progress operations, files by section."""
    if exit_code != 0:
        return None
    head: list[str] = []
    notes: list[str] = []  # warnings git printed (permission problems...)
    states: list[str] = []
    hints: dict[int, list[str]] = {}
    sections: dict[str, list[str]] = {}
    order: list[str] = []
    section: str | None = None
    in_state = False
    clean = False
    lines = split_lines(output)
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        if not ln.strip():
            section, in_state = None, False
            continue
        if ln in _SECTIONS:
            section, in_state = _SECTIONS[ln], False
            if section not in sections:
                sections[section] = []
                order.append(section)
            continue
        if section is not None:
            if ln.startswith("\t"):
                sections[section].append(_entry(section, ln[1:]))
                continue
            if ln.startswith("  (") and ln.endswith(")"):
                continue  # "(use "git add <file>..." to ...)" hints
            raise Unrecognized(f"in {section}: {ln!r}")
        if ln.startswith(("warning: ", "error: ", "hint: ")):
            notes.append(ln)
            continue
        if ln.startswith("  (") and ln.endswith(")"):
            if in_state and states:
                hints[len(states) - 1].append(ln.strip()[1:-1])
            continue  # branch hints such as (use "git push" to publish...)
        if ln.startswith(("Last command done", "Last commands done", "Next command to do", "Next commands to do")):
            # interactive-rebase todo listing: keep the heading and its indented commands compact
            block = [ln.rstrip(":")]
            while i < len(lines) and lines[i].startswith("   "):
                block.append(lines[i].strip())
                i += 1
            hints[len(states)] = []  # its hint (use "git rebase --edit-todo" ...) joins it like any state's
            states.append(" ".join(block[:1]) + ": " + "; ".join(block[1:]) if len(block) > 1 else block[0])
            in_state = True
            continue
        if ln in ("No commands remaining.", "No commands done."):
            states.append(ln)
            continue
        if ln.startswith("  (see more in file"):
            continue
        if ln.startswith(_STATE_PREFIXES):
            hints[len(states)] = []
            states.append(ln)
            in_state = True
            continue
        if ln.startswith("nothing to commit, working tree clean") or ln == "nothing to commit":
            clean = True
            continue
        if ln.startswith(("Untracked files not listed", "nothing to commit (use -u")):
            # status.showUntrackedFiles=no / -uno: say so, untracked files may exist
            notes.append("untracked files not listed (git status -u shows them)")
            if ln.startswith("nothing to commit"):
                clean = True
            continue
        if ln.startswith(_DROP_PREFIXES):
            continue
        if ln.startswith(
            (
                "On branch ",
                "HEAD detached ",
                "Your branch",
                "and have ",
                "No commits yet",
                "Initial commit",
                "Not currently on any branch",
            )
        ):
            head.append(ln)
            continue
        if ln.startswith("Your stash currently has "):
            head.append(ln.replace("Your stash currently has ", "stash: "))
            continue
        raise Unrecognized(f"line {ln!r}")
    if not head and not sections and not states and not clean:
        raise Unrecognized("no branch line and no files")
    for n, hs in hints.items():
        if hs:
            states[n] += " (" + "; ".join(hs) + ")"
    return _render(_branch_line(head), states, notes, sections, order, clean)


def _keyed(section: str, entry: str) -> tuple[str, str, str]:
    """A status entry -> (path, text, code) for ``listing.group``: ``M a`` / ``R a -> b`` / ``a``."""
    if section in ("untracked", "ignored"):
        return entry, entry, ""
    for code in _CODES.values():
        if entry.startswith(code + " "):
            path = entry[len(code) + 1 :]
            return (path.rpartition(" -> ")[2] if code in ("R", "C") else path), entry, code
    return entry, entry, ""


_TITLES = {
    "staged": "staged",
    "unstaged": "not staged",
    "conflicts": "conflicts",
    "untracked": "untracked",
    "ignored": "ignored",
}


def _render(
    head: list[str], states: list[str], notes: list[str], sections: dict[str, list[str]], order: list[str], clean: bool
) -> Filtered:
    budget = int(config.get("limits.git_list_tokens"))
    out = [*notes, *head, *states]
    cut = 0
    # Conflicts first: they are what blocks the user.
    for name in sorted(order, key=lambda s: list(_TITLES).index(s)):
        entries = sections[name]
        shown = entries
        n = 0
        if not fits(entries, budget):
            import rtk.filters.git.listing as listing

            shown, n = listing.group([_keyed(name, e) for e in entries], budget)
            cut += n
        if options.ultra_compact:
            out.append(f"{_TITLES[name]} ({len(entries)}): " + ", ".join(shown))
        else:
            out.append(f"{_TITLES[name]} ({len(entries)}):")
            out.extend("  " + e for e in shown)
        if n:
            out.append(f"  ({n} counted by directory, not named: over limits.git_list_tokens)")
    if clean:
        out.append("working tree clean")
    return Filtered("\n".join(out) + "\n", cut)
