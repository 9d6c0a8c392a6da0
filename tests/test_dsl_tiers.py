"""Project and user TOML filters end to end: tiers, trust, bad files, the rtk commands, tracking."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from helpers import kept_path, loaded, path_with, rtk_argv, stub_tool
from rtk import paths
from rtk.dsl import lookup, trust

FILTER = """\
schema_version = 1

[filters.{name}]
description = "drops noise lines"
match_command = "^{cmd}(\\\\s|$)"
strip_lines_matching = ["^noise"]

[[tests.{name}]]
name = "drops noise"
input = "noise 1\\nkeep me\\nnoise 2\\n"
expected = "{expected}"
"""


def write(d: Path, file: str, name: str = "mine", cmd: str = "mytool", expected: str = "keep me") -> Path:
    d.mkdir(parents=True, exist_ok=True)
    p = d / file
    p.write_text(FILTER.format(name=name, cmd=cmd, expected=expected), encoding="utf-8")
    return p


def user_dir() -> Path:
    return Path(paths.config_dir()) / "filters"


def rtk(
    tmp_path: Path, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    e = dict(os.environ, PATH=path_with(tmp_path / "bin"), **(env or {}))
    return subprocess.run(rtk_argv(*args), cwd=cwd or tmp_path, env=e, capture_output=True, text=True, timeout=60)


@pytest.fixture
def tool(tmp_path: Path) -> Path:
    lines = "".join(f"echo 'noise {i}'\n" for i in range(30))
    stub_tool(tmp_path, "mytool", lines + "echo 'keep me'\nexit 3")
    return tmp_path


def test_user_filter_applies(tool: Path) -> None:
    write(user_dir(), "mine.toml")
    p = rtk(tool, "mytool")
    assert p.returncode == 3
    assert p.stdout.startswith("keep me\n[rtk] mine: 30 of 31 lines hidden\n[rtk] full output: ")
    log = kept_path(p.stdout.splitlines()[-1])
    assert Path(log).read_text().count("noise") == 30


def test_bad_user_filter_is_skipped_with_one_line_and_runs_raw(tool: Path) -> None:
    d = user_dir()
    d.mkdir(parents=True)
    (d / "bad.toml").write_text('schema_version = 1\n[filters.bad]\nmatch_command = "mytool"\n')
    p = rtk(tool, "mytool")
    assert p.returncode == 3
    assert "noise 29" in p.stdout and "keep me" in p.stdout
    errs = [ln for ln in p.stderr.splitlines() if ln]
    assert len(errs) == 1 and "bad.toml: filter bad: match_command: every alternative must start with ^" in errs[0]


def test_project_filter_needs_trust_then_stops_when_changed(tool: Path) -> None:
    project = tool / "proj"
    f = write(project / ".rtk" / "filters", "p.toml", name="proj-filter")
    p = rtk(tool, "mytool", cwd=project)
    assert "noise 3" in p.stdout
    assert p.stderr.count("\n") == 1 and "project filter proj-filter not applied" in p.stderr
    assert "not trusted" in p.stderr and "rtk trust" in p.stderr

    no_tty = rtk(tool, "trust", cwd=project)
    assert no_tty.returncode == 2 and "rtk trust --yes" in no_tty.stderr
    ok = rtk(tool, "trust", "--yes", cwd=project)
    assert ok.returncode == 0 and "proj-filter" in ok.stdout and "trusted 1 file" in ok.stdout
    p = rtk(tool, "mytool", cwd=project)
    assert p.stdout.startswith("keep me\n[rtk] proj-filter: 30 of 31 lines hidden") and not p.stderr

    f.write_text(f.read_text() + "\n# edited\n")
    p = rtk(tool, "mytool", cwd=project)
    assert "noise 3" in p.stdout
    assert "changed since it was trusted" in p.stderr and p.stderr.count("\n") == 1
    listing = rtk(tool, "trust", "--list", cwd=project)
    assert "changed (not applied)" in listing.stdout

    gain = rtk(tool, "gain", cwd=project)
    assert "untrusted project filters skipped (2 runs" in gain.stdout
    assert "proj-filter" in gain.stdout

    assert rtk(tool, "untrust", cwd=project).stdout.strip() == "untrusted 1 file"
    assert "untrusted" in rtk(tool, "trust", "--list", cwd=project).stdout


def test_ci_override_only_in_ci(tool: Path) -> None:
    project = tool / "proj"
    write(project / ".rtk" / "filters", "p.toml")
    outside = rtk(tool, "mytool", cwd=project, env={trust.ENV_VAR: "1"})
    assert "noise 3" in outside.stdout and "ignored outside CI" in outside.stderr
    inside = rtk(tool, "mytool", cwd=project, env={trust.ENV_VAR: "1", "CI": "true"})
    assert inside.stdout.startswith("keep me\n") and not inside.stderr


def test_project_tier_wins_over_user_and_builtin(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    write(user_dir(), "u.toml", name="user-df", cmd="df")
    assert lookup.filter_name(["df", "-h"], str(project)) == "user-df"
    write(project / ".rtk" / "filters", "p.toml", name="proj-df", cmd="df")
    assert lookup.filter_name(["df", "-h"], str(project)) == "user-df"  # untrusted: not applied
    trust.save(
        {
            trust.canonical(str(project / ".rtk" / "filters" / "p.toml")): trust.sha256_hex(
                (project / ".rtk" / "filters" / "p.toml").read_bytes()
            )
        }
    )
    assert lookup.filter_name(["df", "-h"], str(project)) == "proj-df"


def test_no_toml_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    assert lookup.has_filter(["docker", "ps"])
    monkeypatch.setenv("RTK_NO_TOML", "1")
    assert not lookup.has_filter(["docker", "ps"])


def test_parse_cache_avoids_reparsing(tmp_path: Path) -> None:
    write(user_dir(), "mine.toml")
    assert lookup.filter_name(["mytool"]) == "mine"
    assert os.path.exists(os.path.join(paths.data_dir(), "dsl.cache"))
    from rtk.dsl import tiers

    tiers._cache = None
    (infos,) = [tiers.load_tier("user")]
    assert not infos[0].fresh and infos[0].defs[0]["name"] == "mine"


def test_verify_passes_and_fails_with_a_diff(tmp_path: Path) -> None:
    ok = rtk(tmp_path, "verify")
    assert ok.returncode == 0, ok.stdout[-500:]
    assert "0 failing" in ok.stdout
    write(user_dir(), "mine.toml", expected="something else")
    bad = rtk(tmp_path, "verify", "mine")
    assert bad.returncode == 1
    assert "FAIL mine: drops noise" in bad.stdout
    assert "-something else" in bad.stdout and "+keep me" in bad.stdout
    one = rtk(tmp_path, "verify", "docker-ps")
    assert one.returncode == 0 and "PASS docker-ps" in one.stdout and "mine" not in one.stdout
    f = write(tmp_path / "elsewhere", "x.toml", name="x-filter")
    assert rtk(tmp_path, "verify", str(f)).returncode == 0
    missing = rtk(tmp_path, "verify", "nosuch")
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1


def test_filters_list_show_validate(tmp_path: Path) -> None:
    write(user_dir(), "shadow.toml", name="my-git", cmd="git")
    listing = rtk(tmp_path, "filters", "list")
    assert "my-git" in listing.stdout and "[shadowed by rtk git]" in listing.stdout
    assert "docker-ps" in listing.stdout
    show = rtk(tmp_path, "filters", "show", "terraform-plan")
    assert show.returncode == 0 and "[filters.terraform-plan]" in show.stdout and "match_output" in show.stdout
    val = rtk(tmp_path, "filters", "validate")
    assert val.returncode == 0
    assert "my-git" in val.stdout and "shadowed: `rtk git` has a built-in Python filter" in val.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('schema_version = 1\n[filters.b]\nmatch_command = "^b("\nhead_lines = -1\n')
    res = rtk(tmp_path, "filters", "validate", str(bad))
    assert res.returncode == 1
    assert "filter b: match_command: bad regex" in res.stdout and "head_lines" in res.stdout
    assert rtk(tmp_path, "filters", "frobnicate").returncode == 2
    assert rtk(tmp_path, "filters", "show", "nope").stderr.startswith("rtk: filters show: no TOML filter")


@pytest.mark.parametrize("cmd", ["verify", "filters", "trust", "untrust"])
def test_help_and_bad_options_are_one_line(tmp_path: Path, cmd: str) -> None:
    assert rtk(tmp_path, cmd, "--help").returncode == 0
    p = rtk(tmp_path, cmd, "--bogus")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_trust_without_files_is_a_one_line_error(tmp_path: Path) -> None:
    p = rtk(tmp_path, "trust", "--yes")
    assert p.returncode == 2 and "no project filter files" in p.stderr


def test_python_filtered_commands_never_load_the_dsl(tmp_path: Path) -> None:
    stub_tool(tmp_path, "git", "printf 'On branch main\\nnothing to commit, working tree clean\\n'")
    assert not {m for m in loaded(tmp_path, "git", "status") if m.startswith("rtk.dsl")}


def test_builtin_toml_filter_runs_without_parsing_toml(tmp_path: Path) -> None:
    stub_tool(tmp_path, "docker", "printf 'CONTAINER ID   IMAGE     NAMES\\nabc            busybox   c1\\n'")
    mods = loaded(tmp_path, "docker", "ps")
    assert {"rtk.dsl.engine", "rtk.dsl._builtin"} <= mods
    assert not mods & {"tomllib", "rtk.dsl.schema", "rtk.dsl.tiers", "json", "sqlite3", "subprocess"}


def test_unknown_tool_costs_no_regex(tmp_path: Path) -> None:
    stub_tool(tmp_path, "sometool", "echo hi")
    mods = loaded(tmp_path, "sometool")
    assert not mods & {"re", "tomllib", "rtk.dsl.engine", "rtk.dsl.tiers", "rtk.dsl._builtin"}
