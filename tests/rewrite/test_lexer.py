"""The shell lexer: token kinds, spans, unquoted values, construct flags."""

from __future__ import annotations

import pytest

from rtk.shell import lexer
from rtk.shell.lexer import lex


def kinds(line: str) -> list[tuple[str, str]]:
    return [(t.kind, line[t.start : t.end]) for t in lex(line)]


def test_words_and_operators() -> None:
    assert kinds("a && b || c; d & e | f |& g") == [
        ("word", "a"), ("op", "&&"), ("word", "b"), ("op", "||"), ("word", "c"), ("op", ";"), ("word", "d"),
        ("op", "&"), ("word", "e"), ("pipe", "|"), ("word", "f"), ("pipe", "|&"), ("word", "g"),
    ]  # fmt: skip


def test_quotes_keep_operators_inside_one_word() -> None:
    line = "git commit -m \"fix && update\" 'a;b'"
    toks = lex(line)
    assert [t.value for t in toks] == ["git", "commit", "-m", "fix && update", "a;b"]
    assert line[toks[3].start : toks[3].end] == '"fix && update"'
    assert toks[3].flags & lexer.QUOTED


@pytest.mark.parametrize(
    ("line", "value"),
    [
        (r'"say \"hi\""', 'say "hi"'),
        (r"a\ b", "a b"),
        (r"'it'\''s'", "it's"),
        ("$'a\\nb'", "a\nb"),
        ("\"a\"'b'c", "abc"),
        (r'"back\\slash"', "back\\slash"),
        (r'"keep \n"', "keep \\n"),
    ],
)
def test_unquoted_values(line: str, value: str) -> None:
    toks = lex(line)
    assert len(toks) == 1 and toks[0].kind == "word"
    assert toks[0].value == value
    assert (toks[0].start, toks[0].end) == (0, len(line))


@pytest.mark.parametrize(
    ("line", "flag"),
    [
        ("$(pwd)", lexer.CMDSUB),
        ("`pwd`", lexer.CMDSUB),
        ('"$(a "b" c)"', lexer.CMDSUB),
        ("$((1+2))", lexer.ARITH),
        ("${HOME:-/x}", lexer.EXPAND),
        ("$HOME/x", lexer.EXPAND),
        ("$'x'", lexer.ANSI_C),
        ("<(ls)", lexer.PROCSUB),
        (">(cat)", lexer.PROCSUB),
        ("*.py", lexer.GLOB),
        ("a\\;", lexer.ESCAPED),
    ],
)
def test_construct_flags(line: str, flag: int) -> None:
    toks = lex(line)
    assert len(toks) == 1, toks
    assert toks[0].flags & flag


@pytest.mark.parametrize(
    ("line", "ops"),
    [
        ("a > f", [">"]),
        ("a >> f", [">>"]),
        ("a < f", ["<"]),
        ("a 2>&1", ["2>&"]),
        ("a &> f", ["&>"]),
        ("a &>> f", ["&>>"]),
        ("a 2>/dev/null", ["2>"]),
        ("a >| f", [">|"]),
        ("a <<< 'x'", ["<<<"]),
        ("a <> f", ["<>"]),
        ("a 10>&-", ["10>&"]),
    ],
)
def test_redirections(line: str, ops: list[str]) -> None:
    assert [t.value for t in lex(line) if t.kind == "redir"] == ops


def test_fd_number_only_when_glued() -> None:
    assert [t.kind for t in lex("echo 2 > f")] == ["word", "word", "redir", "word"]
    assert [t.kind for t in lex("echo 2> f")] == ["word", "redir", "word"]


def test_heredoc_body_is_one_token_and_lexing_resumes_after_it() -> None:
    line = "cat <<'EOF' > f\ndon't stop\nEOF\ngit push"
    toks = lex(line)
    assert [t.kind for t in toks] == ["word", "heredoc", "word", "redir", "word", "op", "body", "word", "word"]
    body = toks[6]
    assert line[body.start : body.end] == "don't stop\nEOF"
    assert toks[-1].value == "push"


def test_heredoc_strip_tabs_and_unterminated_body() -> None:
    toks = lex("cat <<-X\n\tbody\n\tX\nls")
    assert toks[-1].value == "ls"
    toks = lex("cat <<X\nno end")
    assert toks[-1].kind == "body"


def test_subshell_and_comment() -> None:
    assert kinds("(cd x) # note") == [("(", "("), ("word", "cd"), ("word", "x"), (")", ")"), ("comment", "# note")]
    assert [t.value for t in lex("a#b")] == ["a#b"]


