"""just family: which forms are filtered, how a recipe run is read (marks, failures, delegation), --list, rewrite."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.helpers import rtk_argv

from rtk import filters
from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.just import just, recipes
from rtk.rewrite import engine

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
M = recipes.MARK


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["just"], "just"),
        (["just", "build"], "just"),
        (["just", "test", "-v", "-n", "4"], "just"),  # options after a recipe are the recipe's arguments
        (["just", "-f", "other.just", "build"], "just"),
        (["just", "--justfile", "-n", "build"], "just"),  # -n is the value of --justfile
        (["just", "--set", "python", "-q", "test"], "just"),  # --set takes two values
        (["just", "-d", ".", "--yes", "clean"], "just"),
        (["just", "--list"], "just-list"),
        (["just", "-l"], "just-list"),
        (["just", "-ul"], "just-list"),
        (["just", "--unsorted", "--list", "tools"], "just-list"),
        (["just", "--dump"], None),
        (["just", "--json"], None),
        (["just", "--evaluate"], None),
        (["just", "--choose"], None),
        (["just", "--edit"], None),
        (["just", "-e"], None),
        (["just", "--show", "build"], None),
        (["just", "-s", "build"], None),
        (["just", "--summary"], None),
        (["just", "--variables"], None),
        (["just", "-n", "build"], None),  # a dry run prints the echoed lines: they are the output
        (["just", "--dry-run", "build"], None),
        (["just", "-v", "build"], None),
        (["just", "-q", "build"], None),
        (["just", "--timestamp", "build"], None),
        (["just", "--list-heading", "", "--list"], None),
        (["just", "--version"], None),
        (["just", "-h"], None),
        (["just", "--command", "ls"], None),
    ],
)
def test_select(argv: list[str], name: str | None) -> None:
    spec = filters.resolve(argv)
    assert (spec.name if spec is not None else None) == name
    if name == "just":
        assert spec is not None and spec.env == recipes.ENV and spec.run_argv is None


def test_timestamps_the_user_asked_for_run_unfiltered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUST_TIMESTAMP", "true")
    assert filters.resolve(["just", "build"]) is None
    monkeypatch.setenv("JUST_TIMESTAMP", "false")
    assert filters.resolve(["just", "build"]) is not None


def _run(output: str, code: int) -> Filtered:
    res = recipes.run(["just"], output, code)
    assert isinstance(res, Filtered)
    return res


def test_silent_commands_go_and_the_failing_one_stays() -> None:
    out = f"{M}mkdir -p build\n{M}false\nerror: recipe `build` failed on line 3 with exit code 1\n"
    res = _run(out, 1)
    assert res.text == "false\nerror: recipe `build` failed on line 3 with exit code 1\n"
    assert res.baseline == "mkdir -p build\nfalse\nerror: recipe `build` failed on line 3 with exit code 1\n"


def test_success_only_with_exit_zero_and_no_error_line() -> None:
    assert _run(f"{M}touch a\n{M}touch b\n", 0).text == "just: ok (2 commands)\n"
    # no-exit-message recipes: just prints no error line; the exit code says it failed
    res = _run(f"{M}touch a\n{M}./check\nbad input\n", 4)
    assert res.text == "./check\nbad input\njust: exit 4\n"
    assert "ok" not in res.text


def test_output_lines_stay_as_printed_and_echo_lines_do_not_head_their_output() -> None:
    out = f"{M}grep -c x data.txt | sort\n3\n{M}echo done\ndone\n{M}./report missing.txt\nreport: missing.txt: No such file\n"
    res = _run(out, 0)
    assert res.text == (
        "grep -c x data.txt | sort\n3\ndone\n./report missing.txt\nreport: missing.txt: No such file\njust: ok (3 commands)\n"
    )


def test_nothing_echoed_is_shown_raw() -> None:
    assert recipes.run(["just"], "error: justfile does not contain recipe `x`\n", 1) is None
    assert recipes.run(["just"], "quiet recipe output\n", 0) is None


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("PYTHONPATH=src python3 -m pytest ", ["python3", "-m", "pytest"]),
        ("A=1 B=2 cargo test --lib", ["cargo", "test", "--lib"]),
        ("cc -Wall -o 'build/a b' a.c", ["cc", "-Wall", "-o", "build/a b", "a.c"]),
        ("cd sub && make", None),
        ("pytest | tee log", None),
        ("twine upload dist/*", None),
        ("echo $HOME", None),
        ("just other", None),
        ("./just lint", None),
        ("echo 'unclosed", None),
        ("X=1", None),
    ],
)
def test_words_of_a_plain_command(line: str, words: list[str] | None) -> None:
    assert recipes._words(line) == words


class _Recorder:
    def __init__(self, result: object) -> None:
        self.result = result
        self.calls: list[tuple[list[str], str, int]] = []

    def __call__(self, argv: list[str], output: str, exit_code: int) -> object:
        self.calls.append((argv, output, exit_code))
        if isinstance(self.result, Exception):
            raise self.result
        return self.result


def _delegating(monkeypatch: pytest.MonkeyPatch, rec: _Recorder) -> None:
    def resolve(argv: list[str]) -> Spec | None:
        return Spec("fake", rec) if argv[0] == "tool" else None  # type: ignore[arg-type]

    monkeypatch.setattr(filters, "resolve", resolve)


def test_delegate_gets_each_commands_output_and_exit_code(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = _Recorder("short")
    _delegating(monkeypatch, rec)
    out = (
        f"{M}X=1 tool one\nfirst output line\nsecond output line\n"
        f"{M}tool two\nthird output line\nerror: recipe `r` failed on line 9 with exit code 3\n"
    )
    res = _run(out, 3)
    assert rec.calls == [
        (["tool", "one"], "first output line\nsecond output line\n", 0),
        (["tool", "two"], "third output line\n", 3),
    ]
    assert res.text == "X=1 tool one\nshort\ntool two\nshort\nerror: recipe `r` failed on line 9 with exit code 3\n"


def test_last_command_gets_the_run_exit_code_without_an_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    rec = _Recorder("short")
    _delegating(monkeypatch, rec)
    _run(f"{M}tool x\nsome long output here\n", 6)
    assert rec.calls[0][2] == 6


@pytest.mark.parametrize(
    "result", [Unrecognized("shape"), RuntimeError("bug"), None, "a text longer than what the tool printed"]
)
def test_delegate_that_cannot_shorten_leaves_the_output_as_printed(
    monkeypatch: pytest.MonkeyPatch, result: object
) -> None:
    _delegating(monkeypatch, _Recorder(result))
    res = _run(f"{M}tool x\nout 1\nout 2\n", 0)
    assert res.text == "tool x\nout 1\nout 2\njust: ok (1 command)\n"


def test_delegate_cut_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    _delegating(monkeypatch, _Recorder(Filtered("kept", cut=7)))
    res = _run(f"{M}tool x\n" + "a line of output\n" * 5, 0)
    assert res.cut == 7 and "kept" in res.text


def test_pytest_output_goes_through_rtks_pytest_filter() -> None:
    raw = (FIXTURES / "just" / "test-failing.raw").read_text(encoding="utf-8")
    res = _run(raw, 1)
    assert "pytest: 1 failed, 3 passed" in res.text
    assert "FAILED tests/test_wordstat.py::test_top_words_breaks_ties_alphabetically" in res.text
    assert "test session starts" not in res.text
    assert res.text.rstrip().endswith("error: recipe `test` failed on line 16 with exit code 1")
    assert M not in res.text and M not in (res.baseline or "")


def test_listing_drops_only_the_alignment_padding() -> None:
    out = (
        "Available recipes:\n"
        "    build                  # Compile\n"
        '    new name kind="a  b"   # Start a module\n'
        "    plain\n"
        "    [ci]\n"
        "    test *args             # Run  the  tests\n"
    )
    assert just.listing(["just", "--list"], out, 0) == (
        "Available recipes:\n"
        "    build # Compile\n"
        '    new name kind="a  b" # Start a module\n'
        "    plain\n"
        "    [ci]\n"
        "    test *args # Run  the  tests\n"
    )
    assert just.listing(["just", "--list"], "Available recipes:\n    build\n", 0) is None
    assert just.listing(["just", "--list"], "error: No justfile found\n", 1) is None


@pytest.mark.parametrize(
    ("line", "out"),
    [
        ("just", "rtk just"),
        ("just test", "rtk just test"),
        ("just --list", "rtk just --list"),
        ("just build && just test", "rtk just build && rtk just test"),
        ("just --dump", ""),
        ("just --json", ""),
        ("just --evaluate", ""),
        ("just --choose", ""),
        ("just --edit", ""),
        ("just --show build", ""),
    ],
)
def test_rewrite(line: str, out: str) -> None:
    engine.reset()
    assert (engine.rewrite(line) or "") == out


needs_just = pytest.mark.skipif(shutil.which("just") is None, reason="just not installed (pip install rust-just)")


@needs_just
def test_real_just_run_through_rtk(tmp_path: Path) -> None:
    (tmp_path / "justfile").write_text(
        "ok:\n    mkdir -p out\n    touch out/a\n    chmod 644 out/a\n\nfail: ok\n    ls out\n    ls no-such-dir\n    echo never\n"
    )
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    env.pop("JUST_TIMESTAMP", None)

    def rtk_just(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(rtk_argv("just", *args), capture_output=True, text=True, env=env, cwd=tmp_path)

    p = rtk_just("ok")
    assert p.returncode == 0
    # Three silent commands: two (mkdir, touch) saved only 1 token, which the never-worse guard
    # (at least 2 tokens) rightly refuses, printing the commands as just echoes them.
    assert p.stdout == "just: ok (3 commands)\n"
    p = rtk_just("fail")
    assert p.returncode == 2
    assert M not in p.stdout and "mkdir" not in p.stdout
    assert "ls out\na\nls no-such-dir\n" in p.stdout
    assert "No such file or directory" in p.stdout
    assert "error: recipe `fail` failed on line 8 with exit code 2" in p.stdout
    assert "never" not in p.stdout
