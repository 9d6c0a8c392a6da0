"""Unified and combined diffs as git prints them: parsed file by file, rendered compactly.

Every file, every hunk header (verbatim; the ``@@ -0,0 +1,N @@`` of a whole added
or deleted file goes, its title says it), every line of every hunk (changed lines
and context alike: an agent builds its edits from them and the header's counts
must match what is shown), binary notices, renames, copies and mode changes are
kept. Only the per-file header lines (``diff --git``, ``index``, ``---``/``+++``)
become one title line with the file's counts. Hunks are read by the lengths their
headers declare, so content such as ``--- x`` inside a hunk is never taken for a
file header.
"""

from __future__ import annotations

from rtk.filterapi import C_LOCALE, Filtered, Spec, Unrecognized
from rtk.text import split_lines, unquote_path

# Extended header lines git prints between "diff --git" and the first hunk.
_HEADER_PREFIXES = (
    "old mode ", "new mode ", "deleted file mode ", "new file mode ", "similarity index ",
    "dissimilarity index ", "rename from ", "rename to ", "copy from ", "copy to ", "index ", "mode ",
)  # fmt: skip


class FileDiff:
    """One file of a diff: its header facts and its rendered hunks."""

    __slots__ = ("adds", "binary", "combined", "dels", "hunks", "kind", "modes", "new", "old", "similarity")

    def __init__(self) -> None:
        self.old = ""
        self.new = ""
        self.kind = ""  # "", new, deleted, renamed, copied
        self.similarity = ""
        self.modes: list[str] = []  # "mode 100644 -> 100755" / "new 100755"
        self.binary = False
        self.combined = False
        self.adds = 0
        self.dels = 0
        self.hunks: list[str] = []

    def title(self) -> str:
        name = self.new or self.old
        if self.kind in ("renamed", "copied") or (self.old and self.new and self.old != self.new):
            name = f"{self.old} -> {self.new}"
        notes = []
        if self.kind:
            notes.append(f"{self.kind} {self.similarity}".strip())
        if self.combined:
            notes.append("combined")
        notes += self.modes
        if self.binary:
            notes.append("binary")
        out = "=== " + name
        if notes:
            out += " (" + ", ".join(notes) + ")"
        if self.adds or self.dels:
            out += f" +{self.adds} -{self.dels}"
        return out


def _unquote(token: str) -> str:
    """A path token of a header line: quotes undone, the tab git adds after names with spaces gone."""
    p = unquote_path(token.removesuffix("\t"))
    return "" if p == "/dev/null" else p


def _prefixed(a: str, b: str) -> bool:
    """Whether ``a``/``b`` carry git's side prefixes (``a/`` ``b/``, or ``i/`` ``w/``...): two
    different one-letter prefixes. With ``diff.noprefix`` both sides start alike."""
    return a[1:2] == "/" and b[1:2] == "/" and a[0] != b[0]


def _diff_git_paths(rest: str) -> tuple[str, str]:
    """The two path tokens of a ``diff --git`` line, unquoted; ("", "") when ambiguous."""
    if rest.startswith('"'):
        end = rest.find('" ', 1)
        while end != -1 and rest[end - 1] == "\\":
            end = rest.find('" ', end + 1)
        if end == -1:
            return "", ""
        return _unquote(rest[: end + 1]), _unquote(rest[end + 2 :])
    if rest.endswith('"'):
        start = rest.rfind(' "')
        return _unquote(rest[:start]), _unquote(rest[start + 1 :])
    n = len(rest)
    if (n - 1) % 2 == 0:
        half = (n - 1) // 2
        a, sep, b = rest[:half], rest[half], rest[half + 1 :]
        if sep == " " and (a == b or (_prefixed(a, b) and a[2:] == b[2:])):
            return a, b
    return "", ""


def _hunk_ranges(line: str) -> tuple[int, list[int], int, str]:
    """``@@ -1,2 +1,3 @@ ctx`` -> (parents, lengths per parent, result length, text after)."""
    at = len(line) - len(line.lstrip("@"))
    marker = "@" * at
    end = line.find(" " + marker, at)
    if at < 2 or end == -1:
        raise Unrecognized(f"hunk header {line!r}")
    parts = line[at:end].split()
    if len(parts) != at or not all(p[:1] == "-" for p in parts[:-1]) or parts[-1][:1] != "+":
        raise Unrecognized(f"hunk header {line!r}")

    def length(r: str) -> int:
        _, _, n = r[1:].partition(",")
        if not n:
            return 1
        if not n.isdigit():
            raise Unrecognized(f"hunk range {r!r}")
        return int(n)

    return at - 1, [length(p) for p in parts[:-1]], length(parts[-1]), line[end:]


