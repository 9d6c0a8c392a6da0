"""The project and user tiers: their filter files, read once, hashed, trust-checked and cached.

Each file's bytes are read once; the same bytes are hashed (for trust) and, on
a cache miss, parsed and validated. Parsed definitions are cached with
``marshal`` in ``<data dir>/dsl.cache`` keyed by content hash and path, so a
command normally never imports ``tomllib``. Project files apply only when
trusted (``rtk.dsl.trust``); user files always apply.
"""

from __future__ import annotations

import marshal
import os
import sys

from rtk import paths
from rtk.dsl import trust

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeGuard

PROJECT = "project"
USER = "user"
BUILTIN = "builtin"
_CACHE_VERSION = 2
_CACHE_SIZE_MAX = 32 << 20  # bytes: a larger file is no cache rtk wrote
_CACHE_MAX = 128
MAX_FILE_BYTES = 1 << 20  # a filter file larger than this is skipped unread


def project_dir(cwd: str | None = None) -> str:
    return os.path.join(cwd or os.getcwd(), ".rtk", "filters")


def user_dir() -> str:
    return os.path.join(paths.config_dir(), "filters")


def toml_files(d: str) -> list[str]:
    """The ``*.toml`` files of a filter directory, sorted by name (none if it does not exist)."""
    try:
        names = os.listdir(d)
    except OSError:
        return []
    return [os.path.join(d, n) for n in sorted(names) if n.endswith(".toml") and not n.startswith(".")]


class FileInfo:
    """One filter file of a tier, as loaded for a command."""

    __slots__ = ("defs", "digest", "fresh", "path", "problems", "status", "tests")

    def __init__(
        self,
        path: str,
        digest: str,
        status: str,
        defs: list[dict[str, Any]],
        tests: list[dict[str, Any]],
        problems: list[tuple[str, str, str]],
        fresh: bool = False,
    ) -> None:
        self.path = path
        self.digest = digest
        self.status = status  # trust status (always "trusted" for user files)
        self.defs = defs
        self.tests = tests
        self.problems = problems  # (level, message, filter)
        self.fresh = fresh  # parsed now, not taken from the cache

    @property
    def applies(self) -> bool:
        return self.status in (trust.TRUSTED, trust.ENV)


_cache: dict[str, Any] | None = None
_cache_dirty = False


def _cache_file() -> str:
    return os.path.join(paths.data_dir(), "dsl.cache")


def _load_cache() -> dict[str, Any]:
    global _cache
    if _cache is None:
        try:
            raw = paths.read_regular(_cache_file(), _CACHE_SIZE_MAX)  # not a FIFO planted there: it would block
            got = marshal.loads(raw or b"")  # empty (None: not a regular file): EOFError
            ok = type(got) is tuple and len(got) == 2 and got[0] == _CACHE_VERSION and type(got[1]) is dict
            _cache = got[1] if ok else {}
        except Exception:  # unreadable, truncated or foreign: parse the files again
            _cache = {}
    return _cache


def save_cache() -> None:
    """Write the parse cache if this process added to it (best effort)."""
    global _cache_dirty
    if not _cache_dirty or _cache is None:
        return
    _cache_dirty = False
    items = list(_cache.items())[-_CACHE_MAX:]
    path = _cache_file()
    try:
        paths.ensure_dir(os.path.dirname(path))
        paths.replace_with(path, marshal.dumps((_CACHE_VERSION, dict(items))))  # never through a planted symlink
    except (OSError, ValueError):
        pass


def _well_formed(hit: Any) -> TypeGuard[tuple[list[Any], list[Any], list[tuple[str, str, str]]]]:
    """Whether a cache entry has the shape ``parse_cached`` stores (a damaged one is parsed again)."""
    if type(hit) is not tuple or len(hit) != 3 or not all(type(x) is list for x in hit):
        return False
    for d in hit[0]:
        if type(d) is not dict or type(d.get("name")) is not str or type(d.get("words")) is not list:
            return False
        if not all(type(w) is tuple and len(w) == 2 and all(type(x) is str for x in w) for w in d["words"]):
            return False
    if not all(type(t) is dict for t in hit[1]):
        return False
    return all(type(p) is tuple and len(p) == 3 and all(type(x) is str for x in p) for p in hit[2])


def _read(path: str) -> bytes:
    """The bytes of a regular file of at most MAX_FILE_BYTES; OSError otherwise (a FIFO never blocks)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if st.st_mode & 0o170000 != 0o100000:
            raise OSError(0, "not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            raise OSError(0, f"larger than {MAX_FILE_BYTES} bytes")
        chunks = []
        size = 0
        while size <= MAX_FILE_BYTES:
            b = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not b:
                break
            chunks.append(b)
            size += len(b)
        if size > MAX_FILE_BYTES:
            raise OSError(0, f"larger than {MAX_FILE_BYTES} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


def parse_cached(data: bytes, path: str, digest: str) -> tuple[list[Any], list[Any], list[tuple[str, str, str]], bool]:
    """(defs, tests, problems, fresh): from the cache, or parsed now (fresh=True)."""
    global _cache_dirty
    cache = _load_cache()
    key = f"{digest}:{path}"
    hit = cache.get(key)
    if _well_formed(hit):
        return hit[0], hit[1], hit[2], False
    from rtk.dsl import schema

    defs, tests, problems = schema.parse_bytes(data, path)
    probs = [p.as_tuple() for p in problems]
    cache.pop(key, None)
    cache[key] = (defs, tests, probs)
    _cache_dirty = True
    return defs, tests, probs, True


def load_file(path: str, tier: str, entries: dict[str, str] | None = None) -> FileInfo:
    """Read one file of ``tier`` (bytes read once: hashed, trust-checked, parsed)."""
    try:
        data = _read(path)
    except OSError as e:
        problem = ("error", f"rtk: filters {path}: cannot read ({e.strerror})", "")
        return FileInfo(path, "", trust.UNTRUSTED if tier == PROJECT else trust.TRUSTED, [], [], [problem])
    digest = trust.sha256_hex(data)
    status = trust.check(path, digest, entries) if tier == PROJECT else trust.TRUSTED
    defs, tests, probs, fresh = parse_cached(data, path, digest)
    return FileInfo(path, digest, status, defs, tests, probs, fresh)


def load_tier(tier: str, cwd: str | None = None) -> list[FileInfo]:
    d = project_dir(cwd) if tier == PROJECT else user_dir()
    files = toml_files(d)
    if not files:
        return []
    entries = trust.load() if tier == PROJECT else None
    out = [load_file(p, tier, entries) for p in files]
    save_cache()
    return out


def report(msg: str) -> None:
    print(msg, file=sys.stderr)
