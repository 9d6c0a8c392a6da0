"""A single-pass POSIX/bash lexer: typed tokens with the span each one covers in the line.

``lex(line)`` never raises. Each :class:`Token` has a ``kind``, the ``start``/``end``
offsets of its text in ``line`` (so ``line[t.start:t.end]`` is the token exactly as
written, and untouched text can be copied byte for byte), a ``value`` (for words:
the text with quotes and escapes removed; for operators: the operator) and
``flags`` saying which shell constructs a word contains.

Kinds: ``word``; ``op`` (``&&`` ``||`` ``;`` ``&`` newline ``;;`` ``;&`` ``;;&``);
``pipe`` (``|`` ``|&``); ``redir`` (``>`` ``>>`` ``<`` ``>|`` ``<>`` ``>&`` ``<&``
``&>`` ``&>>`` ``<<<``, with an optional fd number glued in front, e.g. ``2>``);
``heredoc`` (``<<`` ``<<-``) and ``body`` (the here-document lines it introduces);
``(`` and ``)``; ``comment``; and ``bad``, which covers the rest of the line after an
unterminated quote or substitution. Words that hold ``$(...)``, backticks, ``$((...))``,
``${...}``/``$var``, ``$'...'`` or process substitution ``<(...)`` are single words
carrying the matching flag.

Nested constructs are recorded at any depth: while finding the end of ``${...}``,
``$((...))``/``$[...]``, double quotes and here-string words, every substitution met
inside adds its flag to the word (``${x:-$(cmd)}`` is ``EXPAND | CMDSUB``). Inside
``${...}`` the lexer also flags what evaluates a value as code: a non-literal array
subscript or substring offset (arithmetic: ``ARITH``), ``${!name}`` indirection and
``${x@P}`` prompt expansion, and zsh's ``${(e)x}``/``${(P)x}`` flags and ``${~x}``/``$~x``
glob substitution (``EVAL``); inside a double-quoted ``${...}``, single
quotes do not quote, so a ``$`` or backtick there counts as ``CMDSUB``.
``EXECUTES`` holds every flag of a construct that can run code.
"""

from __future__ import annotations

WORD = "word"
OP = "op"
PIPE = "pipe"
REDIR = "redir"
HEREDOC = "heredoc"
BODY = "body"
OPEN = "("
CLOSE = ")"
COMMENT = "comment"
BAD = "bad"

# Word flags.
QUOTED = 1  # some part was quoted ('...', "...", $'...')
ANSI_C = 2  # $'...'
EXPAND = 4  # $var, ${...}
CMDSUB = 8  # $(...) or `...`
ARITH = 16  # $((...))
PROCSUB = 32  # <(...) or >(...)
GLOB = 64  # unquoted * ? [
ESCAPED = 128  # a backslash escape
EVAL = 256  # ${!name} indirection, ${x@P} prompt expansion, zsh ${(e)x} ${~x}: a value evaluated as code
# Constructs that can run code (a command, or arithmetic with side effects), at any depth.
EXECUTES = CMDSUB | PROCSUB | ARITH | EVAL

_META = frozenset(" \t\n;&|<>()")
# Characters that end a run of plain word characters.
_STOP = frozenset(" \t\n;&|<>()\\'\"$`*?[")
_ANSI = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "v": "\v"}


class Token:
    """One token: kind, span in the line, unquoted value, construct flags."""

    __slots__ = ("end", "flags", "kind", "start", "value")

    def __init__(self, kind: str, start: int, end: int, value: str, flags: int = 0) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.value = value
        self.flags = flags

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, {self.start}, {self.end}, {self.value!r}, {self.flags})"


class _Bad(Exception):
    """Unterminated quote or substitution."""


# A line without any of these is plain words separated by spaces.
_PLAIN_BREAKERS = frozenset("\t\n\r;&|<>()\\'\"$`*?[#")


