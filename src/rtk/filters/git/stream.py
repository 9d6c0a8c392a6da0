"""Streaming filters for git commands that may run long: commit (hooks), push, pull, fetch.

Lines the filter does not know (hook output, ``remote:`` messages, errors) are
printed as they arrive, so nothing looks hung. Progress and advice (``hint:``)
are dropped. On success the result is one line (``ok main 1a2b3c4 subject``,
``ok to ../origin.git: main 1a2b3c4..5d6e7f8``,
``ok fast-forward 1a2b..3c4d: 3 files +10 -2``), with the files git listed on a
second line. On failure git's own error text is printed and the exit code is the
command's; a success line only ever follows exit code 0 and the line of git's
that says what happened.
"""

from __future__ import annotations

import rtk.filters.git.diffstat as _gitstat
from rtk.filterapi import C_LOCALE, LineFilter, Spec
from rtk.filters.git.status import status

# Progress and transfer statistics: noise once the command is over.
_PROGRESS = (
    "Enumerating objects:", "Counting objects:", "Delta compression using", "Compressing objects:",
    "Writing objects:", "Total ", "Receiving objects:", "Resolving deltas:", "Unpacking objects:",
    "Updating files:", "Checking out files:", "Auto packing the repository", "Rebasing (",
    "Auto-merging ", "Already up to date!",
)  # fmt: skip
_REMOTE_PROGRESS = (
    "Enumerating objects:", "Counting objects:", "Compressing objects:", "Total ", "Resolving deltas:",
)  # fmt: skip


