"""JSON events planned once per shape (speed, issue 15) give exactly what the pair-by-pair reading gave.

The reference below is the event reader as it was before plans (commit 17bf5d5): every log of
tests/logdata and synthetic JSON-lines logs (outliers, levels above info, nested objects,
escaped quotes, unicode, arrays, odd keys) must give the same events, and fold byte-identically
whole, in blocks and live, with the reference as with the new code. The marker shortcuts (the hints of
a block found at once, a hint-free line's level tests) agree with the line-by-line tests on every line.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from rtk.fold import folder as folder_mod
from rtk.fold import jsonl
from rtk.fold.folder import Folder, fold_lines
from rtk.fold.live import FoldStream
from rtk.fold.markers import Hints, access, access_hint, has_hint, hinted, is_marker, is_marker_unhinted
from rtk.text import clean, decode

DATA = Path(__file__).resolve().parent.parent / "logdata"
LOGS = sorted(p.name for p in DATA.glob("*.log"))

_OLD_PAIR = re.compile(
    r'([\s,{}\[\]]*)"([^"\\]*(?:\\.[^"\\]*)*)"\s*:\s*'
    r'("[^"\\]*(?:\\.[^"\\]*)*"|\[(?:[^\[\]{}"]|"[^"\\]*(?:\\.[^"\\]*)*")*\]|[^\s"{}\[\],][^{}\[\],]*|\{|\[)'
)


def old_event(line: str) -> jsonl.Event | None:
    """The event reader before plans: each pair looked at in turn."""
    if line[:1] != "{" or line[-1:] != "}":
        return None
    depth = -1
    level: str | None = None
    msg: str | None = None
    toks: list[str] = []
    masks: list[str] = []
    path = status = None
    for gap, key, value in _OLD_PAIR.findall(line):
        if gap != ",":
            depth += gap.count("{") + gap.count("[") - gap.count("}") - gap.count("]")
        if value == "{" or value == "[":
            depth += 1
            continue
        if depth <= 0:
            if level is None and key in jsonl._LEVEL_KEYS:
                level = f"{key}={value.strip(chr(34))}"
                continue
            if msg is None and key in jsonl._MSG_KEYS and value[:1] == '"':
                msg = value
                continue
        quoted = value[:1] == '"'
        if not quoted:
            value = value.rstrip()
        toks.append(f"{key}={value[1:-1] if quoted else value}")
        masks.append(f"{key}={_old_mask(value)}")
        if key in jsonl._PATH_KEYS and value[:2] == '"/':
            path = value[1:-1]
        elif key in jsonl._STATUS_KEYS and len(value) == 3 and value.isdigit() and value[0] in "12345":
            status = value
    if level is None or msg is None or len(toks) > jsonl.MAX_FIELDS:
        return None
    request = (path, status) if path is not None and status is not None else None
    return jsonl.Event([level, msg, *toks], [level, jsonl._mask_message(msg), *masks], request)


def _old_mask(value: str) -> str:
    if value[:1] != '"':
        return "<n>" if value[:1] in "-0123456789" else "<str>"
    if value[1:2] == "/":
        return "<path>"
    k = jsonl.kind(value[1:-1]) or "<str>" if len(value) > 2 else "<str>"
    return k if k in jsonl._KINDS else "<str>"


def synthetic(seed: int, n: int = 2500) -> list[str]:
    """A JSON-lines log with every kind of line the reader must agree on."""
    rnd = random.Random(seed)
    levels = ["info"] * 30 + ["debug"] * 10 + ["warn", "error", "fatal", "INFO", "trace"]
    out: list[str] = []
    for i in range(n):
        r = rnd.random()
        lvl: object = rnd.choice(levels) if rnd.random() < 0.5 else rnd.choice([30] * 20 + [20, 40, 50, 60])
        ev: dict[str, object] = {"level": lvl, "time": 1795544483231 + i * rnd.randint(1, 900), "pid": 4242}
        if r < 0.4:
            ev |= {"req": {"method": "GET", "url": f"/api/v/{rnd.randint(1, 60)}"}, "res": {"statusCode": 200}}
            ev |= {"responseTime": round(rnd.random() * 90, 3), "msg": "request completed"}
            if rnd.random() < 0.03:
                ev["res"] = {"statusCode": rnd.choice([404, 500, 302])}
        elif r < 0.6:
            ev |= {"sku": f"SKU-{rnd.randint(1, 9999):05d}", "where": rnd.choice(["ams-1", "rtm-1"]), "msg": "stored"}
            ev["bytes"] = rnd.randint(40, 60)
        elif r < 0.7:
            who = rnd.choice(["Zoë", "東京", "a\\\\b", "x"])
            ev |= {"msg": 'said "hi" to ' + who, "tags": ["a", 1, 'b"c']}
            ev["ctx"] = {"deep": {"deeper": [{"k": rnd.randint(0, 3)}], "ok": True}, "none": None}
        elif r < 0.75:
            ev |= {"message": "cache warm", "keys": rnd.randint(1, 10 ** rnd.randint(1, 6)), "ip": "10.0.0.7"}
            ev["at"] = "2026-11-24T20:28:58.840067Z"
        elif r < 0.8:
            ev |= {"event": "job done", "id": "3f1e2d4c-1111-4222-8333-123456789abc", "path": "/tmp/x/y"}
        elif r < 0.85:
            ev = {"severity": rnd.choice(["INFO", "WARNING", "ERROR"]), "message": f"step {i}", "n": i}
        elif r < 0.88:
            ev |= {"msg": 12, "message": "numeric msg first"}  # the message is the first string
        elif r < 0.9:
            ev |= {"a\x00b": 1, "odd:key": "v", "sp ace": " padded ", "msg": "odd keys", "e": "", "f": -1.5e3}
        elif r < 0.92:
            ev = {"lvl": "info", "msg": "many"} | {f"f{k}": k for k in range(rnd.choice([10, 41, 45]))}
        elif r < 0.94:
            ev = {"nested": {"level": "error", "msg": "inner only"}, "x": 1}  # not at the top: no event
        elif r < 0.95:
            out.append(f"plain text line {i} between events")
            continue
        else:
            ev |= {"msg": rnd.choice(["timeout talking to db", "retry 3/5", "ok"]), "attempt": rnd.randint(1, 5)}
        text = json.dumps(ev, ensure_ascii=rnd.random() < 0.5, separators=rnd.choice([(",", ":"), (", ", ": ")]))
        if rnd.random() < 0.02:
            text = text.replace(":", " : ", 2)  # blanks around the colon
        if rnd.random() < 0.01:
            text = text[:-1] + ',"weird": 5 , "x":"\\""}'  # a scalar with blanks after it; an escaped quote only
        out.append(text)
    return out


def _logs() -> list[tuple[str, list[str]]]:
    logs = [(name, clean(decode((DATA / name).read_bytes())).splitlines()) for name in LOGS]
    return [*logs, *((f"synthetic-{s}", synthetic(s)) for s in range(3))]


ALL = _logs()
EXTRA = [
    '{"level":"info","msg":"\\"","k":"\\"\\"","z":"\\u0000"}',
    '{"level":"\\"info\\"","msg":"q"}',
    '{"level":"info","msg":"a","x":[1, "2", [3]],"y":1}',
    '{"level":"info","msg":"a","x":[{"k":1}],"y":"v"}',
    '{"level":"info","msg":"a","url":"/x","status":"200","code":200}',
    '{"level":"info","msg":"a","url":"x","status":2000}',
    '{"level":"info","msg":"a","k\x00":1}',
    '{"level":"info" , "msg" :"a" ,"n": 1   }',
    '{"level":info,"msg":"a"}',
    "{}",
    '{"level":"info","msg":"one field","a":1}',
    '{"level":"info","msg":"two fields","a":1,"b":"x"}',
    '{"level":"info","msg":"empty url","url":"","status":200}',
    '{"level":"info","msg":"no fields"}',
    '{"msg":"no level"}',
]


@pytest.mark.parametrize("name", [n for n, _ in ALL])
def test_events_same_as_pair_by_pair(name: str) -> None:
    lines = dict(ALL)[name]
    for line in [*lines, *EXTRA]:
        new, old = jsonl.event(line), old_event(line)
        assert (new is None) == (old is None), line
        if new is not None and old is not None:
            assert (new.toks, new.masks, new.request) == (old.toks, old.masks, old.request), line
        assert jsonl.request(line) == (None if old is None else old.request)


def _folds(lines: list[str]) -> tuple[list[str], list[str], list[str]]:
    whole, _f = fold_lines(lines)
    blocks = Folder()
    out: list[str] = []
    for i in range(0, len(lines), 300):
        out += blocks.feed_lines(lines[i : i + 300])
    out += blocks.finish()
    fs = FoldStream(["cat", "x.log"])
    live = [r for ln in lines if (r := fs.feed(ln)) is not None]
    live.append(fs.finish(0))
    return whole, out, live


@pytest.mark.parametrize("name", [n for n, _ in ALL if n.startswith(("synthetic", "node", "structlog"))])
def test_folds_byte_identical(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = dict(ALL)[name]
    new = _folds(lines)
    monkeypatch.setattr(folder_mod, "event", old_event)
    monkeypatch.setattr(folder_mod, "request", lambda ln: None if (e := old_event(ln)) is None else e.request)
    old = _folds(lines)
    assert new == old
    assert any("more like: level=" in ln for ln in new[0])  # events were folded by their fields


@pytest.mark.parametrize("name", [n for n, _ in ALL])
def test_hints_of_a_block_same_as_line_by_line(name: str) -> None:
    lines = [ln for ln in dict(ALL)[name] if "\n" not in ln][:3000]
    assert hinted(lines) == {i for i, ln in enumerate(lines) if has_hint(ln)}
    hints = Hints(lines)
    assert [hints.has(i, ln) for i, ln in enumerate(lines)] == list(map(has_hint, lines))


@pytest.mark.parametrize("name", [n for n, _ in ALL])
def test_marker_of_a_hint_free_line_same_as_the_whole_test(name: str) -> None:
    for line in dict(ALL)[name]:
        hit = access(line) if access_hint(line) else None
        if has_hint(line) or (hit is not None and hit[1][0] in "45"):
            continue  # (such lines take is_marker itself)
        assert is_marker_unhinted(line) == is_marker(line), line


def test_hints_found_in_their_own_lines() -> None:
    lines = ['{"level":"info","msg":"ok"}', "all good", '{"level":"info","msg":"Timed Out"}', " W/tag: x", ""]
    assert hinted(lines) == {2, 3}
    assert hinted(["a", "b"]) == set()
