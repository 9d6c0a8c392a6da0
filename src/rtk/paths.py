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
