"""Defects found by folding real logs the fold had never seen (tests/logdata, session "unseen"): one test each."""

from __future__ import annotations

import json
from pathlib import Path

from rtk.fold import data_kind, fold_lines, fold_output, folder, looks_like_log
from rtk.fold.markers import access, is_marker
from rtk.fold.mask import mask


def _timed(n: int, status: int, path: str) -> str:
    """A request line whose status comes after a slash-separated timing field, the request quoted at the end."""
    return (
        f"127.0.0.1:{40000 + n} [24/Nov/2026:18:10:{n % 60:02d}.{n % 1000:03d}] web app/s1 0/0/0/{n % 7}/{n % 7} "
        f'{status} {200 + n % 50} - - ---- 1/1/0/0/0 0/0 "GET {path} HTTP/1.1"'
    )


def test_a_failed_request_with_the_status_before_the_request_is_a_marker() -> None:
    assert access(_timed(3, 404, "/wp-admin/")) == ("/wp-admin/", "404")
    assert is_marker(_timed(3, 404, "/wp-admin/"))
    assert is_marker(_timed(4, 503, "/legacy/ports"))
    assert not is_marker(_timed(5, 200, "/index.html"))
    # a quoted string at the end of a line with no timing field before a status is no request
    assert access('job 12/3 done 404 items "GET /x HTTP/1.1"') is None


def test_failed_timed_requests_stay_whole_and_are_counted() -> None:
    lines = [_timed(i, 200, f"/api/v/{i % 5}") for i in range(400)]
    lines[100] = _timed(100, 500, "/cgi-bin/report.py?year=1999")
    lines[250] = _timed(250, 404, "/.git/config")
    out, f = fold_lines(lines)
    assert lines[100] in out and lines[250] in out
    summary = [ln for ln in out if ln.startswith("… access log:")]
    assert summary and "status 200 ×398, 404 ×1, 500 ×1" in summary[0]
    assert f.folded > 380


def test_a_log_whose_timestamp_follows_a_short_field_is_a_log() -> None:
    # ``pid:role DD Mon YYYY HH:MM:SS.mmm`` (a daemon writing its own log file), three kinds of line in turn:
    # no template covers half of them, so only the timestamp after the first field says it is a log.
    kinds = ("- Accepted 127.0.0.1:{n}", "- Client closed connection id={n} fd=8", "* Saved {n} keys to disk")
    lines = [f"{100 + n % 3}:M 24 Nov 2026 18:09:{n % 60:02d}.{n:03d} " + kinds[n % 3].format(n=n) for n in range(300)]
    assert looks_like_log(lines)
    hosts = [f"web{n % 4} 2026-11-24T07:00:{n % 60:02d}Z " + kinds[n % 3].format(n=n) for n in range(300)]
    assert looks_like_log(hosts)
    # a short field then words is no timestamp: a config or source file stays byte-exact
    source = Path(folder.__file__).read_text(encoding="utf-8").splitlines()
    assert not looks_like_log(source)


def _event(n: int, level: object, msg: str = "request completed") -> str:
    lvl = json.dumps(level)
    return f'{{"level":{lvl},"time":{1795544483000 + n},"pid":17826,"reqId":"req-{n}","responseTime":{n % 9}.5,"msg":"{msg}"}}'


def test_a_json_lines_log_with_a_level_and_a_message_is_a_log_not_data() -> None:
    events = [_event(n, 30) for n in range(300)]
    assert data_kind(events) is None and looks_like_log(events)
    records = [json.dumps({"id": n, "name": f"vessel-{n}", "speed": n % 23}) for n in range(300)]
    assert data_kind(records) == "json" and not looks_like_log(records)  # data stays data
    assert fold_output(records) is None


def test_json_records_with_a_level_member_that_is_no_log_level_stay_data() -> None:
    """A course list's ``"level": "beginner"`` or a rating's ``"level": 1200`` is data: it was folded as a log."""
    for level in ("beginner", "B2", 1200):
        records = [json.dumps({"id": n, "level": level, "message": f"lesson {n}"}) for n in range(400)]
        assert data_kind(records) == "json" and not looks_like_log(records), level
        assert fold_output(records) is None
    for level in ("WARN", "Information", 50, 3):  # named and numbered levels still make a log
        events = [json.dumps({"level": level, "msg": f"tick {n}"}) for n in range(300)]
        assert data_kind(events) is None, level


def test_a_json_event_above_info_stays_whole_whatever_its_level_looks_like() -> None:
    # pino/bunyan numbers (40 warn, 50 error, 60 fatal): the line is shaped like the info lines but for digits
    lines = [_event(n, 30) for n in range(400)]
    lines[120] = _event(120, 40)
    lines[200] = _event(200, 50, "request errored")
    lines[330] = _event(330, 60, "shutting down")
    lines[350] = _event(350, "warn")
    lines[360] = _event(360, "ERROR")
    out, f = fold_lines(lines)
    for n in (120, 200, 330, 350, 360):
        assert lines[n] in out
    assert _event(121, 30) not in out and f.folded > 380
    assert not is_marker(_event(5, 30)) and not is_marker(_event(5, "info"))


def test_caret_underlines_of_any_width_are_one_kind_of_line() -> None:
    # gcc/clang/rustc point at code with an underline as wide as the code: the width is a variable field
    for tok in ("^", "~~^~~~", "^~~~~~~~", "^^^^^^^^^^^^"):
        assert mask(tok) == "<caret>"
    assert mask("~~~") == "~~~" and mask("^C") == "^C" and mask("x^2") == "x^2"
    lines = []
    for n in range(120):
        lines += [
            f"src/m{n % 7}.c:{n + 10}:{n % 30 + 1}: note: here",
            f"  {n + 10} |     x = y{n};",
            "      |" + " " * (n % 30) + "~" * (n % 3) + "^" + "~" * (n % 5),
        ]
    out, _ = fold_lines(lines)
    carets = [ln for ln in out if ln.startswith("… ") and "| <caret>" in ln]
    assert len(carets) == 1 and int(carets[0].split()[1]) >= 100  # before: one fold per width
