"""Command-line structure: pipelines of segments, redirects, env prefixes and wrappers peeled.

``parse(line)`` turns a line into :class:`Line`: a list of :class:`Pipeline` (one
per ``&&``/``||``/``;``/``&``/newline-separated part), each a list of :class:`Segment`.
A segment is a simple command (its words, its redirects) or an *opaque* region the
rewriter never touches: a subshell ``( ... )``, a group ``{ ...; }``, or a control
structure (``if``/``for``/``while``/``until``/``select``/``case`` up to its closing
keyword). ``Line.ok`` is False when the line cannot be handled at all (it does not
lex, or its structure is unbalanced); ``Line.heredoc``/``Line.arith`` flag the
constructs after which nothing on the line is rewritten.

The simple-command part (``peel``: assignments, ``env``, wrappers stepped over;
``resolve``: wrapper forms mapped to their tool) lives in :mod:`rtk.shell.simple` and is
re-exported here.
"""

from __future__ import annotations

from rtk.shell.lexer import (
    ARITH,
    BAD,
    BODY,
    CLOSE,
    CMDSUB,
    HEREDOC,
    OP,
    OPEN,
    PIPE,
    PROCSUB,
    REDIR,
    WORD,
    Token,
    lex,
)
from rtk.shell.simple import WRAPPERS as WRAPPERS  # the simple-command API, re-exported
from rtk.shell.simple import Resolved as Resolved
from rtk.shell.simple import Simple as Simple
from rtk.shell.simple import is_assignment as is_assignment
from rtk.shell.simple import is_python as is_python
from rtk.shell.simple import peel as peel
from rtk.shell.simple import resolve as resolve
from rtk.shell.simple import tool_name as tool_name

# Keyword openers in command position -> the keyword that closes them.
OPENERS = {"if": "fi", "for": "done", "while": "done", "until": "done", "select": "done", "case": "esac", "{": "}"}
CLOSERS = frozenset(("fi", "done", "esac", "}"))
# Keywords after which the next word is again in command position.
_CMD_AFTER = frozenset(("then", "do", "else", "elif", "{", "!", "if", "while", "until", "time"))
_STRAY = frozenset(("then", "do", "else", "elif", "fi", "done", "esac", "}", "in", "function"))

# Targets of redirections that do not send output to a file.
SAFE_TARGETS = frozenset(("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"))


class Segment:
    """One simple command (or an opaque region) with its span in the line."""

    __slots__ = ("end", "opaque", "redirs", "start", "tokens", "words")

    def __init__(self) -> None:
        self.start = -1
        self.end = -1
        self.words: list[Token] = []
        self.redirs: list[tuple[Token, Token | None]] = []
        self.tokens: list[Token] = []  # every token of the segment, in order
        self.opaque = ""  # why it is never rewritten ("subshell", "if"...), or ""

    def add(self, tok: Token) -> None:
        if self.start < 0:
            self.start = tok.start
        self.end = tok.end
        self.tokens.append(tok)

    def flags(self) -> int:
        f = 0
        for t in self.tokens:
            f |= t.flags
        return f

    def stdout_to_file(self) -> bool:
        """Output (stdout, or stderr apart from 2>&1 / 2>/dev/null) goes to a file."""
        for op, target in self.redirs:
            v = op.value
            if op.kind == HEREDOC or ("<" in v and ">" not in v):
                continue
            tv = target.value if target is not None else ""
            if v.endswith(">&") or v.endswith("<&"):
                if tv.isdigit() or tv == "-":
                    continue
                return True  # >&file
            if tv in SAFE_TARGETS and not (target is not None and target.flags):
                continue
            return True
        return False


class Pipeline:
    """Segments joined by ``|``; ``op`` is the operator that ends it (or "")."""

    __slots__ = ("op", "pipe_amp", "segments")

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.op = ""
        self.pipe_amp = False  # contains |&


class Line:
    """A parsed command line."""

    __slots__ = ("arith", "flags", "heredoc", "ok", "pipelines", "reason", "tokens")

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pipelines: list[Pipeline] = []
        self.ok = True
        self.reason = ""
        self.heredoc = False
        self.arith = False
        self.flags = 0

    def segments(self) -> list[Segment]:
        return [s for p in self.pipelines for s in p.segments]


def parse(line: str) -> Line:
    """Structure of ``line`` (see the module docstring)."""
    return structure(lex(line))


