"""ssh family: only non-interactive HOST COMMAND forms are filtered; short output raw, long output folded."""

from __future__ import annotations

from pathlib import Path

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


FIXTURES = Path(__file__).parent.parent / "fixtures"


@pytest.mark.parametrize(
    ("words", "argv"),
    [
        (["dpkg", "-l"], ["dpkg", "-l"]),
        (["journalctl -n 500"], ["journalctl", "-n", "500"]),
        (["git", "-C", "'/srv/my app'", "status"], ["git", "-C", "/srv/my app", "status"]),
        (["dpkg -l | grep ssh"], None),
        (["ls", "/var/log/*.log"], None),
        (["df", "-h;", "reboot"], None),
        (["echo", "$HOME"], None),
        (["LC_ALL=C", "ls"], None),
        (["ls", "'unterminated"], None),
    ],
)
def test_inner_argv(words: list[str], argv: list[str] | None) -> None:
    assert ssh.inner_argv(words) == argv


def test_remote_dpkg_list_goes_through_the_dpkg_filter() -> None:
    raw = (FIXTURES / "ssh" / "package-list.raw").read_text(encoding="utf-8")
    res = ssh.remote(["ssh", "-F", "cfg", "host", "dpkg", "-l"], raw, 0)
    assert res is not None
    text = res if isinstance(res, str) else res.text
    assert "Desired=Unknown" not in text and "+++-===" not in text
    rows = [ln.split() for ln in raw.splitlines() if ln.startswith("ii  ")]
    assert len(rows) == 928
    for status, name, version, arch, *_ in rows:
        assert f"\n{status} {name} {version} {arch} " in text, name
    # the same through one quoted word, as ssh joins words for the remote shell
    again = ssh.remote(["ssh", "host", "dpkg -l"], raw, 0)
    assert (again if isinstance(again, str) else again.text if again else "") == text


def test_ssh_failure_is_not_read_as_the_remote_output() -> None:
    out = "ssh: connect to host 10.0.0.5 port 22: Connection refused\n"
    assert ssh.remote(["ssh", "host", "dpkg", "-l"], out, 255) is None


def test_remote_command_without_a_safe_filter_keeps_the_generic_path() -> None:
    # `git log` runs with an argv of rtk's own locally (--decorate): its filter is not used remotely
    assert ssh._inner(["ssh", "host", "git", "log"], "commit 0123abc\n", 0) is None
    assert ssh._inner(["ssh", "host", "uname", "-a"], "Linux h 6.1.0 x86_64 GNU/Linux\n", 0) is None


def test_remote_git_status_goes_through_the_git_status_filter() -> None:
    raw = (FIXTURES / "ssh" / "remote-git-status.raw").read_text(encoding="utf-8")
    res = ssh.remote(["ssh", "host", "git", "-C", "/srv/app", "status"], raw, 0)
    text = res if isinstance(res, str) else res.text if res else ""
    assert '(use "git' not in text
    for path in ("requirements.txt", "src/app/util.py -> src/app/helpers.py", "README.md", "config/settings.py"):
        assert path in text
    assert "config/local.py" in text and "nohup.out" in text


def test_remote_ls_long_goes_through_the_ls_filter_short_forms_do_not() -> None:
    """ls -l keeps modes, owners, exact sizes and dates now: the ls filter reads a remote listing.

    The short forms need the -p rtk adds locally, which a remote ls lacks: generic path.
    """
    listing = (FIXTURES / "ssh" / "remote-ls-etc.raw").read_text(encoding="utf-8")
    res = ssh._inner(["ssh", "host", "ls", "-la", "/etc"], listing, 0)
    assert isinstance(res, Filtered)
    rows = res.text.splitlines()
    assert rows[0].startswith("[unless shown per entry: owner root:root, dirs rwxr-xr-x, files rw-r--r--")
    assert "shadow  650B rw-r----- root:shadow Nov 24 07:50" in rows
    assert "postgresql/  postgres:postgres May 20 2026" in rows
    assert "mtab -> /proc/mounts  Oct 17 01:49" in rows
    assert "passwd  1267B Nov 24 07:50" in rows
    names = "".join(f"{ln.split()[-1]}\n" for ln in listing.splitlines()[3:])  # what `ls -A /etc` prints
    assert ssh._inner(["ssh", "host", "ls", "-A", "/etc"], names, 0) is None
    assert ssh._inner(["ssh", "host", "ls", "/etc"], names, 0) is None


def test_remote_ls_long_in_another_locale_keeps_the_generic_path() -> None:
    """A remote locale's dates ("24. Nov 07:50") are not read as part of the names: the ls filter declines."""
    listing = (FIXTURES / "ssh" / "remote-ls-etc.raw").read_text(encoding="utf-8")
    german = listing.replace("Nov 24", "24. Nov").replace("May 20", "20. Mai")
    assert ssh._inner(["ssh", "host", "ls", "-la", "/etc"], german, 0) is None
    assert ssh.remote(["ssh", "host", "ls", "-la", "/etc"], german, 0) is None  # a padded table: whole
