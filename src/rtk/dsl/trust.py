"""Trust for project filter files: the SHA-256 recorded by ``rtk trust``, checked before a file applies.

A project's ``.rtk/filters/*.toml`` can hide output from the agent, so a file
applies only while its bytes hash to what ``rtk trust`` recorded. The store is
``<data dir>/trusted_filters.tsv``: one ``sha256<TAB>canonical path`` per line.
``RTK_TRUST_PROJECT_FILTERS=1`` trusts every project file, but only when ``CI``
is set (a CI job has no one to run ``rtk trust``).
"""

from __future__ import annotations

import os

from rtk import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

TRUSTED = "trusted"
CHANGED = "changed"
UNTRUSTED = "untrusted"
ENV = "env-override"
ENV_VAR = "RTK_TRUST_PROJECT_FILTERS"
STORE_SIZE_MAX = 16 << 20  # bytes: a larger file is no trust store rtk wrote


def _sha256_factory() -> Callable[[bytes], object]:
    # The builtin module avoids importing OpenSSL through hashlib (milliseconds).
    try:
        from _sha2 import sha256  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found, no-redef, unused-ignore]
        except ImportError:  # pragma: no cover
            from hashlib import sha256  # type: ignore[assignment, unused-ignore]
    return sha256  # type: ignore[no-any-return, unused-ignore]


def sha256_hex(data: bytes) -> str:
    h = _sha256_factory()(data)
    return str(h.hexdigest())  # type: ignore[attr-defined]


def store_path() -> str:
    return os.path.join(paths.data_dir(), "trusted_filters.tsv")


def canonical(path: str) -> str:
    return os.path.realpath(path)


def load() -> dict[str, str]:
    """canonical path -> trusted SHA-256."""
    out: dict[str, str] = {}
    try:
        # surrogateescape: a path that is not UTF-8 round-trips as os.path.realpath gives it
        raw = paths.read_regular(store_path(), STORE_SIZE_MAX)  # a FIFO planted there would block
        for line in (raw or b"").decode("utf-8", "surrogateescape").split("\n"):
            digest, sep, path = line.partition("\t")
            if sep and len(digest) == 64:
                out[path] = digest
    except (OSError, ValueError):  # unreadable, or a NUL in the data dir path
        pass
    return out


def save(entries: dict[str, str]) -> None:
    path = store_path()
    paths.ensure_dir(os.path.dirname(path))
    text = "".join(f"{entries[p]}\t{p}\n" for p in sorted(entries))
    paths.replace_with(path, text.encode("utf-8", "surrogateescape"))  # never through a planted symlink


def env_override() -> bool | None:
    """True: trust by env (CI); None: not asked; False: asked outside CI (ignored)."""
    if os.environ.get(ENV_VAR) != "1":
        return None
    return bool(os.environ.get("CI"))


def check(path: str, digest: str, entries: dict[str, str] | None = None) -> str:
    """TRUSTED, CHANGED, UNTRUSTED or ENV for a project file whose bytes hash to ``digest``."""
    if env_override():
        return ENV
    known = (load() if entries is None else entries).get(canonical(path))
    if known is None:
        return UNTRUSTED
    return TRUSTED if known == digest else CHANGED