def structure(toks: list[Token]) -> Line:
    res = Line(toks)
    pipe = Pipeline()
    seg = Segment()
    n = len(toks)
    i = 0

    def close_segment() -> None:
        nonlocal seg
        if seg.tokens:
            pipe.segments.append(seg)
        seg = Segment()

    def fail(reason: str) -> None:
        if res.ok:
            res.ok = False
            res.reason = reason

    while i < n:
        t = toks[i]
        k = t.kind
        res.flags |= t.flags
        if k == WORD:
            if t.flags & ARITH:
                res.arith = True
            if t.flags & (CMDSUB | PROCSUB) and "<<" in t.value:
                res.heredoc = True  # a here-document inside a substitution
            if not seg.words and not seg.opaque and not t.flags:
                v = t.value
                if v in OPENERS or v == "function":
                    i = _region(toks, i, seg, res)
                    continue
                if v in _STRAY:
                    fail(f"unexpected {v!r}")
            if seg.opaque:
                fail("text after a subshell or block")
            seg.add(t)
            seg.words.append(t)
            i += 1
        elif k in (REDIR, HEREDOC):
            if k == HEREDOC:
                res.heredoc = True
            seg.add(t)
            target = toks[i + 1] if i + 1 < n and toks[i + 1].kind == WORD else None
            if target is None:
                fail("redirection without a target")
                seg.redirs.append((t, None))
                i += 1
                continue
            res.flags |= target.flags
            seg.add(target)
            seg.redirs.append((t, target))
            i += 2
        elif k == OP:
            if t.value in (";;", ";&", ";;&"):
                fail("case terminator outside case")
            if not seg.tokens:
                if t.value == "\n" and (not pipe.segments or (i and toks[i - 1].kind == PIPE)):
                    i += 1  # a blank line, or a line break after && || |
                    continue
                if t.value != "\n" or not pipe.segments:
                    fail(f"{t.value!r} without a command before it")
            close_segment()
            pipe.op = t.value
            res.pipelines.append(pipe)
            pipe = Pipeline()
            i += 1
        elif k == PIPE:
            if not seg.tokens:
                fail("empty pipeline stage")
            if t.value == "|&":
                pipe.pipe_amp = True
            close_segment()
            i += 1
        elif k == OPEN:
            if seg.tokens:
                fail("function definition or stray parenthesis")
                seg.add(t)
                i += 1
                continue
            i = _subshell(toks, i, seg, res)
        elif k == CLOSE:
            fail("unbalanced parenthesis")
            seg.add(t)
            i += 1
        elif k == BAD:
            fail("unterminated quote or substitution")
            seg.add(t)
            i += 1
        elif k == BODY:
            res.heredoc = True
            i += 1
        else:  # COMMENT
            i += 1
    if not seg.tokens and res.pipelines and res.pipelines[-1].op in ("&&", "||") and not pipe.segments:
        fail("operator at the end of the line")
    if not seg.tokens and pipe.segments:
        fail("pipe at the end of the line")
    close_segment()
    if pipe.segments:
        res.pipelines.append(pipe)
    return res


def _subshell(toks: list[Token], i: int, seg: Segment, res: Line) -> int:
    """``( ... )`` from ``toks[i]``: add it to ``seg`` as one opaque region."""
    depth = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        res.flags |= t.flags
        if t.flags & ARITH:
            res.arith = True
        if t.kind in (HEREDOC, BODY):
            res.heredoc = True
        if t.kind == BAD:
            res.ok = False
            res.reason = res.reason or "unterminated quote or substitution"
        seg.add(t)
        if t.kind == OPEN:
            depth += 1
        elif t.kind == CLOSE:
            depth -= 1
            if depth == 0:
                seg.opaque = "subshell"
                return i + 1
        i += 1
    res.ok = False
    res.reason = res.reason or "unclosed parenthesis"
    seg.opaque = "subshell"
    return i


def _region(toks: list[Token], i: int, seg: Segment, res: Line) -> int:
    """A control structure or group from the keyword at ``toks[i]`` to its closer."""
    opener = toks[i].value
    n = len(toks)
    if opener == "function":
        # function name { ...; } / function name ( ... ): opaque to the end of the line.
        while i < n:
            res.flags |= toks[i].flags
            seg.add(toks[i])
            i += 1
        seg.opaque = "function"
        return i
    stack: list[str] = []
    cmd_pos = True
    while i < n:
        t = toks[i]
        res.flags |= t.flags
        if t.kind == HEREDOC or t.kind == BODY:
            res.heredoc = True
        if t.kind == BAD:
            res.ok = False
            res.reason = res.reason or "unterminated quote or substitution"
        seg.add(t)
        i += 1
        if t.kind == WORD:
            v = t.value
            if t.flags & ARITH:
                res.arith = True
            if cmd_pos and not t.flags:
                if v in OPENERS:
                    stack.append(OPENERS[v])
                elif v in CLOSERS and stack and stack[-1] == v:
                    stack.pop()
                    if not stack:
                        seg.opaque = opener
                        # Redirections of the whole structure belong to it.
                        while i < n and toks[i].kind in (REDIR, HEREDOC):
                            op = toks[i]
                            seg.add(op)
                            target = toks[i + 1] if i + 1 < n and toks[i + 1].kind == WORD else None
                            if target is not None:
                                seg.add(target)
                                seg.redirs.append((op, target))
                                i += 2
                            else:
                                seg.redirs.append((op, None))
                                i += 1
                        return i
            cmd_pos = v in _CMD_AFTER and not t.flags
        elif t.kind in (OP, PIPE, OPEN, CLOSE):
            cmd_pos = True
        else:
            cmd_pos = False
    res.ok = False
    res.reason = res.reason or f"{opener!r} without its closing keyword"
    seg.opaque = opener
    return i
