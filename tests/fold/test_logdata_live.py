"""The live fold (``rtk run``, follow modes) over every real captured log: facts kept, savings near the whole fold's."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rtk import tokens
from rtk.fold.folder import fold_lines
from rtk.fold.live import FoldStream
from rtk.text import clean, decode

DATA = Path(__file__).resolve().parent.parent / "logdata"
CASES = sorted(p.stem for p in DATA.glob("*.toml"))
POINTS = 0.05  # the live fold saves at most this much less than the whole-output fold

# Facts the live fold loses. apt-get-install-s lost the same 1 fact the whole fold lost (test_logdata_fold.
# FACT_LOSS: a short list under a header is now shown whole).
# pip-install-verbose lost 5: ``Processing <wheel> (from <req>)``, 6 lines (26-98), one group. A template is
# rare (shown whole) with at most max(4, lines // 300) lines after its first: the whole fold decides at the end
# (2,026 lines: 6, rare), the live one 200 lines after it (~300 lines: 4, folded). The lines of a group it folds
# that may still be rare are now kept (bounded) and printed at the end when they are (tests/fold/test_live_late.py).
# postgres lost its two slow disconnections (session time 1.2 s among 0.1 s) until a known template's group
# took over the measured fields' usual values from the group before it (a window's own few values made none far).
# mosquitto, strace-f (session "unseen2") lost the same fact each as the whole fold until a value seen once in
# a field of few values had its line shown (test_logdata_fold: FACT_LOSS comment).
# lighttpd-access, rsync-av, autotools-check (session "unseen3") lost what the whole fold lost (its FACT_LOSS
# comment) until session "foldgoals"'s rules (autotools-check live: its 210-line group is 135 + 75 lines in two
# windows; the first, 123 ``yes`` of 135, still has one value in 90% of it).
# hello-configure (session "foldgoals", a new capture) loses what the whole fold loses (FACT_LOSS). nginx-methods
# keeps every fact live: its windows' groups each hold one or two of the three HEAD probes (seen at most twice).
# hello-configure keeps every fact live since session "foldgoals2"'s rule (test_logdata_fold: FACT_LOSS comment).
# apache-dav and gzip-configure (session "foldgoals2", new captures) lose live what the whole fold loses (apache-dav
# 5 of its 6). Both keep them all live since session "foldfacts" (test_logdata_fold: FACT_LOSS comment).
# sed-configure (session "foldfacts", a new capture) loses 12 of 60 live (18 before that session's rules): the
# ``checking for X... no`` lines of the 149-line group the whole fold loses, less those its windows' groups keep.
# lighttpd-debug (session "foldsave") loses live the facts the whole fold loses (test_logdata_fold: FACT_LOSS).
# Session "foldfacts2": 2 of 60 (the minority rule needs one value in 80% of a group, 84% in the first window's
# 101-line group): the two ``checking for CF... (cached) no`` lines are a later window's 5-line group of a key seen
# before (under the 6 lines the rare rules look at; the whole fold's 27-line group shows them). patch-configure
# (a new capture) loses 5 of 51 live (the whole fold 12): the 4 ``usability/presence... no`` (as the whole fold) and
# ``checking for timezone_t... no``, the head of a later window's group of a known key (its head is folded into the
# count line, and the rare rules look at the lines after a group's head only).
# Session "foldfacts3": lighttpd-debug loses 12 of 33 live (25 before; the whole fold none): the 4 path lines each
# of the 3 odd requests (``Request-URI : /private/token.txt``...). A window's group of a source line has ~12 lines
# (under the 20 lines of rare.PATHS), 4+ of its paths seen once: the odd ones are not told from the usual ones there.
LIVE_FACT_LOSS: set[str] = {"sed-configure", "patch-configure", "lighttpd-debug"}
# Savings more than POINTS under the whole fold's: none (fed as rtk run feeds cat: make-j2-gcc 70.8% against
# 73.3%, cargo-build-vv 70.0% against 73.6%; each window prints a count line per template it saw, the whole fold one;
# 73.0% and 70.6% before gcc's context and caret lines were kept, tests/fold/test_context.py).
# Session "unseen2": valgrind-memcheck live 68.2% against 75.7% (each of valgrind's frame templates ``by <hex>:
# main (...)`` gets a count line in every window it appears in, and the error blocks are spread over the whole
# output); mosquitto 82.1% against 89.5% (the same: one count line per message kind per window).
# Session "foldsave": a template shown in an earlier window prints no count line in the later ones; their counts are
# one line at the end (held.defer, tests/fold/test_live_known.py): mosquitto 87.2% against 89.9%, valgrind-memcheck
# 68.5% against 75.1% (its later windows still show the frames of each error block again).
LIVE_SHORT = {"valgrind-memcheck"}


def _mark(cases: set[str], reason: str) -> list[object]:
    return [pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=reason)) if c in cases else c for c in CASES]


def live(case: str, by_line: bool = False) -> tuple[str, str, str, dict[str, object]]:
    """The raw text, the live fold's output, the whole fold's, the facts.

    Fed as ``rtk run`` feeds a fast producer (``cat``): the lines of each 64 KiB read at once; or
    line by line (``by_line``), as a slow one (a real build) comes.
    """
    meta = tomllib.loads((DATA / f"{case}.toml").read_text())
    raw = clean(decode((DATA / str(meta["log"])).read_bytes()))
    fs = FoldStream(["cat", str(meta["log"])])
    out: list[str | None] = []
    if by_line:
        out += map(fs.feed, raw.splitlines())
    else:
        block: list[str] = []
        size = 0
        for ln in raw.splitlines():
            block.append(ln)
            size += len(ln.encode()) + 1
            if size >= 65536:
                out.append(fs.feed_block(block))
                block, size = [], 0
        out.append(fs.feed_block(block))
    out.append(fs.finish(0))
    whole, _ = fold_lines(raw.splitlines())
    return raw, "\n".join(o for o in out if o is not None), "\n".join(whole), meta


@pytest.mark.parametrize("case", _mark(LIVE_FACT_LOSS, "facts folded away live, see comment"))
def test_live_fold_keeps_every_fact(case: str) -> None:
    raw, out, _whole, meta = live(case)
    lines = set(out.splitlines())
    assert [f for f in meta["facts"] if f not in lines] == []  # type: ignore[attr-defined]
    assert len(out.encode()) < len(raw.encode())  # never larger than raw


@pytest.mark.parametrize("case", CASES)
def test_live_fold_never_larger_than_raw(case: str) -> None:
    raw, out, _whole, _meta = live(case)
    assert len(out.encode()) < len(raw.encode())


@pytest.mark.parametrize("case", _mark(LIVE_SHORT, "one count line per template per window, see comment"))
def test_live_fold_saves_near_the_whole_fold(case: str) -> None:
    raw, out, whole, _meta = live(case)
    est = tokens.estimate(raw)
    saved, saved_whole = 1 - tokens.estimate(out) / est, 1 - tokens.estimate(whole) / est
    print(f"{case}: live {saved:.1%}, whole {saved_whole:.1%}")
    assert saved >= saved_whole - POINTS


@pytest.mark.parametrize("by_line", [False, True])
def test_make_gcc_live_counts_repeated_warnings(by_line: bool) -> None:
    """A gcc warning repeated in later windows is counted by the line shown whole, never printed whole again."""
    raw, out, _whole, meta = live("make-j2-gcc", by_line)
    got = out.splitlines()
    for fact in meta["facts"]:  # type: ignore[attr-defined]
        assert got.count(fact) == 1, fact
    # rtk run over cat saved 33.7% before the carry-over; then 73.0% (63.3% line by line); 70.8% (61.2%) since
    # gcc's context lines before a warning shown and carets under a source line shown are kept (test_context.py)
    assert 1 - tokens.estimate(out) / tokens.estimate(raw) >= (0.6 if by_line else 0.7)


def test_later_windows_count_in_one_line() -> None:
    """lighttpd-debug (a new capture, session "foldsave"): 2,613 lines of 17 handling lines a request, many windows.

    Each template shown in the first window is counted by one line for all the later ones (was one a window:
    95.7% saved live against 98.6% whole).
    """
    raw, out, _whole, _meta = live("lighttpd-debug")
    scheme = [o for o in out.splitlines() if o.startswith("… ") and "URI-scheme" in o]
    assert len(scheme) == 2  # the first window's count line, then the later windows' (166 lines in all)
    assert sum(int(o.split()[1].replace(",", "")) for o in scheme) == 165
    # 0.975 until session "foldfacts3": the fold then lost 25 of its 33 facts; now the whole fold keeps all, live 21
    # (per source line templates, the rare templates and the odd requests' path lines shown): 95.8% saved live
    # against 96.3% whole.
    assert 1 - tokens.estimate(out) / tokens.estimate(raw) >= 0.95