def lex(line: str) -> list[Token]:
    """Tokens of ``line``; the last one is ``bad`` when the line does not lex."""
    if _PLAIN_BREAKERS.isdisjoint(line):
        return _plain(line)
    toks: list[Token] = []
    s = line
    n = len(s)
    i = 0
    heredocs: list[tuple[str, bool]] = []  # delimiters waiting for the next newline
    want_delim: bool | None = None  # after << / <<-: strip-tabs flag for the next word
    start = 0
    try:
        while i < n:
            start = i
            c = s[i]
            if c == " " or c == "\t":
                i += 1
                continue
            if c == "\\" and i + 1 < n and s[i + 1] == "\n":
                i += 2  # line continuation
                continue
            if c == "\n":
                toks.append(Token(OP, i, i + 1, "\n"))
                i += 1
                if heredocs:
                    i = _bodies(s, i, heredocs, toks)
                    heredocs = []
                continue
            if c == "#":
                j = s.find("\n", i)
                j = n if j < 0 else j
                toks.append(Token(COMMENT, i, j, s[i:j]))
                i = j
                continue
            if c in _META:
                i, tok = _operator(s, i, n)
                toks.append(tok)
                if tok.kind == HEREDOC:
                    want_delim = tok.value == "<<-"
                continue
            i, value, flags = _word(s, i, n)
            if value.isdigit() and flags == 0 and i < n and s[i] in "<>" and (i + 1 >= n or s[i + 1] != "("):
                # An fd number glued to a redirection: 2>, 2>&1, 0<...
                i, tok = _operator(s, i, n)
                tok.start = start
                tok.value = value + tok.value
                toks.append(tok)
                if tok.kind == HEREDOC:
                    want_delim = tok.value.endswith("<<-")
                continue
            toks.append(Token(WORD, start, i, value, flags))
            if want_delim is not None:
                heredocs.append((value, want_delim))
                want_delim = None
    except _Bad:
        toks.append(Token(BAD, start, n, s[start:]))
    return toks


def _plain(s: str) -> list[Token]:
    """Fast path: only words and spaces."""
    toks: list[Token] = []
    pos = 0
    for piece in s.split(" "):
        if piece:
            toks.append(Token(WORD, pos, pos + len(piece), piece))
        pos += len(piece) + 1
    return toks


def _bodies(s: str, i: int, delims: list[tuple[str, bool]], toks: list[Token]) -> int:
    """Skip the here-document bodies that start at ``i``; one ``body`` token each."""
    n = len(s)
    for delim, strip_tabs in delims:
        start = i
        end = n
        while i < n:
            j = s.find("\n", i)
            j = n if j < 0 else j
            text = s[i:j]
            if (text.lstrip("\t") if strip_tabs else text) == delim:
                end = j
                i = j + 1 if j < n else n
                break
            i = j + 1
        else:
            end = n
            i = n
        toks.append(Token(BODY, start, end, s[start:end]))
    return i


def _operator(s: str, i: int, n: int) -> tuple[int, Token]:
    c = s[i]
    nxt = s[i + 1] if i + 1 < n else ""
    if c == ";":
        if nxt == ";":
            if i + 2 < n and s[i + 2] == "&":
                return i + 3, Token(OP, i, i + 3, ";;&")
            return i + 2, Token(OP, i, i + 2, ";;")
        if nxt == "&":
            return i + 2, Token(OP, i, i + 2, ";&")
        return i + 1, Token(OP, i, i + 1, ";")
    if c == "&":
        if nxt == "&":
            return i + 2, Token(OP, i, i + 2, "&&")
        if nxt == ">":
            if i + 2 < n and s[i + 2] == ">":
                return i + 3, Token(REDIR, i, i + 3, "&>>")
            return i + 2, Token(REDIR, i, i + 2, "&>")
        return i + 1, Token(OP, i, i + 1, "&")
    if c == "|":
        if nxt == "|":
            return i + 2, Token(OP, i, i + 2, "||")
        if nxt == "&":
            return i + 2, Token(PIPE, i, i + 2, "|&")
        return i + 1, Token(PIPE, i, i + 1, "|")
    if c == "(":
        return i + 1, Token(OPEN, i, i + 1, "(")
    if c == ")":
        return i + 1, Token(CLOSE, i, i + 1, ")")
    if nxt == "(":  # <(...) or >(...): process substitution, one word
        end, _ = _balanced(s, i + 2, n)
        return end, Token(WORD, i, end, s[i:end], PROCSUB)
    if c == "<":
        if nxt == "<":
            if i + 2 < n and s[i + 2] == "<":
                return i + 3, Token(REDIR, i, i + 3, "<<<")
            if i + 2 < n and s[i + 2] == "-":
                return i + 3, Token(HEREDOC, i, i + 3, "<<-")
            return i + 2, Token(HEREDOC, i, i + 2, "<<")
        if nxt == "&" or nxt == ">":
            return i + 2, Token(REDIR, i, i + 2, c + nxt)
        return i + 1, Token(REDIR, i, i + 1, "<")
    # c == ">"
    if nxt == ">" or nxt == "&" or nxt == "|":
        return i + 2, Token(REDIR, i, i + 2, c + nxt)
    return i + 1, Token(REDIR, i, i + 1, ">")