def test_line_continuation() -> None:
    assert [t.value for t in lex("ls \\\n -la")] == ["ls", "-la"]


@pytest.mark.parametrize("line", ['echo "abc', "echo 'abc", "echo $(ls", "echo `ls", "x ${a", "echo $'x", "diff <(ls"])
def test_unterminated_constructs_end_in_a_bad_token(line: str) -> None:
    toks = lex(line)
    assert toks[-1].kind == "bad"
    assert toks[-1].end == len(line)


def test_plain_fast_path_matches_full_lexer() -> None:
    line = "git  log -n 5 --author=x  "
    fast = lex(line)
    full = lexer._word  # the slow path is used when any special character appears
    assert full is not None
    slow = lex(line + ";")[:-1]
    assert [(t.kind, t.start, t.end, t.value) for t in fast] == [(t.kind, t.start, t.end, t.value) for t in slow]


@pytest.mark.parametrize(
    ("word", "flags"),
    [
        ("${x:-$(touch pwned)}", lexer.EXPAND | lexer.CMDSUB),
        ("${x:-`touch pwned`}", lexer.EXPAND | lexer.CMDSUB),
        ("${x:-<(touch pwned)}", lexer.EXPAND | lexer.PROCSUB),
        ("${x[$(touch pwned)]}", lexer.EXPAND | lexer.CMDSUB | lexer.ARITH),
        ('"${x:-$(touch pwned)}"', lexer.QUOTED | lexer.EXPAND | lexer.CMDSUB),
        ("\"${x:-'$(touch pwned)'}\"", lexer.QUOTED | lexer.EXPAND | lexer.CMDSUB),  # '' do not quote there
        ("${x:-${y:-${z:-$(touch pwned)}}}", lexer.EXPAND | lexer.CMDSUB),
        ("$(( $(touch pwned) ))", lexer.EXPAND | lexer.ARITH | lexer.CMDSUB),
        ("$(( a[`touch pwned`] ))", lexer.EXPAND | lexer.ARITH | lexer.CMDSUB),
        ("$[1+1]", lexer.EXPAND | lexer.ARITH),
        ("$[a[$(touch pwned)]]", lexer.EXPAND | lexer.ARITH | lexer.CMDSUB),
        ("${x@P}", lexer.EXPAND | lexer.EVAL),
        ("${!name}", lexer.EXPAND | lexer.EVAL),
        ("${(e)x}", lexer.EXPAND | lexer.EVAL),  # zsh: the value's $(...) runs (Claude Code runs the user's shell)
        ('"${(e)x}"', lexer.QUOTED | lexer.EXPAND | lexer.EVAL),
        ("${(P)x}", lexer.EXPAND | lexer.EVAL),  # zsh indirection
        ("${~x}", lexer.EXPAND | lexer.EVAL),  # zsh glob substitution: a value *(e:cmd:) runs cmd
        ("$~x", lexer.EXPAND | lexer.EVAL),
        ("${a[i]}", lexer.EXPAND | lexer.ARITH),
        ("${x:i}", lexer.EXPAND | lexer.ARITH),
        # nothing that runs code: no extra flag
        ("${x:-a}", lexer.EXPAND),
        ("${x:-'$(not run)'}", lexer.EXPAND),
        ("${!prefix*}", lexer.EXPAND),
        ("${!arr[@]}", lexer.EXPAND),
        ("${a[1]}", lexer.EXPAND),
        ("${x:1:2}", lexer.EXPAND),
        ("${x: -1}", lexer.EXPAND),
        ("${#x}", lexer.EXPAND),
    ],
)
def test_constructs_nested_at_any_depth_are_recorded(word: str, flags: int) -> None:
    toks = lex(f"git status {word}")
    assert [t.kind for t in toks] == ["word", "word", "word"]
    assert toks[2].end == len(f"git status {word}")
    assert toks[2].flags == flags


def test_here_string_records_nested_substitution() -> None:
    toks = lex("git status <<< ${x:-$(touch pwned)}")
    assert toks[2].kind == "redir" and toks[3].flags & lexer.CMDSUB


def test_closing_brace_inside_nested_constructs_does_not_end_the_expansion() -> None:
    line = "echo ${x:-$(echo \"}\")} ${y:-`echo }`} ${z:-'}'} done"
    assert [t.value for t in lex(line)][-1] == "done"
    assert len(lex(line)) == 5
