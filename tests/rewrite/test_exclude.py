"""hooks.exclude_commands: one choke point, tested against every rewrite path (lesson 7)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rwhelpers import AllRegistry, SetRegistry

from rtk import config
from rtk.rewrite import engine


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    saved = engine.registry
    engine.registry = AllRegistry()
    engine.reset()
    config.reset()
    yield
    engine.registry = saved
    engine.reset()
    config.reset()


def configure(exclude: list[str], transparent: list[str] | None = None) -> None:
    path = Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["[hooks]", "exclude_commands = [" + ", ".join(_q(e) for e in exclude) + "]"]
    if transparent is not None:
        lines.append("transparent_prefixes = [" + ", ".join(_q(t) for t in transparent) + "]")
    path.write_text("\n".join(lines) + "\n")
    engine.reset()
    config.reset()


def _q(s: str) -> str:
    return "'" + s + "'"  # TOML literal string: backslashes stay as written


@pytest.mark.parametrize(
    ("exclude", "line", "expected"),
    [
        # plain commands, with a word boundary
        (["git push"], "git push origin", None),
        (["git push"], "git status", "rtk git status"),
        (["git"], "git status", None),
        (["gi"], "git status", "rtk git status"),
        (["git  push"], "git push", None),
        # env prefixes and process wrappers are peeled first
        (["git push"], "FOO=1 git push", None),
        (["git push"], 'A="x y" env B=2 git push', None),
        (["git push"], "timeout 5 nice -n 2 git push", None),
        (["git push"], "time git push", None),
        # absolute paths and git global options resolve to the tool
        (["git push"], "/usr/bin/git push", None),
        (["git push"], "git -C repo push", None),
        (["git push"], "git --no-pager -c a=b push", None),
        # rtk read fast paths
        (["head"], "head -5 a.txt", None),
        (["tail"], "tail -n 3 a.txt", None),
        (["cat"], "cat a.txt", None),
        (["head"], "cat a.txt", "rtk read a.txt"),
        (["head"], "FOO=1 head -5 a.txt", None),
        # module and wrapper forms, matched on the raw and the resolved form
        (["pytest"], "python -m pytest -x", None),
        (["python -m pytest"], "python3 -m pytest", "rtk python3 -m pytest"),
        (["python3 -m pytest"], "python3 -m pytest", None),
        (["pytest"], "uv run pytest", None),
        (["pytest"], "uv run python -m pytest", None),
        (["pytest"], "poetry run pytest -q", None),
        (["rspec"], "bundle exec rspec", None),
        (["tsc"], "npx tsc", None),
        (["eslint"], "pnpm exec eslint .", None),
        (["uv run"], "uv run pytest", None),
        (["uv run pytest"], "uv run mypy", "uv run rtk mypy"),
        # TOML-backed rules
        (["make"], "make -j4", None),
        (["terraform plan"], "terraform plan", None),
        # compound lines and pipelines: only the excluded segment stays
        (["git push"], "git status && git push", "rtk git status && git push"),
        (["git log"], "git log | head", None),
        (["grep"], "ps aux | grep x", None),
        # regular expressions
        (["^git (push|pull)"], "git pull --rebase", None),
        (["^git (push|pull)"], "git fetch", "rtk git fetch"),
        (["^.*--force"], "git push --force", None),
        (["^(broken"], "git status", "rtk git status"),
    ],
)
def test_exclusion(exclude: list[str], line: str, expected: str | None) -> None:
    configure(exclude)
    assert engine.rewrite(line) == expected


def test_exclusion_in_the_wrapper_fallback_path() -> None:
    # pytest is not served, uv is: `rtk uv run pytest`, still excluded by "pytest".
    engine.registry = SetRegistry(frozenset({"uv"}), frozenset())
    configure([])
    assert engine.rewrite("uv run pytest") == "rtk uv run pytest"
    configure(["pytest"])
    assert engine.rewrite("uv run pytest") is None


def test_exclusion_in_the_alt_command_path() -> None:
    engine.registry = SetRegistry(frozenset(), frozenset({"lint"}))
    configure([])
    assert engine.rewrite("eslint .") == "rtk lint eslint ."
    configure(["eslint"])
    assert engine.rewrite("eslint .") is None


def test_exclusion_in_the_toml_fallback_path() -> None:
    engine.registry = SetRegistry(frozenset(), frozenset(), frozenset({"mytool"}))
    configure([])
    assert engine.rewrite("mytool run") == "rtk mytool run"
    configure(["mytool"])
    assert engine.rewrite("mytool run") is None


def test_exclusion_decision_and_classification() -> None:
    configure(["git push"])
    d = engine.decide("git push")
    assert (d.rewritten, d.verdict, d.exit_code) == (None, "none", 1)
    assert "exclude" in d.reason
    c = engine.classify("git push")
    assert c.kind == "ignored" and "exclude" in c.reason


def test_transparent_prefixes() -> None:
    configure([], ["direnv exec ."])
    assert engine.rewrite("direnv exec . git status") == "direnv exec . rtk git status"
    configure(["git status"], ["direnv exec ."])
    assert engine.rewrite("direnv exec . git status") is None


def test_no_config_file_means_no_exclusions(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    original: Callable[..., object] = config.load
    monkeypatch.setattr(config, "load", lambda *a, **k: calls.append("load") or original(*a, **k))
    assert engine.rewrite("git push") == "rtk git push"
    assert calls == []  # the config module is not even consulted


@pytest.mark.parametrize(
    ("exclude", "line", "expected"),
    [
        (["python3 scripts/import.py"], "python3 scripts/import.py --all", None),
        (["python3"], "python3 x.py", None),
        (["python3 other.py"], "python3 x.py", "rtk run python3 x.py"),
        (["./run.sh"], "./run.sh", None),
        (["bash deploy.sh"], "bash deploy.sh prod", None),
        (["^node .*seed"], "node scripts/seed.js", None),
        ([], "node scripts/seed.js", "rtk run node scripts/seed.js"),
        (["uv run script.py"], "uv run script.py --all", None),
        (["uv run"], "uv run python x.py", None),
        (["uv run other.py"], "uv run script.py", "rtk run uv run script.py"),
    ],
)
def test_exclude_commands_opts_scripts_out(exclude: list[str], line: str, expected: str | None) -> None:
    """Issue 15: script runs (rtk run) pass the same choke point as every other rewrite."""
    configure(exclude)
    assert engine.rewrite(line) == expected


def test_a_catastrophic_exclude_regex_never_hangs_the_rewrite() -> None:
    """^git status (a+)+$ backtracks for minutes on `git status aaa...!`; the rewrite answers at once and,
    as the expression cannot be searched in bounded time, leaves the command as written (the opt-out holds)."""
    import time

    configure(["^git status (a+)+$"])
    t0 = time.monotonic()
    assert engine.rewrite("git status " + "a" * 40 + "!") is None
    assert engine.rewrite("git log -3") is None  # refused: every command is left alone, never one too many
    assert time.monotonic() - t0 < 2


def test_a_bounded_exclude_regex_still_selects() -> None:
    configure(["^git (push|pull)( --force)?$", "^ls .*tmp"])
    assert engine.rewrite("git push") is None and engine.rewrite("ls -la /tmp") is None
    assert engine.rewrite("git status") == "rtk git status"


def test_config_names_an_exclude_regex_it_cannot_search() -> None:
    from rtk import config

    _, problems = config.validate({"hooks": {"exclude_commands": ["^git (a+)+$", "git rebase"]}}, "c.toml")
    assert problems == [
        "rtk: config c.toml: hooks.exclude_commands: ^git (a+)+$ cannot be searched in bounded time"
        " (a quantifier applies to more than one character (nested or grouped repetition));"
        " every command is left as written while it is there"
    ]
