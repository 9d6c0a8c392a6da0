"""Regular expressions compiled once per interpreter: their compiled code is kept in a cache file, as .pyc files keep bytecode.

Compiling a pattern runs Python's regular-expression parser and compiler, written in Python:
the fold's patterns took about 7 ms of every ``rtk read`` of a log. :func:`pattern` gives
the same compiled pattern (``==`` to what ``re.compile`` returns: same pattern text, flags
and code) from the code the compiler produced on an earlier run, checked by the C engine
when it is loaded. The engine's check does not catch every damaged code (one changed word can
crash the interpreter or change what a pattern matches), so the table is trusted only when the
CRC-32 written before it matches (a writer that can change this file can change the bytecode
beside it too: damage is what is guarded against); a cache path that is not a regular file (a FIFO, a device) or is
larger than any table is not read. The cache file lives beside the bytecode (``rtk/__pycache__``), is named
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

VERSION = 2  # 2: the file starts with the CRC-32 of the rest
# What compiled code means depends on the interpreter: the file is used only by the very same one.
KEY = (VERSION, sys.hexversion, sys.implementation.cache_tag, _sre.MAGIC, _sre.CODESIZE, sys.maxunicode)
SIZE_MAX = 8 << 20  # bytes: a larger file is no table rtk wrote
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
        import os
        import stat
        from binascii import crc32

        # Not open(): a FIFO in the file's place would block every run, a device would be read until killed.
        fd = os.open(path(), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > SIZE_MAX:
                return _table
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read(SIZE_MAX + 1)  # marshal.load(f) reads a file object piece by piece: 30 times slower
        finally:
            os.close(fd)
        body = memoryview(data)[4:]
        if len(data) < 4 or int.from_bytes(data[:4], "little") != crc32(body):
            return _table  # damaged (or not written by this module): not even unmarshalled
        got = marshal.loads(body)
        if type(got) is tuple and len(got) == 2 and got[0] == KEY and type(got[1]) is dict:
            _table = got[1]
    except Exception:  # missing, unreadable or damaged: patterns are compiled
        pass
    return _table


def pattern(text: str, flags: int = 0) -> Pattern[str]:
    """``re.compile(text, flags)``, from the cache when this interpreter compiled it before."""
    flags = int(flags)  # a re.RegexFlag is an int marshal cannot write: the whole table would go unsaved
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
        from binascii import crc32

        target = path()
        os.makedirs(os.path.dirname(target), exist_ok=True)
        tmp = f"{target}.{os.getpid()}"
        body = marshal.dumps((KEY, _table))
        # A new file, never one already there: a symlink planted at this name (or a stale file of a
        # crashed run with the same pid) is removed, not written through.
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(tmp, flags, 0o644)
        except FileExistsError:
            os.unlink(tmp)
            fd = os.open(tmp, flags, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(crc32(body).to_bytes(4, "little") + body)
        os.replace(tmp, target)
    except Exception:  # a read-only install, a full disk: compiled again next time
        pass
