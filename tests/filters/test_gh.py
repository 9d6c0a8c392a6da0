"""gh: which forms are filtered, format flags pass through, ``gh pr diff`` keeps every hunk."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from fixturelib import FIXTURES, keeper, load
from helpers import path_with, rtk_argv, stub_tool
from rtk import filters, pipeline
from rtk.filters.gh import gh

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    "argv",
    [
        ["gh", "pr", "list", "--json", "number,title"],
        ["gh", "pr", "list", "--json=number", "--jq", ".[].number"],
        ["gh", "pr", "view", "12", "--json", "title", "-q", ".title"],
        ["gh", "issue", "list", "--template", "{{.title}}"],
        ["gh", "pr", "diff", "12", "--web"],
        ["gh", "pr", "diff", "12", "-w"],
        ["gh", "pr", "diff", "12", "--name-only"],
        ["gh", "pr", "diff", "12", "--patch"],
        ["gh", "pr", "diff", "--help"],
        ["gh", "api", "repos/cli/cli", "-q", ".name"],
        ["gh", "api", "repos/cli/cli", "--template", "{{.name}}"],
    ],
)
def test_format_flags_help_and_other_diff_forms_run_raw(argv: list[str]) -> None:
    assert gh.select(argv) is None
    assert filters.resolve(argv) is None


@pytest.mark.parametrize(
    "argv",
    [
        ["gh", "pr", "diff", "12"],
        ["gh", "pr", "diff"],
        ["gh", "-R", "cli/cli", "pr", "diff", "12"],
        ["gh", "pr", "--repo", "cli/cli", "diff", "12"],
        ["gh", "pr", "diff", "--color", "never", "12"],
        ["/usr/bin/gh", "pr", "diff", "12", "--repo=cli/cli"],
    ],
)
def test_pr_diff_is_filtered_wherever_the_repo_flag_sits(argv: list[str]) -> None:
    spec = filters.resolve(argv)
    assert spec is not None and spec.name == "gh-pr-diff"


@pytest.mark.parametrize(("sub", "name"), [
    (["pr", "list"], "gh-pr-list"), (["pr", "view", "3"], "gh-pr-view"), (["run", "view", "5", "--log-failed"], "gh-run-log"),
    (["issue", "list"], "gh-issue-list"), (["repo", "view"], "gh-repo-view"), (["release", "list"], "gh-release-list"),
    (["api", "user"], "gh-api")])  # fmt: skip
def test_forms_captured_against_the_local_api_are_filtered(sub: list[str], name: str) -> None:
    # these ran raw while no capture existed; tests/fixtures/gh-* now hold real gh 2.23 output of each
    spec = filters.resolve(["gh", *sub])
    assert spec is not None and spec.name == name


def test_pr_diff_renders_a_real_diff_like_the_git_diff_filter() -> None:
    """The input is real ``git diff`` output (tests/fixtures/git-diff/big): the format gh pr diff prints."""
    fx = load(FIXTURES / "git-diff" / "big.toml")
    argv = ["gh", "pr", "diff", "12"]
    out = pipeline.apply("gh-pr-diff", gh.pr_diff, argv, fx.raw, 0, keeper)
    ref = pipeline.apply("git-diff", filters.resolve(fx.argv).filter, fx.argv, fx.raw, 0, keeper)  # type: ignore[arg-type]
    assert out.mode == "filtered"
    assert out.text.split("[rtk]")[0] == ref.text.split("[rtk]")[0]
    hunks = [ln for ln in fx.raw.decode().splitlines() if ln.startswith("@@ ")]
    assert len(hunks) >= 7
    for h in hunks:
        assert h in out.text, h
    # every hunk is kept whole (lesson 1): only the per-file header lines shrink (it saved 45% when the
    # context lines were condensed; about 6% now)
    assert out.out_tokens < out.raw_tokens * 0.96
    body = [ln for ln in fx.raw.decode().splitlines() if ln[:1] in " +-" and not ln.startswith(("--- ", "+++ "))]
    assert [ln for ln in out.text.splitlines() if ln in body] == body


def test_pr_diff_nonzero_exit_is_an_error_not_differences() -> None:
    # git diff exits 1 when it found differences; gh exits 1 on errors: never parse that as a diff
    fx = load(FIXTURES / "git-diff" / "big.toml")
    assert gh.pr_diff(["gh", "pr", "diff"], fx.raw.decode(), 1) is None
    assert gh.pr_diff(["gh", "pr", "diff"], fx.raw.decode(), 4) is None


def _rtk_gh(tmp_path: Path, body: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    bindir = stub_tool(tmp_path, "gh", body)
    env = dict(os.environ, PATH=path_with(bindir), HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    return subprocess.run(rtk_argv("gh", *args), capture_output=True, env=env, timeout=60)


@pytest.mark.integration
def test_json_output_passes_through_byte_for_byte(tmp_path: Path) -> None:
    """The shared capture of ``gh pr list --json ...`` comes back unchanged, exit code kept."""
    data = DATA / "shared-gh-pr-list-json_rtk.json"
    p = _rtk_gh(tmp_path, f'cat "{data}"; exit 0', "pr", "list", "--json", "author,number,state,title,updatedAt")
    assert p.returncode == 0
    assert p.stdout == data.read_bytes()


@pytest.mark.integration
def test_pr_diff_error_keeps_message_and_exit_code(tmp_path: Path) -> None:
    raw = FIXTURES / "gh-pr-diff" / "not-logged-in.raw"
    p = _rtk_gh(tmp_path, f'cat "{raw}" >&2; exit 4', "pr", "diff", "12")
    assert p.returncode == 4
    text = (p.stdout + p.stderr).decode()
    assert "To get started with GitHub CLI, please run:  gh auth login" in text
    assert "populate the GH_TOKEN environment variable" in text


def test_api_minified_list_is_shown_as_a_table_with_every_key() -> None:
    """GitHub sends minified JSON; the real response (tests/fixtures/gh-api/issues) printed raw before.

    The issues become a table whose shared and derived values are said once (docs/listings.md);
    tests/filters/test_json_rowhead.py proves every value reads back from such a table.
    """
    import json

    from rtk.filters.gh.api import api

    fx = load(FIXTURES / "gh-api" / "issues.toml")
    raw = fx.raw.decode()
    out = api(fx.argv, raw, 0)
    assert out is not None
    issues = json.loads(raw)
    lines = out.splitlines()
    assert (
        lines[0].startswith("[5 rows] ") and lines[1].startswith(" every row: ") and lines[2].startswith(" per row: ")
    )
    assert len(lines) == 3 + len(issues) == 8
    head = "\n".join(lines[:3])
    for line, issue in zip(lines[3:], issues, strict=True):
        assert line.startswith(f" {issue['id']}|{issue['number']}|{issue['title']}|")
        for key, value in issue.items():
            assert key in head, key
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                assert str(value) in line or f"{key} {value}" in head or f"{key} = " in head, (key, value)
    assert api(fx.argv, raw, 1) is None  # an error body: raw
