"""Argument handling of the files/search/text filters: native grammar, passthrough of formats, engines kept."""

from __future__ import annotations

import pytest

from rtk import filters


def spec(*argv: str) -> filters.Spec | None:  # type: ignore[name-defined]
    return filters.lookup(list(argv))


@pytest.mark.parametrize(
    "argv",
    [
        # tree: output formats and flags not read here
        ["tree", "-J"], ["tree", "-X"], ["tree", "-H", "."], ["tree", "-i"], ["tree", "--version"], ["tree", "-o", "out.txt"],
        ["tree", "--fromfile"], ["tree", "-Z"],
        # find: actions that print something else, or act
        ["find", ".", "-exec", "echo", "{}", ";"], ["find", ".", "-delete"], ["find", ".", "-printf", "%p\\n"],
        ["find", ".", "-print0"], ["find", ".", "-ls"], ["find", ".", "-fprint", "x"], ["find", ".", "-execdir", "ls", "+"],
        ["find", ".", "-ok", "rm", ";"], ["find", ".", "-bogus"], ["find", ".", "-name"],
        # fd
        ["fdfind", "-l", "x"], ["fdfind", "-0", "x"], ["fdfind", "-x", "echo"], ["fdfind", "-X", "echo"], ["fd", "--format", "{}"],
        ["fd", "-q", "x"], ["fd", "--list-details"], ["fd", "--bogus"],
        # grep: output-shape flags stay native
        ["grep", "-l", "x"], ["grep", "-L", "x"], ["grep", "-c", "x"], ["grep", "-o", "x"], ["grep", "-q", "x"], ["grep", "-h", "x", "f"],
        ["grep", "-Z", "x"], ["grep", "-z", "x"], ["grep", "-b", "x"], ["grep", "-T", "x"], ["grep", "-rl", "x", "."],
        ["grep", "--count", "x"], ["grep", "--files-with-matches", "x"], ["grep", "--only-matching", "x"], ["grep", "--null", "x"],
        ["grep", "--help"], ["grep", "-V"], ["grep", "--bogus", "x"], ["grep"],
        # rg
        ["rg", "-l", "x"], ["rg", "-c", "x"], ["rg", "-o", "x"], ["rg", "--json", "x"], ["rg", "--heading", "x"], ["rg", "--files"],
        ["rg", "-N", "x"], ["rg", "-I", "x"], ["rg", "-0", "x"], ["rg", "--vimgrep", "x"], ["rg", "-h"], ["rg", "--count-matches", "x"],
        ["rg", "-p", "x"], ["rg", "--column", "x"], ["rg", "-q", "x"], ["rg", "--type-list"], ["rg", "--passthru", "x"],
        # wc, diff
        ["wc", "--help"], ["wc", "--total=only", "f"], ["wc", "-x"],
        ["diff", "-q", "a", "b"], ["diff", "-y", "a", "b"], ["diff", "-c", "a", "b"], ["diff", "-e", "a", "b"], ["diff", "-n", "a", "b"],
        ["diff", "--brief", "a", "b"], ["diff", "--side-by-side", "a", "b"], ["diff", "-D", "X", "a", "b"],
        ["diff", "--line-format=%L", "a", "b"], ["diff", "--help"],
        # env running a command, or a format
        ["env", "A=1", "python3", "-c", "pass"], ["env", "-i", "sh"], ["env", "-0"], ["env", "-C", "/tmp", "ls"], ["env", "--help"],
        # curl and wget: data for a program or a file
        ["curl", "-o", "out", "http://x"], ["curl", "-O", "http://x/f"], ["curl", "-w", "%{http_code}", "http://x"],
        ["curl", "-i", "http://x"], ["curl", "-I", "http://x"], ["curl", "-v", "http://x"], ["curl", "-D", "-", "http://x"],
        ["curl", "--output", "f", "http://x"], ["curl", "-sSo", "f", "http://x"], ["curl", "--trace", "t", "http://x"],
        ["curl", "--bogus", "http://x"], ["wget", "-o", "log", "http://x"], ["wget", "-S", "http://x"], ["wget", "-d", "http://x"],
        ["wget", "--help"],
    ],
)  # fmt: skip
def test_formats_and_unknown_flags_run_unfiltered(argv: list[str]) -> None:
    assert spec(*argv) is None


@pytest.mark.parametrize(
    ("argv", "name", "run"),
    [
        (["grep", "-rn", "TODO", "src"], "grep", ["grep", "-n", "-H", "-rn", "TODO", "src"]),
        (["grep", "-m", "5", "-e", "x", "f"], "grep", ["grep", "-n", "-H", "-m", "5", "-e", "x", "f"]),
        (["grep", "-A3", "-i", "x"], "grep", ["grep", "-n", "-H", "-A3", "-i", "x"]),
        (["/usr/bin/grep", "x", "f"], "grep", ["/usr/bin/grep", "-n", "-H", "x", "f"]),
        (["rg", "-t", "py", "TODO"], "rg", ["rg", "--no-heading", "-n", "-H", "-t", "py", "TODO"]),
        (["rg", "-m", "2", "-C1", "x"], "rg", ["rg", "--no-heading", "-n", "-H", "-m", "2", "-C1", "x"]),
        (["tree", "-a", "-L", "2"], "tree", ["tree", "-F", "-a", "-L", "2"]),
        (["tree", "-F"], "tree", None),
        (["find", ".", "-name", "*.py", "-type", "f"], "find", None),
        (["find", "-L", "src", "(", "-name", "a", "-o", "-name", "b", ")", "-print"], "find", None),
        (["fdfind", "-HI", "-e", "py"], "fd", None),
        (["fd", "-t", "f", "x", "src"], "fd", None),
        (["wc", "-l", "a", "b"], "wc", None),
        (["diff", "-ru", "a", "b"], "diff", None),
        (["diff", "-U", "5", "a", "b"], "diff", None),
        (["env"], "env", None),
        (["env", "-u", "HOME"], "env", None),
        (["env", "-i", "A=1", "B=2"], "env", None),
        (["curl", "http://x"], "curl", ["curl", "-sS", "http://x"]),
        (["curl", "-s", "-H", "Accept: application/json", "http://x"], "curl", None),
        (["wget", "-qO-", "http://x"], "wget", None),
        (["wget", "-O", "-", "http://x"], "wget", ["wget", "-nv", "-O", "-", "http://x"]),
        (["wget", "http://x"], "wget", None),
    ],
)
def test_engine_and_argv(argv: list[str], name: str, run: list[str] | None) -> None:
    s = spec(*argv)
    assert s is not None and s.name == name
    assert s.run_argv == run


def test_grep_short_flags_keep_their_meaning() -> None:
    from rtk.filters.files.grep import _parse

    o = _parse("grep", ["-rn", "x"])
    assert o is not None and o.patterns == ["x"]  # -rn is two flags, never the pattern "n"
    o = _parse("grep", ["-m5", "-e", "^foo", "-e", "bar", "f"])
    assert o is not None and o.patterns == ["^foo", "bar"]
    o = _parse("rg", ["-t", "py", "-i", "x"])
    assert o is not None and o.patterns == ["x"] and o.icase
    assert _parse("rg", ["-h"]) is None and _parse("grep", ["-h", "x"]) is None


def test_curl_and_wget_body_specs_keep_stderr_apart() -> None:
    for argv in (["curl", "http://x"], ["wget", "-O-", "http://x"]):
        s = spec(*argv)
        assert s is not None and s.merge_stderr is False
    s = spec("wget", "http://x")
    assert s is not None and s.merge_stderr is True  # wget's log is what it prints when saving to a file
