"""Property tests over generated command lines: no crash, insert-only, idempotent, bad input."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rwhelpers import all_registered  # noqa: F401  (autouse: every command has a filter)

from rtk.rewrite import cli, engine
from rtk.shell import lexer, segments

FAST = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# Tools whose rewrite is a pure insertion of "rtk " (cat/head/tail become `rtk read`).
TOOLS = [
    "git status", "git log", "git -C d diff", "/usr/bin/git show", "ls", "ls -la", "grep -rn x", "rg foo",
    "cargo test", "cargo build", "pytest", "python -m pytest", "uv run pytest", "npx tsc", "bundle exec rspec",
    "docker ps", "kubectl get pods", "make", "terraform plan", "go test ./...", "find .", "wc -l", "tree",
    "gh pr list", "gh pr list --json x", "echo hi", "cd x", "unknown", "rtk git status", "sudo ls", "mypy src",
    "vitest", "tsc --watch", "psql", "sort", "head -c 5", "tail -f x", "less", "xargs rm", "jq .", "pnpm exec eslint",
]  # fmt: skip
WORDS = st.sampled_from(
    [
        "a", "-x", "--flag=v", '"q s"', "'s q'", "$HOME", '"$(pwd)"', "`date`", "\\;", "*.py", "~/x", "é",
        '"a && b"', "'|'", "x=y", "--", "-", "$'t\\n'", "{a,b}", "2>&1", "2>/dev/null", "> out", "< in",
        "&>/dev/null", ">&2", "#c",
    ]
)  # fmt: skip
PREFIX = st.sampled_from(["", "FOO=1 ", 'A="x y" ', "env B=2 ", "timeout 5 ", "time ", "RTK_DISABLED=1 ", "nice "])
OPS = st.sampled_from([" && ", " || ", "; ", " | ", " & ", "\n", " |& ", "&&", ";"])


@st.composite
def segment(draw: st.DrawFn) -> str:
    args = draw(st.lists(WORDS, max_size=3))
    return draw(PREFIX) + " ".join([draw(st.sampled_from(TOOLS)), *args])


@st.composite
def command_line(draw: st.DrawFn) -> str:
    segs = draw(st.lists(segment(), min_size=1, max_size=4))
    out = segs[0]
    for s in segs[1:]:
        out += draw(OPS) + s
    if draw(st.booleans()):
        out = draw(st.sampled_from(["(", "{ ", "if true; then "])) + out + draw(st.sampled_from([")", "; }", "; fi"]))
    return out


def _tokens_cover_text(line: str, toks: list[lexer.Token]) -> bool:
    last = 0
    for t in toks:
        if t.start < last or t.end < t.start or t.end > len(line):
            return False
        last = t.end
    return True


@FAST
@given(st.text())
def test_lexer_and_parser_never_raise_on_any_text(text: str) -> None:
    toks = lexer.lex(text)
    assert _tokens_cover_text(text, toks)
    segments.parse(text)


@FAST
@given(st.text(alphabet=st.sampled_from(list("ab $'\"`\\()|&;<>{}#\n\t=*-~x"))))
def test_rewrite_never_raises_on_shell_soup(text: str) -> None:
    out = engine.rewrite(text)
    assert out is None or out.replace("rtk ", "") == text.replace("rtk ", "")
    engine.classify_line(text)


@FAST
@given(command_line())
def test_rewrite_only_inserts_rtk(line: str) -> None:
    out = engine.rewrite(line)
    if out is not None:
        assert out != line
        assert out.replace("rtk ", "") == line.replace("rtk ", "")
        assert out.count("rtk ") > line.count("rtk ")


@FAST
@given(command_line())
def test_rewriting_twice_equals_rewriting_once(line: str) -> None:
    once = engine.rewrite(line) or line
    assert engine.rewrite(once) is None


@FAST
@given(command_line())
def test_decision_is_consistent(line: str) -> None:
    d = engine.decide(line, agent=None)
    assert d.verdict in ("ask", "none")
    assert (d.rewritten is None) == (d.verdict == "none")
    assert d.rewritten == engine.rewrite(line)


BAD = st.one_of(
    st.text(alphabet=" \t\n\r\x0b\x0c", max_size=20),
    st.builds(lambda a, b: a + "\x00" + b, st.text(max_size=20), st.text(max_size=20)),
    st.builds(lambda a, q, b: a + " " + q + b, st.sampled_from(TOOLS), st.sampled_from(["'", '"', "$(", "`", "${"]),
              st.text(alphabet="abc -", max_size=10)),
)  # fmt: skip


@FAST
@given(line=BAD)
def test_bad_input_exits_1_without_output(line: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([line]) == 1
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


def test_one_megabyte_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["git status " + "a" * (1 << 20)]) == 1
    assert capsys.readouterr().out == ""
    assert engine.rewrite("git status " + "a" * (1 << 20)) is None