def _word(s: str, i: int, n: int) -> tuple[int, str, int]:
    """Scan one word from ``i``; return (end, unquoted value, flags)."""
    parts: list[str] = []
    flags = 0
    while i < n:
        c = s[i]
        if c in _META:
            break
        if c == "\\":
            if i + 1 >= n:
                parts.append("\\")
                i += 1
            elif s[i + 1] == "\n":
                i += 2
            else:
                parts.append(s[i + 1])
                flags |= ESCAPED
                i += 2
        elif c == "'":
            j = s.find("'", i + 1)
            if j < 0:
                raise _Bad(i)
            parts.append(s[i + 1 : j])
            flags |= QUOTED
            i = j + 1
        elif c == '"':
            i, f = _dquote(s, i + 1, n, parts)
            flags |= f | QUOTED
        elif c == "$":
            nxt = s[i + 1] if i + 1 < n else ""
            if nxt == "'":
                i = _ansi_c(s, i + 2, n, parts)
                flags |= ANSI_C | QUOTED
            elif nxt == '"':
                i, f = _dquote(s, i + 2, n, parts)
                flags |= f | QUOTED
            else:
                j, f = _dollar(s, i, n)
                parts.append(s[i:j])
                flags |= f
                i = j
        elif c == "`":
            j = _backtick(s, i + 1, n)
            parts.append(s[i:j])
            flags |= CMDSUB
            i = j
        elif c == "*" or c == "?" or c == "[":
            parts.append(c)
            flags |= GLOB
            i += 1
        else:
            j = i + 1
            while j < n and s[j] not in _STOP:
                j += 1
            parts.append(s[i:j])
            i = j
    return i, "".join(parts), flags


def _dquote(s: str, i: int, n: int, parts: list[str]) -> tuple[int, int]:
    """Scan a double-quoted string whose body starts at ``i``; return (end, flags)."""
    flags = 0
    while True:
        if i >= n:
            raise _Bad(i)
        c = s[i]
        if c == '"':
            return i + 1, flags
        if c == "\\":
            nxt = s[i + 1] if i + 1 < n else ""
            if nxt in ('"', "\\", "$", "`"):
                parts.append(nxt)
                flags |= ESCAPED
                i += 2
            elif nxt == "\n":
                i += 2
            else:
                parts.append("\\")
                i += 1
        elif c == "$":
            j, f = _dollar(s, i, n, True)
            parts.append(s[i:j])
            flags |= f
            i = j
        elif c == "`":
            j = _backtick(s, i + 1, n)
            parts.append(s[i:j])
            flags |= CMDSUB
            i = j
        else:
            j = i + 1
            while j < n and s[j] not in '"\\$`':
                j += 1
            parts.append(s[i:j])
            i = j


def _ansi_c(s: str, i: int, n: int, parts: list[str]) -> int:
    """Scan ``$'...'`` whose body starts at ``i``; common escapes are decoded."""
    while True:
        if i >= n:
            raise _Bad(i)
        c = s[i]
        if c == "'":
            return i + 1
        if c == "\\":
            if i + 1 >= n:
                raise _Bad(i)
            e = s[i + 1]
            parts.append(_ANSI.get(e, e))
            i += 2
        else:
            parts.append(c)
            i += 1


def _dollar(s: str, i: int, n: int, dq: bool = False) -> tuple[int, int]:
    """At ``$``: the end of the expansion and its flags, nested ones included (``$`` alone is literal)."""
    nxt = s[i + 1] if i + 1 < n else ""
    if nxt == "(":
        if i + 2 < n and s[i + 2] == "(":
            end, f = _balanced(s, i + 2, n)
            return end, ARITH | EXPAND | f
        end, _ = _balanced(s, i + 2, n)
        return end, CMDSUB
    if nxt == "[":  # $[...]: bash's old arithmetic expansion
        end, f = _balanced(s, i + 2, n, "]")
        return end, ARITH | EXPAND | f
    if nxt == "{":
        return _brace(s, i + 2, n, dq)
    if nxt == "~" and i + 2 < n and (s[i + 2].isalpha() or s[i + 2] in "_{"):  # zsh: $~x globs the value
        end, f = _dollar(s, i + 1, n, dq)
        return end, f | EXPAND | EVAL
    if nxt.isalpha() or nxt == "_":
        j = i + 2
        while j < n and (s[j].isalnum() or s[j] == "_"):
            j += 1
        return j, EXPAND
    if nxt and (nxt.isdigit() or nxt in "?#@*$!-"):
        return i + 2, EXPAND
    return i + 1, 0


