"""Real captured logs (tests/logdata, declared before folding ran): every fact survives the fold, with savings."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rtk import pipeline, tokens
from rtk.commands import read
from rtk.text import clean, decode

DATA = Path(__file__).resolve().parent.parent / "logdata"
CASES = sorted(p.stem for p in DATA.glob("*.toml"))
# Savings below target (figures in docs/folding.md). Facts are whole lines that must be printed as they are.
# python-service: its distinct fact lines (40 warnings, 14 errors, their messages, the first traceback of
# each kind) are 12.1% of its tokens, so 87.9% is the most any fold keeping them can save (it saves 83.8%:
# every repeated traceback is one line, the last one too; what is left is the start, the three slow orders,
# the fold line and the last lines).
# postgres: facts are 9.7% (ceiling 90.3%); the header alone is 0.2 points, the first line of each of its
# templates, the rare autovacuum detail lines and the fold lines that count the other lines exactly take
# the rest (it saves 82.1%); 90% would leave 42 tokens for everything but the facts.
# gunicorn (session "unseen2"): facts are 10.4% of its tokens (every 4xx/5xx access line, both tracebacks whole,
# the start and stop lines), ceiling 89.6%; it saves 84.9%.
# strace-f (unseen2, output, target 70%; it saves 61.6%, 62.1% before the twice rule; facts 10.7%): the loader's
# 30 syscalls before the fork are each a template of their own (rare: shown whole), and the three processes'
# interleaved halves (``close(3 <unfinished ...>`` / ``<... close resumed>) = 0``) split each syscall into
# several templates whose groups restart after each signal line, so 97 lines stay for 306. No generic fix yet.
# mosquitto (unseen2): 89.5% (one template per message kind, its first line and a fold line with a value list
# for each; 89.1% while its epoch seconds were listed, session "foldgoals"); 0.5 points short, not folded at all
# before (see test_unseen2_logs.py).
# Session "unseen3" (captured and declared before folding, kept as they came out):
# php-server (log-file): 88.4% at first and now; facts are 7.5% of its tokens (ceiling 92.5%). The 319
# ``Accepted``/``Closing`` lines are one fold line and the static-file lines another, but the long PHP error
# lines (absolute paths) are shown whole, so are ``Stack trace:``/``#0 {main}`` twice, and the last lines.
# autotools-check (output): 64.7% at first, 64.1% with the twice rule. Facts are 10% of it, but configure's
# ``checking for X... yes`` lines fall into 5 templates by token count, the compiler checks before them are
# each rare, and make's recipe echo (``depbase=...``, ``gcc -DHAVE_CONFIG_H ...``) is shown whole: 89 lines
# stay for 343.
# Session "foldsave": php-server 88.8% (88.2% before: a fold line lists no values of a time field). Left: its header
# (40 tokens with this test's absolute path, twice), its first two lines, two fold lines and four ``Accepted``/``Closing``
# lines among its last five (always shown) take 163 tokens beside its facts' 369; 90% leaves 473 for all. postgres:
# its facts and header alone are 1,392 of the 1,396 tokens 90% leaves: out of reach while every fold names its range.
# mosquitto: 89.5% (55 tokens short: its value lists ``<*> to: CONNACK ×61, ...`` and the fold lines under each
# message kind's first line); strace-f and autotools-check unchanged.
# Checked by session "foldgoals" (test_facts_cap_the_savings): only python-service (facts 12.1%) and gunicorn
# (10.4%) have facts above 10% of their tokens. postgres's are 9.6% (ceiling 90.4%: reachable in principle, with
# 0.4 points for its header, every template's first line and the fold lines: not with this fold) and
# php-server's 7.5% (92.5%); both are short of the target, not capped by their facts.
# autotools-check (output, 70%): 61.4% since its 12 rare answers are shown (session "foldgoals"; ceiling 89.6%).
# gzip-configure (session "foldgoals2", output, captured and declared before folding, kept as it came out): 38.3%
# at first, 36.2% with that session's rule (7 more answers shown). configure's ~330 ``checking ...`` lines fall into
# many templates by token count and word kind (``minix/config.h...`` is a path), each group small, its first line
# shown; its 40 distinct ``... no`` facts alone are 10.6% of its tokens. Session "foldfacts": 47.1%, every fact kept
# (make's quiet ``CC x.o`` lines are one template: miner._last_key); the checks still fall into ~80 templates.
# sed-configure (session "foldfacts", output, captured and declared before folding, kept as it came out): 51.5%
# (51.5% on the code before that session too); its ~440 checks fall into ~100 templates, the first line of each
# shown, and its 54 distinct ``... no`` facts are kept only in part (FACT_LOSS comment). Session "foldfacts2": 49.0%,
# every fact kept (22 more lines: the 14 ``no`` and 5 other answers of the 149-line group, the 5 ``... no`` checks).
# patch-configure (session "foldfacts2", output, captured and declared before folding, kept as it came out): 66.0%
# (67.3% on the code before that session); its ~490 checks fall into ~90 templates, the first line of each shown.
SHORT_SAVINGS = {
    "postgres",
    "python-service",
    "gunicorn",
    "strace-f",
    "mosquitto",
    "php-server",
    "autotools-check",
    "gzip-configure",
    "sed-configure",
    "patch-configure",
}
# Logs whose distinct fact lines alone take more of the tokens than the target leaves: any fold that keeps them
# saves less than the target. Each must save at least this (a point under the figure of session "foldgoals").
CAPPED = {"python-service": 0.829, "gunicorn": 0.84}
SAVE_CASES = [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="floor above target, see comment"))
    if c in SHORT_SAVINGS
    else c
    for c in CASES
]


# Facts lost, no generic fix yet. apt-get-install-s lost 1 of 19 (4 before a bracketed field was another
# kind of field: tests/fold/test_miner_frames.py): the wrapped package-list lines of every section are one
# template, so the first line of the 2-line list under "The following packages will be upgraded:" folded into a
# range spanning all sections. A short block under a rare header is now shown whole (tests/fold/test_sections.py).
# Found by session "unseen2" (captured and declared before folding, kept as they came out):
# cmake-ninja-build: 9 of 37 lost at first, none now. gcc's context lines ``src/a.c: In function ‘f’:`` (7, one per
# diagnostic) are one template, folded past its first; so are the caret lines under the quoted source. Two
# generic fixes were measured and not kept: the source gutter (``  6 |  code`` and ``    |   ^``) as a location
# line after a marker kept the 3 carets but cost make-j2-gcc 8 points (75.5% to 67.3%); showing a held line ending
# in ``:`` right before a marker kept 6 of the 7 only while its template's lines were still held (the first 16).
# Kept now (tests/fold/test_context.py): the line right before a marker shown whole (its first time, not a counted
# repeat) is shown when it ends in ``:``, held or counted (0.8 points of make-j2-gcc: shown before every repeated
# warning it cost 8); a caret underline right under a line shown whole is shown (1.3 points of make-j2-gcc).
# mosquitto (1 of 26) and strace-f (1 of 26) kept every fact once a value seen once in a field of words
# with few values, in a group of at least 10 lines, had its line shown whole (group.Group.once,
# tests/fold/test_once.py): the will message ``Sending PUBLISH to dash-1 (... 'plant/sensor-will/status', ...``
# among 62 lines of its template, and ``[pid N] exit_group(2 <unfinished ...>`` among 31.
# Found by session "unseen3": php-server kept 15 of 15 at first. lighttpd-access lost 2 of 17: the one 206
# range request is kept now (a field of 2-3 digit numbers of one width is a code: group.Group.once,
# tests/fold/test_once.py); the one ``HEAD`` request, whose method is inside the quoted request field
# (``"HEAD /docs/page1.html HTTP/1.1"``), is kept since the first word of a quoted field of words is counted as a
# field of its own (session "foldgoals", tests/fold/test_foldgoals.py).
# rsync-av lost 6 of 18: ``rsync -av`` prints one path per line, all one template; the lines declared rare
# (``site/secrets/`` the directory it could not read, ``site/static/img/`` it could not create, the top-level
# files) differ from the 300 others only in the path's value. Kept since a listing (one path a line) is counted
# by directory and the lines of a small directory (at most 8, a subdirectory with more under it left out)
# are shown (fold.listing, tests/fold/test_foldgoals.py).
# autotools-check lost 9 of 37, then 7 (a value seen twice shown as one seen once: tests/fold/test_twice.py):
# ``checking for X.h... no`` x8 among ``... yes`` x198 in a 210-line group with mawk/gcc/ar/ranlib once each.
# Kept since in a group of at least 100 lines where one value fills 90% of a field, every other value seen at
# most 8 times is rare (rare.once, tests/fold/test_foldgoals.py).
# Session "foldgoals" captured three new scenarios for these rules and declared their facts before folding ran
# on them (kept as they came out). rsync-docs (rsync -av of another tree): 13 of 13 kept (6 lost before the
# listing rule). hello-configure (GNU hello's ./configure && make, from Debian's source): 3 of 19 lost (5
# before): its ``checking for X... no`` x4 are in a 43-line group with mawk/gcc/ar/ranlib once each, under the
# 100 lines (rare.LARGE) of the few-times rule, and 4 values seen at most twice are too many for the old one.
# nginx-methods: 3 of 7 lost, the three identical ``HEAD / HTTP/1.1`` probes (their user agent too): a
# first word seen 3 times among 2 values is neither seen at most twice nor one of 6+ values (the fold line
# lists the agent ``"uptime-probe/1.4" ×3`` but not the method, and the access summary counts no methods).
# Both kept since session "foldgoals2" (rare.once, tests/fold/test_foldgoals2.py): in a group of at least 20 lines
# (not 100), a field whose counts the fold line does not show (6+ values, or a first word of a quoted field
# whose whole field has 6+) shows the values seen at most 8 times beside one filling 90% of it (HEAD x3 beside
# GET x395: a first word is such a field whatever its own count of values), or every other value beside one
# filling 3/4 when each is seen at most 8 times (hello's yes x35 of 43, no x4, 4 tool names once).
# Session "foldgoals2" captured two new scenarios for that rule, declared before folding, kept as they came out:
# apache-dav (Apache with mod_dav: 4 HEAD probes, 3 PUT, 2 DELETE among ~410 GETs) loses 6 of 13 (6 before the
# rule too): the HEAD, 204 PUT and DELETE lines log ``-`` for their size where the GETs log a number, so they
# are a template of their own, 7 lines (under the rule's 20; too many for a rare template, 5), folded into one
# line that lists the requests (``"HEAD / HTTP/1.1" ×4, ...``) but shows only the first. The 201 PUTs are
# kept (a code seen twice). gzip-configure (GNU gzip 1.12's ./configure && make from Debian's source) loses 5
# of 44 (12 before the rule): ``checking for minix/config.h... no`` and ``sys/sdt.h... no`` are each in a
# small group of ``checking for <path> <*>`` lines, and the three ``checking for struct stat.st_birthtim...
# no`` in a 25-line group whose answer field the fold line lists (``yes ×21, no ×3, executables... ×1``).
# apache-dav keeps every fact since session "foldfacts": a lone ``-`` where the template's lines had a number is
# that number's kind (miner.group_key), so the 7 lines are lines of the GETs' group, where HEAD, PUT and DELETE
# are rare first words of the request (tests/fold/test_foldfacts.py; 95.2% to 94.9% saved). gzip-configure keeps
# every fact since that session too (48.3% to 47.1%: 5 more lines): a group of 6-9 lines (more than a rare
# template, under the 10 of the once rule) has its rare values looked at (rare.SMALL: the 9-line ``checking for
# <path>`` group's ``no`` x2), and in a field of words the miner merged (``<*>``), the fold line listing its
# counts, a value seen at most 5 times beside one filling 3/4 of the group is shown (rare.SEEN: ``no`` x3 beside
# ``yes`` x21). Costs: make-j2-gcc 72.8% to 72.7%, valgrind-memcheck 74.9% to 74.7%; no other log changes.
# Session "foldfacts" captured sed-configure (GNU sed 4.9's ./configure && make from Debian's source) to test these
# rules on data they were not tuned to, declared its 60 facts before folding ran on it and keeps it as it came out:
# it loses 18 of 60 (26 on the code before that session: the ``<path>`` headers' and ``struct stat`` answers came
# back). Left: ``checking for X... no`` x14 among 130 ``yes`` in one 149-line group (``no`` seen more than 8 times
# is a second usual answer, not an exception: test_foldgoals2's bound), and 6 ``checking whether A B C D... no``
# lines, a template of their own (drain3 too), 6 lines of all-different checks folded to 1 + a count (a rare
# template has at most 5).
# Both kept since session "foldfacts2" (rare.once, tests/fold/test_foldfacts2.py): in a group of at least 20 lines,
# a field whose counts the fold line does not show, where one value fills 80% of the group, the other values,
# together at most 24 lines (group.KEEP: a group keeps 24 lines per value, 8 before), are all shown (sed's ``no``
# x14 and 5 tool names once beside ``yes`` x130 of 149); and a group of at most 9 lines whose template differs from
# a template of its leaf with more lines only in its last word (miner.answers: ``... no`` beside ``... yes`` x20) has
# every line shown. No other log or fixture changes (sed-configure 51.5% to 49.0%).
# That session captured patch-configure (GNU patch 2.7.6's ./configure && make from Debian's source) for these rules,
# declared its 51 facts before folding ran on it and keeps it as it came out: 25 lost on the code before the
# session, 12 with its rules as first written (the 9-line rule then asked for every line to name another thing in
# a field of words, which showed small ``yes`` templates too: 2.7 points of gzip-configure), 12 now. Left:
# ``checking for struct stat.st_birthtim... no`` x3 and ``DOS-style setmode... no`` in a 41-line group whose answer
# field the fold line lists (``yes ×35, no ×4, executables... ×1, ar ×1``): 3 values seen at most 5 times are too
# many for the listed rule (letting them through when together at most 20% of the group cost redis 3.1 points;
# with one value filling 3/4 too, 0.1 of make-j2-gcc and 0.2 of strace-f, but test_foldgoals pins three values seen
# once in a listed field as too many: not kept);
# ``checking for minix/config.h... no`` and 2 ``attr/...h`` ones: 3 ``no`` beside 8 ``yes`` in an 11-line group
# (27%, no usual answer); ``checking X.h usability/presence... no`` x6, a template whose ``... yes`` sibling has
# only 2 lines (the minority answer is not the smaller template here).
# Session "foldsave" captured lighttpd-debug (lighttpd's request-handling debug log, facts declared before folding ran
# on it, kept as it came out) to test its rules; it loses 25 of 33 facts, with the old code too: every
# ``(response.c.NNN) Field : value`` line whose value is a path is one template (``(<id>) <*> : <path>``, 1,221
# lines: the source location is an ``<id>``, the field name a ``<*>``), so the lines of the odd requests
# (``Request-URI : /private/token.txt``, the not-found ``Path``/``URI`` lines) fold among the others; and its
# ``01:58:20:`` times are masked ``<ip>`` (an IPv6 shape) with their colon. The miner's key choice (fold/miner.py) and
# the masks were another session's; not fixed there.
# lighttpd-debug keeps all 33 facts since session "foldfacts3" (98.5% to 96.2% saved; tests/fold/test_foldfacts3.py): a
# source location ``file.ext.NNN`` is a constant (mask._SOURCE), keyed by the miner below the prefix (a template per
# source line: miner._source_key), so the 4 not-found ``(response.c.206) Path`` lines are a rare template; and in a
# group of at least 20 lines whose only field (times aside) is a path, the paths seen at most twice, together at most
# a twentieth of the group, beside paths each seen at least 10 times, are shown (rare.PATHS: ``Request-URI :
# /private/token.txt`` once among ``/`` x60). No other log's output changes.
FACT_LOSS: set[str] = {"patch-configure"}
FACT_CASES = [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="facts folded away, see comment"))
    if c in FACT_LOSS
    else c
    for c in CASES
]


def folded(case: str, capfdbinary: pytest.CaptureFixture[bytes]) -> tuple[str, str, dict[str, object]]:
    meta = tomllib.loads((DATA / f"{case}.toml").read_text())
    path = DATA / str(meta["log"])
    raw = path.read_bytes()
    if meta["kind"] == "log-file":  # the agent's cat/tail becomes rtk read
        capfdbinary.readouterr()
        assert read.main([str(path)]) == 0
        out = capfdbinary.readouterr().out.decode("utf-8", "replace")
        assert out.startswith(f"[rtk] {path}: ")
        return raw.decode("utf-8", "replace"), out, meta
    raw_text = clean(decode(raw))  # an unrecognised command's output
    argv = [str(a) for a in meta["argv"]]  # type: ignore[attr-defined]
    res = pipeline.bounded_raw(argv, raw, raw_text, int(meta["exit_code"]), lambda a, d: "/tmp/x.log", "raw")  # type: ignore[call-overload]
    return raw_text, res.text, meta


@pytest.mark.parametrize("case", FACT_CASES)
def test_every_fact_survives(case: str, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    raw, out, meta = folded(case, capfdbinary)
    lines = set(out.splitlines())
    lost = [f for f in meta["facts"] if f not in lines]  # type: ignore[attr-defined]
    assert lost == []
    assert len(out.encode()) < len(raw.encode())  # never larger than raw


@pytest.mark.parametrize("case", SAVE_CASES)
def test_the_fold_saves(case: str, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    raw, out, meta = folded(case, capfdbinary)
    saved = 1 - tokens.estimate(out) / tokens.estimate(raw)
    print(f"{case}: {len(raw.splitlines())} lines, {len(out.splitlines())} shown, {saved:.1%} saved")
    assert saved >= (0.9 if meta["kind"] == "log-file" else 0.7)


@pytest.mark.parametrize("case", sorted(CAPPED))
def test_facts_cap_the_savings(case: str, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    """The target is out of reach because of the facts (ceiling under it), and the fold stays near what it saved."""
    raw, out, meta = folded(case, capfdbinary)
    facts = "\n".join(dict.fromkeys(meta["facts"]))  # type: ignore[call-overload]
    ceiling = 1 - tokens.estimate(facts) / tokens.estimate(raw)
    target = 0.9 if meta["kind"] == "log-file" else 0.7
    assert ceiling < target
    saved = 1 - tokens.estimate(out) / tokens.estimate(raw)
    assert CAPPED[case] <= saved < ceiling
