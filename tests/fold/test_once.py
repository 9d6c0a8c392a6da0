"""A value seen once in a field of few values, in a long folded group, has its line shown whole (Group.once)."""

from __future__ import annotations

import pytest
from foldways import WAYS, by_block

TRAILER = [f"done step {w}" for w in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")]


def topics(n: int, odd: dict[int, str]) -> list[str]:
    """``n`` publish lines over three topics, with the topic of line ``i`` replaced by ``odd[i]``."""
    out = []
    for i in range(n):
        topic = odd.get(i, f"plant/line{i % 3}/temp")
        out.append(f"1795551{i:03d}: Sending PUBLISH to dash-1 (d0, q0, '{topic}', ... (8 bytes))")
    return ["broker starting", *out, *TRAILER]


@pytest.mark.parametrize("way", WAYS)
def test_a_topic_seen_once_is_shown_whole(way: object) -> None:
    lines = topics(300, {137: "plant/sensor-will/status"})
    out = way(lines)  # type: ignore[operator]
    will = lines[138]  # (line 1 is the start)
    assert "sensor-will" in will
    assert out.count(will) == 1
    assert len(out) < 20  # the others still fold
    # the fold lines count exactly the lines they stand for: all but the heads and the will line
    counted = sum(int(o.split()[1].replace(",", "")) for o in out if o.startswith("… "))
    shown = [o for o in out if "Sending" in o and not o.startswith("… ")]
    assert counted + len(shown) == 300


@pytest.mark.parametrize("way", WAYS)
def test_two_values_seen_once_are_both_shown(way: object) -> None:
    lines = topics(300, {120: "plant/status", 137: "plant/sensor-will/status"})
    out = way(lines)  # type: ignore[operator]
    assert lines[121] in out and lines[138] in out


@pytest.mark.parametrize("way", WAYS)
def test_many_values_seen_once_are_not_listed_lines(way: object) -> None:
    """Three values seen once in a field of five: none is an anomaly (ONCE_MAX), the fold stays one line."""
    lines = topics(300, {120: "a/b", 130: "c/d", 140: "e/f"})
    out = way(lines)  # type: ignore[operator]
    assert not {lines[121], lines[131], lines[141]} & set(out)


def test_a_short_group_is_as_before() -> None:
    """Fewer than 10 lines in the group (ONCE_MIN): the value seen once is only counted in the fold line."""
    lines = topics(9, {5: "plant/sensor-will/status"})
    out = by_block(lines)
    assert lines[6] not in out
    assert any("'plant/sensor-will/status' ×1" in o for o in out if o.startswith("… 8 more like: ")), out


def test_a_number_seen_once_is_no_anomaly() -> None:
    """``1ms`` among 0ms: a duration seen once is not shown (a far one is an outlier, not this)."""
    lines = ["npm start"]
    lines += [
        f"npm http cache pkg{i}@https://registry.example/pkg{i}.tgz {1 if i == 30 else 0}ms (cache hit)"
        for i in range(60)
    ]
    out = by_block(lines + TRAILER)
    assert lines[31] not in out
    assert any(o.startswith("… 59 more like: npm http cache") for o in out), out


@pytest.mark.parametrize("way", WAYS)
def test_a_call_seen_once_among_merged_words(way: object) -> None:
    """strace's ``exit_group(2 <unfinished ...>`` among ``close(3 <unfinished ...>``: a constant word the miner merged."""
    lines = ["execve start"]
    for i in range(300):
        call = "exit_group(2" if i == 125 else ("close(3" if i % 2 else "wait4(15535,")
        lines.append(f"[pid {15535 + i % 3}] {call} <unfinished ...>")
    out = way(lines + TRAILER)  # type: ignore[operator]
    assert out.count(lines[126]) == 1, out
    assert len(out) < 20


def codes(n: int, odd: dict[int, str], ok: str = "200") -> list[str]:
    """``n`` request lines answered ``ok`` (every ninth ``304``), the status of line ``i`` replaced by ``odd[i]``."""
    out = []
    for i in range(n):
        code = odd.get(i, "304" if i % 9 == 4 else ok)
        out.append(f"worker-{i % 4} served /assets/app.js code {code} in {i % 7 + 1} ms")
    return ["server starting", *out, *TRAILER]


@pytest.mark.parametrize("way", WAYS)
def test_a_status_code_seen_once_is_shown_whole(way: object) -> None:
    """lighttpd's one ``206`` among 331 ``200`` and 8 ``304`` (session unseen3): a short code field is a word."""
    lines = codes(300, {211: "206"})
    out = way(lines)  # type: ignore[operator]
    assert out.count(lines[212]) == 1, out
    assert len(out) < 20


@pytest.mark.parametrize(("ok", "odd"), [("4000", "1024"), ("20", "7"), ("0", "3"), ("200", "12")])
def test_a_number_seen_once_that_is_no_code(ok: str, odd: str) -> None:
    """A size or port (4 digits), a count (postgres's ``12 misses`` among 0-3): only counted, as before."""
    lines = [ln.replace(" 304 ", f" {ok} ") for ln in codes(300, {211: odd}, ok=ok)]
    out = by_block(lines)
    assert lines[212] not in out
