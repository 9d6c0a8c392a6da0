"""Source files by language: which characters are code, string or comment (for ``rtk read`` and ``rtk smart``).

A small per-language scanner, not a parser. It knows each language's comment
markers and string forms (triple quotes, template and raw strings, char
literals versus Rust lifetimes, JavaScript regex literals, shell heredocs), so
``/*`` or ``#`` inside a string is never taken for a comment. A quote left
open at the end of a line closes there (except in forms that may span lines),
so a misread can never spread past one line.
"""

from __future__ import annotations

import os

CODE, STRING, COMMENT = "c", "s", "k"


class Lang:
    """Lexical rules of one language family."""

    def __init__(
        self,
        name: str,
        line: tuple[str, ...] = (),
        block: tuple[tuple[str, str], ...] = (),
        quotes: str = "\"'",
        *,
        triple: bool = False,
        backtick: str = "",  # "template" (JS, may span lines, escapes) or "raw" (Go: no escapes)
        hash_at_word: bool = False,  # shell, YAML: "#" starts a comment only at a word start
        regex: bool = False,  # JavaScript regex literals
        rust: bool = False,  # char literals versus lifetimes, raw strings
        heredoc: bool = False,  # shell and Ruby heredocs
        braces: bool = False,  # bodies in { } (for the aggressive view)
        indent: bool = False,  # bodies by indentation (Python)
        doubled_quote: bool = False,  # SQL: '' inside a string
        no_escape: str = "",  # quote characters whose strings have no backslash escapes (shell ')
    ) -> None:
        self.name = name
        self.line = line
        self.block = block
        self.quotes = quotes
        self.triple = triple
        self.backtick = backtick
        self.hash_at_word = hash_at_word
        self.regex = regex
        self.rust = rust
        self.heredoc = heredoc
        self.braces = braces
        self.indent = indent
        self.doubled_quote = doubled_quote
        self.no_escape = no_escape


_C = (("/*", "*/"),)
PYTHON = Lang("Python", ("#",), triple=True, indent=True)
SHELL = Lang("shell", ("#",), hash_at_word=True, heredoc=True, no_escape="'")
RUBY = Lang("Ruby", ("#",), (("=begin", "=end"),), heredoc=True)
YAML = Lang("YAML", ("#",), hash_at_word=True)
TOML = Lang("TOML", ("#",), triple=True)
JS = Lang("JavaScript", ("//",), _C, backtick="template", regex=True, braces=True)
TS = Lang("TypeScript", ("//",), _C, backtick="template", regex=True, braces=True)
GO = Lang("Go", ("//",), _C, backtick="raw", braces=True)
RUST = Lang("Rust", ("//",), _C, rust=True, braces=True)
CLIKE = Lang("C-family", ("//",), _C, braces=True)
CSS = Lang("CSS", (), _C)
SQL = Lang("SQL", ("--",), _C, doubled_quote=True)
LUA = Lang("Lua", ("--",), (("--[[", "]]"),))
HASKELL = Lang("Haskell", ("--",), (("{-", "-}"),), quotes='"')
MARKUP = Lang("markup", (), (("<!--", "-->"),), quotes="")
PHP = Lang("PHP", ("//", "#"), _C, braces=True)

_BY_EXT = {
    ".py": PYTHON, ".pyi": PYTHON, ".pyw": PYTHON,
    ".sh": SHELL, ".bash": SHELL, ".zsh": SHELL, ".ksh": SHELL, ".fish": SHELL,
    ".rb": RUBY, ".rake": RUBY, ".gemspec": RUBY,
    ".yml": YAML, ".yaml": YAML, ".toml": TOML, ".cfg": TOML, ".conf": SHELL, ".ini": TOML,
    ".js": JS, ".mjs": JS, ".cjs": JS, ".jsx": JS, ".ts": TS, ".tsx": TS, ".mts": TS, ".cts": TS,
    ".go": GO, ".rs": RUST,
    ".c": CLIKE, ".h": CLIKE, ".cc": CLIKE, ".cpp": CLIKE, ".cxx": CLIKE, ".hpp": CLIKE, ".hh": CLIKE,
    ".java": CLIKE, ".kt": CLIKE, ".kts": CLIKE, ".scala": CLIKE, ".cs": CLIKE, ".swift": CLIKE,
    ".dart": CLIKE, ".m": CLIKE, ".mm": CLIKE, ".proto": CLIKE, ".groovy": CLIKE, ".gradle": CLIKE,
    ".zig": CLIKE, ".sol": CLIKE, ".php": PHP,
    ".css": CSS, ".scss": CLIKE, ".less": CLIKE,
    ".sql": SQL, ".lua": LUA, ".hs": HASKELL,
    ".html": MARKUP, ".htm": MARKUP, ".xml": MARKUP, ".svg": MARKUP, ".vue": MARKUP,
}  # fmt: skip
_BY_NAME = {
    "Makefile": SHELL, "makefile": SHELL, "GNUmakefile": SHELL, "Dockerfile": SHELL, "Gemfile": RUBY,
    "Rakefile": RUBY, "Vagrantfile": RUBY, "CMakeLists.txt": SHELL, ".bashrc": SHELL, ".zshrc": SHELL,
    ".profile": SHELL, "BUILD": PYTHON, "WORKSPACE": PYTHON,
}  # fmt: skip


