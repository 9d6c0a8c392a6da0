"""The aggressive view of a source file: imports, declarations and signatures kept, bodies elided with their line ranges.

Python is read by indentation (logical lines, brackets and strings known);
brace languages by matching ``{`` ``}`` in code only (never inside strings or
comments). A body whose opening statement declares a container (class,
struct, impl, interface, enum, trait, namespace...) is kept and its members
are read the same way; any other body (functions, methods, blocks, object
literals) is replaced by one line saying which lines were elided.
"""

from __future__ import annotations

import re

from rtk.commands._source import COMMENT, STRING, Lang, classify

_CONTAINER = re.compile(
    r"\b(class|struct|interface|enum|trait|impl|namespace|module|mod|object|union|protocol|extension|record|extern)\b"
)


def _display(lines: list[str], cats: list[str]) -> list[str | None]:
    """Lines as shown: comments cut off; None for a line that held only a comment."""
    out: list[str | None] = []
    for line, cat in zip(lines, cats, strict=True):
        if COMMENT in cat:
            line = "".join(ch for ch, k in zip(line, cat, strict=True) if k != COMMENT).rstrip()
            if not line.strip():
                out.append(None)
                continue
        out.append(line)
    return out


def outline(text: str, lang: Lang) -> tuple[list[tuple[int | None, str]], int] | None:
    """[(original line number or None for a marker, text)] and the number of lines elided; None if unsupported."""
    if lang.indent:
        return _python(text, lang)
    if lang.braces:
        return _braces(text, lang)
    return None


def _collapse(rows: list[tuple[int | None, str]]) -> list[tuple[int | None, str]]:
    out: list[tuple[int | None, str]] = []
    for no, t in rows:
        if not t.strip():
            if not out or not out[-1][1].strip():
                continue
            t = ""
        out.append((no, t))
    while out and not out[-1][1].strip():
        out.pop()
    return out


def _marker(indent: str, a: int, b: int, comment: str) -> str:
    span = f"line {a}" if a == b else f"lines {a}-{b}"
    return f"{indent}{comment} … {span} elided"


# --- brace languages -------------------------------------------------------------------


def _braces(text: str, lang: Lang) -> tuple[list[tuple[int | None, str]], int]:
    lines = text.split("\n")
    cats = classify(text, lang)
    shown = _display(lines, cats)
    code = [
        "".join(" " if k == STRING else ch for ch, k in zip(ln, c, strict=True) if k != COMMENT)
        for ln, c in zip(lines, cats, strict=True)
    ]
    stack: list[tuple[str, int]] = []  # (kind, line index of the "{")
    head: list[str] = []
    elide: list[tuple[int, int]] = []  # inclusive 0-based line index ranges
    for li, ln in enumerate(code):
        for ch in ln:
            if ch == "{":
                kept_scope = all(k == "container" for k, _ in stack)
                if not kept_scope:
                    stack.append(("inner", li))
                elif _CONTAINER.search("".join(head)):
                    stack.append(("container", li))
                else:
                    stack.append(("body", li))
                head = []
            elif ch == "}":
                if stack:
                    kind, start = stack.pop()
                    if kind == "body" and li - start >= 3:  # a one-line body is shown, not replaced
                        elide.append((start + 1, li - 1))
                head = []
            elif ch == ";":
                head = []
            else:
                head.append(ch)
        head.append(" ")
    rows: list[tuple[int | None, str]] = []
    skip_to = -1
    starts = {a: b for a, b in elide}
    cut = 0
    for li, t in enumerate(shown):
        if li <= skip_to:
            continue
        if li in starts:
            b = starts[li]
            body = [x for x in lines[li : b + 1] if x.strip()]
            indent = body[0][: len(body[0]) - len(body[0].lstrip())] if body else ""
            rows.append((None, _marker(indent, li + 1, b + 1, "//")))
            cut += b - li + 1
            skip_to = b
            continue
        if t is None:
            continue
        rows.append((li + 1, t))
    return _collapse(rows), cut


# --- Python ------------------------------------------------------------------------------


class _Stmt:
    __slots__ = ("end", "header", "indent", "start")

    def __init__(self, start: int, end: int, indent: int, header: bool) -> None:
        self.start = start  # first line index
        self.end = end  # last line index
        self.indent = indent
        self.header = header  # ends with ":" and opens an indented block


def _statements(lines: list[str], cats: list[str], opened: list[bool], shown: list[str | None]) -> list[_Stmt]:
    code = [
        "".join(" " if k == STRING else ch for ch, k in zip(ln, c, strict=True) if k != COMMENT)
        for ln, c in zip(lines, cats, strict=True)
    ]
    stmts: list[_Stmt] = []
    i = 0
    while i < len(lines):
        if not (shown[i] or "").strip() and not opened[i]:
            i += 1
            continue
        start = i
        depth = 0
        while True:
            for ch in code[i]:
                if ch in "([{":
                    depth += 1
                elif ch in ")]}":
                    depth -= 1
            cont = depth > 0 or code[i].rstrip().endswith("\\") or (i + 1 < len(lines) and opened[i + 1])
            if not cont or i + 1 >= len(lines):
                break
            i += 1
        last = code[i].rstrip()
        indent = len(lines[start]) - len(lines[start].lstrip())
        stmts.append(_Stmt(start, i, indent, last.endswith(":")))
        i += 1
    return stmts


def _python(text: str, lang: Lang) -> tuple[list[tuple[int | None, str]], int]:
    lines = text.split("\n")
    opened: list[bool] = []
    cats = classify(text, lang, opened)
    shown = _display(lines, cats)
    stmts = _statements(lines, cats, opened, shown)
    rows: list[tuple[int | None, str]] = []
    cut = 0

    def emit(a: int, b: int) -> None:
        for li in range(a, b + 1):
            t = shown[li]
            if t is not None:
                rows.append((li + 1, t))

    def block(lo: int, hi: int, keep_scope: bool) -> None:
        """Statements lo..hi-1 of one block."""
        nonlocal cut
        k = lo
        while k < hi:
            st = stmts[k]
            end = k + 1
            while end < len(stmts) and stmts[end].indent > st.indent:
                end += 1
            emit_prev_gap(st)
            if st.header and end == k + 2 and stmts[k + 1].end == stmts[k + 1].start:
                emit(st.start, st.end)  # a one-line body is shown, not replaced
                emit(stmts[k + 1].start, stmts[k + 1].end)
            elif st.header and end > k + 1:
                emit(st.start, st.end)
                first = stmts[k + 1].start
                last = stmts[end - 1].end
                is_class = (shown[st.start] or "").lstrip().startswith("class ")
                if is_class and keep_scope:
                    block(k + 1, end, True)
                else:
                    pad = lines[first][: stmts[k + 1].indent]
                    rows.append((None, _marker(pad, first + 1, last + 1, "#")))
                    cut += last - first + 1
            elif st.end - st.start > 5:
                emit(st.start, st.start)
                pad = lines[st.start][: st.indent] + "    "
                rows.append((None, _marker(pad, st.start + 2, st.end, "#")))
                cut += st.end - st.start - 1
                emit(st.end, st.end)
            else:
                emit(st.start, st.end)
            k = end

    def emit_prev_gap(st: _Stmt) -> None:
        prev = shown[st.start - 1] if st.start > 0 else "x"
        if prev is not None and not prev.strip():
            rows.append((st.start, ""))

    block(0, len(stmts), True)
    return _collapse(rows), cut
