"""The filter contract: what a filter receives, what it returns, how it declares itself.

A tool family module (``rtk.filters.git``) exposes ``select(argv) -> Spec | None``.
The :class:`Spec` says how to run the command and which function compacts its
output. Two kinds of filters exist:

* a *whole-output* filter ``f(argv, output, exit_code) -> str | Filtered | None``
  sees the complete cleaned output (ANSI stripped, CR redraws resolved);
* a *streaming* filter is a :class:`LineFilter` fed one line at a time, so output
  reaches the caller while the command runs and memory stays flat.

Returning ``None`` or raising :class:`Unrecognized` means "print the raw output";
raising :class:`Verbatim` means "print the raw bytes exactly, whole and uncleaned".
Any other exception is caught by the runner, which prints the raw output too.
When a filter leaves out content (not mere noise), it reports how much in
``Filtered.cut`` so that the runner keeps the raw output and says where it is.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    FilterFunc = Callable[[list[str], str, int], "str | Filtered | None"]
    StreamFactory = Callable[[list[str]], "LineFilter"]


# Environment for a child whose output is parsed: messages in untranslated English (git...).
C_LOCALE = {"LC_ALL": "C", "LANGUAGE": ""}


class Unrecognized(Exception):
    """The output is not what the filter knows how to read: show it raw."""


class Verbatim(Exception):
    """The output is data (binary, or a body not meant to be reshaped): print its exact bytes, whole."""


class Filtered:
    """A filter's result: the compact text and how many content items it left out.

    ``baseline``, when set, is what the user's own command would have printed, as
    rtk may show it: without the flags the filter injected (``grep -n -H``,
    ``ls -p``), with secrets masked (``env``). The never-worse guard compares
    against it and prints it instead of the raw output.

    ``moved``, when set, reports the raw lines the filter regrouped (``path:12:5: message``
    under a header of its message and its file): each line and the prefix holding its
    location (``path:12:5:``), which the text keeps in pieces (``path: 12:5``). The fact
    guard checks the report (``rtk.factscan._moved_lines``) and then skips its location
    search on those lines; a wrong report only costs that search.
    """

    __slots__ = ("baseline", "cut", "moved", "text")

    def __init__(
        self, text: str, cut: int = 0, baseline: str | None = None, moved: dict[str, str] | None = None
    ) -> None:
        self.text = text
        self.cut = cut
        self.baseline = baseline
        self.moved = moved

    def __repr__(self) -> str:
        return f"Filtered(cut={self.cut}, text={self.text!r})"


class LineFilter:
    """Base class of streaming filters.

    ``feed`` gets each line (without its newline) and returns text to print now
    (one or more lines, no trailing newline) or ``None``. ``finish`` gets the
    exit code and returns the closing text (summary), possibly empty. Set
    ``self.cut`` to the number of content lines or items left out. A filter may
    report the lines it did not vouch for in ``unvouched`` (see below), so that the
    fact guard of a long stream reads those only.
    """

    cut = 0
    # What the stream fact guard (``rtk.factguard.StreamGuard``) reads. A filter with ``reports``
    # true can vouch for lines: when the runner sets ``unvouched`` to a list, ``feed`` appends to
    # it every line it takes in except those it printed whole and those it dropped as a benign shape
    # it recognised positively (its tool's own progress lines, which name no problem, location or
    # test), and the guard reads only what was appended. None (not enabled, or a filter that does not report): every line.
    # Only the runner enables it, so a filter wrapped in another (uv run, a pipe) never collects.
    reports = False
    unvouched: list[str] | None = None

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv

    def feed(self, line: str) -> str | None:
        return line

    def finish(self, exit_code: int) -> str:
        return ""


class Spec:
    """How one command is run and filtered.

    name:          filter id, e.g. ``git-status`` (tracking, ``-v``, fixture dirs)
    filter:        whole-output filter function
    stream:        streaming filter factory (instead of ``filter``)
    run_argv:      argv actually executed, when it differs from the user's
    env:           environment overrides for the child (e.g. ``LC_ALL=C``)
    merge_stderr:  filter stdout and stderr together (default); when False,
                   stderr goes straight to the caller's stderr, unfiltered
    live:          do not capture at all (watch modes, servers, interactive)
    """

    __slots__ = ("env", "filter", "live", "merge_stderr", "name", "run_argv", "stream")

    def __init__(
        self,
        name: str,
        filter: FilterFunc | None = None,
        *,
        stream: StreamFactory | None = None,
        run_argv: list[str] | None = None,
        env: dict[str, str] | None = None,
        merge_stderr: bool = True,
        live: bool = False,
    ) -> None:
        if not live and (filter is None) == (stream is None):
            raise ValueError(f"filter {name}: give exactly one of filter= or stream=")
        self.name = name
        self.filter = filter
        self.stream = stream
        self.run_argv = run_argv
        self.env = env
        self.merge_stderr = merge_stderr
        self.live = live

    def __repr__(self) -> str:
        kind = "live" if self.live else ("stream" if self.stream else "filter")
        return f"Spec({self.name!r}, {kind})"
