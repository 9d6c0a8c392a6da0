"""The never-worse baseline is what the user's command prints: no injected flags, secrets always masked."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import rtk_argv
from rtk import pipeline, tokens
from rtk.filterapi import Filtered


def _rtk(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(rtk_argv(*args), cwd=cwd, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)


def _raw(*args: str, cwd: Path) -> bytes:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, timeout=60, stdin=subprocess.DEVNULL).stdout


def _no_keep(argv: list[str], raw: bytes) -> str | None:
    return None


# --- the pipeline ------------------------------------------------------------------------


def test_guard_prints_and_measures_the_baseline_not_the_raw_output() -> None:
    def f(argv: list[str], output: str, code: int) -> Filtered:
        return Filtered("a much longer compact form than either\n", 0, "short\n")

    out = pipeline.apply("t", f, ["t"], b"injected:1:short\n", 0, _no_keep)
    assert out.mode == "raw-guard" and out.text == "short\n"
    # savings are counted against what the user's command prints (the shaped estimate, as tracking records)
    assert out.raw_tokens == tokens.estimate_shaped("short\n") < tokens.estimate_shaped("injected:1:short\n")


def test_filtered_text_smaller_than_the_baseline_is_printed() -> None:
    def f(argv: list[str], output: str, code: int) -> Filtered:
        return Filtered("x\n", 0, "the baseline, longer than the text\n")

    out = pipeline.apply("t", f, ["t"], b"raw output that is longer still, by a good margin\n", 0, _no_keep)
    assert out.mode == "filtered" and out.text == "x\n"


def test_cut_without_recovery_file_falls_back_to_the_baseline() -> None:
    def f(argv: list[str], output: str, code: int) -> Filtered:
        return Filtered("x\n+9 more\n", 9, "SECRET=****\n")

    out = pipeline.apply("t", f, ["t"], b"SECRET=hunter2\n", 0, _no_keep)
    assert out.mode == "raw-guard" and out.text == "SECRET=****\n"


# --- env: masking always applies -----------------------------------------------------------


def test_env_short_listing_stays_masked_when_compaction_does_not_pay() -> None:
    p = _rtk("env", "-i", "DB_PASSWORD=s3cr3t", "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123", "A=1")
    out = p.stdout.decode()
    assert p.returncode == 0
    assert "s3cr3t" not in out and "ghp_" not in out
    assert out == "DB_PASSWORD=****\nGITHUB_TOKEN=****\nA=1\n"  # the listing in its own order, masked


def test_env_url_password_masked_in_the_baseline() -> None:
    p = _rtk("env", "-i", "B=2", "DATABASE_URL=postgres://app:Pw0rd9@db/prod")
    assert p.returncode == 0 and b"Pw0rd9" not in p.stdout and b"postgres://app:****@db/prod" in p.stdout


def test_env_lines_that_are_not_name_value_are_masked_too() -> None:
    # A first line the listing reader does not take (a name env accepts but a shell could not)
    # used to make the filter give up, and the raw output printed the password in clear.
    from rtk.filters.files.env import env

    out = "weird name=postgres://app:Pw0rd9@db/prod\nA=1\nAPI_TOKEN=tok_live_123456\n"
    res = env(["env"], out, 0)
    assert "Pw0rd9" not in res.text and "tok_live_123456" not in res.text
    assert res.baseline is not None and "Pw0rd9" not in res.baseline and "tok_live_123456" not in res.baseline
    assert "weird name=postgres://app:****@db/prod" in res.text and "A=1" in res.text
    only = env(["env"], "not a listing: postgres://app:Pw0rd9@db/prod\n", 0)
    assert only.text == only.baseline == "not a listing: postgres://app:****@db/prod\n"


# --- grep / rg: the user's command had no -n -H ---------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_text("29\nx\n30\n")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "b.txt").write_text("29\n")
    return tmp_path


GREP_CASES = [
    ["grep", "29", "a.txt"],
    ["grep", "-e", "30", "-e", "29", "a.txt"],
    ["grep", "-n", "29", "a.txt"],
    ["grep", "-r", "29", "a.txt"],
    ["grep", "-r", "29", "d"],
    ["grep", "29", "a.txt", "d/b.txt"],
    ["grep", "-C1", "x", "a.txt"],
]


@pytest.mark.parametrize("argv", GREP_CASES, ids=[" ".join(a) for a in GREP_CASES])
def test_grep_never_prints_more_than_the_users_command(tree: Path, argv: list[str]) -> None:
    raw = _raw(*argv, cwd=tree)
    p = _rtk(*argv, cwd=tree)
    assert p.returncode == 0
    assert p.stdout == raw  # short outputs: the compact form does not pay, so exactly what grep prints


RG_CASES = [
    ["rg", "29", "a.txt"],
    ["rg", "-e", "30", "-e", "29", "a.txt"],
    ["rg", "29", "d"],
    ["rg", "-n", "29", "a.txt"],
]


@pytest.mark.skipif(shutil.which("rg") is None, reason="ripgrep is not installed")
@pytest.mark.parametrize("argv", RG_CASES, ids=[" ".join(a) for a in RG_CASES])
def test_rg_never_prints_more_than_the_users_command(tree: Path, argv: list[str]) -> None:
    raw = _raw(*argv, cwd=tree)
    p = _rtk(*argv, cwd=tree)
    assert p.returncode == 0 and p.stdout == raw


def test_grep_still_compacts_long_output(tree: Path) -> None:
    (tree / "many.txt").write_text("".join(f"TODO item {i}: check the handler\n" for i in range(60)))
    raw = _raw("grep", "-r", "TODO", ".", cwd=tree)
    p = _rtk("grep", "-r", "TODO", ".", cwd=tree)
    assert p.returncode == 0 and b"./many.txt (60):\nTODO item 0: check" in p.stdout and len(p.stdout) < len(raw)
    assert b"TODO item 59: check the handler\n" in p.stdout  # nothing cut below the budget


def test_grep_of_one_file_prints_what_grep_prints(tree: Path) -> None:
    """No file name, no line number, no header, no summary: the user asked for none (issue 14, defect 7)."""
    (tree / "many.txt").write_text("".join(f"    TODO item {i}: check the handler\n" for i in range(60)))
    raw = _raw("grep", "TODO", "many.txt", cwd=tree)
    p = _rtk("grep", "TODO", "many.txt", cwd=tree)
    assert p.returncode == 0 and p.stdout == raw


# --- ls: the user's command had no -p ------------------------------------------------------


def test_ls_short_listing_is_plain_ls(tmp_path: Path) -> None:
    for d in ("docs", "src"):
        (tmp_path / d).mkdir()
    for f in ("a.txt", "b.txt"):
        (tmp_path / f).write_text("")
    raw = _raw("ls", cwd=tmp_path)
    assert len(raw) == 21
    p = _rtk("ls", cwd=tmp_path)
    assert p.returncode == 0 and p.stdout == raw  # not 23 bytes with "docs/" and "src/"
    p = _rtk("ls", "-d", "docs/", "src", "a.txt", cwd=tmp_path)
    assert p.stdout == _raw("ls", "-d", "docs/", "src", "a.txt", cwd=tmp_path)
