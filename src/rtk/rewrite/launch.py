"""The word that runs rtk in a rewritten line: ``rtk``, or this rtk's absolute path where ``rtk`` would not resolve.

A rewrite must never change whether a command can run. ``rtk`` is looked up on the
PATH the command sees, so:

- a segment whose prefix changes that PATH (``PATH=/usr/bin git status``,
  ``env PATH=... git status``, ``env -u PATH git status``, ``command -p git status``)
  or that follows a segment changing it (``export PATH=/x; git status``,
  ``unset PATH && ...``) gets this rtk's absolute path, or is not rewritten when that
  path is unknown (the library default). Appending to PATH keeps ``rtk``:
  ``PATH=$PATH:/x``, ``PATH+=:/x``. ``env -i`` and ``env -S`` are never rewritten;
- everything else gets ``rtk`` when the first ``rtk`` on this process's PATH (the
  agent's, for a hook) is this rtk, else the absolute path (a hook run as
  ``/abs/path/rtk hook claude`` with ``rtk`` not on PATH).

rtk is a Python program, so a rewrite never lets an environment meant for the command
change how rtk's own Python starts: a segment whose prefix sets or unsets a ``PYTHON*``
variable (``PYTHONPATH=. git status`` would import the directory's ``subprocess.py`` into
rtk; ``PYTHONHOME=/x`` stops it starting), or that follows one doing so on the line, gets
``/abs/python -E -P -m rtk``: ``-E`` ignores every ``PYTHON*`` variable for rtk itself while
the command rtk runs still receives them unchanged; ``-P`` keeps the working directory off
``sys.path``. Not ``-s``/``-I``: they drop the user site-packages a ``pip install --user``
rtk lives in. When that form is unknown (the library default) or would not find rtk (rtk
itself was found through ``PYTHONPATH``/``PYTHONUSERBASE``/``PYTHONHOME``), the segment is
left as written. ``PYTHONUNBUFFERED`` and ``PYTHONDONTWRITEBYTECODE`` change nothing rtk
does and keep the plain word.

``current()`` describes the running rtk (``rtk rewrite``, ``rtk hook``); ``LIBRARY``
(bare ``rtk``, no absolute path) is the default of :func:`rtk.rewrite.engine.decide`.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.shell.segments import Segment

Edit = tuple[int, int, str]


class Launch:
    """``plain``: the word for ordinary rewrites; ``absolute``: one that needs no PATH ("" when unknown);
    ``python``: ``/abs/python -E -P -m rtk``, deaf to ``PYTHON*`` variables and needing no PATH ("" when unknown)."""

    __slots__ = ("absolute", "plain", "python")

    def __init__(self, plain: str = "rtk", absolute: str = "", python: str = "") -> None:
        self.plain = plain
        self.absolute = absolute
        self.python = python


LIBRARY = Launch()

_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")


def quote(word: str) -> str:
    """``word`` as one POSIX shell word."""
    if word and all(c in _SAFE for c in word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


def current() -> Launch:
    """How to run the rtk of this process: its launcher, or ``python -m rtk``; ``rtk`` when PATH finds it."""
    argv0 = sys.argv[0] if sys.argv else ""
    script = ""
    python = quote(os.path.abspath(sys.executable)) if sys.executable else ""
    if os.path.basename(argv0) == "rtk" and os.path.isfile(argv0):
        script = os.path.abspath(argv0)
        absolute = quote(script)
    elif python:
        absolute = python + " -P -m rtk"  # -P: the cwd is not on sys.path
    else:
        return LIBRARY
    isolated = python + " -E -P -m rtk" if python and _found_without_environment() else ""
    found = on_path()
    if found and (_same(found, script) if script else _runs_python(found, sys.executable)):
        return Launch("rtk", absolute, isolated)
    return Launch(absolute, absolute, isolated)


def _found_without_environment() -> bool:
    """Whether this rtk's interpreter still finds it under ``-E`` (not only through a ``PYTHON*`` variable)."""
    if sys.flags.ignore_environment:
        return True
    env = os.environ
    if env.get("PYTHONHOME"):
        return False
    paths, base = env.get("PYTHONPATH", ""), env.get("PYTHONUSERBASE", "")
    if not paths and not base:
        return True  # the usual case: no file-system look-up on the hook's path
    home = os.path.realpath(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    for d in paths.split(os.pathsep):
        if d and os.path.realpath(d) == home:
            return False
    return not (base and (home + os.sep).startswith(os.path.realpath(base) + os.sep))


def on_path() -> str:
    """The ``rtk`` a shell with this PATH runs, or ""."""
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if d:
            p = os.path.join(d, "rtk")
            if os.path.isfile(p) and os.access(p, os.X_OK):
                return p
    return ""


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _runs_python(script: str, python: str) -> bool:
    """Whether ``script`` is a launcher run by ``python`` (the same installation as ``python -m rtk``)."""
    try:
        with open(script, "rb") as f:
            first = f.readline(4096)
    except OSError:
        return False
    if not first.startswith(b"#!"):
        return False
    words = first[2:].split()
    return bool(words) and _same(os.fsdecode(words[0]), python)


# ---------------------------------------------------------------------------
# PATH changes on the line
# ---------------------------------------------------------------------------


def _path_value(word: str) -> str | None:
    """The value a ``PATH=``/``PATH+=`` word assigns, or None when it assigns no PATH."""
    if word.startswith("PATH="):
        return word[5:]
    if word.startswith("PATH+="):
        return "$PATH" + word[6:]
    return None


def _keeps_path(value: str) -> bool:
    """``$PATH:...``: the old PATH still comes first, so ``rtk`` is found where it was."""
    return any(value == old or value.startswith(old + ":") for old in ("$PATH", "${PATH}"))


# PYTHON* variables that change nothing rtk does (its output is flushed, it writes no bytecode it needs).
_HARMLESS_PY = frozenset(("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"))


def _python_name(name: str) -> bool:
    """A variable that changes how rtk's own interpreter starts or what it imports."""
    return name.startswith("PYTHON") and name not in _HARMLESS_PY


def python_change(words: list[str]) -> str:
    """Why the prefix ``words`` gives rtk a different Python environment (``PYTHONPATH=.``, ``env -u PYTHONHOME``), or ""."""
    for i, w in enumerate(words):
        name = w[: w.find("=")].removesuffix("+") if _is_assignment(w) else ""
        if not name and w.startswith(("-u", "--unset=")):
            name = w.removeprefix("--unset=").removeprefix("-u") or (words[i + 1] if i + 1 < len(words) else "")
        if name and _python_name(name):
            return f"the prefix sets {name}, which rtk (a Python program) would read too"
    return ""


def prefix_change(words: list[str]) -> str:
    """Why the prefix ``words`` (assignments and wrappers before the command) changes PATH, or ""."""
    n = len(words)
    for i, w in enumerate(words):
        value = _path_value(w)
        if value is not None and not _keeps_path(value):
            return "the prefix sets PATH"
        nxt = words[i + 1] if i + 1 < n else ""
        if w in ("-uPATH", "--unset=PATH") or (w in ("-u", "--unset") and nxt == "PATH"):
            return "the prefix unsets PATH"
        if w == "command" and nxt == "-p":
            return "command -p looks the command up in a default PATH"
    return ""


_DECLARE = frozenset(("export", "declare", "typeset", "readonly", "local"))


def sets_python(line: str, seg: Segment) -> bool:
    """Whether ``seg`` may change a ``PYTHON*`` variable for what follows it on the line."""
    if seg.opaque:
        return "PYTHON" in (line[seg.start : seg.end] if seg.start >= 0 else "")
    values = [w.value for w in seg.words]
    if not values:
        return False
    first = values[0]
    if first == "unset" or first in _DECLARE:
        return any(_python_name(a.split("=", 1)[0].removesuffix("+")) for a in values[1:])
    if not all(_is_assignment(w) for w in values):
        return False  # a command follows: assignments are only its environment
    return any(_python_name(w.split("=", 1)[0].removesuffix("+")) for w in values)


def sets_path(line: str, seg: Segment) -> bool:
    """Whether ``seg`` changes PATH for what follows it on the line."""
    if seg.opaque:
        return _text_sets_path(line[seg.start : seg.end] if seg.start >= 0 else "")
    values = [w.value for w in seg.words]
    if not values:
        return False
    first = values[0]
    if first == "unset":
        return "PATH" in values[1:]
    if first in _DECLARE:
        return any((v := _path_value(a)) is not None and not _keeps_path(v) for a in values[1:]) or (
            first == "export" and "-n" in values[1:] and "PATH" in values[1:]
        )
    if not all(_is_assignment(w) for w in values):
        return False  # a command follows: assignments are only its environment
    return any((v := _path_value(w)) is not None and not _keeps_path(v) for w in values)


def _is_assignment(word: str) -> bool:
    eq = word.find("=")
    name = word[:eq].removesuffix("+")
    return eq > 0 and name.isascii() and name.isidentifier()


def _text_sets_path(text: str) -> bool:
    """A block (``{ PATH=/x; }``, ``if ...; then export PATH=...; fi``) that may change PATH."""
    at = text.find("PATH")
    while at >= 0:
        before = text[at - 1] if at > 0 else " "
        after = text[at + 4 : at + 6]
        if not (before.isalnum() or before == "_") and (after[:1] == "=" or after == "+=" or "unset" in text):
            return True
        at = text.find("PATH", at + 4)
    return False


def settle(line: str, segs: list[tuple[Segment, Edit | None]], how: Launch) -> list[tuple[Edit | None, str]]:
    """Each segment's edit with ``rtk`` replaced by the word that resolves there, or (None, why not)."""
    out: list[tuple[Edit | None, str]] = []
    changed = python = ""
    for seg, edit in segs:
        why = ""
        if edit is not None:
            prefix = _prefix(seg, edit)
            if why := python or python_change(prefix):
                word, lacking = how.python, ": no rtk deaf to it is known"
            elif why := changed or prefix_change(prefix):
                word, lacking = how.absolute, ": rtk might not be found"
            else:
                word, lacking = how.plain, ""
            if not word:
                edit, why = None, why + lacking
            else:
                why = ""
                start, end, text = edit
                if word != "rtk" and text.startswith("rtk"):
                    edit = (start, end, word + text[3:])
        out.append((edit, why))
        if not changed and sets_path(line, seg):
            changed = "PATH changed earlier on the line"
        if not python and sets_python(line, seg):
            python = "a PYTHON* variable changed earlier on the line"
    return out


def _prefix(seg: Segment, edit: Edit) -> list[str]:
    """The words before the place ``rtk`` goes."""
    return [w.value for w in seg.words if w.end <= edit[0]]
