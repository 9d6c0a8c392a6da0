"""Filter for ``diff``: every hunk kept whole, invisible differences (CR, BOM) named.

``diff``'s exit status is kept (0 same, 1 different, 2 trouble) and its error
lines are printed as they came. Unified diffs (``-u``) keep every hunk whole:
its ``@@`` header as diff printed it and every line under it, context included
(the header's counts match what is shown); normal diffs keep their ``10c10`` commands with ``-``/``+`` lines. A change
whose lines differ only by a CR line ending or a byte-order mark is named
instead of shown as identical-looking lines; whitespace-only changes are shown
and labelled. Other output formats (``-q``, ``-y``, ``-c``, ``-e``, ``-D``,
``--*-format``...) run unfiltered.
"""

from __future__ import annotations

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.text import plural, split_lines

COMMANDS = ("diff",)

_OK_SHORT = frozenset("abBdEiNprsStTwZu")
_VALUE_SHORT = frozenset("FISxXU")
_OK_LONG = frozenset(
    (
        "--normal", "--unified", "--report-identical-files", "--expand-tabs", "--ignore-case",
        "--ignore-file-name-case", "--no-ignore-file-name-case", "--ignore-tab-expansion",
        "--ignore-trailing-space", "--ignore-space-change", "--ignore-all-space", "--ignore-blank-lines",
        "--strip-trailing-cr", "--text", "--recursive", "--no-dereference", "--new-file", "--unidirectional-new-file",
        "--show-c-function", "--minimal", "--speed-large-files", "--suppress-blank-empty", "--color",
    )
)  # fmt: skip
_VALUE_LONG = frozenset(
    (
        "--unified", "--label", "--show-function-line", "--exclude", "--exclude-from", "--starting-file",
        "--ignore-matching-lines", "--from-file", "--to-file", "--horizon-lines", "--tabsize", "--color",
        "--palette",
    )
)  # fmt: skip


def _unified(args: list[str]) -> bool | None:
    """True for a unified diff, False for the normal format, None for formats this filter does not read."""
    uni = False
    i = 0
    only = False
    while i < len(args):
        a = args[i]
        i += 1
        if only or not a.startswith("-") or a == "-":
            continue
        if a == "--":
            only = True
        elif a.startswith("--"):
            name, eq, _ = a.partition("=")
            if name == "--unified" or name == "--normal":
                uni = name == "--unified"
            elif name in _VALUE_LONG and not eq and name not in _OK_LONG:
                i += 1
            elif name not in _OK_LONG and name not in _VALUE_LONG:
                return None  # --brief, --side-by-side, --context, --ed, --*-format, --help...
        else:
            for j, c in enumerate(a[1:], 1):
                if c in _VALUE_SHORT:
                    uni = uni or c == "U"
                    if j == len(a) - 1:
                        i += 1
                    break
                if c not in _OK_SHORT:
                    return None  # -q, -y, -c, -e, -n, -D, -W, -l, -v...
                uni = uni or c == "u"
    return uni


def select(argv: list[str]) -> Spec | None:
    return Spec("diff", diff) if _unified(argv[1:]) is not None else None


def _norm_kind(old: list[str], new: list[str]) -> str:
    """What a change of equal-length blocks amounts to: ``CR``, ``BOM``, ``whitespace`` or ``""`` (real)."""
    if not old or len(old) != len(new):
        return ""
    if old == new:
        return "CR"  # the lines only differ in what the terminal view removed: a CR line ending
    strip = [o.lstrip("\ufeff") for o in old] == [n.lstrip("\ufeff") for n in new]
    if strip:
        return "BOM"
    if ["".join(o.split()) for o in old] == ["".join(n.split()) for n in new]:
        return "whitespace"
    return ""


_KIND_TEXT = {"CR": "CR line endings", "BOM": "a byte-order mark", "whitespace": "whitespace"}


class _Pair:
    """One compared file pair: its title and the change lines rendered so far."""

    __slots__ = ("added", "kinds", "out", "removed", "title")

    def __init__(self, title: str) -> None:
        self.title = title
        self.out: list[str] = []
        self.added = 0
        self.removed = 0
        self.kinds: list[str] = []


def _block(pair: _Pair, header: str, old: list[str], new: list[str], marks: list[str]) -> None:
    kind = _norm_kind(old, new)
    pair.kinds.append(kind)
    pair.removed += len(old)
    pair.added += len(new)
    if kind in ("CR", "BOM"):
        pair.out.append(f"{header} ({plural(len(old), 'line')} differ only in {_KIND_TEXT[kind]})")
        return
    pair.out.append(header + ("  (whitespace only)" if kind else ""))
    pair.out.extend("-" + ln for ln in old)
    pair.out.extend("+" + ln for ln in new)
    pair.out.extend(marks)


def _is_normal_cmd(ln: str) -> bool:
    for c in "acd":
        left, sep, right = ln.partition(c)
        if sep and left.replace(",", "").isdigit() and right.replace(",", "").isdigit():
            return True
    return False


def _normal(lines: list[str], i: int, pair: _Pair) -> int:
    """Read normal-format commands from ``lines[i]`` on; return the index after them."""
    while i < len(lines) and _is_normal_cmd(lines[i]):
        header = lines[i]
        i += 1
        old: list[str] = []
        new: list[str] = []
        marks: list[str] = []
        while i < len(lines):
            ln = lines[i]
            if ln.startswith("< "):
                old.append(ln[2:])
            elif ln.startswith("> "):
                new.append(ln[2:])
            elif ln == "---" and old:
                pass
            elif ln.startswith("\\ "):
                marks.append(ln)
            else:
                break
            i += 1
        _block(pair, header, old, new, marks)
    return i


