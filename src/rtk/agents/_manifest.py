"""The record of what ``rtk init`` wrote: every file, rtk's part of it, backups, and the integrity hashes.

``<data dir>/integrations/manifest.json``::

    {"version": 1,
     "files": {path: {"existed": bool, "backup": path | null, "sha256": hash of the whole file
                      after rtk's last write | null}},
     "dirs": [directories rtk created, removed when empty at uninstall],
     "installs": {"<agent>@<global | project dir>": {"agent", "scope", "root", "options",
                  "rtk_version", "at", "artifacts": [{"path", "kind", "hook", "sha256"}]}}}

``sha256`` of an artifact is the hash of rtk's part of the file (the hook entry,
the marked block, the whole owned file), so edits elsewhere in a shared settings
file are not reported as tampering. The file (and the daily-check marker) is
removed when the last install is.
"""

from __future__ import annotations

import hashlib
import json
import os

from rtk import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

VERSION = 1


def base_dir() -> str:
    return os.path.join(paths.data_dir(), "integrations")


def manifest_path() -> str:
    return os.path.join(base_dir(), "manifest.json")


def marker_path() -> str:
    """Touched by ``rtk init``; its age schedules the once-a-day integrity check (see rtk.__main__)."""
    return os.path.join(paths.data_dir(), ".hook_check")


def sha256(data: bytes | str) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def install_key(agent: str, scope_label: str) -> str:
    return f"{agent}@{scope_label}"


class Manifest:
    """The manifest document, loaded and saved atomically."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        self.data: dict[str, Any] = data or {"version": VERSION, "files": {}, "installs": {}, "dirs": []}

    @classmethod
    def load(cls) -> Manifest:
        try:
            with open(manifest_path(), "rb") as f:
                data = json.loads(f.read())
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as e:
            from rtk.errors import RtkError

            raise RtkError(f"cannot read {manifest_path()}: {e}") from None
        if not isinstance(data, dict) or data.get("version") != VERSION:
            from rtk.errors import RtkError

            raise RtkError(f"{manifest_path()}: unknown format")
        data.setdefault("files", {})
        data.setdefault("installs", {})
        data.setdefault("dirs", [])
        return cls(data)

    @property
    def files(self) -> dict[str, Any]:
        return self.data["files"]  # type: ignore[no-any-return]

    @property
    def dirs(self) -> list[str]:
        return self.data["dirs"]  # type: ignore[no-any-return]

    @property
    def installs(self) -> dict[str, Any]:
        return self.data["installs"]  # type: ignore[no-any-return]

    def users(self, path: str, but: str = "") -> list[str]:
        """The installs (other than ``but``) that wrote into ``path``."""
        return [k for k, v in self.installs.items() if k != but and any(a["path"] == path for a in v["artifacts"])]

    def save(self) -> None:
        if not self.installs:
            self._remove_all()
            return
        paths.ensure_dir(base_dir())
        text = json.dumps(self.data, indent=2, sort_keys=True) + "\n"
        paths.replace_with(manifest_path(), text.encode("utf-8"), 0o644)  # never through a planted symlink

    def _remove_all(self) -> None:
        for p in (manifest_path(), marker_path()):
            try:
                os.unlink(p)
            except OSError:
                pass
        for d in (os.path.join(base_dir(), "backups"), base_dir()):
            try:
                os.rmdir(d)
            except OSError:
                pass

    def backup(self, path: str, data: bytes) -> str:
        """Keep the original bytes of ``path`` (first install only); returns the backup's path."""
        d = paths.ensure_dir(os.path.join(base_dir(), "backups"))
        dest = os.path.join(d, f"{sha256(path)[:16]}-{os.path.basename(path)}")
        with open(dest, "wb") as f:
            f.write(data)
        os.chmod(dest, 0o600)
        return dest

    def drop_unused_files(self) -> None:
        for path in list(self.files):
            if not self.users(path):
                backup = self.files[path].get("backup")
                if backup:
                    try:
                        os.unlink(backup)
                    except OSError:
                        pass
                del self.files[path]


def touch_marker() -> None:
    try:
        paths.ensure_dir(paths.data_dir())
        with open(marker_path(), "a"):
            pass
        os.utime(marker_path())
    except OSError:
        pass
