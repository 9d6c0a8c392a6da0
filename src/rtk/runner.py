"""Process mechanics: spawn the real tool, relay signals, return its exact exit code.

The child inherits stdin (so prompts for signing keys or passwords still work)
and, when captured, writes stdout (and stderr, when merged) into one pipe. On
POSIX the child is started with ``os.posix_spawnp``: it is cheaper to import than
``subprocess`` and lets us reset SIGPIPE, which Python ignores, to its default so
that ``rtk git log | head -1`` ends the way ``git log | head -1`` does.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # C module: `signal` imports enum, the hot path avoids it
import os
import sys

from rtk import options

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import FrameType
    from typing import Any

EXIT_NOT_FOUND = 127
EXIT_NOT_EXECUTABLE = 126

_RELAYED = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP, _signal.SIGQUIT)


class SpawnError(Exception):
    """The command could not be started; ``code`` is the shell-style exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


class Child:
    """A running command. ``fd`` is the read end of its output pipe, or -1."""

    __slots__ = ("_prev", "fd", "pid", "popen")

    def __init__(self, pid: int, fd: int, popen: Any = None) -> None:
        self.pid = pid
        self.fd = fd
        self.popen = popen
        self._prev: dict[int, Any] = {}

    def close_output(self) -> None:
        """Stop reading: the child gets SIGPIPE on its next write."""
        if self.fd >= 0:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = -1

    def wait(self) -> int:
        """Wait for the child; its exit code, or 128+N when signal N killed it."""
        try:
            if self.popen is not None:
                code: int = self.popen.wait()
            else:
                while True:
                    try:
                        _, status = os.waitpid(self.pid, 0)
                        break
                    except ChildProcessError:
                        return 0
                code = os.waitstatus_to_exitcode(status)
        finally:
            self._restore_signals()
        return 128 - code if code < 0 else code

    # -- signal relay ------------------------------------------------------------

    def relay_signals(self, held: Held | None = None) -> None:
        """Forward SIGINT/SIGTERM/SIGHUP/SIGQUIT to the child while it runs (and those ``held`` during the start)."""
        for sig in _RELAYED:
            try:
                prev = held.prev[sig] if held is not None and sig in held.prev else _signal.getsignal(sig)
                if prev == _signal.SIG_IGN:
                    continue  # inherited "ignore" (nohup, background job): keep it
                self._prev[sig] = prev
                _signal.signal(sig, self._relay)
            except (OSError, ValueError):  # not the main thread, or unsupported
                pass
        for sig in held.got if held is not None else ():
            self._relay(sig, None)

    def _relay(self, signum: int, frame: FrameType | None) -> None:
        if signum == _signal.SIGINT and _terminal_sends_to_child():
            return  # Ctrl-C already reached the child through the terminal's process group
        try:
            if self.popen is not None:
                self.popen.send_signal(signum)
            else:
                os.kill(self.pid, signum)
        except OSError:
            pass

    def _restore_signals(self) -> None:
        for sig, prev in self._prev.items():
            try:
                _signal.signal(sig, prev)
            except (OSError, ValueError, TypeError):
                pass
        self._prev.clear()


class Held:
    """Relayed signals that arrive while the child starts, kept to be forwarded once it runs."""

    def __init__(self) -> None:
        self.prev: dict[int, Any] = {}
        self.got: list[int] = []
        for sig in _RELAYED:
            try:
                prev = _signal.getsignal(sig)
                if prev != _signal.SIG_IGN:
                    self.prev[sig] = prev
                    _signal.signal(sig, self._note)
            except (OSError, ValueError):
                pass

    def _note(self, signum: int, frame: FrameType | None) -> None:
        self.got.append(signum)

    def release(self) -> None:
        """No child: the original handlers back, and the signals that came delivered to this process."""
        for sig, prev in self.prev.items():
            try:
                _signal.signal(sig, prev)
            except (OSError, ValueError, TypeError):
                pass
        for sig in self.got:
            os.kill(os.getpid(), sig)