def language(path: str, head: str = "") -> Lang | None:
    """The language of ``path`` (by extension, file name, then shebang line), or None."""
    base = os.path.basename(path)
    if base in _BY_NAME:
        return _BY_NAME[base]
    lang = _BY_EXT.get(os.path.splitext(base)[1].lower())
    if lang is not None:
        return lang
    if head.startswith("#!"):
        first = head.split("\n", 1)[0]
        if "python" in first:
            return PYTHON
        if any(sh in first for sh in ("sh", "bash", "zsh")):
            return SHELL
        if "ruby" in first:
            return RUBY
        if "node" in first:
            return JS
    return None


_REGEX_BEFORE = frozenset("(,=:[!&|?{};+-*%<>~^")
_REGEX_WORDS = ("return", "typeof", "case", "in", "of", "delete", "void", "throw", "new", "yield", "await")


def classify(text: str, lang: Lang, open_at_start: list[bool] | None = None) -> list[str]:
    """One category string per line (``c`` code, ``s`` string, ``k`` comment), same lengths as the lines.

    ``open_at_start``, when given, receives one flag per line: True when the line
    starts inside a string or comment carried over from the line before.
    """
    lines = text.split("\n")
    out: list[str] = []
    mode = CODE  # state carried over a line end: CODE, or inside a multi-line form
    close = ""  # what ends the multi-line form
    escapes = True
    heredoc_end = ""
    heredoc_strip = False
    pending_heredoc = ("", False)
    for line in lines:
        cats: list[str] = []
        n = len(line)
        if open_at_start is not None:
            open_at_start.append(mode != CODE or bool(heredoc_end))
        if heredoc_end:
            body = line.lstrip("\t") if heredoc_strip else line
            if body.strip() == heredoc_end:
                heredoc_end = ""
                out.append(CODE * n)
            else:
                out.append(STRING * n)
            continue
        if lang is RUBY and mode == COMMENT and close == "=end":
            out.append(COMMENT * n)
            if line.startswith("=end"):
                mode, close = CODE, ""
            continue
        i = 0
        while i < n:
            if mode == STRING:
                if escapes and line[i] == "\\" and i + 1 < n:
                    cats += STRING * 2
                    i += 2
                    continue
                if lang.doubled_quote and close == "'" and line.startswith("''", i):
                    cats += STRING * 2
                    i += 2
                    continue
                if line.startswith(close, i):
                    cats += STRING * len(close)
                    i += len(close)
                    mode, close = CODE, ""
                    continue
                cats.append(STRING)
                i += 1
                continue
            if mode == COMMENT:
                if line.startswith(close, i):
                    cats += COMMENT * len(close)
                    i += len(close)
                    mode, close = CODE, ""
                    continue
                cats.append(COMMENT)
                i += 1
                continue
            c = line[i]
            # block comments
            hit = False
            for op, cl in lang.block:
                if line.startswith(op, i) and not (lang is RUBY and (i != 0 or op != "=begin")):
                    mode, close = COMMENT, cl
                    cats += COMMENT * len(op)
                    i += len(op)
                    hit = True
                    break
            if hit:
                continue
            # line comments
            for op in lang.line:
                if line.startswith(op, i):
                    if (
                        op == "#"
                        and lang.hash_at_word
                        and i > 0
                        and not (line[i - 1].isspace() or line[i - 1] in ";|&()")
                    ):
                        continue
                    if op == "#" and lang is PHP and line.startswith("#[", i):
                        continue
                    cats += COMMENT * (n - i)
                    i = n
                    hit = True
                    break
            if hit:
                continue
            # strings
            if lang.triple and (line.startswith('"""', i) or line.startswith("'''", i)):
                mode, close, escapes = STRING, line[i : i + 3], True
                cats += STRING * 3
                i += 3
                continue
            if c == "`" and lang.backtick:
                mode, close, escapes = STRING, "`", lang.backtick == "template"
                cats.append(STRING)
                i += 1
                continue
            if lang.rust and c == "r" and (line.startswith('r"', i) or line.startswith("r#", i)):
                j = i + 1
                while j < n and line[j] == "#":
                    j += 1
                if j < n and line[j] == '"' and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
                    hashes = j - i - 1
                    mode, close, escapes = STRING, '"' + "#" * hashes, False
                    cats += STRING * (j - i + 1)
                    i = j + 1
                    continue
            if lang.rust and c == "'":
                # a char literal ('a', '\n', '\u{1F600}') or a lifetime ('a, 'static)
                j = i + 1
                if j < n and line[j] == "\\":
                    k = line.find("'", j + 2)
                    end = k if k > 0 else -1
                elif j + 1 < n and line[j + 1] == "'":
                    end = j + 1
                else:
                    end = -1
                if end > 0:
                    cats += STRING * (end - i + 1)
                    i = end + 1
                else:
                    cats.append(CODE)
                    i += 1
                continue
            if c in lang.quotes:
                mode, close, escapes = STRING, c, c not in lang.no_escape
                cats.append(STRING)
                i += 1
                continue
            if lang.regex and c == "/" and _regex_start(line, i, cats):
                end = _regex_end(line, i)
                cats += STRING * (end - i)
                i = end
                continue
            if lang.heredoc and line.startswith("<<", i) and not line.startswith("<<<", i):
                tag, strip, used = _heredoc(line, i + 2)
                if tag:
                    pending_heredoc = (tag, strip)
                    cats += CODE * (used + 2)
                    i += used + 2
                    continue
            cats.append(CODE)
            i += 1
        if mode == STRING and close in ("'", '"') and not line.endswith("\\"):
            mode, close = CODE, ""  # an unterminated one-line string ends with its line
        if pending_heredoc[0]:
            heredoc_end, heredoc_strip = pending_heredoc
            pending_heredoc = ("", False)
        out.append("".join(cats))
    return out