class _Stat:
    """Collects a diffstat (file lines, summary, create/delete/rename lines)."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self.index: dict[str, int] = {}
        self.total = ""
        self.modes: dict[str, list[str]] = {}

    def feed(self, line: str) -> bool:
        summary = _gitstat.stat_summary(line)
        if summary is not None:
            n, a, d = summary
            self.total = f"{n} file{'s' if n != 1 else ''} +{a} -{d}"
            return True
        entry = _gitstat.stat_file(line)
        if entry is not None:
            self.index[entry[0]] = len(self.files)
            self.files.append(entry[0] + entry[1])
            return True
        mode = _gitstat.stat_mode(line)
        if mode is not None:
            kind, path = mode
            at = self.index.get(path)
            if at is not None and kind in ("new", "deleted"):
                self.files[at] += f" ({kind})"
            else:
                self.modes.setdefault(kind, []).append(path)
            return True
        return False

    def changes(self, cut: list[int]) -> list[str]:
        """``  new: a, b``-style lines for the create/delete/rename/mode lines, each capped."""
        out = []
        for kind, paths in self.modes.items():
            line = _gitstat.files_line(paths, cut)[0]
            out.append(f"  {kind}: {line.strip()}")
        return out


class _Remote(LineFilter):
    """Shared part of push/pull/fetch: ref updates collected, progress dropped, the rest shown."""

    verb = ""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.refs: list[str] = []
        self.uptodate = 0
        self.tracking: list[str] = []
        self.failed = False
        self.shown = 0  # lines passed through (messages, errors)
        self.held: list[str] = []  # what git printed that a summary replaces
        self.where = ""  # the repository of the last "To <url>" / "From <url>" line
        self.ref_where: list[str] = []  # for each of self.refs

    def ref(self, line: str) -> bool:
        r = _gitstat.ref_update(line)
        if r is None:
            return False
        flag, summary, src, dst, reason = r
        self.held.append(line)
        if flag == "!":
            self.failed = True
            return False  # rejected: git's own line is shown
        if flag == "=":
            self.uptodate += 1
            return True
        if self.verb == "push":
            name = dst if src == dst or not src else f"{src} -> {dst}"
        else:
            name = f"{src} -> {dst}" if dst == "FETCH_HEAD" else dst
        if summary.startswith("["):
            what = summary[1:-1]
            self.refs.append(f"{name or src} ({what})")
            self.ref_where.append(self.where)
        else:
            forced = " (forced)" if flag == "+" else ""
            self.refs.append(f"{name} {summary}{forced}")
            self.ref_where.append(self.where)
        if reason and reason != "forced update":
            self.refs[-1] += f" ({reason})"
        return True

    def common(self, line: str) -> str | None:
        """Handle a line every remote command prints; return what to show, "" to drop, None if unknown."""
        if not line.strip() or line.startswith("hint:") or line.startswith(_PROGRESS):
            return ""
        if line.startswith(("From ", "To ")) and " " not in line[5:].strip():
            self.held.append(line)
            self.where = line.split(" ", 1)[1].strip()
            return ""
        if line.startswith("Fetching ") and " " not in line[9:]:
            self.held.append(line)
            return ""
        if line.startswith("remote:"):
            msg = line[7:].strip()
            if not msg or msg.startswith(_REMOTE_PROGRESS):
                return ""
            self.shown += 1
            return "remote: " + msg
        if line.startswith("branch '") and " set up to track " in line:
            self.held.append(line)
            self.tracking.append(line.split(" set up to track ", 1)[1].strip(".'"))
            return ""
        if self.ref(line):
            return ""
        return None

    def feed(self, line: str) -> str | None:
        r = self.common(line)
        if r is None:
            self.shown += 1
            return line.rstrip()
        return r or None

    def listed(self, word: str, skip: str = "") -> str:
        """The ref updates, each run under the repository git named: ``to ../origin.git: main 1a2b..3c4d``
        (``from A: x; from B: y`` for several); refs ending in `` <skip>`` are left out."""
        runs: list[tuple[str, list[str]]] = []
        for ref, where in zip(self.refs, self.ref_where, strict=True):
            if skip and ref.endswith(" " + skip):
                continue
            if not runs or runs[-1][0] != where:
                runs.append((where, []))
            runs[-1][1].append(ref)
        return "; ".join((f"{word} {w}: " if w else "") + ", ".join(refs) for w, refs in runs)

    def fallback(self) -> str:
        """What git said, when no summary applies (nothing of it was shown yet)."""
        return "\n".join(h for h in self.held if not h.startswith(("From ", "To ", "Fetching ")))


class Push(_Remote):
    """``git push`` -> ``ok to ../origin.git: main 1a2b3c4..5d6e7f8``; rejections and errors as git printed them."""

    verb = "push"

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.everything = False

    def feed(self, line: str) -> str | None:
        if line.strip() == "Everything up-to-date":
            self.everything = True
            return None
        return super().feed(line)

    def finish(self, exit_code: int) -> str:
        if exit_code != 0 or self.failed:
            return ""  # errors were shown as they came
        if self.refs:
            out = "ok " + self.listed("to")
            if self.tracking:
                out += "; tracking " + ", ".join(self.tracking)
            return out
        if self.everything or self.uptodate:
            return "ok everything up to date"
        return self.fallback()


class Fetch(_Remote):
    """``git fetch`` -> ``ok from <url>: origin/main 1a2b..3c4d, origin/x (new branch)``; errors as git printed them."""

    verb = "fetch"

    def finish(self, exit_code: int) -> str:
        if exit_code != 0 or self.failed:
            return "fetched " + self.listed("from") if self.refs else ""
        if self.refs:
            out = "ok " + self.listed("from")
            return out + (f" ({self.uptodate} up to date)" if self.uptodate else "")
        if self.uptodate:
            return f"ok {self.uptodate} refs up to date"
        return self.fallback()


class Pull(_Remote):
    """``git pull`` -> ``ok fast-forward 1a2b..3c4d: 3 files +10 -2`` plus the files; conflicts and errors kept."""

    verb = "fetch"

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.stat = _Stat()
        self.result = ""
        self.range = ""

    def feed(self, line: str) -> str | None:
        s = line.strip()
        if s.startswith("Updating ") and ".." in s:
            self.range = s[len("Updating ") :]
            self.held.append(line)
            return None
        if s == "Fast-forward":
            self.result = f"fast-forward {self.range}".strip()
            self.held.append(line)
            return None
        if s.startswith("Merge made by "):
            self.result = "merge made by " + s[len("Merge made by ") :].rstrip(".")
            self.held.append(line)
            return None
        if s.startswith("Successfully rebased and updated "):
            self.result = "rebased " + s[len("Successfully rebased and updated ") :].rstrip(".")
            self.held.append(line)
            return None
        if s in ("Already up to date.", "Already up-to-date.", "Current branch is up to date."):
            self.result = "already up to date"
            self.held.append(line)
            return None
        if self.result and line.startswith(" ") and self.stat.feed(line):
            self.held.append(line)
            return None
        return super().feed(line)

    def finish(self, exit_code: int) -> str:
        cut = [0]
        if exit_code != 0 or self.failed or not self.result:
            if exit_code == 0 and not self.result:
                return self.fallback()
            # what was fetched still happened; the failure itself was shown as git printed it,
            # and what git said about the merge before failing is repeated as it said it
            lines = ["fetched " + self.listed("from")] if self.refs else []
            skip = ("From ", "To ", "Fetching ")
            lines += [h for h in self.held if not h.startswith(skip) and _gitstat.ref_update(h) is None]
            return "\n".join(lines)
        head = "ok " + self.result
        if self.stat.total:
            head += ": " + self.stat.total
        out = [head]
        fetched = self.listed("from", self.range)
        if fetched:
            out.append("  fetched " + fetched)
        out += _gitstat.files_line(self.stat.files, cut) + self.stat.changes(cut)
        self.cut = cut[0]
        return "\n".join(out)


class Commit(LineFilter):
    """``git commit`` -> ``ok main 1a2b3c4 subject: 2 files +10 -2`` and the files git listed.

    Hook output before the result is shown as it comes. "nothing to commit" and its
    status listing are compacted like ``git status``.
    """

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.head = ""
        self.stat = _Stat()
        self.status: list[str] = []
        self.held: list[str] = []

    def feed(self, line: str) -> str | None:
        if self.status:
            self.status.append(line)
            return None
        if line.startswith("hint:"):
            return None
        if not self.head and line.startswith("[") and "] " in line:
            inner, _, subject = line[1:].partition("] ")
            words = inner.split()
            if len(words) >= 2 and all(c in "0123456789abcdef" for c in words[-1]):
                branch = " ".join(words[:-1]).replace(" (root-commit)", " (root commit)")
                self.head = f"ok {branch} {words[-1]} {subject}"
                self.held.append(line)
                return None
        if self.head and line.startswith(" "):
            s = line.strip()
            if s.startswith(("Date: ", "Author: ")):
                self.held.append(line)
                return None if s.startswith("Date: ") else "  " + s
            if self.stat.feed(line):
                self.held.append(line)
                return None
        if not self.head and line.startswith(("On branch ", "HEAD detached ", "Not currently on any branch")):
            self.status.append(line)
            return None
        return line

    def finish(self, exit_code: int) -> str:
        if exit_code == 0 and self.head:
            cut = [0]
            out = self.head + (f": {self.stat.total}" if self.stat.total else "")
            lines = [out, *self.stat.changes(cut)]
            self.cut = cut[0]
            return "\n".join(lines)
        if self.status:
            text, self.cut = _status_result(self.status)
            return text or "\n".join(self.status)
        return "\n".join(self.held)


# The line git ends a "nothing to commit" listing with, and how it is said here.
_OUTCOMES = (
    ("nothing to commit", "nothing to commit"),
    ("no changes added to commit", "no changes added to commit"),
    ("nothing added to commit but untracked files present", "nothing added to commit (only untracked files)"),
)


def _status_result(lines: list[str]) -> tuple[str, int]:
    """A commit that did not happen: git's reason, then the status compacted (and the
    files it left out); ("", 0) if the listing is not one ``git status`` would print."""
    outcome = ""
    for prefix, said in _OUTCOMES:
        if any(ln.startswith(prefix) for ln in lines):
            outcome = said
            break
    if not outcome:
        return "", 0
    try:
        res = status(["git", "status"], "\n".join(lines) + "\n", 0)
    except Exception:
        return "", 0
    if res is None:
        return "", 0
    text, cut = (res, 0) if isinstance(res, str) else (res.text, res.cut)
    return outcome + "\n" + text.rstrip("\n"), cut


# ---------------------------------------------------------------------------
# argv handling
# ---------------------------------------------------------------------------

# Options after which the output is not the one these filters read.
_PUSH_RAW = ("--porcelain", "--help", "-h", "--dry-run", "-n")
_FETCH_RAW = ("--porcelain", "--help", "-h", "--dry-run")
_PULL_RAW = ("--help", "-h", "--dry-run")
_COMMIT_RAW = ("--dry-run", "--short", "--porcelain", "--long", "--null", "-z", "--help", "-h", "--status")
# commit options that put the message in the editor, or ask questions
_COMMIT_EDITOR = ("-e", "--edit", "-c", "--reedit-message", "--interactive", "-p", "--patch", "-t", "--template")
# commit options that give the message
_COMMIT_MESSAGE = ("-m", "--message", "-F", "--file", "-C", "--reuse-message", "--no-edit", "--fixup")
_COMMIT_VALUE_SHORT = "mFCct"


def _named(args: list[str], names: tuple[str, ...]) -> bool:
    for a in args:
        if a == "--":
            return False
        if a.split("=", 1)[0] in names:
            return True
    return False


def remote_spec(sub: str, args: list[str]) -> Spec | None:
    raw = {"push": _PUSH_RAW, "fetch": _FETCH_RAW, "pull": _PULL_RAW}[sub]
    if _named(args, raw):
        return None
    stream = {"push": Push, "fetch": Fetch, "pull": Pull}[sub]
    return Spec(f"git-{sub}", stream=stream, env=C_LOCALE)


def commit_words(args: list[str]) -> set[str]:
    """The commit options used, long names as given, short clusters split (``-am`` -> -a, -m)."""
    used: set[str] = set()
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "--":
            break
        if a.startswith("--"):
            name, eq, value = a.partition("=")
            used.add(name)
            if name == "--fixup" and value.startswith(("amend:", "reword:")):
                used.add("--fixup=amend")
            if not eq and name in (
                "--message",
                "--file",
                "--reuse-message",
                "--reedit-message",
                "--template",
                "--fixup",
                "--squash",
                "--author",
                "--date",
                "--cleanup",
                "--trailer",
            ):
                skip = True
        elif a.startswith("-") and len(a) > 1:
            for k, ch in enumerate(a[1:], 1):
                used.add("-" + ch)
                if ch in _COMMIT_VALUE_SHORT:
                    skip = k == len(a) - 1  # the value is the next word
                    break
                if ch in "uS":  # optional value, attached only
                    break
    return used


def commit_spec(args: list[str]) -> Spec | None:
    used = commit_words(args)
    if used & set(_COMMIT_RAW):
        return None
    opens_editor = bool(used & set(_COMMIT_EDITOR)) or ("--fixup=amend" in used and "--no-edit" not in used)
    if opens_editor or not used & set(_COMMIT_MESSAGE):
        # the editor (or an interactive prompt) needs the terminal: run untouched
        return Spec("git-commit", live=True)  # no LC_ALL=C: the editor keeps the user's locale
    return Spec("git-commit", stream=Commit, env=C_LOCALE)