def _terminal_sends_to_child() -> bool:
    """True when we are in the terminal's foreground process group (the child is too)."""
    try:
        fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:
        return False
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(fd)


def child_env(overrides: Mapping[str, str] | None) -> Mapping[str, str]:
    """The environment for the child: ours, plus filter overrides and --skip-env."""
    if not overrides and not options.skip_env:
        return os.environ
    env = dict(os.environ)
    if overrides:
        env.update(overrides)
    if options.skip_env:
        env["SKIP_ENV_VALIDATION"] = "1"
    return env


def stderr_discarded() -> bool:
    """Our stderr is ``/dev/null`` (``cmd 2>/dev/null`` rewritten to ``rtk cmd 2>/dev/null``)."""
    try:
        st = os.fstat(2)
        return st.st_mode & 0o170000 == 0o020000 and st.st_rdev == os.stat("/dev/null").st_rdev  # a char device
    except OSError:
        return False


def spawn(
    argv: list[str],
    *,
    capture: bool = True,
    merge_stderr: bool = True,
    env: Mapping[str, str] | None = None,
) -> Child:
    """Start ``argv`` (looked up on PATH) with stdin inherited.

    With ``capture`` the child's stdout (and stderr when ``merge_stderr``) go to a
    pipe whose read end is ``Child.fd``; otherwise all streams are inherited.
    Raises :class:`SpawnError` (exit 127 or 126) when it cannot start.
    """
    if not argv or not argv[0]:
        raise SpawnError("rtk: command not found: '' (an empty command name)", EXIT_NOT_FOUND)
    environ = child_env(env)
    if merge_stderr and capture and stderr_discarded():
        merge_stderr = False  # what the user threw away stays away: the child's stderr goes to /dev/null too
    if not hasattr(os, "posix_spawnp"):  # pragma: no cover - Windows
        return _spawn_subprocess(argv, capture, merge_stderr, environ)
    r = w = -1
    actions: list[tuple[Any, ...]] = []
    if capture:
        r, w = os.pipe()  # both ends close-on-exec; dup2 clears the flag on 1 and 2
        actions.append((os.POSIX_SPAWN_DUP2, w, 1))
        if merge_stderr:
            actions.append((os.POSIX_SPAWN_DUP2, w, 2))
    sigdef = [_signal.SIGPIPE]
    if hasattr(_signal, "SIGXFSZ"):
        sigdef.append(_signal.SIGXFSZ)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.posix_spawnp(argv[0], argv, environ, file_actions=actions, setsigdef=sigdef)
        except OSError as e:
            import errno  # only on this error path

            script = as_script(argv) if e.errno == errno.ENOEXEC else None
            if script is None:
                raise
            pid = os.posix_spawn(script[0], script, environ, file_actions=actions, setsigdef=sigdef)
    except FileNotFoundError:
        _close(r, w)
        raise SpawnError(f"rtk: command not found: {argv[0]}", EXIT_NOT_FOUND) from None
    except PermissionError:
        _close(r, w)
        raise SpawnError(f"rtk: permission denied: {argv[0]}", EXIT_NOT_EXECUTABLE) from None
    except OSError as e:
        _close(r, w)
        raise SpawnError(f"rtk: cannot run {argv[0]}: {e.strerror}", EXIT_NOT_EXECUTABLE) from None
    except ValueError as e:  # e.g. a NUL character in an environment variable set by a filter
        _close(r, w)
        raise SpawnError(f"rtk: cannot run {argv[0]}: {e}", EXIT_NOT_EXECUTABLE) from None
    if w >= 0:
        os.close(w)
    return Child(pid, r)


