"""Regular expressions compiled once per interpreter: their compiled code is kept in a cache file, as .pyc files keep bytecode.

Compiling a pattern runs Python's regular-expression parser and compiler, written in Python:
the fold's patterns took about 7 ms of every ``rtk read`` of a log. :func:`pattern` gives
the same compiled pattern (``==`` to what ``re.compile`` returns: same pattern text, flags
and code) from the code the compiler produced on an earlier run, checked by the C engine
when it is loaded. The cache file lives beside the bytecode (``rtk/__pycache__``), is named
and keyed by the exact interpreter, and is written (once, at exit, when a pattern was
compiled) unless bytecode is not written either (``PYTHONDONTWRITEBYTECODE``, ``-B``) or the
directory is read-only. Anything unexpected (a damaged file, another interpreter's internals)
means compiling as ``re.compile`` does. Importing this module does not import ``re``.
"""

from __future__ import annotations

# _sre: the engine behind re (no type stubs)
import _sre  # type: ignore[import-not-found]
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Pattern
    from typing import Any

VERSION = 1
# What compiled code means depends on the interpreter: the file is used only by the very same one.
KEY = (VERSION, sys.hexversion, sys.implementation.cache_tag, _sre.MAGIC, _sre.CODESIZE, sys.maxunicode)
LIMIT = 2000  # entries kept (patterns that changed leave old entries behind: past this the file starts again)

_table: dict[tuple[str, int], tuple[Any, ...]] | None = None
_dirty = False


def path() -> str:
    """The cache file: beside this module's bytecode, named by the interpreter (``regex.cpython-311.cache``)."""
    import os

    return os.path.join(os.path.dirname(__file__), "__pycache__", f"regex.{sys.implementation.cache_tag}.cache")


def _load() -> dict[tuple[str, int], tuple[Any, ...]]:
    global _table
    _table = {}
    try:
        import marshal

        with open(path(), "rb") as f:
            got = marshal.loads(f.read())  # marshal.load(f) reads a file object piece by piece: 30 times slower
        if type(got) is tuple and len(got) == 2 and got[0] == KEY and type(got[1]) is dict:
            _table = got[1]
    except Exception:  # missing, unreadable or damaged: patterns are compiled
        pass
    return _table


def pattern(text: str, flags: int = 0) -> Pattern[str]:
    """``re.compile(text, flags)``, from the cache when this interpreter compiled it before."""
    table = _load() if _table is None else _table
    entry = table.get((text, flags))
    if entry is not None:
        try:
            return _sre.compile(text, *entry)  # type: ignore[no-any-return]
        except Exception:  # not what this interpreter's engine takes after all: compile it
            pass
    return _compile(table, text, flags)


def _compile(table: dict[tuple[str, int], tuple[Any, ...]], text: str, flags: int) -> Pattern[str]:
    """Compile ``text`` the way ``re._compiler.compile`` does, keeping what it gives the engine."""
    import re

    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(text, flags)
        code = list(map(int, _compiler._code(parsed, flags)))  # opcodes are int subclasses: plain ints marshal
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for k, i in groupindex.items():
            indexgroup[i] = k
        entry = (flags | parsed.state.flags, code, parsed.state.groups - 1, groupindex, tuple(indexgroup))
        compiled: Pattern[str] = _sre.compile(text, *entry)
    except Exception:  # internals not as expected (another Python): the public way, not cached
        return re.compile(text, flags)
    _remember(table, (text, flags), entry)
    return compiled


def _remember(table: dict[tuple[str, int], tuple[Any, ...]], key: tuple[str, int], entry: tuple[Any, ...]) -> None:
    global _dirty
    if sys.dont_write_bytecode:
        return
    if len(table) >= LIMIT:
        table.clear()
    table[key] = entry
    if not _dirty:
        _dirty = True
        import atexit

        atexit.register(save)


def save() -> None:
    """Write the table (when a pattern was compiled in this run); never fails."""
    global _dirty
    if not _dirty or _table is None:
        return
    _dirty = False
    try:
        import marshal
        import os

        target = path()
        os.makedirs(os.path.dirname(target), exist_ok=True)
        tmp = f"{target}.{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(marshal.dumps((KEY, _table)))
        os.replace(tmp, target)
    except Exception:  # a read-only install, a full disk: compiled again next time
        pass
