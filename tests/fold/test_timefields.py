"""A time field is a time with its colon or bracket, and a fold line lists no values of it (session "foldsave")."""

from __future__ import annotations

from test_logdata_live import live

from rtk.fold.folder import fold_lines
from rtk.fold.mask import mask


def test_a_time_with_its_colon_or_bracket_is_a_time() -> None:
    # lighttpd's ``2026-11-25 01:58:20: (...)`` and http.server's ``[25/Nov/2026 02:00:26]`` were masked ``<ip>``
    # (an IPv6 shape: hex groups between colons, a bracket allowed)
    assert mask("01:58:20:") == "<time>:"
    assert mask("02:00:26]") == "<time>]"
    assert mask("10:20:30,") == "<time>,"
    assert mask("12:34:56") == "<time>"
    for ip in ("::1", "fe80::1", "[::1]:8080", "127.0.0.1:80", "2001:db8::7]"):
        assert mask(ip) == "<ip>", ip


def test_a_fold_line_lists_no_times() -> None:
    """Which second a line fell in is said by its range: the values of a time field are never listed."""
    lines = [
        f"[Tue Nov 24 21:41:{33 + i // 40} 2026] 127.0.0.1:{40000 + i} {'Accepted' if i % 2 else 'Closing'}"
        for i in range(120)
    ]
    out, _ = fold_lines(lines)
    fold = [o for o in out if o.startswith("… ")]
    assert fold == ["… 114 more like: [Tue Nov 24 <time> 2026] <ip> <*>  (lines 2-115); <*>: Closing ×58, Accepted ×57"]


def test_http_server_live_lists_no_times() -> None:
    """http-server (a new capture, session "foldsave"): its live windows listed ``<ip>: 02:00:44] ×21, ...``."""
    _raw, out, _whole, meta = live("http-server")
    fold = [o for o in out.splitlines() if o.startswith("… ")]
    assert fold and not any("02:00:" in o for o in fold)
    assert [f for f in meta["facts"] if f not in out.splitlines()] == []  # type: ignore[attr-defined]
