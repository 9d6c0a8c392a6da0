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
Work per write is bounded whatever the directory holds (:func:`_rotate`): names are listed, few files stat-ed.
"""

from __future__ import annotations

import os
import time

from rtk import config, paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.teefile import Spool


def __getattr__(name: str) -> object:
    if name == "Spool":  # (rtk.teefile, with zlib, loads only when an output is spooled)
        from rtk.teefile import Spool

        return Spool
    raise AttributeError(name)


def spool() -> Spool:
    """A spool for one run's raw output: in memory up to ``tee.max_file_size``, past it compressed on disk
    (in the recovery directory, when recovery files are on) up to ``tee.max_file_mb``."""
    from rtk.teefile import Spool

    limit = int(config.get("tee.max_file_size"))
    return Spool(limit, int(config.get("tee.max_file_mb")) << 20, directory() if enabled() else None)


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
    """Write the raw output to a new recovery file; its path, or None if that failed.

    Up to ``tee.max_file_size`` bytes a plain ``.log`` file; a larger output a compressed ``.log.gz``
    (:mod:`rtk.teefile`), every byte up to ``tee.max_file_mb`` on disk.
    """
    from rtk.teefile import Spool

    if not isinstance(raw, Spool) and len(raw) > int(config.get("tee.max_file_size")):
        whole = raw
        raw = spool()
        view = memoryview(whole)
        for i in range(0, len(view), 1 << 20):
            raw.add(bytes(view[i : i + (1 << 20)]))
    if isinstance(raw, Spool):
        try:
            if raw.on_disk:
                kept = _write_sealed(argv, raw)
                if kept is not None:
                    return kept
            data = raw.data()  # no directory for it: the head and tail held in memory
        finally:
            raw.close()
    else:
        data = raw
    d = directory()
    try:
        paths.ensure_dir(d)
        name = file_stem(argv, data)
        ours = names(d)
        same = _identical(d, ours, name, data)
        if same is not None:
            return _touched(same)
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
        except OSError:  # a full disk: no file named for bytes it does not hold
            os.close(fd)
            os.unlink(path)
            return None
        os.close(fd)
        ours.append(os.path.basename(path))
        _rotate(d, ours, int(config.get("tee.keep_files")), int(config.get("tee.keep_hours")) * 3600,
                int(config.get("tee.max_total_mb")) << 20)  # fmt: skip
        return path
    except OSError:
        return None


def _touched(path: str) -> str:
    """``path`` (a file holding the same output) made the most recent again, for rotation."""
    try:
        os.utime(path)
    except OSError:
        pass
    return path


def _write_sealed(argv: list[str], sp: Spool) -> str | None:
    """The compressed file of ``sp`` renamed into place (or the file that already holds the same output)."""
    from rtk import teefile

    sealed = sp.seal()
    if sealed is None:
        return None
    tmp, sha = sealed
    d = directory()
    name = f"{program(argv)}_{sha[:ID_LEN]}"
    try:
        ours = names(d)
        same = _identical(d, ours, name, sha)
        if same is not None:
            return _touched(same)
        base = os.path.join(d, f"{int(time.time())}_{name}")
        for n in range(1, 100):
            path = f"{base}{teefile.GZ}" if n == 1 else f"{base}_{n}{teefile.GZ}"
            try:
                os.link(tmp, path)  # never over an existing file
                break
            except FileExistsError:
                continue
            except OSError:  # no hard links on this file system
                if os.path.lexists(path):
                    continue
                os.rename(tmp, path)
                break
        else:
            return None
        ours.append(os.path.basename(path))
        _rotate(d, ours, int(config.get("tee.keep_files")), int(config.get("tee.keep_hours")) * 3600,
                int(config.get("tee.max_total_mb")) << 20)  # fmt: skip
        _remove_stale(d)
        return path
    except OSError:
        return None


STALE_S = 86400  # a temporary file this old is left by a run that was killed: removed by the next large write


def _remove_stale(d: str) -> None:
    """Remove the temporary files (``.rtk-<pid>-<hex>.tmp``, owner-only regular files) of killed runs."""
    old = time.time() - STALE_S
    try:
        with os.scandir(d) as it:
            for e in it:
                if e.name.startswith(".rtk-") and e.name.endswith(".tmp"):
                    st = regular(e.path)  # (another user's, in a shared directory, is left alone)
                    if st is not None and st.st_mtime < old:
                        os.unlink(e.path)
    except OSError:
        pass


def names(d: str) -> list[str]:
    """The names of the recovery files in ``d`` (see :func:`_ours`), read from the directory alone: no file is
    opened or stat-ed, so it stays cheap however many files the directory holds."""
    try:
        with os.scandir(d) as it:
            return [e.name for e in it if _ours(e.name)]
    except OSError:
        return []


def epoch(name: str) -> int:
    """The creation time (seconds) a recovery file's name starts with; its mtime is never earlier (a re-run that
    reuses the file only moves the mtime on)."""
    return int(name.partition("_")[0])


def name_id(name: str) -> str | None:
    """The content id in a recovery file's name (``<epoch>_<program>_<id>[_N].log``); None for older names."""
    words = stem(name).split("_")
    if len(words) > 3 and words[-1].isdigit() and len(words[-1]) <= 2:
        words.pop()
    last = words[-1]
    if len(words) > 2 and len(last) == ID_LEN and all(c in "0123456789abcdef" for c in last):
        return last
    return None


