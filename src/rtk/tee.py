"""Raw-output recovery: keep what a filter hid, so the agent can read it instead of re-running.

Files live in ``<data dir>/tee/<epoch>_<program>_<id>.log`` (``RTK_TEE_DIR`` or
``tee.directory`` move them), are created owner-only, capped in size (head and
tail kept) and kept for a while: the ``tee.keep_files`` most recently written
always, others until they are ``tee.keep_hours`` old or, oldest first, while all
files together exceed ``tee.max_total_mb`` (a path printed minutes ago is still there).
They are addressed by content: the same command printing the same bytes again
gets the path of the file it already has (an agent re-running a failing command
does not push other recovery files out). A name holds no argument of the command,
only its program's name and ``id``, the start of the content hash that ``rtk recall``
takes: an argument may be a password no pattern recognises (``./deploy.sh prod hunter2``).
"""

from __future__ import annotations

import os
import time

from rtk import config, paths

MARKER = b"\n[rtk: %d bytes omitted from the middle of this recovery file]\n"


class Spool:
    """The raw bytes of one run, bounded: the first and last ``limit/2`` bytes."""

    __slots__ = ("half", "head", "tail", "total")

    def __init__(self, limit: int) -> None:
        self.half = max(limit // 2, 1)
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.half - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
            if not chunk:
                return
        self.tail += chunk
        if len(self.tail) > 2 * self.half:
            del self.tail[: len(self.tail) - self.half]

    @property
    def complete(self) -> bool:
        """True when every byte is still held."""
        return len(self.head) + len(self.tail) == self.total

    def data(self) -> bytes:
        """Everything held; a marker stands for the bytes dropped from the middle."""
        if self.complete:
            return bytes(self.head + self.tail)
        tail = bytes(self.tail[-self.half :])
        dropped = self.total - len(self.head) - len(tail)
        return bytes(self.head) + (MARKER % dropped) + tail


def directory() -> str:
    d = os.environ.get("RTK_TEE_DIR") or config.get("tee.directory")
    return d or os.path.join(paths.data_dir(), "tee")


def enabled() -> bool:
    if os.environ.get("RTK_TEE") == "0":
        return False
    return bool(config.get("tee.enabled")) and config.get("tee.mode") != "never"


def wanted(exit_code: int, cut: int, raw_size: int) -> bool:
    """Whether this run's raw output should be kept."""
    if raw_size == 0 or not enabled():
        return False
    if cut > 0 or config.get("tee.mode") == "always":
        return True
    return exit_code != 0 and raw_size >= int(config.get("tee.min_size"))


def write(argv: list[str], raw: bytes | Spool) -> str | None:
    """Write the raw output to a new recovery file; its path, or None if that failed."""
    limit = int(config.get("tee.max_file_size"))
    if isinstance(raw, Spool):
        data = raw.data()
    elif len(raw) > limit:
        spool = Spool(limit)
        spool.add(raw)
        data = spool.data()
    else:
        data = raw
    d = directory()
    try:
        paths.ensure_dir(d)
        name = file_stem(argv, data)
        same = _identical(d, name, data)
        if same is not None:
            try:
                os.utime(same)  # the most recent again, for rotation
            except OSError:
                pass
            return same
        base = f"{int(time.time())}_{name}"
        path = os.path.join(d, base + ".log")
        for n in range(2, 100):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
                break
            except FileExistsError:
                path = os.path.join(d, f"{base}_{n}.log")
        else:
            return None
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        _rotate(d, int(config.get("tee.keep_files")), int(config.get("tee.keep_hours")) * 3600,
                int(config.get("tee.max_total_mb")) << 20)  # fmt: skip
        return path
    except OSError:
        return None


def _identical(d: str, name: str, data: bytes) -> str | None:
    """An existing recovery file named ``name`` (:func:`file_stem`) holding exactly ``data``."""
    try:
        entries = list(os.scandir(d))
    except OSError:
        return None
    for e in entries:
        stem = e.name[:-4] if e.name.endswith(".log") else ""
        rest = stem.partition("_")[2]  # after the epoch; "_2", "_3"... mark same-second files
        if rest != name and not (rest.startswith(name + "_") and rest[len(name) + 1 :].isdigit()):
            continue
        try:
            if not e.is_file(follow_symlinks=False) or e.stat().st_size != len(data):
                continue  # a symlink planted under a recovery file's name is not one
            with open(e.path, "rb") as f:
                if f.read() == data:
                    return e.path
        except OSError:
            continue
    return None


def _ours(name: str) -> bool:
    """A recovery file's name (``<epoch>_<...>.log``): rotation never touches other files of the directory
    (``tee.directory`` may be a folder of the user's own logs)."""
    epoch, sep, rest = name.partition("_")
    return bool(sep) and 9 <= len(epoch) <= 11 and epoch.isascii() and epoch.isdigit() and rest.endswith(".log")


def _rotate(d: str, keep: int, max_age_s: int, max_bytes: int) -> None:
    """Remove files beyond the ``keep`` most recent that are older than ``max_age_s`` or past ``max_bytes`` in all."""
    found: list[tuple[int, int, str]] = []
    try:
        for e in os.scandir(d):
            if _ours(e.name):
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                if st.st_mode & 0o077:  # rtk creates its files owner-only: this one is someone else's
                    continue
                found.append((st.st_mtime_ns, st.st_size, e.name))
    except OSError:
        return
    found.sort(reverse=True)  # most recent first
    oldest_kept = time.time_ns() - max_age_s * 10**9
    total = 0
    for i, (mtime, size, name) in enumerate(found):
        total += size
        if i < max(keep, 1) or (mtime >= oldest_kept and total <= max_bytes):
            continue
        try:
            os.unlink(os.path.join(d, name))
        except OSError:
            pass
        total -= size


ID_LEN = 6  # hex digits of the content hash that name a recovery file in hints and ``rtk recall``


def program(argv: list[str]) -> str:
    """The file-name-safe name of the program ``argv`` runs (``deploy.sh`` for ``./deploy.sh``); ``cmd`` if none."""
    from rtk.tracking import mask_command

    word = argv[0] if argv else ""
    if "=" in word:  # an assignment is not a program name (and may hold a value)
        word = ""
    base = mask_command(word).replace("****", "").rsplit("/", 1)[-1]
    out = "".join(c if (c.isascii() and c.isalnum()) or c in "-." else "_" for c in base)
    return out[:40].strip("_.") or "cmd"


def file_stem(argv: list[str], data: bytes) -> str:
    """``<program>_<id>``: a recovery file's name after its epoch; no argument of the command is in it."""
    import hashlib

    return f"{program(argv)}_{hashlib.sha256(data).hexdigest()[:ID_LEN]}"


def content_id(path: str) -> str | None:
    """The short content hash (SHA-256, first ``ID_LEN`` hex digits) of a recovery file; None if unreadable."""
    import hashlib

    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 16):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()[:ID_LEN]


def hint(path: str) -> str:
    """The one line that tells the agent how to get the raw output back: ``rtk recall ID``.

    The file's path is named instead when it is not a recovery file (``rtk read`` names the
    user's own file) or cannot be read back.
    """
    rid = content_id(path) if os.path.dirname(os.path.abspath(path)) == os.path.abspath(directory()) else None
    if rid is not None:
        return f"[rtk] full output: rtk recall {rid}"
    shown = path if " " not in path else f'"{path}"'
    return f"[rtk] full output: {shown}"
