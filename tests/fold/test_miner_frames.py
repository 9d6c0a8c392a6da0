"""A variable field in other punctuation (``[<n>]`` against ``(<n>``) is another kind of field: the miner keeps the lines apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtk import pipeline
from rtk.fold.mask import mask, tokens
from rtk.fold.miner import Miner
from rtk.text import clean, decode

LOG = Path(__file__).resolve().parent.parent / "logdata" / "apt-get-install-s.log"


def ids(lines: list[str]) -> list[int]:
    m = Miner()
    return [m.add([mask(t) for t in tokens(ln)]).id for ln in lines]


def test_a_bracketed_old_value_is_not_a_parenthesised_one() -> None:
    # real lines of tests/logdata/apt-get-install-s.log: an upgrade ([old] then (new ...)) after installs
    a, b, c = ids(
        [
            "Inst libwebpmux3 (1.2.4-0.2+deb12u1 Debian:12.15/oldstable, Debian-Security:12/oldstable-security [amd64])",
            "Inst libgbm1 [22.3.6-1+deb12u1] (22.3.6-1+deb12u2 Debian:12.15/oldstable [amd64])",
            "Inst libgl1-mesa-dev [22.3.6-1+deb12u1] (22.3.6-1+deb12u2 Debian:12.15/oldstable [amd64])",
        ]
    )
    assert a != b  # the old miner merged them: 2 of the 3 constants of the upgrade line are in the other
    assert b == c  # two upgrades are still one template


def test_a_last_word_after_a_field_keeps_the_line_apart() -> None:
    # journalctl-service: the supervisor's last line ("giving up") is not one more restart
    lines = [
        f"ingest-supervisor[{p}]: ingest exited with status 1; restarting in 2s (attempt {n} of 5)"
        for n, p in ((1, 26909), (2, 26971))
    ]
    lines.append("ingest-supervisor[27262]: ingest exited with status 1 on attempt 5 of 5; giving up")
    got = ids(lines)
    assert got[0] == got[1] != got[2]


@pytest.mark.parametrize(
    "lines",
    [
        # haproxy's literal ``<NOSRV>`` is text, not a masked field: it does not split a template
        ["10.0.0.1 web api/app1 200 120", "10.0.0.2 web legacy/<NOSRV> 503 0"],
        # ``key=<n>`` against ``key=<path>``: the key is a word, the similarity weighs it (cargo's env lists)
        ["run job A=1 B=2 done", "run job A=./x B=2 done"],
    ],
)
def test_fields_that_are_not_punctuated_values_merge_as_before(lines: list[str]) -> None:
    a, b = ids(lines)
    assert a == b


def test_apt_upgrade_lines_survive_the_fold() -> None:
    raw = LOG.read_bytes()
    text = clean(decode(raw))
    argv = ["apt-get", "install", "-s", "libreoffice-writer"]
    out = pipeline.bounded_raw(argv, raw, text, 0, lambda a, d: "/tmp/x.log", "raw").text  # type: ignore[arg-type]
    shown = set(out.splitlines())
    for pkg in ("libgbm1", "libgl1-mesa-dev", "libgl1-mesa-glx"):
        assert f"Inst {pkg} [22.3.6-1+deb12u1] (22.3.6-1+deb12u2 Debian:12.15/oldstable [amd64])" in shown