def stem(name: str) -> str:
    """A recovery file's name without its ``.log`` or ``.log.gz`` ending."""
    return name[:-7] if name.endswith(".log.gz") else name.removesuffix(".log")


def regular(path: str) -> os.stat_result | None:
    """``lstat`` of a file rtk could have written (a regular, owner-only file of this user); None for a symlink,
    a FIFO, a file others may read or write or another user owns (someone else's), or one that is gone."""
    import stat

    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o077:
        return None
    uid = getattr(os, "geteuid", None)  # a shared tee.directory: another user's owner-only file is not ours
    return st if uid is None or st.st_uid == uid() else None


def _identical(d: str, ours: list[str], name: str, data: bytes | str) -> str | None:
    """An existing recovery file named ``name`` (:func:`file_stem`) holding exactly ``data`` (or, given the
    SHA-256 of a compressed one, the compressed file of the same output)."""
    for entry in ours:
        if isinstance(data, str) != entry.endswith(".log.gz"):
            continue
        rest = stem(entry).partition("_")[2]  # after the epoch; "_2", "_3"... mark same-second files
        if rest != name and not (rest.startswith(name + "_") and rest[len(name) + 1 :].isdigit()):
            continue
        path = os.path.join(d, entry)
        st = regular(path)  # a symlink planted under a recovery file's name is not one
        if st is None:
            continue
        if isinstance(data, str):
            from rtk import teefile

            meta = teefile.info(path)
            if meta is not None and meta.sha == data:
                return path
            continue
        if st.st_size != len(data):
            continue
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
            with open(fd, "rb") as f:
                if f.read(len(data) + 1) == data:
                    return path
        except OSError:
            continue
    return None


def _ours(name: str) -> bool:
    """A recovery file's name (``<epoch>_<...>.log`` or ``.log.gz``): rotation never touches other files of the directory
    (``tee.directory`` may be a folder of the user's own logs)."""
    epoch, sep, rest = name.partition("_")
    ending = rest.endswith(".log") or rest.endswith(".log.gz")
    return bool(sep) and 9 <= len(epoch) <= 11 and epoch.isascii() and epoch.isdigit() and ending


FULL_SCAN = 2000  # up to this many files, rotation (and `rtk recall`) stats every one: the exact order by mtime
OLDEST = 200  # in a larger directory a write stats at most this many files, the oldest by name
UNLINK_MAX = 100  # files removed by one write at most: a large backlog goes over several runs


def _full_turn(count: int) -> bool:
    """Whether this write, in a directory of ``count`` files, pays for a full scan: one write in
    ``count / FULL_SCAN`` on average, so the stats per write stay about ``FULL_SCAN`` amortised."""
    return int.from_bytes(os.urandom(4), "big") % count < FULL_SCAN


