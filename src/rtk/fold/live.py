"""A live fold for output no filter reads (scripts via ``rtk run``, follow modes of log commands).

Lines stream through :class:`rtk.fold.Folder` with a bounded hold: a line is printed at most
``HOLD`` input lines after it arrived, or when the command goes quiet for ``idle_after``
seconds (the runner calls :meth:`FoldStream.idle`); held folds are then printed with their
counts and line ranges so far. The first ``window`` lines are held to decide: an output that
ends within them is printed whole, and data is never folded: JSON, YAML and tables padded into
columns pass through whole (every value, every row), a CSV/TSV shows its head and tail with the
exact range of lines left out. Memory is bounded by the window,
the hold and the fold's templates, never by the output.
"""

from __future__ import annotations

from collections import deque

from rtk.filterapi import LineFilter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtk.fold.folder import Folder

HOLD = 200  # input lines a shown line waits at most for its fold's count
WINDOW_CHARS = 1 << 20  # the deciding window holds at most this much text
RUN_IDLE = 5.0  # seconds of silence after which a script's held lines are printed
FOLLOW_IDLE = 2.0  # the same for a follow mode (tail -f, docker logs -f)
# What a folder hands the next after a quiet spell: its miner, group keys, line caches, marker lines and
# blocks seen, and the keys shown whole (so a template shown before a pause is counted, not shown, after it).
CARRIED = ("miner", "_keys", "_nkeys", "_seen", "_fast", "_cache", "_dups", "_known", "_bodies", "_body_chars", "_late")


class FoldStream(LineFilter):
    """Folds a stream live (see the module docstring); ``cut`` counts the lines left out.

    It reports to the stream fact guard (``LineFilter.unvouched``) exactly the lines it left
    out: the fold's folded lines (``Folder.dropped``) and the data lines omitted. Every other
    line was printed whole, as it came, so each of its facts is in the output already.
    """

    reports = True

    def __init__(self, argv: list[str], window: int = 200, idle_after: float | None = RUN_IDLE) -> None:
        super().__init__(argv)
        self.window = max(window, 8)
        self.idle_after = idle_after
        self.buf: list[str] = []
        self.chars = 0
        self.seen = 0  # lines fed so far
        self.sample: list[str] = []  # the first lines, to tell data from a log
        self.mode = ""  # "" deciding, "fold", "data" (head and tail), "raw" (every line as it comes)
        self.folder: Folder | None = None
        self.folded = 0  # lines left out by folders already finished
        self.head = self.window // 4
        self.tail: deque[str] = deque(maxlen=self.window - self.head)
        self.omit_from = 0  # first line number of the data lines left out since the last flush (0: none)
        self.omit_n = 0
        self.omitted = 0  # data lines left out in all

    def feed(self, line: str) -> str | None:
        self.seen += 1
        if not self.mode:
            if len(self.sample) < 400:
                self.sample.append(line)
            self.buf.append(line)
            self.chars += len(line) + 1
            if self.seen <= self.window and self.chars <= WINDOW_CHARS:
                return None
            return self._join(self._decide())
        if self.mode == "fold":
            assert self.folder is not None
            return self._join(self._report(self.folder.feed(line)))
        if self.mode == "raw":
            return line
        return self._join(self._data(line))

    def feed_block(self, lines: list[str]) -> str | None:
        """Many lines at once: once folding, through the fold's block fast path (``Folder.feed_lines``)."""
        if self.mode == "raw":
            self.seen += len(lines)
            return "\n".join(lines) if lines else None
        if self.mode != "fold":
            parts = [r for ln in lines if (r := self.feed(ln)) is not None]
            return "\n".join(parts) if parts else None
        assert self.folder is not None
        self.seen += len(lines)
        return self._join(self._report(self.folder.feed_lines(lines)))

    def finish(self, exit_code: int) -> str:
        if not self.mode:
            out, self.buf = self.buf, []  # short: whole, as the command printed it
            return "\n".join(out)
        out = self._flush()
        if self.folder is not None:  # lines folded live that the whole output makes rare: printed now
            from rtk.fold.folder import rare_after

            late = rare_after(self.folder)
            out += late
            self.folded -= len(late) - sum(1 for ln in late if ln.startswith("[rtk] rare in the whole output"))
        text = "\n".join(out)
        self.cut = self.folded + self.omitted
        return text

    def idle(self) -> str | None:
        """The command went quiet: print what is held (folds with their counts so far)."""
        if not self.mode:
            out, self.buf = self.buf, []
            return self._join(out)
        return self._join(self._flush())

    def _decide(self) -> list[str]:
        from rtk.fold.detect import data_kind

        kind = data_kind(self.sample)
        self.mode = "fold" if kind is None else "data" if kind in ("csv", "tsv") else "raw"
        self.sample = []
        lines, self.buf = self.buf, []
        if self.mode == "raw":
            return lines
        first = self.seen - len(lines) + 1
        out: list[str] = []
        if self.mode == "fold":
            self.folder = self._new_folder(first - 1)
            for ln in lines:
                out.extend(self.folder.feed(ln))
            return self._report(out)
        for no, ln in enumerate(lines, first):
            out.extend(self._data(ln, no))
        return out

    def _new_folder(self, before: int, old: Folder | None = None) -> Folder:
        from rtk.fold.folder import Folder

        f = Folder(hold=HOLD)
        f.lines = before  # line numbers count from the start of the output (the recovery file's)
        if old is not None:  # after a quiet spell: the templates and the lines shown whole are still known
            for name in CARRIED:
                setattr(f, name, getattr(old, name))
        if self.unvouched is not None:
            f.dropped = []  # the lines it folds away: reported to the fact guard
        return f

    def _report(self, out: list[str]) -> list[str]:
        """``out`` as given; the lines the fold left out meanwhile go to ``unvouched`` (when the runner asks)."""
        f = self.folder
        if f is not None and f.dropped and self.unvouched is not None:
            self.unvouched += f.dropped
            f.dropped.clear()
        return out

    def _data(self, line: str, no: int = 0) -> list[str]:
        """Data: the first lines as they are, then a bounded tail; the lines between are counted."""
        no = no or self.seen
        if no <= self.head:
            return [line]
        if len(self.tail) == self.tail.maxlen:
            gone = self.tail.popleft()  # line no - maxlen: left out
            if self.unvouched is not None:
                self.unvouched.append(gone)
            if not self.omit_from:
                self.omit_from = no - len(self.tail) - 1
            self.omit_n += 1
            self.omitted += 1
        self.tail.append(line)
        return []

    def _flush(self) -> list[str]:
        if self.mode == "raw":
            return []
        if self.mode == "fold":
            assert self.folder is not None
            out = self._report(self.folder.finish())
            self.folded += self.folder.folded
            self.folder = self._new_folder(self.seen, self.folder)  # a quiet spell ends the held folds
            return out
        out = []
        if self.omit_n:
            end = self.omit_from + self.omit_n - 1
            out.append(f"[rtk] ... {self.omit_n:,} lines omitted (lines {self.omit_from}-{end}) ...")
        out.extend(self.tail)
        self.tail.clear()
        self.omit_from = self.omit_n = 0
        self.head = 0  # after a flush, every new line goes through the tail window
        return out

    @staticmethod
    def _join(lines: list[str]) -> str | None:
        return "\n".join(lines) if lines else None


def factory(window: int = 200, idle_after: float | None = RUN_IDLE) -> Callable[[list[str]], LineFilter]:
    """A stream factory (``Spec(stream=...)``) with these settings."""

    def make(argv: list[str]) -> FoldStream:
        return FoldStream(argv, window, idle_after)

    return make
