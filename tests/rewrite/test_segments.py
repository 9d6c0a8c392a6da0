"""Compound structure, env/wrapper peeling and wrapper resolution."""

from __future__ import annotations

import pytest

from rtk.shell import segments
from rtk.shell.segments import parse, peel, resolve


def shape(line: str) -> list[list[str]]:
    p = parse(line)
    return [[line[s.start : s.end] for s in pipe.segments] for pipe in p.pipelines]


def test_splitting_keeps_quoted_operators() -> None:
    assert shape('git commit -m "a && b" && git push | head') == [['git commit -m "a && b"'], ["git push", "head"]]


def test_operators_recorded_per_pipeline() -> None:
    p = parse("a && b || c ; d & e")
    assert [pl.op for pl in p.pipelines] == ["&&", "||", ";", "&", ""]


def test_opaque_regions() -> None:
    p = parse("(cd x && ls) && { a; b; } > f; if x; then y; fi; for i in 1 2; do z; done; ls")
    segs = p.segments()
    assert [s.opaque for s in segs] == ["subshell", "{", "if", "for", ""]
    assert segs[1].stdout_to_file()
    assert p.ok


@pytest.mark.parametrize(
    "line",
    ["a && && b", "a |", "ls )", "( ls", "if x; then y", "ls; fi", "f() { ls; }", "echo 'x", "a ;; b", "&& ls", "ls >"],
)
def test_lines_that_cannot_be_handled(line: str) -> None:
    assert not parse(line).ok


def test_heredoc_and_arith_flags() -> None:
    assert parse("cat <<EOF\nx\nEOF").heredoc
    assert parse('git commit -m "$(cat <<EOF\nx\nEOF\n)"').heredoc
    assert parse("echo $((1+2))").arith
    assert not parse("ls $(pwd)").heredoc


def test_pipe_amp() -> None:
    assert parse("make |& tee log").pipelines[0].pipe_amp


@pytest.mark.parametrize(
    ("redir", "to_file"),
    [
        ("> f", True), (">> f", True), ("&> f", True), ("2> f", True), (">& f", True), (">| f", True),
        ("2>&1", False), ("2>/dev/null", False), (">/dev/null", False), ("1>&2", False), ("< f", False),
        ("<<< x", False), ("2>&-", False), ("> $OUT", True),
    ],
)  # fmt: skip
def test_output_to_file(redir: str, to_file: bool) -> None:
    seg = parse(f"ls {redir}").segments()[0]
    assert seg.stdout_to_file() is to_file


@pytest.mark.parametrize(
    ("words", "at", "disabled", "why"),
    [
        (["git", "status"], 0, False, ""),
        (["A=1", "B=x y", "git"], 2, False, ""),
        (["env", "A=1", "-u", "B", "git"], 4, False, ""),
        (["env", "-i", "git"], 1, False, "env -i"),
        (["RTK_DISABLED=1", "git"], 1, True, ""),
        (["env", "RTK_DISABLED=yes", "git"], 2, True, ""),
        (["timeout", "-s", "KILL", "5", "git"], 4, False, ""),
        (["time", "-p", "nice", "-n", "5", "nohup", "git"], 6, False, ""),
        (["command", "-v", "git"], 1, False, "command -v lookup"),
        (["exec", "-a", "x", "git"], 3, False, ""),
        (["sudo", "git"], 0, False, ""),
        (["timeout", "5"], 2, False, ""),
    ],
)
def test_peel(words: list[str], at: int, disabled: bool, why: str) -> None:
    s = peel(words)
    assert (s.at, s.disabled, s.why) == (at, disabled, why)


def test_peel_transparent_prefixes() -> None:
    assert peel(["direnv", "exec", ".", "git", "status"], (("direnv", "exec", "."),)).at == 3


@pytest.mark.parametrize(
    ("words", "tool", "index", "kind"),
    [
        (["python", "-m", "pytest"], "pytest", -1, "launcher"),
        (["/usr/bin/python3.12", "-u", "-m", "mypy"], "mypy", -1, "launcher"),
        (["python", "x.py"], "python", 0, ""),
        (["uv", "run", "pytest"], "pytest", 2, "inner"),
        (["uv", "run", "--with", "x", "--", "pytest"], "pytest", 5, "inner"),
        (["uv", "run", "python", "-m", "pytest"], "pytest", 2, "inner-python"),
        (["uv", "run", "-m", "pytest"], "pytest", -1, "launcher"),
        (["uv", "pip", "list"], "uv", 0, ""),
        (["poetry", "run", "mypy"], "mypy", 2, "inner"),
        (["bundle", "exec", "rspec"], "rspec", 2, "inner"),
        (["pnpm", "exec", "eslint"], "eslint", 2, "inner"),
        (["pnpm", "install"], "pnpm", 0, ""),
        (["npx", "tsc"], "tsc", 1, "launcher"),
        (["npm", "exec", "tsc"], "tsc", 2, "launcher"),
        (["npm", "run", "x"], "npm", 0, ""),
        (["bun", "x", "vitest"], "vitest", 2, "launcher"),
        (["./node_modules/.bin/npx", "tsc"], "tsc", 1, "launcher"),
    ],
)
def test_resolve(words: list[str], tool: str, index: int, kind: str) -> None:
    r = resolve(words, 0)
    assert (r.tool, r.index, r.kind) == (tool, index, kind)


def test_tool_name() -> None:
    assert segments.tool_name("/usr/bin/git") == "git"
    assert segments.tool_name("./gradlew") == "gradlew"
    assert segments.is_python("python3.12") and not segments.is_python("pythonista")
