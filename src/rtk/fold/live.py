"""A live fold for output no filter reads (scripts via ``rtk run``, follow modes of log commands).

Lines stream through :class:`rtk.fold.Folder` with a bounded hold: a line is printed at most
``HOLD`` input lines and at most ``latency`` seconds (:data:`LATENCY`) after it arrived, whichever
comes first: the runner asks :meth:`FoldStream.due` when to wake and calls :meth:`FoldStream.tick`
then (also when no line comes), and calls :meth:`FoldStream.idle` once the command is quiet for
``idle_after`` seconds; held folds are then printed with their counts and line ranges so far, and
the templates shown stay known, so later lines of them are counted, not shown again. A fast
producer releases its lines by count long before the bound (200 lines in under a second), so it
folds as before; a slow trickle streams nearly line by line. The first ``window`` lines are held
to decide; when the bound fires first, they are printed as they came and the deciding goes on
(a sample of a few lines could take data for a log and fold it). An output that
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
# Seconds a line waits at most, whatever the rate (a readiness line of a server, a trickle of a slow job). The
# runner itself holds the first second of any output (run.HOLD_SECONDS) for its never-worse check: the same 1 s.
LATENCY = 1.0
GRAIN = (
    0.05  # lines arriving within this many seconds share one arrival time (the earliest: the bound never waits longer)
)
STAMPS = 1024  # arrival stamps kept before the ones of lines no longer held are let go
# What a folder hands the next after a quiet spell: its miner, group keys, line caches, marker lines and
# blocks seen, and the keys shown whole (so a template shown before a pause is counted, not shown, after it).
CARRIED = (
    "miner",
    "_keys",
    "_nkeys",
    "_seen",
    "_fast",
    "_cache",
    "_dups",
    "_known",
    "_bodies",
    "_body_chars",
    "_late",
    "_later",
)


class FoldStream(LineFilter):
    """Folds a stream live (see the module docstring); ``cut`` counts the lines left out.

    It reports to the stream fact guard (``LineFilter.unvouched``) exactly the lines it left
    out: the fold's folded lines (``Folder.dropped``) and the data lines omitted. Every other
    line was printed whole, as it came, so each of its facts is in the output already.
    """

    reports = True

    def __init__(
        self,
        argv: list[str],
        window: int = 200,
        idle_after: float | None = RUN_IDLE,
        latency: float | None = LATENCY,
        clock: Callable[[], float] | None = None,
    ) -> None:
        super().__init__(argv)
        self.window = max(window, 8)
        self.idle_after = idle_after
        self.latency = latency  # None: no bound in time (only HOLD lines and quiet spells)
        if clock is None:
            import time

            clock = time.monotonic
        self.clock = clock
        # Arrival stamps [last line number, time]: the lines after the previous stamp's, up to this one, came at
        # this time or later (within GRAIN). Stamps of lines printed or left out are let go by ``due``.
        self.arrived: deque[list[float]] = deque()
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
        if self.latency is not None and self.mode != "raw":
            self._stamp()
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
        if self.latency is not None and lines:
            self._stamp()
        return self._join(self._report(self.folder.feed_lines(lines)))

    def finish(self, exit_code: int) -> str:
        if not self.mode:
            out, self.buf = self.buf, []  # short: whole, as the command printed it
            return self._last("\n".join(out), out)
        out = self._flush()
        if self.folder is not None:  # lines folded live that the whole output makes rare: printed now
            from rtk.fold.folder import rare_after

            late = rare_after(self.folder)
            out += late
            self.folded -= len(late) - sum(1 for ln in late if ln.startswith("[rtk] rare in the whole output"))
        text = self._last("\n".join(out), out)
        self.cut = self.folded + self.omitted
        return text

    @staticmethod
    def _last(text: str, out: list[str]) -> str:
        """``text`` with its last line ended when that line is blank (the runner ends the text only when it is not)."""
        return text + "\n" if out and not out[-1] else text

    def idle(self) -> str | None:
        """The command went quiet: print what is held (folds with their counts so far)."""
        if not self.mode:
            out, self.buf = self.buf, []
            return self._join(out)
        return self._join(self._flush())

    def passed(self, n: int) -> None:
        """``n`` lines went by printed whole by the runner (a line too long to hold): counted, so ranges stay exact."""
        self.seen += n
        if self.folder is not None:
            self.folder.lines += n

    def due(self) -> float | None:
        """Seconds until the oldest line held has waited ``latency`` (0 or less: now); None when no line is held."""
        if self.latency is None:
            return None
        first = self.held_from()
        a = self.arrived
        while a and a[0][0] < first:
            a.popleft()
        if not first or not a:
            a.clear()
            return None
        return a[0][1] + self.latency - self.clock()

    def tick(self) -> str | None:
        """When a line held has waited ``latency``: what is held, printed as after a quiet spell (:meth:`idle`)."""
        wait = self.due()
        if wait is None or wait > 0:
            return None
        self.arrived.clear()
        return self.idle()

    def held_from(self) -> int:
        """The number of the oldest line held (neither printed nor left out for good), 0 when none is.

        Folding, a fold's count line waits where its first line was: that line counts as held.
        """
        if not self.mode:
            return self.seen - len(self.buf) + 1 if self.buf else 0
        if self.mode == "data":
            return self.seen - len(self.tail) + 1 if self.tail else 0
        f = self.folder
        if self.mode != "fold" or f is None:
            return 0
        nos = []
        if f.pending:
            nos.append(int(f.pending[0][1]))  # type: ignore[call-overload]
        if f._sect is not None and f._sect.held:
            nos.append(f._sect.held[0][0])
        if f.tail:
            nos.append(f.tail[0][0])
        return min(nos) if nos else 0

    def _stamp(self) -> None:
        """The lines up to ``seen`` arrived now."""
        now = self.clock()
        a = self.arrived
        if a and now - a[-1][1] < GRAIN:
            a[-1][0] = self.seen
            return
        a.append([self.seen, now])
        if len(a) > STAMPS:  # stamps of lines printed meanwhile (no runner asked ``due``): let go
            first = self.held_from() or self.seen
            while len(a) > 1 and a[0][0] < first:
                a.popleft()

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


def factory(
    window: int = 200, idle_after: float | None = RUN_IDLE, latency: float | None = LATENCY
) -> Callable[[list[str]], LineFilter]:
    """A stream factory (``Spec(stream=...)``) with these settings."""

    def make(argv: list[str]) -> FoldStream:
        return FoldStream(argv, window, idle_after, latency)

    return make