def _name_end(s: str, j: int, n: int) -> int:
    while j < n and (s[j].isalnum() or s[j] == "_"):
        j += 1
    return j


def _brace(s: str, j: int, n: int, dq: bool) -> tuple[int, int]:
    """``${...}`` whose body starts at ``j``: (end, flags of everything in it)."""
    flags = EXPAND
    if j < n and s[j] in "(~":  # zsh: ${(e)x} evaluates the value, ${(P)x} is indirection, ${~x} globs it
        flags |= EVAL  # (a glob qualifier *(e:cmd:) runs cmd); bash refuses both forms
    if j < n and s[j] == "!":  # ${!name} is indirection; ${!prefix*} and ${!name[@]} list names
        k = _name_end(s, j + 1, n)
        tail = s[k : k + 4]
        if not (tail.startswith(("*}", "@}", "[@]}", "[*]}"))):
            flags |= EVAL
        j += 1
    elif j + 1 < n and s[j] == "#" and s[j + 1] != "}":
        j += 1  # ${#name}: length
    k = _name_end(s, j, n)
    if k == j and k < n and s[k] in "@*#?-$!0123456789":
        k += 1
    j = k
    if j < n and s[j] == "[":  # a subscript is arithmetic unless it is literal
        end, f = _balanced(s, j + 1, n, "]")
        sub = s[j + 1 : end - 1]
        if sub not in ("@", "*") and not sub.removeprefix("-").isdigit():
            flags |= ARITH
        flags |= f
        j = end
    if s.startswith("@P", j):
        flags |= EVAL
    offset = j + 1 if j + 1 < n and s[j] == ":" and s[j + 1] not in "-=?+" else -1  # ${x:off:len}
    depth = 1
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
        elif c == "'":
            q = s.find("'", j + 1)
            if q < 0:
                raise _Bad(j)
            if dq and ("$" in s[j:q] or "`" in s[j:q]):
                flags |= CMDSUB  # single quotes do not quote inside "${...}"
            j = q + 1
        elif c == '"':
            j, f = _dquote(s, j + 1, n, [])
            flags |= f
        elif c == "$":
            if not dq and s.startswith("$'", j):
                j = _ansi_c(s, j + 2, n, [])
                flags |= ANSI_C
                continue
            end, f = _dollar(s, j, n, dq)
            flags |= f
            j = max(end, j + 1)
        elif c == "`":
            j = _backtick(s, j + 1, n)
            flags |= CMDSUB
        elif (c == "<" or c == ">") and s.startswith("(", j + 1):
            j, _ = _balanced(s, j + 2, n)
            flags |= PROCSUB
        else:
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    if offset > 0 and s[offset:j].strip(" 0123456789:-"):
                        flags |= ARITH
                    return j + 1, flags
            j += 1
    raise _Bad(j)


def _backtick(s: str, i: int, n: int) -> int:
    """End of a backquoted command substitution whose body starts at ``i``."""
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
        elif c == "`":
            return i + 1
        else:
            i += 1
    raise _Bad(i)


def _balanced(s: str, i: int, n: int, close: str = ")") -> tuple[int, int]:
    """End (after the closer) of a ``(``- or ``[``-opened region whose body starts at ``i``, and nested flags."""
    opener = "(" if close == ")" else "["
    depth = 1
    flags = 0
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
        elif c == "'":
            j = s.find("'", i + 1)
            if j < 0:
                raise _Bad(i)
            i = j + 1
        elif c == '"':
            i, f = _dquote(s, i + 1, n, [])
            flags |= f
        elif c == "`":
            i = _backtick(s, i + 1, n)
            flags |= CMDSUB
        elif c == "$" and i + 1 < n and s[i + 1] in "({[":
            i, f = _dollar(s, i, n)
            flags |= f
        elif c == opener:
            depth += 1
            i += 1
        elif c == close:
            depth -= 1
            i += 1
            if depth == 0:
                return i, flags
        elif c == "#" and opener == "(" and (s[i - 1] in " \t\n;&|("):
            j = s.find("\n", i)
            if j < 0:
                raise _Bad(i)
            i = j
        else:
            i += 1
    raise _Bad(i)