def _rotate(d: str, ours: list[str], keep: int, max_age_s: int, max_bytes: int) -> None:
    """Remove files beyond the ``keep`` most recent that are older than ``max_age_s`` or past ``max_bytes`` in all.

    ``ours`` names every recovery file of ``d``. With no more than ``keep`` nothing can go and nothing is
    stat-ed; up to ``FULL_SCAN`` every file is; beyond, only the ``OLDEST`` oldest by name (and, now and then,
    every file: :func:`_full_turn`).
    """
    keep = max(keep, 1)
    if len(ours) <= keep:
        return
    if len(ours) <= FULL_SCAN or _full_turn(len(ours)):
        _rotate_all(d, ours, keep, max_age_s, max_bytes)
    else:
        _rotate_oldest(d, ours, keep, max_age_s)


def _rotate_all(d: str, ours: list[str], keep: int, max_age_s: int, max_bytes: int) -> None:
    found: list[tuple[int, int, str]] = []
    for name in ours:
        st = regular(os.path.join(d, name))  # rtk creates its files owner-only: others are someone else's
        if st is not None:
            found.append((st.st_mtime_ns, st.st_size, name))
    found.sort(reverse=True)  # most recent first
    oldest_kept = time.time_ns() - max_age_s * 10**9
    total = 0
    going: list[str] = []
    for i, (mtime, size, name) in enumerate(found):
        total += size
        if i < keep or (mtime >= oldest_kept and total <= max_bytes):
            continue
        going.append(name)
        total -= size
    for name in going[-UNLINK_MAX:]:  # the oldest first
        try:
            os.unlink(os.path.join(d, name))
        except OSError:
            pass


def _rotate_oldest(d: str, ours: list[str], keep: int, max_age_s: int) -> None:
    """Remove, of the ``OLDEST`` oldest files by name, those past ``max_age_s`` with ``keep`` files newer.

    A file's mtime is never earlier than the epoch its name starts with, so the files named a second or more
    after a file's mtime are all more recent than it: when they are ``keep`` or more, the file is not among the
    ``keep`` most recent, and one that old would go in the full scan too.
    """
    import bisect
    import heapq

    epochs = sorted(epoch(n) for n in ours)
    oldest_kept = time.time_ns() - max_age_s * 10**9
    removed = 0
    for name in heapq.nsmallest(OLDEST, ours, key=epoch):
        st = regular(os.path.join(d, name))
        if st is None or st.st_mtime_ns >= oldest_kept:
            continue
        newer = len(epochs) - bisect.bisect_right(epochs, st.st_mtime_ns // 10**9 + 1)
        if newer < keep:
            continue
        try:
            os.unlink(os.path.join(d, name))
        except OSError:
            continue
        removed += 1
        if removed >= UNLINK_MAX:
            return


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


def full_id(path: str) -> str | None:
    """The SHA-256 (hex) of the output a recovery file holds (of a compressed file, as its last member says)."""
    import hashlib

    if path.endswith(".log.gz"):
        from rtk import teefile

        meta = teefile.info(path)
        return meta.sha if meta is not None else None
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while chunk := f.read(1 << 16):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def content_id(path: str) -> str | None:
    """The short content hash (SHA-256, first ``ID_LEN`` hex digits) of a recovery file; None if unreadable."""
    full = full_id(path)
    return full[:ID_LEN] if full is not None else None


def hint(path: str) -> str:
    """The one line that tells the agent how to get the raw output back: ``rtk recall ID``.

    The file's path is named instead when it is not a recovery file (``rtk read`` names the
    user's own file) or cannot be read back. Of an output past ``tee.max_file_mb`` the line
    names the range of lines that is not kept (``rtk recall ID --lines`` gives every other line).
    """
    rid = content_id(path) if os.path.dirname(os.path.abspath(path)) == os.path.abspath(directory()) else None
    if rid is not None:
        lost = ""
        if path.endswith(".log.gz"):
            from rtk import teefile

            meta = teefile.info(path)
            if meta is not None and meta.lost is not None:
                a, b = meta.lost
                lost = f" (lines {a:,}-{b:,} of {meta.lines:,} not kept: past tee.max_file_mb; --lines A-B for others)"
        return f"[rtk] full output: rtk recall {rid}{lost}"
    shown = path if " " not in path else f'"{path}"'
    return f"[rtk] full output: {shown}"