def _find(name: str) -> str | None:
    """The file ``execvp`` would run for ``name``: the name itself when it has a slash, else the first on PATH."""
    if "/" in name:
        return name
    for d in os.environ.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(d or ".", name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def as_script(argv: list[str]) -> list[str] | None:
    """``/bin/sh FILE ARGS...`` for an executable without a ``#!`` line (the kernel's ENOEXEC).

    POSIX shells and ``execvp`` run such a file as a shell script; like bash, a
    file whose first line holds a NUL byte is binary and is not handed to sh.
    """
    path = _find(argv[0])
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            head = f.read(80)
    except OSError:
        return None
    if b"\0" in head.split(b"\n", 1)[0]:
        return None
    return ["/bin/sh", path, *argv[1:]]


def _close(*fds: int) -> None:
    for fd in fds:
        if fd >= 0:
            os.close(fd)


def _spawn_subprocess(
    argv: list[str], capture: bool, merge_stderr: bool, env: Mapping[str, str]
) -> Child:  # pragma: no cover - exercised on Windows only
    import subprocess

    try:
        p = subprocess.Popen(
            argv,
            stdout=subprocess.PIPE if capture else None,
            stderr=subprocess.STDOUT if (capture and merge_stderr) else None,
            env=dict(env),
        )
    except FileNotFoundError:
        raise SpawnError(f"rtk: command not found: {argv[0]}", EXIT_NOT_FOUND) from None
    except PermissionError:
        raise SpawnError(f"rtk: permission denied: {argv[0]}", EXIT_NOT_EXECUTABLE) from None
    fd = os.dup(p.stdout.fileno()) if p.stdout is not None else -1
    if p.stdout is not None:
        p.stdout.close()
    return Child(p.pid, fd, p)


def read_all(child: Child, limit: int, max_lines: int = 0) -> tuple[bytes, bool]:
    """Read the child's whole output, up to ``limit`` bytes and (when set) ``max_lines`` lines.

    Returns the bytes and whether a limit was hit (the rest is still unread). Both
    bound what a whole-output filter holds: its cost is per byte and per line (a
    line is a Python object, about 60 bytes before any copy).
    """
    chunks: list[bytes] = []
    size = 0
    lines = 0
    fd = child.fd
    while True:
        b = os.read(fd, 65536)
        if not b:
            return b"".join(chunks), False
        chunks.append(b)
        size += len(b)
        if max_lines > 0:
            lines += b.count(b"\n")
        if size >= limit or (max_lines > 0 and lines >= max_lines):
            return b"".join(chunks), True


def exec_raw(argv: list[str]) -> int:
    """Replace this process by ``argv`` (a shell's lookup and ENOEXEC rule); the exit code if it cannot start."""
    if not argv or not argv[0]:
        print("rtk: command not found: '' (an empty command name)", file=sys.stderr)
        return EXIT_NOT_FOUND
    # Not os.execvp: on ENOEXEC it goes on to the next PATH entry, where a shell runs the file with sh.
    path = _find(argv[0])
    try:
        if path is None:
            raise FileNotFoundError
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            os.execv(path, argv)
        except OSError as e:
            import errno

            script = as_script([path, *argv[1:]]) if e.errno == errno.ENOEXEC else None
            if script is None:
                raise
            os.execv(script[0], script)
    except FileNotFoundError:
        print(f"rtk: command not found: {argv[0]}", file=sys.stderr)
        return EXIT_NOT_FOUND
    except PermissionError:
        print(f"rtk: permission denied: {argv[0]}", file=sys.stderr)
        return EXIT_NOT_EXECUTABLE
    except (OSError, ValueError) as e:  # ValueError: a NUL character in the environment
        print(f"rtk: cannot run {argv[0]}: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return EXIT_NOT_EXECUTABLE


def run_inherited(argv: list[str], env: Mapping[str, str] | None = None) -> int:
    """Run with every stream inherited; return the exit code (127/126 if it cannot start)."""
    held = Held()  # a Ctrl-C during the start reaches the child, not a half-started rtk
    try:
        child = spawn(argv, capture=False, env=env)
    except SpawnError as e:
        held.release()
        print(e, file=sys.stderr)
        return e.code
    except BaseException:
        held.release()
        raise
    child.relay_signals(held)
    return child.wait()