def _read_hunk(lines: list[str], i: int, f: FileDiff) -> int:
    """Read one hunk starting at its header, keeping every line of it; return the next index."""
    header = lines[i]
    parents, olds, new, _ = _hunk_ranges(header)
    f.hunks.append(header)
    i += 1
    while any(olds) or new or (i < len(lines) and lines[i].startswith("\\")):
        if i >= len(lines):
            raise Unrecognized("diff ends inside a hunk")
        ln = lines[i]
        i += 1
        f.hunks.append(ln)
        if ln.startswith("\\"):  # "\ No newline at end of file": belongs to the line before
            continue
        cols = ln[:parents]
        if len(cols) < parents or any(c not in " +-" for c in cols):
            raise Unrecognized(f"hunk line {ln!r}")
        removed = "-" in cols
        for p, c in enumerate(cols):
            # a removed line is in the parents marked "-"; a kept line in those marked " "
            if c == ("-" if removed else " "):
                olds[p] -= 1
        if not removed:
            new -= 1
        if min(olds) < 0 or new < 0:
            raise Unrecognized("hunk longer than its header says")
        if removed:
            f.dels += 1
        elif "+" in cols:
            f.adds += 1
    return i


def is_diff_start(line: str) -> bool:
    return line.startswith(("diff --git ", "diff --cc ", "diff --combined "))


def parse(lines: list[str], i: int) -> tuple[list[FileDiff], int]:
    """Parse the diff starting at ``lines[i]``; return (files, next index).

    Stops at the first line that cannot continue a diff (for ``git show``: the next
    commit), or at the end.
    """
    files: list[FileDiff] = []
    while i < len(lines) and is_diff_start(lines[i]):
        f = FileDiff()
        first = lines[i]
        strip: bool | None = None  # whether paths carry a/ b/ prefixes (None: not known yet)
        if first.startswith("diff --git "):
            a, b = _diff_git_paths(first[len("diff --git ") :])
            if a:
                strip = _prefixed(a, b)
                f.old, f.new = (a[2:], b[2:]) if strip else (a, b)
        else:
            f.combined = True
            f.old = f.new = unquote_path(first.split(" ", 2)[2])
        i += 1
        old_mode = ""
        while i < len(lines):
            ln = lines[i]
            if ln.startswith(_HEADER_PREFIXES):
                key = ln.partition(" ")[0]
                if ln.startswith("old mode "):
                    old_mode = ln[len("old mode ") :]
                elif ln.startswith("new mode "):
                    f.modes.append(f"mode {old_mode} -> {ln[len('new mode ') :]}")
                elif ln.startswith("new file mode "):
                    f.kind = "new"
                    mode = ln[len("new file mode ") :]
                    if mode != "100644":
                        f.modes.append(f"mode {mode}")
                elif ln.startswith("deleted file mode "):
                    f.kind = "deleted"
                elif ln.startswith(("rename from ", "copy from ")):
                    f.old = _unquote(ln.split(" ", 2)[2])  # no prefix on these lines
                elif ln.startswith(("rename to ", "copy to ")):
                    f.new = _unquote(ln.split(" ", 2)[2])
                    f.kind = "renamed" if key == "rename" else "copied"
                elif ln.startswith("similarity index "):
                    f.similarity = ln[len("similarity index ") :]
                elif ln.startswith("dissimilarity index "):
                    f.similarity = "dissimilarity " + ln[len("dissimilarity index ") :]
                elif ln.startswith("index ") and len(ln.split()) == 3:
                    mode = ln.split()[2]
                    if mode != "100644" and not f.kind:
                        f.modes.append(f"mode {mode}")
                i += 1
            elif ln.startswith("Binary files ") and ln.endswith(" differ"):
                f.binary = True
                i += 1
            elif ln.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
                old, new = _unquote(ln[4:]), _unquote(lines[i + 1][4:])
                if strip is None:  # one side is /dev/null, or the diff --git line was ambiguous
                    strip = _prefixed(old, new) if old and new else (old or new)[1:2] == "/"
                if strip:
                    old, new = old[2:], new[2:]
                if not f.combined and f.kind not in ("renamed", "copied"):
                    f.old = old or f.old
                    f.new = new or f.new
                i += 2
            else:
                break
        if not (f.old or f.new):
            raise Unrecognized(f"no file name in {first!r}")
        if f.kind == "new":
            f.old = ""
        elif f.kind == "deleted":
            f.new = ""
        while i < len(lines) and lines[i].startswith("@@"):
            i = _read_hunk(lines, i, f)
        if (
            f.kind in ("new", "deleted")
            and f.hunks
            and f.hunks[0] in (f"@@ -0,0 +1,{f.adds} @@", f"@@ -1,{f.dels} +0,0 @@", "@@ -0,0 +1 @@", "@@ -1 +0,0 @@")
        ):
            f.hunks.pop(0)  # the whole file: the header says nothing the title does not
        files.append(f)
        if i < len(lines) and lines[i].startswith("GIT binary patch"):
            raise Unrecognized("binary patch")
    return files, i


