"""Lines of git's that summarise changes: diffstat lines (commit, pull, stash show), ref
update lines (push, fetch), and the file list the filters print from them."""

from __future__ import annotations

from rtk import config
from rtk.text import unquote_path
from rtk.tokens import fits


def stat_summary(line: str) -> tuple[int, int, int] | None:
    """`` 3 files changed, 4 insertions(+), 1 deletion(-)`` -> (3, 4, 1)."""
    words = line.replace(",", "").split()
    if len(words) < 3 or not words[0].isdigit() or words[1] not in ("file", "files") or words[2] != "changed":
        return None
    adds = dels = 0
    rest = words[3:]
    while rest:
        if len(rest) < 2 or not rest[0].isdigit():
            return None
        if rest[1].startswith("insertion"):
            adds = int(rest[0])
        elif rest[1].startswith("deletion"):
            dels = int(rest[0])
        else:
            return None
        rest = rest[2:]
    return int(words[0]), adds, dels


def stat_file(line: str) -> tuple[str, str] | None:
    """`` path | 3 ++-`` -> ("path", " +2 -1"); binary -> ("path", " (binary)")."""
    if not line.startswith(" ") or " | " not in line:
        return None
    path, _, rest = line[1:].rpartition(" | ")
    path = unquote_path(path.rstrip())
    rest = rest.strip()
    if rest.startswith("Bin"):
        return path, " (binary)"
    count, _, bar = rest.partition(" ")
    if not count.isdigit() or any(c not in "+-" for c in bar):
        return None
    plus, minus = bar.count("+"), bar.count("-")
    if plus + minus != int(count):  # the bar is scaled: only the total is exact
        return path, f" ±{count}"
    return path, (f" +{plus}" if plus else "") + (f" -{minus}" if minus else "")


def stat_mode(line: str) -> tuple[str, str] | None:
    """`` create mode 100644 x`` -> ("new", "x"); rename/copy/mode change/rewrite likewise."""
    s = line.strip()
    for prefix, kind in (("create mode ", "new"), ("delete mode ", "deleted")):
        if s.startswith(prefix):
            return kind, unquote_path(s[len(prefix) :].partition(" ")[2])
    if s.startswith("mode change ") and " => " in s:
        words = s.split(" ", 5)
        if len(words) == 6:
            return f"mode {words[2]} => {words[4]}", unquote_path(words[5])
    for prefix, kind in (("rename ", "renamed"), ("copy ", "copied"), ("rewrite ", "rewritten")):
        if s.startswith(prefix) and s.endswith("%)"):
            body, _, pct = s[len(prefix) :].rpartition(" (")
            names = " => ".join(unquote_path(p) for p in body.split(" => "))
            return kind, f"{names} ({pct}"
    return None


def ref_update(line: str) -> tuple[str, str, str, str, str] | None:
    """A push/fetch ref line -> (flag, summary, from, to, reason), e.g.
    ``   1a2b..3c4d  main -> origin/main`` or `` * [new tag]  v1 -> v1``."""
    if len(line) < 5 or line[0] != " " or line[2] != " " or line[1] not in " +-*!=t":
        return None
    rest = line[3:]
    if rest.startswith("["):
        end = rest.find("]")
        if end == -1:
            return None
        summary, rest = rest[: end + 1], rest[end + 1 :]
    else:
        summary, _, rest = rest.partition(" ")
        a, sep, b = summary.partition("..")
        b = b.removeprefix(".")
        hexd = "0123456789abcdef"
        if not sep or not a or not b or any(c not in hexd for c in a + b):
            return None
    rest = rest.strip()
    reason = ""
    if rest.endswith(")") and " (" in rest:
        rest, _, reason = rest.rpartition(" (")
        reason = reason[:-1]
    src, sep, dst = rest.partition(" -> ")
    src, dst = src.strip(), dst.strip()
    if not sep:
        dst = src
    if not dst:
        return None
    return line[1], summary, src, dst, reason


def files_line(files: list[str], cut: list[int]) -> list[str]:
    """``  a +1, b -2``: every file while the list fits ``limits.git_list_tokens``; above it,
    counted by directory (the files not named are added to ``cut[0]``)."""
    if not files:
        return []
    budget = int(config.get("limits.git_list_tokens"))
    shown = files
    if not fits(files, budget):
        import rtk.filters.git.listing as listing

        shown, n = listing.group([(_stat_path(f), f, "") for f in files], budget, "files")
        cut[0] += n
    return ["  " + ", ".join(shown)]


def _stat_path(entry: str) -> str:
    """``src/a.py +2 -1`` / ``a => b (100%)`` / ``x (binary)`` -> the path, for grouping by directory."""
    path = entry
    for sep in (" +", " -", " ±", " (", " => "):
        path = path.split(sep, 1)[0] if sep != " => " else path.rpartition(sep)[2]
    return path
