"""Session "foldfacts3": a source location is a constant keyed by the miner; an odd path in a big group is shown."""

from __future__ import annotations

import pytest
from foldways import WAYS, by_block

from rtk.fold.mask import mask, masked, source
from rtk.fold.miner import Miner

PATHS = ["/", "/img/logo.png", "/docs/a.html", "/docs/b.html"]


def debug_log(odd: dict[int, str], requests: int = 120) -> list[str]:
    """A request-handling debug log: 4 steps a request, each naming its source location, then a last line."""
    out = ["2026-11-25 01:58:19: (server.c.1704) server started"]
    for r in range(requests):
        p = odd.get(r, PATHS[r % len(PATHS)])
        t = f"2026-11-25 01:58:{20 + r // 40}:"
        out += [
            f"{t} (response.c.420) -- parsed Request-URI",
            f"{t} (response.c.422) Request-URI     : {p}",
            f"{t} (response.c.517) Path         : /srv/www{p}",
            f"{t} (response.c.538) Path         : /srv/www{p}",
        ]
    return [*out, "2026-11-25 01:58:25: (server.c.2078) server stopped"]


def test_a_source_location_is_a_constant() -> None:
    # ``response.c.203`` was an ``<id>`` (letters and digits): every source line's lines looked alike.
    assert mask("(response.c.203)") == "(response.c.203)"
    assert mask("(mod_indexfile.c.153)") == "(mod_indexfile.c.153)"
    assert source("(http-header-glue.c.333)") and not source("(abc123def)")
    assert mask("(job42xyz)") == "(<id>)"  # an id is still an id


def test_the_miner_keeps_two_source_lines_apart() -> None:
    # The same field name and a path: 4 of 6 tokens alike, one Drain template ``<*> Path : <path>`` before.
    m = Miner()
    a = m.add(masked("2026-11-25 01:58:20: (response.c.517) Path : /srv/www/")[1])
    b = m.add(masked("2026-11-25 01:58:20: (response.c.538) Path : /srv/www/a")[1])
    c = m.add(masked("2026-11-25 01:58:21: (response.c.517) Path : /srv/www/b")[1])
    assert a is not b and a is c


@pytest.mark.parametrize("way", WAYS)
def test_an_odd_path_among_usual_ones_is_shown(way: object) -> None:
    # lighttpd-debug: ``Request-URI : /private/token.txt`` once among ``/`` x60, ``/img/logo.png`` x40...
    # folded into the count of a ``(<id>) <*> : <path>`` template of 1,221 lines.
    lines = debug_log({55: "/private/token.txt", 90: "/private/"})  # (not the head of a live window: live.py)
    out = way(lines)  # type: ignore[operator]
    for p in ("/private/token.txt", "/private/"):
        for ln in lines:
            if ln.endswith(f" {p}") or ln.endswith(f"/srv/www{p}"):
                assert ln in out
    assert not any(ln.endswith("Request-URI     : /docs/a.html") for ln in out)  # the usual ones fold
    assert len(out) < 30


def test_many_odd_paths_are_no_anomaly() -> None:
    # Paths seen once filling more than a twentieth of the group (7 of 120): no usual set of paths, none shown.
    lines = debug_log({r: f"/u/{r}" for r in range(3, 120, 17)})
    out = by_block(lines)
    assert not any("/u/" in ln and "Request-URI" in ln and not ln.startswith("…") for ln in out[2:])
