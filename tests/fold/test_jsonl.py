"""JSON-lines log events fold by their fields (issue 15): the fold line says what it folded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rtk.commands import read
from rtk.fold import fold_lines
from rtk.fold.jsonl import event, request

DATA = Path(__file__).resolve().parent.parent / "logdata"


def read_out(name: str, capfdbinary: pytest.CaptureFixture[bytes]) -> list[str]:
    capfdbinary.readouterr()
    assert read.main([str(DATA / name)]) == 0
    return capfdbinary.readouterr().out.decode().splitlines()


def test_pino_fold_line_names_the_message_and_fields(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    out = read_out("node-jsonl.log", capfdbinary)
    folds = [ln for ln in out if ln.startswith("… 367 more like: ")]
    assert folds == [
        '… 367 more like: level=30 "request completed" time=<n> pid=17826 hostname=vm reqId=<str> method=GET'
        " url=<path> remoteAddress=127.0.0.1 statusCode=200 responseTime=<n>  (lines 3-384)"
    ]  # was `… 367 more like: <*> completed"}`: the line's first 3 blank-separated tokens
    assert not any('<*> completed"}' in ln for ln in out)


def test_json_requests_make_an_access_summary(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    out = read_out("node-jsonl.log", capfdbinary)
    summary = [ln for ln in out if ln.startswith("… access log:")]
    # every request, the 404s and 500s (warn/error events, shown whole) too; ids in paths counted as one path
    assert summary == [
        "… access log: 380 requests; status 200 ×371, 404 ×5, 500 ×4; paths /api/vessels/<n> ×223, /health ×112,"
        " /api/positions ×45"
    ]


def test_structlog_events_fold_by_level_message_and_fields(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    out = read_out("structlog-sync.log", capfdbinary)
    assert (
        '… 413 more like: level=info "request served" method=GET path=<path> status=200 duration_ms=<n>'
        " timestamp=<time>  (lines 3-840)"
    ) in out
    assert (
        '… 408 more like: level=debug "item stored" worker=sync-1 sku=<str> warehouse=<str> bytes=<n>'
        " timestamp=<time>  (lines 4-839); warehouse=<str>: ams-1 ×138, rtm-1 ×136, ams-2 ×135;"
        " bytes=<n>: 53 ×187, 54 ×155, 52 ×58, 51 ×9"
    ) in out
    assert any(
        ln.startswith("… access log: 420 requests; status 200 ×416, 404 ×3, 500 ×1; paths /items/<n> ×420")
        for ln in out
    )


def _events(n: int, *kinds: dict[str, object]) -> list[str]:
    return [json.dumps({**kinds[i % len(kinds)], "seq": i}) for i in range(n)]


def test_levels_messages_and_field_names_make_separate_templates() -> None:
    lines = _events(
        600,
        {"level": "info", "msg": "job done", "worker": "a"},
        {"level": "debug", "msg": "job done", "worker": "a"},  # another level
        {"level": "info", "msg": "job started", "worker": "a"},  # another message
        {"level": "info", "msg": "job done", "queue": "a"},  # other fields
    )
    out, _ = fold_lines(lines)
    folds = sorted(ln.split("  (lines")[0] for ln in out if ln.startswith("… "))
    assert folds == [
        '… 147 more like: level=info "job done" queue=a seq=<n>',  # two of its lines are among the last 5
        '… 148 more like: level=debug "job done" worker=a seq=<n>',
        '… 148 more like: level=info "job done" worker=a seq=<n>',
        '… 148 more like: level=info "job started" worker=a seq=<n>',
    ]


def test_a_field_with_few_values_lists_them_most_frequent_first() -> None:
    lines = [json.dumps({"level": "info", "msg": "tick", "shard": "s2" if i % 4 else "s1"}) for i in range(300)]
    out, _ = fold_lines(lines)
    assert [ln for ln in out if ln.startswith("… ")] == [
        '… 294 more like: level=info "tick" shard=<str>  (lines 2-295); shard=<str>: s2 ×221, s1 ×74'
    ]


def test_event_above_info_stays_whole_and_message_numbers_are_fields() -> None:
    lines = [json.dumps({"level": "info", "msg": f"synced {i} rows", "t": i}) for i in range(300)]
    lines[150] = json.dumps({"level": "warn", "msg": "slow sync", "t": 150})
    out, _ = fold_lines(lines)
    assert lines[150] in out
    assert [ln.split("  (lines")[0] for ln in out if ln.startswith("… ")] == [
        '… 293 more like: level=info "synced <n> rows" t=<n>'
    ]  # one template, whatever the number in the message


def test_event_tokens() -> None:
    line = (
        '{"level":30,"time":1,"req":{"method":"GET","url":"/a/1?x=2","tags":["a","b"]},'
        '"res":{"statusCode":200},"msg":"request completed"}'
    )
    e = event(line)
    assert e is not None
    assert e.toks == [
        "level=30",
        '"request completed"',
        "time=1",
        "method=GET",
        "url=/a/1?x=2",
        'tags=["a","b"]',
        "statusCode=200",
    ]
    assert e.masks == [
        "level=30",
        '"request completed"',
        "time=<n>",
        "method=<str>",
        "url=<path>",
        "tags=<str>",
        "statusCode=<n>",
    ]
    assert request(line) == ("/a/1?x=2", "200")
    # a nested "message" is not the event's message; no top-level message or level: not an event
    assert event('{"level":"info","err":{"message":"x"},"n":1}') is None
    assert event('{"msg":"x","n":1}') is None
    assert event('{"level":"info","msg":"x"') is None  # not one whole object


def test_listed_values_say_their_field_once(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    go = read_out("go-panic.log", capfdbinary)
    assert any(ln.endswith("; worker=<n>: 1 ×83, 4 ×82, 3 ×82, 2 ×82") for ln in go)  # was `worker=<n> worker=1 ×83`
    pg = read_out("postgres.log", capfdbinary)
    # two <n> fields: each named by the word before it (was `<n> 0.00 ×14, ...; <n> 0.00 ×12, ...`)
    assert any(
        ln.endswith(
            "; user: <n>: 0.00 ×14, 0.01 ×2, 0.05 ×1, 0.04 ×1; elapsed: <n>: 0.00 ×12, 0.13 ×2, 0.01 ×2, 0.02 ×1, 0.04 ×1"
        )
        for ln in pg
    )
    assert any(ln.endswith("; [<n>]: 7596 ×11, 7575 ×1, 8726 ×1") for ln in pg)  # was `[<n>] [7596] ×11`


def test_values_of_a_field_in_punctuation() -> None:
    # dmesg's ``(order: 7, 65536 bytes)`` listed as `<n>, 7, ×2, 6, ×2` before
    lines = [
        f"[ {i}.0] hash table entries: {2**i} (order: {i % 3 + 5}, {4096 * (i % 2 + 1)} bytes, linear)"
        for i in range(250)
    ]
    out, _ = fold_lines(lines)
    fold = next(ln for ln in out if ln.startswith("… "))
    assert "order: <n>: 5 ×" in fold and ", ×" not in fold
