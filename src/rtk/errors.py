"""rtk's own errors and the one boundary that turns them into a message and an exit code."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what the shell reports for cat killed by a closed pipe


class RtkError(Exception):
    """A problem to report in one line (bad input, unreadable file...)."""

    code = EXIT_ERROR


class UsageError(RtkError):
    """The command line itself is wrong."""

    code = EXIT_USAGE


def guarded(fn: Callable[[], int], verbose: int = 0) -> int:
    """Run ``fn``; map rtk errors, ^C and broken pipes to exit codes, never a traceback."""
    try:
        return fn()
    except RtkError as e:
        print(f"rtk: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader left (`rtk read f | head -1`): the status cat would give
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except SystemExit as e:  # argparse exits with 2 after printing its own one-line error
        return e.code if isinstance(e.code, int) else EXIT_ERROR
    except Exception as e:  # pragma: no cover - last resort
        print(f"rtk: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        if verbose:
            import traceback

            traceback.print_exc()
        return EXIT_ERROR


def _quiet_stdout() -> None:
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except OSError:
        pass
