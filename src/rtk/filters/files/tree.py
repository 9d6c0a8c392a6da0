"""Filter for ``tree``: one line per directory, noise directories folded and counted, the report line kept.

The real ``tree`` runs with the user's flags, so its own visibility rules
(``-a``, ``-I``, ``--gitignore``, ``-L``) decide what is listed. The filter
only changes the layout: each directory's files share one line, branch
drawings become two-space indents, and the contents of noise directories
(``node_modules``, ``.git``...) below the listed root are replaced by their
entry count. Output formats it does not read (``-J``, ``-X``, ``-H``, ``-i``...)
run unfiltered.
"""

from __future__ import annotations

from rtk import config
from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.files.paths import Unit, asked_for, fit, fold, noise_dirs, qname
from rtk.text import plural, split_lines

COMMANDS = ("tree",)

_FLAGS = frozenset("adlfxqNQpugshDFvtcUrnCR")
_VALUE_SHORT = frozenset("LPI")
_LONG = frozenset(
    (
        "--gitignore", "--ignore-case", "--matchdirs", "--metafirst", "--prune", "--si", "--du", "--inodes",
        "--device", "--dirsfirst", "--filesfirst", "--noreport", "--nolinks", "--fflinks", "--version",
    )
)  # fmt: skip
_LONG_VALUE = ("--sort", "--filelimit", "--timefmt", "--charset", "--gitfile")

_INDENTS = ("│\xa0\xa0 ", "│   ", "    ", "|   ", "\xa0\xa0\xa0 ")
_BRANCHES = ("├── ", "└── ", "|-- ", "`-- ")


def _parse_args(args: list[str]) -> tuple[list[str], list[str], set[str]] | None:
    """(roots, pattern words, short flags) or None when a flag changes the layout or is unknown."""
    roots: list[str] = []
    words: list[str] = []
    shorts: set[str] = set()
    i = 0
    only = False
    while i < len(args):
        a = args[i]
        if only or not a.startswith("-") or a == "-":
            roots.append(a)
        elif a == "--":
            only = True
        elif a.startswith("--"):
            name = a.split("=", 1)[0]
            if a == "--version":
                return None
            if name in _LONG_VALUE:
                if "=" not in a:
                    i += 1
                    if i < len(args):
                        words.append(args[i])
                else:
                    words.append(a.split("=", 1)[1])
            elif a not in _LONG:
                return None
        else:
            j = 1
            while j < len(a):
                c = a[j]
                if c in _VALUE_SHORT:
                    val = a[j + 1 :]
                    if not val:
                        i += 1
                        val = args[i] if i < len(args) else ""
                    words.append(val)
                    break
                if c not in _FLAGS:
                    return None
                shorts.add(c)
                j += 1
        i += 1
    return roots, words, shorts


def select(argv: list[str]) -> Spec | None:
    parsed = _parse_args(argv[1:])
    if parsed is None:
        return None
    if "F" in parsed[2]:
        return Spec("tree", tree)
    # -F marks directories with "/" (and executables "*", fifos "|"), so a directory
    # cut off by -L or left empty is still told apart from a file.
    return Spec("tree", tree, run_argv=[argv[0], "-F", *argv[1:]])


class _Node:
    __slots__ = ("children", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.children: list[_Node] = []

    def size(self) -> int:
        return sum(1 + c.size() for c in self.children)


def _entry(line: str) -> tuple[int, str] | None:
    """(depth, name) of an entry line, or None when the line has no branch drawing."""
    pos = 0
    depth = 0
    while True:
        for ind in _INDENTS:
            if line.startswith(ind, pos):
                pos += len(ind)
                depth += 1
                break
        else:
            break
    for br in _BRANCHES:
        if line.startswith(br, pos):
            return depth + 1, line[pos + len(br) :]
    return None


def _is_report(line: str) -> bool:
    words = line.replace(",", "").split()
    return (
        len(words) in (2, 4)
        and words[0].isdigit()
        and words[1] in ("directory", "directories")
        and (len(words) == 2 or (words[2].isdigit() and words[3] in ("file", "files")))
    )


def _bare(name: str) -> str:
    """The entry name without tree's ``[size]`` meta prefix and symlink target."""
    if name.startswith("[") and "]  " in name:
        name = name.split("]  ", 1)[1]
    return name.split(" -> ", 1)[0].rstrip("/")


def tree(argv: list[str], output: str, exit_code: int) -> Filtered:
    parsed = _parse_args(argv[1:])
    if parsed is None:
        raise Unrecognized("unsupported flags")
    words = parsed[1]
    given = {r.rstrip("/") or "/" for r in (parsed[0] or ["."])}
    noise = noise_dirs() - asked_for(noise_dirs(), words)
    budget = int(config.get("limits.listing_budget"))
    roots: list[_Node] = []
    tail: list[str] = []
    stack: list[_Node] = []
    for ln in split_lines(output):
        ent = _entry(ln)
        if ent is None:
            if ln == "":
                continue
            if _is_report(ln):
                tail.append(ln)
                continue
            if tail:
                raise Unrecognized(f"line after the report: {ln!r}")
            if (ln.rstrip("/") or "/") not in given and not any(ln.startswith(g + "  [") for g in given):
                raise Unrecognized(f"not an entry nor a listed directory: {ln!r}")
            node = _Node(ln)
            roots.append(node)
            stack = [node]
            continue
        depth, name = ent
        if not stack or depth > len(stack):
            raise Unrecognized(f"entry without a parent: {ln!r}")
        node = _Node(name)
        del stack[depth:]
        stack[-1].children.append(node)
        stack.append(node)
    if not roots:
        raise Unrecognized("no root line")
    st = _State()
    for root in roots:
        inside_noise = any(part in noise for part in _bare(root.name).split("/"))
        _render(root, 0, st, noise if not inside_noise else frozenset(), True, "")
    out, cut = fit(st.units, budget, ("entry", "entries"), "dir")
    if st.hidden:
        out.append(f"[hidden: {st.hidden} entries in {plural(st.hidden_dirs, 'noise dir')}]")
    out.extend(tail)
    return Filtered("\n".join(out) + "\n", cut + st.hidden)


class _State:
    __slots__ = ("hidden", "hidden_dirs", "units")

    def __init__(self) -> None:
        self.hidden = 0
        self.hidden_dirs = 0
        self.units: list[Unit] = []


def _render(node: _Node, depth: int, st: _State, noise: frozenset[str], root: bool, path: str) -> None:
    pad = "  " * depth
    name = node.name if root or node.name.endswith("/") else node.name + "/"
    path = f"{path}/{_bare(node.name)}" if path else _bare(node.name)
    if not root and node.children and _bare(node.name) in noise:
        n = node.size()
        st.hidden += n
        st.hidden_dirs += 1
        st.units.append(Unit(pad + name, f"{pad}{name}  ({n} hidden)", 0, path))
        return
    # Files (and empty or unopened dirs) share the directory's line, numbered runs folded;
    # subdirectories follow on their own lines.
    leaves = fold([k.name for k in node.children if not k.children])
    line = pad + name + ("  " + "  ".join(t if c > 1 else qname(t) for t, c in leaves) if leaves else "")
    st.units.append(Unit(pad + name, line, sum(c for _, c in leaves), path))
    for k in node.children:
        if k.children:
            _render(k, depth + 1, st, noise, False, path)