def _regex_start(line: str, i: int, cats: list[str]) -> bool:
    if line.startswith(("//", "/*"), i):
        return False
    j = i - 1
    while j >= 0 and line[j].isspace():
        j -= 1
    if j < 0:
        return True
    if cats[j] != CODE:
        return False
    if line[j] in _REGEX_BEFORE:
        return True
    k = j
    while k >= 0 and (line[k].isalnum() or line[k] == "_"):
        k -= 1
    return line[k + 1 : j + 1] in _REGEX_WORDS


def _regex_end(line: str, i: int) -> int:
    j = i + 1
    in_class = False
    while j < len(line):
        c = line[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            j += 1
            while j < len(line) and line[j].isalpha():
                j += 1
            return j
        j += 1
    return i + 1  # no closing slash: it was a division after all


def _heredoc(line: str, j: int) -> tuple[str, bool, int]:
    """(terminator, strip leading tabs, characters used) of a heredoc opener after ``<<``."""
    start = j
    strip = False
    if j < len(line) and line[j] in "-~":
        strip = True
        j += 1
    while j < len(line) and line[j] == " ":
        j += 1
    quote = line[j] if j < len(line) and line[j] in "'\"" else ""
    if quote:
        j += 1
    k = j
    while k < len(line) and (line[k].isalnum() or line[k] == "_"):
        k += 1
    tag = line[j:k]
    if not tag or (tag[0].isdigit()):
        return "", False, 0
    if quote and k < len(line) and line[k] == quote:
        k += 1
    return tag, strip, k - start


# Comments that are instructions to a tool, not prose: kept by the minimal view.
_DIRECTIVES = ("#!", "# -*-", "# vim:", "//go:", "// +build", "/// <reference", "#!/")


def strip_comments(text: str, lang: Lang) -> tuple[list[tuple[int, str]], int, int]:
    """Lines without comments and without runs of blank lines.

    Returns ([(original line number, text)], comment lines removed, blank lines removed).
    A line that held only a comment goes; code keeps its line with the comment cut off.
    """
    lines = text.split("\n")
    cats = classify(text, lang)
    kept: list[tuple[int, str]] = []
    comments = blanks = 0
    prev_blank = False
    for no, (line, cat) in enumerate(zip(lines, cats, strict=True), 1):
        if COMMENT in cat:
            if (no == 1 and line.startswith("#!")) or line.lstrip().startswith(_DIRECTIVES):
                new = line
            else:
                new = "".join(ch for ch, k in zip(line, cat, strict=True) if k != COMMENT).rstrip()
            if not new.strip():
                comments += 1
                continue
            line = new
        if not line.strip():
            if prev_blank or not kept:
                blanks += 1
                continue
            prev_blank = True
            kept.append((no, ""))
            continue
        prev_blank = False
        kept.append((no, line))
    while kept and not kept[-1][1].strip():
        kept.pop()
        blanks += 1
    return kept, comments, blanks


def code_only(text: str, lang: Lang) -> list[str]:
    """Each line with strings blanked and comments removed: what structure scanning reads."""
    out = []
    for line, cat in zip(text.split("\n"), classify(text, lang), strict=True):
        out.append("".join(" " if k == STRING else ch for ch, k in zip(line, cat, strict=True) if k != COMMENT))
    return out
