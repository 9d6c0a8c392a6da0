"""gh: which form reaches which filter, and which command lines the hook rewrites (non-interactive forms only)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from helpers import path_with, rtk_argv, stub_tool
from rtk import filters
from rtk.filters.gh import gh
from rtk.rewrite import engine


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["gh", "pr", "list", "--state", "all"], "gh-pr-list"),
        (["gh", "issue", "list", "--label", "bug"], "gh-issue-list"),
        (["gh", "run", "list"], "gh-run-list"),
        (["gh", "run", "list", "-w", "CI"], "gh-run-list"),  # -w is --workflow here, not --web
        (["gh", "release", "list"], "gh-release-list"),
        (["gh", "pr", "view", "221"], "gh-pr-view"),
        (["gh", "pr", "view", "221", "--comments"], "gh-pr-view"),
        (["gh", "issue", "view", "304"], "gh-issue-view"),
        (["gh", "repo", "view", "acme/widgets"], "gh-repo-view"),
        (["gh", "pr", "checks", "221"], "gh-pr-checks"),
        (["gh", "run", "view", "9017"], "gh-run-view"),
        (["gh", "run", "view", "9017", "--log-failed"], "gh-run-log"),
        (["gh", "run", "view", "--log", "--job", "50119"], "gh-run-log"),
        (["gh", "-R", "acme/widgets", "api", "repos/acme/widgets"], "gh-api"),
    ],
)
def test_each_form_reaches_its_filter(argv: list[str], name: str) -> None:
    spec = filters.resolve(argv)
    assert spec is not None and spec.name == name


@pytest.mark.parametrize(
    "argv",
    [
        ["gh", "pr", "view", "221", "-w"],
        ["gh", "pr", "view", "221", "--web"],
        ["gh", "run", "view", "9017", "-w"],
        ["gh", "pr", "checks", "221", "--watch"],
        ["gh", "pr", "list", "-t", "{{.title}}"],
        ["gh", "issue", "view", "3", "--json", "title"],
        ["gh", "run", "watch", "9017"],
        ["gh", "pr", "status"],
        ["gh", "pr", "merge", "3"],
    ],
)
def test_web_watch_template_and_unknown_forms_run_raw(argv: list[str]) -> None:
    assert gh.select(argv) is None


@pytest.mark.parametrize(
    "command",
    [
        "gh pr list", "gh pr list --state all", "gh pr view 221", "gh pr checks 221", "gh pr diff 221",
        "gh issue list --label bug", "gh issue view 304 --comments", "gh run list", "gh run list -w CI",
        "gh run view 9017 --log-failed", "gh repo view", "gh release list", "gh api repos/acme/widgets",
        "gh -R acme/widgets pr list", "gh pr create --fill", "gh pr create --title x --body y", "gh pr status",
    ],
)  # fmt: skip
def test_non_interactive_forms_are_rewritten(command: str) -> None:
    assert engine.rewrite(command) == "rtk " + command


@pytest.mark.parametrize(
    "command",
    [
        "gh pr create", "gh pr create --title x", "gh pr create --fill --web", "gh auth login", "gh auth status",
        "gh pr merge 3", "gh pr checkout 3", "gh issue create", "gh run watch 9017", "gh pr checks 221 --watch",
        "gh pr view 221 --web", "gh pr view 221 -w", "gh pr list --json number", "gh api user -q .login",
        "gh issue list -t '{{.title}}'", "gh repo clone acme/widgets", "gh release create v1",
    ],
)  # fmt: skip
def test_prompting_watching_and_machine_readable_forms_stay(command: str) -> None:
    assert engine.rewrite(command) is None, command


def test_filtered_and_tracked_forms_are_credited_apart() -> None:
    assert engine.classify("gh pr checks 3").savings == 60
    assert engine.classify("gh run view 9 --log-failed").savings == 60
    assert engine.classify("gh pr status").savings == 0  # tracked, rtk does not shorten it
    assert engine.classify("gh pr create --fill").savings == 0


@pytest.mark.integration
def test_a_tracked_form_without_a_filter_prints_as_is_with_its_exit_code(tmp_path: Path) -> None:
    bindir = stub_tool(tmp_path, "gh", "printf 'Current branch\\n  #221  Add rate limiting [feat/x]\\n'; exit 1")
    env = dict(os.environ, PATH=path_with(bindir), HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    p = subprocess.run(rtk_argv("gh", "pr", "status"), capture_output=True, env=env, timeout=60)
    assert p.returncode == 1
    assert p.stdout.decode() == "Current branch\n  #221  Add rate limiting [feat/x]\n"
