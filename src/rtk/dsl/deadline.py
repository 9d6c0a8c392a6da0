"""A wall-clock limit on user and project filters' regular expressions: a catastrophic one fails open.

Python's ``re`` has no timeout, but its engine checks for signals while it backtracks: an
interval timer (``SIGALRM``) whose handler raises :class:`Timeout` stops a search such as
``^(a+)+$`` on ``aaaa...!``. The callers treat the exception like any failing filter: the
definition is skipped (matching) or the raw output is shown (filtering). Outside the main
thread, or where there is no ``setitimer``, the function runs without a limit.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")

MATCH_SECONDS = 0.25  # one match_command search of a command line


class Timeout(Exception):
    """A filter's regular expression ran past its time limit."""


def limited(seconds: float, fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, stopped with :class:`Timeout` after ``seconds`` (main thread only)."""
    import signal

    def on_alarm(signum: int, frame: object) -> None:
        raise Timeout(f"its regular expressions ran longer than {seconds:g} s")

    if not hasattr(signal, "setitimer"):
        return fn(*args)
    try:
        old = signal.signal(signal.SIGALRM, on_alarm)
    except (ValueError, OSError):  # not the main thread
        return fn(*args)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
