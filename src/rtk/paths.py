"""Where rtk keeps its files: config, data dir, tracking database, recovery files.

Every location can be moved with an environment variable, so tests and users
never depend on the real home directory layout.
"""

from __future__ import annotations

import os


def _home() -> str:
    return os.path.expanduser("~")


def config_dir() -> str:
    """``$RTK_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/rtk``, else ``~/.config/rtk``."""
    d = os.environ.get("RTK_CONFIG_DIR")
    if d:
        return d
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(_home(), ".config")
    return os.path.join(base, "rtk")


def config_file() -> str:
    """``$RTK_CONFIG`` (a file), else ``config.toml`` in :func:`config_dir`."""
    return os.environ.get("RTK_CONFIG") or os.path.join(config_dir(), "config.toml")


def data_dir() -> str:
    """``$RTK_DATA_DIR``, else ``$XDG_DATA_HOME/rtk``, else ``~/.local/share/rtk``."""
    d = os.environ.get("RTK_DATA_DIR")
    if d:
        return d
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(_home(), ".local", "share")
    return os.path.join(base, "rtk")


def ensure_dir(path: str) -> str:
    """Create ``path`` owner-only if missing; return it."""
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except FileExistsError:
        pass
    return path


def create_new(path: str, mode: int = 0o600) -> int:
    """A write-only fd on a file created new at ``path`` (a temporary name, renamed over its target later).

    Never one already there: a symlink planted at the name (or a stale file of a crashed run with the
    same pid) is removed, not followed, so its target is never truncated or written.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        return os.open(path, flags, mode)
    except FileExistsError:
        os.unlink(path)
        return os.open(path, flags, mode)


def replace_with(path: str, data: bytes, mode: int = 0o600) -> None:
    """Write ``data`` to a new temporary file beside ``path`` (:func:`create_new`) and rename it over ``path``."""
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = create_new(tmp, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_regular(path: str, limit: int) -> bytes | None:
    """The bytes of regular file ``path`` if it holds at most ``limit``; None for a FIFO, a device, a larger file.

    Raises OSError when it cannot be opened (missing, unreadable).
    """
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)  # it may have grown since fstat
        return data if len(data) <= limit else None
    finally:
        os.close(fd)
