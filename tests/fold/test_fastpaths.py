"""The fast paths of session "foldspeed" against the ways they short-cut, kept here as references.

The block loop (fold/fastblock.py) must fold as the loop it replaced (below, as it was on main
cd9fca1), also when the shape cache starts again in the middle of a block (small cache bounds
force it); a JSON event read by its skeleton's recipe must have the tokens, masks and request the
regex reading gives; a settled field's bound (measure.below) is never under a value it bounds.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rtk.fold import folder as folder_mod
from rtk.fold import jsonl
from rtk.fold.fastblock import _STARTS, ROUTE, ZEROS
from rtk.fold.folder import Folder
from rtk.fold.markers import Hints, access, access_hint, is_location
from rtk.fold.mask import tokens
from rtk.fold.measure import _value, below

LOGS = Path(__file__).resolve().parent.parent / "logdata"


def old_take_many(self: Folder, first: int, lines: list[str]) -> None:
    """``Folder._take_many`` as it was before fold/fastblock.py (main cd9fca1), kept as the reference."""
    shapes = "\n".join(lines).encode("utf-8", "surrogatepass").translate(ZEROS).split(b"\n")
    if len(shapes) != len(lines):  # a newline inside a line
        for no, line in enumerate(lines, first):
            self._take(no, line)
        return
    fast = self._fast.get
    groups = self.groups.get
    blocks = self.blocks
    take = self._take
    hint = Hints(lines).has
    batches = self._batches
    batch = batches.get
    self._block, self._first = lines, first
    self._slow = [] if self.dropped is not None else None
    for no, (line, shape) in enumerate(zip(lines, shapes, strict=True), first):
        if self._marked:  # the line after a marker: shown when it only says where (`` --> src/a.rs:4``)
            if is_location(line):
                take(no, line)
                continue
            self._marked = False
        if self._sect is not None:  # under a header: the whole way
            take(no, line)
            continue
        entry = fast(shape)
        if entry is None or blocks.kind:
            # A line of a new shape (or in a block): the whole way. A line shaped like one seen here
            # before has its characters but digits: no hint, no start of a block either.
            if (
                blocks.kind
                or (line[:1] in ROUTE and _STARTS.match(line) is not None)
                or "/" in line[:3]
                or hint(no - first, line)
            ):
                take(no, line)
                continue
            if access_hint(line) and (hit := access(line)) is not None:
                if hit[1][0] in "45":
                    take(no, line)  # a failed request: a marker
                    continue
                self.reqs.pending.append(hit)
            if entry is None:
                take(no, line, shape, True)
                continue
        elif entry[4] and (hit := access(line)) is not None:
            if hit[1][0] in "45":
                take(no, line)
                continue
            self.reqs.pending.append(hit)
        g = groups(entry[1])
        if g is None or not g.cancelled or line[-1:] in ":^~":  # (a context or caret line: context.py)
            self._grouped(no, line, line.split() if entry[3] else tokens(line), *entry[:3])
        elif (b := batch(entry[1])) is None:  # a folding group: counted at the end of the block
            batches[entry[1]] = ([no - first], [entry])
        else:
            b[0].append(no - first)
            b[1].append(entry)
    self._end_block()


def _fold(lines: list[str], step: int) -> list[str]:
    f = Folder()
    f.dropped = []
    out: list[str] = []
    for i in range(0, len(lines), step):
        out += f.feed_lines(lines[i : i + step])
    out += f.finish()
    return [*out, "-- dropped --", *f.dropped]


def _bench_lines() -> list[str]:
    lines = []
    for name in ("nginx-access.log", "nginx-error.log", "python-service.log", "postgres.log", "jvm-ingest.log"):
        lines += (LOGS / name).read_text(errors="surrogateescape").splitlines()
    return [f"{ln} seq={n}" for n, ln in enumerate(lines * 2)]


@pytest.mark.parametrize("bounds", [(20_000, 50_000), (40, 50_000), (25, 60)])
@pytest.mark.parametrize("log", ["bench", *sorted(p.name for p in LOGS.glob("*.log"))])
def test_block_loop_folds_as_the_old_loop(monkeypatch: pytest.MonkeyPatch, log: str, bounds: tuple[int, int]) -> None:
    """Same printed lines and the same lines reported dropped, with the real cache bounds and with ones that overflow."""
    monkeypatch.setattr(folder_mod, "FAST", bounds[0])
    monkeypatch.setattr(folder_mod, "CACHE", bounds[1])
    lines = _bench_lines() if log == "bench" else (LOGS / log).read_text(errors="surrogateescape").splitlines()
    for step in (997, 5000):
        new = _fold(lines, step)
        with monkeypatch.context() as m:
            m.setattr(Folder, "_take_many", old_take_many)
            old = _fold(lines, step)
        assert new == old


def _plain_event(line: str) -> tuple[list[str], list[str], tuple[str, str] | None] | None:
    jsonl._recipes.clear()
    jsonl._once.clear()
    e = jsonl.event(line)
    return None if e is None else (e.toks, e.masks, e.request)


def _json_lines() -> list[str]:
    lines = []
    for name in ("node-jsonl.log", "structlog-sync.log"):
        lines += (LOGS / name).read_text().splitlines()
    crafted = [
        '{"level":30,"msg":"a","k1":5,"status":200,"url":"/a/1"}',
        '{"level":50,"msg":"a","k2":5,"status":500,"url":"/a/2"}',  # a digit in a key: never by recipe
        '{"level":"info","msg":"v 0x1f","addr":"0x1f"}',
        '{"level":"info","msg":"v 1x1f","addr":"1x1f"}',  # same skeleton as 0x1f: hex there, an id here
        '{"level":"info","msg":"","path":"","status":"200"}',
        '{"level":"info","msg":"q","path":"/x","status":[200]}',
        '{"level":"info","msg":"q","path":"/x","status":100}',
        '{"level":"info","msg":"q","path":"/x","status":0}',
        '{"level":"info","msg":"q \\"x\\" y","path":"a\\"","status":404}',
        '{"level":"\\"w\\"","msg":"e 12 ms","n":-3.5e7,"t":"2024-01-02T03:04:05Z"}',
        '{"level":"\\"w\\"","msg":"e 99 ms","n":-1.1e1,"t":"2024-01-02T03:04:05Z"}',
    ]
    return lines + crafted * 3


def test_json_events_by_recipe_are_read_as_by_the_regex() -> None:
    lines = _json_lines()
    want = [_plain_event(ln) for ln in lines]
    jsonl._recipes.clear()
    jsonl._once.clear()
    for _ in range(3):  # first sightings, then recipes
        got = []
        for ln in lines:
            e = jsonl.event(ln)
            got.append(None if e is None else (e.toks, e.masks, e.request))
        assert got == want
    assert jsonl._recipes  # (the recipes were used)
    assert all(b"0x" not in k for k in jsonl._recipes)


def test_a_settled_fields_bound_is_never_under_a_value() -> None:
    rnd = random.Random(7)
    for _ in range(3000):
        form = rnd.choice(
            ["{:02d}:{:02d}:{:02d}.{:03d}", "{:d}:{:02d}:{:02d}", "[{:02d}:{:02d}]", "{:d}.{:02d}", "{:03d}"]
        )
        n = form.count("{")
        toks = []
        width = None
        for _ in range(rnd.randint(1, 40)):
            t = form.format(*(rnd.randint(0, 99) for _ in range(n)))
            if width is None:
                width = len(t)
            if len(t) == width:
                toks.append(t)
        vals = [v for v in map(_value, toks) if v is not None]
        top = max(vals) if vals else 0.0
        for limit in (top * 0.5, top, top * 1.0000001, top + 1, top * 3, top * 60, -1.0):
            if below(toks, limit):
                assert all(v < limit for v in vals), (toks, limit)
    assert below(["07:00:46.416", "23:59:59.999"], 250_000)
    assert not below(["07:00:46.416", "23:59:59.999"], 80_000)
    assert not below(["12", "123"], 1e9)  # two shapes: read value by value