def _unified_hunks(lines: list[str], i: int, pair: _Pair) -> int:
    """Read ``@@`` hunks from ``lines[i]`` on, each kept whole; return the index after them."""
    while i < len(lines) and lines[i].startswith("@@ "):
        header = lines[i]
        head = header.split()
        try:
            o_cnt = int(head[1].split(",")[1]) if "," in head[1] else 1
            n_cnt = int(head[2].split(",")[1]) if "," in head[2] else 1
        except (IndexError, ValueError):
            raise Unrecognized(f"hunk header {header!r}") from None
        i += 1
        body: list[str] = []
        # read by the lengths the header declares, so a content line such as "--- x" is never a file header
        while o_cnt > 0 or n_cnt > 0 or (i < len(lines) and lines[i].startswith("\\")):
            if i >= len(lines):
                raise Unrecognized("diff ends inside a hunk")
            ln = lines[i]
            kind = ln[:1] or " "  # diff --suppress-blank-empty prints an empty context line as ""
            if kind not in " -+\\":
                raise Unrecognized(f"hunk line {ln!r}")
            if kind in " -":
                o_cnt -= 1
            if kind in " +":
                n_cnt -= 1
            if o_cnt < 0 or n_cnt < 0:
                raise Unrecognized("hunk longer than its header says")
            body.append(ln)
            i += 1
        old = [ln[1:] for ln in body if ln[:1] == "-"]
        new = [ln[1:] for ln in body if ln[:1] == "+"]
        kind = _norm_kind(old, new)
        pair.kinds.append(kind)
        pair.removed += len(old)
        pair.added += len(new)
        if kind in ("CR", "BOM"):
            pair.out.append(f"{header} ({plural(len(old), 'line')} differ only in {_KIND_TEXT[kind]})")
            continue
        pair.out.append(header + ("  (whitespace only)" if kind else ""))
        pair.out.extend(body)
    return i


def diff(argv: list[str], output: str, exit_code: int) -> Filtered | None:
    uni = _unified(argv[1:])
    if uni is None:
        raise Unrecognized("unsupported flags")
    if exit_code == 0 and not output.strip():
        return None
    lines = split_lines(output)
    files = [a for a in argv[1:] if not a.startswith("-") or a == "-"]
    pairs: list[_Pair] = []
    notes: list[str] = []
    common = 0
    cur: _Pair | None = None
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("diff ") and not ln.startswith("diff: "):
            cur = _Pair(ln.split()[-2] + " -> " + ln.split()[-1] if len(ln.split()) >= 3 else ln)
            pairs.append(cur)
            i += 1
        elif ln.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            old = ln[4:].split("\t")[0]
            new = lines[i + 1][4:].split("\t")[0]
            if cur is None or cur.out:
                cur = _Pair(f"{old} -> {new}")
                pairs.append(cur)
            else:
                cur.title = f"{old} -> {new}"
            i += 2
        elif ln.startswith("@@ ") and uni:
            if cur is None:
                cur = _Pair(" -> ".join(files[-2:]))
                pairs.append(cur)
            i = _unified_hunks(lines, i, cur)
        elif _is_normal_cmd(ln) and not uni:
            if cur is None:
                cur = _Pair(" -> ".join(files[-2:]))
                pairs.append(cur)
            i = _normal(lines, i, cur)
        elif ln.startswith("Common subdirectories: "):
            common += 1
            i += 1
        elif ln.startswith(("Only in ", "Binary files ", "Files ", "diff: ", "File ")):
            notes.append(ln)
            cur = None
            i += 1
        else:
            raise Unrecognized(f"line {ln!r}")
    out = [n for n in notes if n.startswith("diff: ")]
    out += [n for n in notes if not n.startswith("diff: ")]
    if len(files) >= 2:
        # diff -r OLD NEW: a pair OLD/rel -> NEW/rel is titled by rel alone (the agent named OLD and NEW).
        a, b = files[-2].rstrip("/") + "/", files[-1].rstrip("/") + "/"
        for p in pairs:
            old, sep, new = p.title.partition(" -> ")
            if sep and old.startswith(a) and new.startswith(b) and old[len(a) :] == new[len(b) :]:
                p.title = old[len(a) :]
    added = removed = 0
    # A single pair of files given on the command line needs no title: the agent named them.
    titled = len(pairs) > 1 or bool(notes) or any(ln.startswith(("diff ", "--- ")) for ln in lines)
    for p in pairs:
        real = [k for k in p.kinds if k == ""]
        invisible = sorted({_KIND_TEXT[k] for k in p.kinds if k})
        if p.kinds and not real:
            out.append(f"{p.title + ': ' if titled else ''}identical except {' and '.join(invisible)}")
            if "whitespace" in invisible:
                out.extend(p.out)
        else:
            if titled:
                out.append(f"{p.title} (+{p.added} -{p.removed})")
            out.extend(p.out)
        added += p.added
        removed += p.removed
    if common:
        out.append(f"({plural(common, 'common subdirectory', 'common subdirectories')})")
    if len(pairs) > 1:
        out.append(f"{plural(len(pairs), 'file')} differ: +{added} -{removed} lines")
    text = "\n".join(out) + "\n"
    if len(text) > 0.9 * len(output):
        return None  # a diff that is nearly all changed lines: diff's own text is as short, and exact
    return Filtered(text, 0)
