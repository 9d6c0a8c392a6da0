"""From raw output to what is printed: fail open, never worse, say what was cut.

``apply`` is the single path every whole-output filter goes through, at run
time and in the fixture tests alike:

1. the raw bytes are decoded (undecodable bytes replaced) and cleaned
   (ANSI escapes stripped, CR redraws resolved);
2. the filter runs; if it raises, returns None or does not recognise the
   output, the raw output is printed instead (bounded, with a recovery hint);
3. when the filter cut content or the command failed, the raw bytes are kept
   in a recovery file and one hint line names it; if the file cannot be
   written, output that cut something is replaced by the raw output;
4. fact guard: a fact of the baseline (location, code, failing test, hash,
   marker line...; see ``rtk.facts`` and ``rtk.factguard``) that the filter dropped brings its
   line back, under one header, counted in ``Outcome.restored``;
5. never worse: if the result (hint included) is not smaller than the baseline
   by a margin (``smaller``: the shaped token estimate of ``rtk.tokens``, the
   same measure tracking records), the baseline is printed. The baseline is the raw output, or what a filter names
   in ``Filtered.baseline``: what the user's command would have printed (no injected
   flags), secrets masked. Masking is not a compression, so it always applies, and
   the fact guard restores lines from the baseline, never unmasked raw lines.
"""

from __future__ import annotations

import sys

from rtk import config, options, tee, tokens
from rtk.filterapi import Filtered, Unrecognized, Verbatim
from rtk.text import clean, decode, split_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from rtk.filterapi import FilterFunc, StreamFactory

    Keeper = Callable[[list[str], bytes], "str | None"]


class Outcome:
    """What a run prints, and the figures tracking needs."""

    __slots__ = ("_tokens", "cut", "data", "error", "mode", "raw_text", "restored", "tee_path", "text")

    def __init__(
        self,
        text: str,
        raw_text: str,
        mode: str,
        cut: int = 0,
        tee_path: str | None = None,
        error: str | None = None,
        data: bytes | None = None,
    ) -> None:
        self.text = text  # exactly what is printed (as text)
        self.data = data  # when set, the exact bytes printed instead of ``text`` (verbatim data)
        self.raw_text = raw_text  # the cleaned raw output
        self.mode = mode  # filtered | raw | raw-guard | raw-unrecognized | raw-error | verbatim
        self.cut = cut
        self.tee_path = tee_path
        self.error = error
        self.restored = 0  # raw lines the fact guard put back
        self._tokens: tuple[int, int] | None = None

    def _counts(self) -> tuple[int, int]:
        if self._tokens is None:
            raw = tokens.estimate_shaped(self.raw_text)
            shown = raw if _same_text(self.text, self.raw_text) else tokens.estimate_shaped(self.text)
            self._tokens = (raw, shown)
        return self._tokens

    @property
    def raw_tokens(self) -> int:
        """Estimated tokens of the raw output (``tokens.estimate_shaped``)."""
        return self._counts()[0]

    @property
    def out_tokens(self) -> int:
        """Estimated tokens of what is printed (``tokens.estimate_shaped``)."""
        return self._counts()[1]


def _same_text(text: str, raw_text: str) -> bool:
    """Is ``text`` ``raw_text`` printed as is (``ensure_newline``)? Then its estimate is the same (a final line break is free)."""
    if len(text) == len(raw_text):
        return text == raw_text
    return len(text) == len(raw_text) + 1 and text[-1] == "\n" and raw_text[-1:] != "\n" and text.startswith(raw_text)


# Never worse, with a margin: a filtered output is printed only when its estimate is below the
# baseline's by MARGIN_PCT percent and MARGIN_MIN tokens (the estimate's error on one output
# against o200k is a few percent; a saving smaller than that may be none: bench/tokens_calibration.md).
MARGIN_PCT = 2
MARGIN_MIN = 2


