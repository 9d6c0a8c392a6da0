"""ssh family: only non-interactive HOST COMMAND forms are filtered; short output raw, long output folded."""

from __future__ import annotations

import pytest

from rtk import config, filters
from rtk.filterapi import Filtered
from rtk.filters.ssh import ssh
from rtk.filters.ssh.forms import remote_command
from rtk.rewrite import engine


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["host", "ls", "-la"], ["ls", "-la"]),
        (["-p", "22", "host", "uptime"], ["uptime"]),
        (["-p22", "host", "uptime"], ["uptime"]),
        (["-vp", "22", "host", "uptime"], ["uptime"]),
        (["-i", "key", "-o", "BatchMode=yes", "u@h", "journalctl -n 500"], ["journalctl -n 500"]),
        (["-T", "host", "cat", "f"], ["cat", "f"]),
        (["--", "host", "df"], ["df"]),
        (["host"], None),
        (["-p", "22", "host"], None),
        (["-t", "host", "top"], None),
        (["-tt", "host", "top"], None),
        (["-N", "-L", "8080:localhost:80", "host"], None),
        (["-f", "host", "sleep", "60"], None),
        (["-O", "check", "host"], None),
        (["-G", "host"], None),
    ],
)
def test_remote_command(args: list[str], command: list[str] | None) -> None:
    assert remote_command(args) == command
    spec = filters.resolve(["ssh", *args])
    assert (spec is not None) == (command is not None)


@pytest.mark.parametrize(
    ("line", "out"),
    [
        ("ssh host ls -la", "rtk ssh host ls -la"),
        ("ssh -p 2222 deploy@10.0.0.5 'tail -n 500 /var/log/app.log'",
         "rtk ssh -p 2222 deploy@10.0.0.5 'tail -n 500 /var/log/app.log'"),
        ("ssh host", ""),
        ("ssh -p 2222 host", ""),
        ("ssh -t host htop", ""),
        ("ssh -N -L 8080:localhost:80 host", ""),
    ],
)  # fmt: skip
def test_rewrite(line: str, out: str) -> None:
    engine.reset()
    assert (engine.rewrite(line) or "") == out


def test_short_output_prints_raw() -> None:
    limit = int(config.get("limits.passthrough_max_lines"))
    out = "".join(f"line {i}\n" for i in range(limit))
    assert ssh.remote(["ssh", "h", "cmd"], out, 0) is None


def test_long_output_is_folded_with_errors_kept() -> None:
    limit = int(config.get("limits.passthrough_max_lines"))
    lines = [
        f"2026-11-24 07:{i // 60:02d}:{i % 60:02d} worker {i % 7} processed job {i} in {i % 13} ms"
        for i in range(limit * 2)
    ]
    lines.insert(limit, "ERROR: disk /dev/sda1 is full (write failed on /srv/data/x.db)")
    res = ssh.remote(["ssh", "h", "tail", "-n", "500", "app.log"], "\n".join(lines) + "\n", 0)
    assert isinstance(res, Filtered)
    assert res.cut > 0
    assert "ERROR: disk /dev/sda1 is full (write failed on /srv/data/x.db)" in res.text
    assert lines[0] in res.text and lines[-1] in res.text
    assert len(res.text.splitlines()) < len(lines) // 4


def test_long_json_is_not_folded() -> None:
    limit = int(config.get("limits.passthrough_max_lines"))
    out = "[\n" + "".join(f'  {{"id": {i}}},\n' for i in range(limit * 2)) + '  {"id": -1}\n]\n'
    assert ssh.remote(["ssh", "h", "cat", "x.json"], out, 0) is None