def render(files: list[FileDiff], out: list[str]) -> None:
    """Append the compact form of ``files`` to ``out``: a count line, then file by file."""
    if len(files) > 1:
        adds = sum(f.adds for f in files)
        dels = sum(f.dels for f in files)
        out.append(f"{len(files)} files changed, +{adds} -{dels}")
    for f in files:
        out.append(f.title())
        out.extend(f.hunks)


# ---------------------------------------------------------------------------
# argv handling shared by diff, log and show
# ---------------------------------------------------------------------------

# Short options whose value may be attached (`-n5`, `-Sfoo`, `-M50%`): the rest of the word is the value.
_VALUE_SHORT = "nSGLOUlMCBXI"


def has_flag(args: list[str], long_names: tuple[str, ...], short_letters: str) -> bool:
    """Whether any option before ``--`` is one of ``long_names`` (``--stat`` also matches
    ``--stat=…`` and ``--stat-width``) or a short option using one of ``short_letters``.
    """
    for a in args:
        if a == "--":
            return False
        if a.startswith("--"):
            name = a.split("=", 1)[0]
            if any(name == n or name.startswith(n + "-") for n in long_names if n.startswith("--")):
                return True
        elif a.startswith("-") and len(a) > 1 and not a[1:].isdigit():
            for ch in a[1:]:
                if ch in short_letters:
                    return True
                if ch in _VALUE_SHORT:
                    break
        if a in long_names:  # a short option listed by name, e.g. "-U"
            return True
    return False


def operands(args: list[str]) -> list[str]:
    """Words that are not options (revisions and paths)."""
    out = []
    only = False
    for a in args:
        if only or not a.startswith("-") or a == "-":
            out.append(a)
        elif a == "--":
            only = True
    return out


DIFF_RAW_LONG = (
    "--stat", "--numstat", "--shortstat", "--dirstat", "--cumulative", "--summary", "--name-only",
    "--name-status", "--raw", "--word-diff", "--color-words", "--check", "--binary", "--patch-with-stat",
    "--patch-with-raw", "--compact-summary", "--line-prefix", "--no-prefix", "--src-prefix", "--dst-prefix",
    "--null", "--output", "--help", "--ext-diff",
)  # fmt: skip
# -p/-u/--patch: the user chose the patch format explicitly (lesson 11): raw, as for log and show.
DIFF_RAW_SHORT = "zXhpu"
DIFF_RAW_PATCH = ("--patch",)


def diff_spec(args: list[str]) -> Spec | None:
    if has_flag(args, DIFF_RAW_LONG + DIFF_RAW_PATCH, DIFF_RAW_SHORT):
        return None
    return Spec("git-diff", diff, env=C_LOCALE)


def diff(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``git diff`` -> per-file title with counts, then every hunk whole (header, context, changes)."""
    # 1: differences found (--exit-code, --no-index); anything else is an error
    if exit_code not in (0, 1):
        return None
    lines = split_lines(output)
    notes = []
    i = 0
    while i < len(lines) and lines[i].startswith(("warning: ", "hint: ")):
        notes.append(lines[i])
        i += 1
    files, i = parse(lines, i)
    if i != len(lines):
        raise Unrecognized(f"line {lines[i]!r}")
    if not files:
        if exit_code == 0 and not notes:
            return ""  # no differences: git printed nothing either
        raise Unrecognized("no diff")
    out = notes
    render(files, out)
    return Filtered("\n".join(out) + "\n", 0)