def smaller(text: str, base: str) -> tuple[bool, int, int]:
    """Is ``text`` clearly smaller than ``base``? And both estimates (shaped, so tracking can reuse them)."""
    out_tok, base_tok = tokens.estimate_shaped(text), tokens.estimate_shaped(base)
    return out_tok + max(MARGIN_MIN, base_tok * MARGIN_PCT // 100) <= base_tok, base_tok, out_tok


def ensure_newline(text: str) -> str:
    """``text`` with a final newline (unless empty)."""
    return text if not text or text.endswith("\n") else text + "\n"


def bounded_raw(
    argv: list[str], raw: bytes, raw_text: str, exit_code: int, keep: Keeper, mode: str, error: str | None = None
) -> Outcome:
    """The raw output, shown whole if short, else folded with a recovery hint.

    Data is not folded into templates: JSON goes through the JSON view (``json_view``), YAML and
    JSON that does not parse are cut by head and tail. Whatever the cut, the fact guard puts back
    the lines (or JSON values) holding a fact it left out.
    """
    limit = int(config.get("limits.passthrough_max_lines"))
    lines = split_lines(raw_text)
    tee_path = None
    if tee.wanted(exit_code, 0, len(raw)):
        tee_path = keep(argv, raw)
    if limit <= 0 or len(lines) <= limit:
        text = ensure_newline(raw_text)
        return Outcome(text, raw_text, mode, 0, tee_path, error)
    if tee_path is None and tee.enabled():
        tee_path = keep(argv, raw)
    if tee_path is None:  # nothing to point at: show everything rather than lose it
        return Outcome(ensure_newline(raw_text), raw_text, mode, 0, None, error)
    from rtk import fold  # each kind of line once, anomalies whole (JSON/YAML: head and tail, as before)

    try:  # this is the fail-open path itself: a failing fold or view gives the head and tail cut
        folded = fold.fold_output(lines) or json_view(raw_text)
    except Exception:
        folded = None
    if folded is not None:
        kept, omitted = folded
    else:  # YAML, or JSON that does not parse: head and tail
        head = limit // 4
        tail = limit - head
        omitted = len(lines) - head - tail
        kept = [*lines[:head], f"[rtk] ... {omitted} lines omitted ...", *lines[-tail:]]
    text = "\n".join(kept) + "\n"
    restored = 0
    if may_lose_facts(raw_text, text):  # the fact guard, as for any filter's output: no cut loses a problem line
        from rtk import factguard

        try:
            text, restored = factguard.restore(raw_text, text, True)
        except Exception:  # a cut no guard vouched for is not shown: all of it is
            return Outcome(ensure_newline(raw_text), raw_text, mode, 0, tee_path, error)
    text = ensure_newline(text) + tee.hint(tee_path)
    shown = text + "\n"
    ok, raw_tok, out_tok = smaller(shown, raw_text)
    if not ok:  # a few short lines cut: the marks cost more
        res = Outcome(ensure_newline(raw_text), raw_text, mode, 0, tee_path, error)
        res._tokens = (raw_tok, raw_tok)  # a final line break is free: the raw output printed counts as the raw
    else:
        res = Outcome(shown, raw_text, mode, omitted, tee_path, error)
        res._tokens = (raw_tok, out_tok)
    res.restored = restored
    return res


def json_view(raw_text: str) -> tuple[list[str], int] | None:
    """A JSON document in the compact JSON view (``rtk json``): its lines and the items left out; None if not JSON."""
    if raw_text.lstrip()[:1] not in ("{", "["):
        return None
    from rtk.filters import jsonview

    try:
        value = jsonview.loads(raw_text)
    except ValueError:
        return None
    text, cut = jsonview.compact(value)
    return split_lines(text), cut


def apply(
    name: str,
    func: FilterFunc,
    argv: list[str],
    raw: bytes,
    exit_code: int,
    keep: Keeper = tee.write,
) -> Outcome:
    """Run filter ``func`` (id ``name``) on the raw output of ``argv`` and decide what to print."""
    raw_text = clean(decode(raw))
    try:
        res = func(argv, raw_text, exit_code)
    except Verbatim:
        # Data (a binary download, an HTML page): the bytes as the tool wrote them, whole.
        text = decode(raw)
        return Outcome(text, text, "verbatim", data=raw)
    except Unrecognized as e:
        _say(1, f"rtk: {name}: output not recognised ({e}); showing it raw")
        return bounded_raw(argv, raw, raw_text, exit_code, keep, "raw-unrecognized", f"unrecognized: {e}")
    except Exception as e:  # fail open: a filter bug must never hide output
        err = f"{type(e).__name__}: {e}"
        _say(1, f"rtk: filter {name} failed ({err}); showing raw output")
        return bounded_raw(argv, raw, raw_text, exit_code, keep, "raw-error", err)
    if res is None:
        return bounded_raw(argv, raw, raw_text, exit_code, keep, "raw")
    baseline = moved = None
    if isinstance(res, Filtered):
        text, cut, baseline, moved = res.text, res.cut, res.baseline, res.moved
    else:
        text, cut = res, 0
    return finish(argv, raw, raw_text, exit_code, ensure_newline(text), cut, keep, baseline, moved)


def finish(
    argv: list[str],
    raw: bytes,
    raw_text: str,
    exit_code: int,
    text: str,
    cut: int,
    keep: Keeper,
    baseline: str | None = None,
    moved: dict[str, str] | None = None,
) -> Outcome:
    """Add recovery and apply the fact and never-worse guards to a filter's text (against ``baseline`` if given).

    ``moved``: the filter's report of the raw lines it regrouped (``Filtered.moved``), for the fact guard.
    """
    base = raw_text if baseline is None else baseline
    restored = 0
    if may_lose_facts(base, text):
        from rtk import factguard

        try:
            text, restored = factguard.restore(base, text, cut > 0, moved if baseline is None else None)
        except Exception:  # fail open: a text no guard could check is not shown, the raw output is
            return Outcome(ensure_newline(base), base, "raw-guard", 0, None)
    tee_path = keep(argv, raw) if tee.wanted(exit_code, cut, len(raw)) else None
    if cut > 0 and tee_path is None:
        # Never claim "+N more" for something the agent cannot get back.
        return Outcome(ensure_newline(base), base, "raw-guard", 0, None)
    if tee_path is not None and (cut > 0 or exit_code != 0):
        text = text + tee.hint(tee_path) + "\n"
    ok, base_tok, out_tok = smaller(text, base)
    if not ok:
        res = Outcome(ensure_newline(base), base, "raw-guard", 0, tee_path)
        res._tokens = (base_tok, base_tok)  # already counted (a final line break is free)
    else:
        res = Outcome(text, base, "filtered", cut, tee_path)
        res._tokens = (base_tok, out_tok)
    res.restored = restored  # counted even when the baseline won: the filter still lost facts
    return res


# Lowercased substrings of problem lines; the same as ``rtk.factguard.STREAM_HINTS`` (a test checks).
FACT_HINTS = ("error", "fail", "warn", "panic", "exception", "traceback", "fatal", "not ok", "crash", "✗", "✘")


def may_lose_facts(raw_text: str, text: str) -> bool:
    """Could the filter have dropped a fact? A C-speed check that keeps ``rtk.facts`` unloaded.

    Every fact holds a digit, ``:`` or ``(`` (locations, codes, hashes, counts, test ids)
    or sits on a problem line; an output with none of these ("nothing to commit, working
    tree clean") holds no fact.
    """
    if raw_text == text or any(c in raw_text for c in "0123456789:("):
        return raw_text != text
    low = raw_text.lower()
    return any(h in low for h in FACT_HINTS)


def apply_stream(
    name: str,
    factory: StreamFactory,
    argv: list[str],
    raw: bytes,
    exit_code: int,
    keep: Keeper = tee.write,
) -> Outcome:
    """Run a streaming filter over a complete output, deciding as the runner does for held output.

    Used where the whole output is already at hand (fixture tests, offline reuse);
    the runner itself feeds the same filter line by line while the command runs.
    """
    raw_text = clean(decode(raw))
    try:
        filt = factory(argv)
        parts = []
        for ln in split_lines(raw_text):
            r = filt.feed(ln)
            if r is not None:
                parts.append(r + "\n")
        summary = filt.finish(exit_code)
    except Unrecognized as e:
        _say(1, f"rtk: {name}: output not recognised ({e}); showing it raw")
        return Outcome(ensure_newline(raw_text), raw_text, "raw-unrecognized", error=f"unrecognized: {e}")
    except Exception as e:  # fail open
        err = f"{type(e).__name__}: {e}"
        _say(1, f"rtk: filter {name} failed ({err}); showing raw output")
        return Outcome(ensure_newline(raw_text), raw_text, "raw-error", error=err)
    return finish(argv, raw, raw_text, exit_code, "".join(parts) + ensure_newline(summary), filt.cut, keep)


def _say(level: int, msg: str) -> None:
    if options.verbose >= level:
        print(msg, file=sys.stderr)
