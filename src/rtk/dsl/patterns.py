"""What a ``match_command`` regex says: does it compile, is it anchored, which first words it matches.

Read by :mod:`rtk.dsl.schema` when it validates a filter file.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator


def compile_error(pattern: str) -> str | None:
    """None if ``pattern`` compiles, else why not."""
    try:
        re.compile(pattern)
    except re.error as e:
        return str(e)
    except (OverflowError, RecursionError) as e:  # pathological patterns
        return str(e)
    return None


# ---------------------------------------------------------------------------
# Pattern structure: top-level alternatives, anchoring, first words
# ---------------------------------------------------------------------------


def _outside_classes(p: str, i: int = 0) -> Iterator[tuple[int, str]]:
    """Positions and characters of regex ``p`` from ``i``, skipping escapes and ``[...]`` classes."""
    cls = False
    n = len(p)
    while i < n:
        c = p[i]
        if c == "\\":
            i += 2
            continue
        if cls:
            if c == "]":
                cls = False
        elif c == "[":
            cls = True
            j = i + 1
            if j < n and p[j] == "^":
                j += 1
            if j < n and p[j] == "]":
                i = j  # a "]" right after "[" or "[^" is literal
        else:
            yield i, c
        i += 1


def _group_end(p: str, i: int) -> int:
    """Index of the ``)`` closing the group opened at ``p[i]``, or -1."""
    depth = 0
    for j, c in _outside_classes(p, i):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def alternatives(p: str) -> list[str]:
    """The top-level ``|`` branches of a regex."""
    out: list[str] = []
    depth = 0
    start = 0
    for i, c in _outside_classes(p):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append(p[start:i])
            start = i + 1
    out.append(p[start:])
    return out


_FLAGS_RE = re.compile(r"^\(\?[aiLmsux]+\)")


def _strip_flags(branch: str) -> tuple[str, bool]:
    """Remove leading inline flags like ``(?i)``; say whether matching ignores case."""
    icase = False
    while True:
        m = _FLAGS_RE.match(branch)
        if not m:
            return branch, icase
        icase = icase or "i" in m.group(0)
        branch = branch[m.end() :]


def _group_body(group: str) -> str | None:
    """The inside of ``(...)``/``(?:...)``/``(?P<n>...)``; None for lookarounds and the like."""
    inner = group[1:-1]
    if not inner.startswith("?"):
        return inner
    if inner.startswith("?:"):
        return inner[2:]
    if inner.startswith("?P<"):
        end = inner.find(">")
        return inner[end + 1 :] if end > 0 else None
    return None


def anchored(pattern: str) -> bool:
    """True when every top-level alternative must match at the start (``^``)."""
    return all(_branch_anchored(b) for b in alternatives(pattern))


def _branch_anchored(branch: str) -> bool:
    branch, _ = _strip_flags(branch)
    if branch.startswith("^"):
        return True
    if branch.startswith("("):
        end = _group_end(branch, 0)
        if end < 0 or branch[end + 1 : end + 2] in ("?", "*", "{"):
            return False
        body = _group_body(branch[: end + 1])
        return body is not None and anchored(body)
    return False


_LITERAL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_/@%:,=")
_ESCAPED_LITERAL = frozenset("-._+/@%:,=")


def _literal_prefix(s: str) -> tuple[str, str]:
    out: list[str] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s) and s[i + 1] in _ESCAPED_LITERAL:
            out.append(s[i + 1])
            i += 2
        elif c in _LITERAL:
            out.append(c)
            i += 1
        else:
            break
    return "".join(out), s[i:]


def _ends_word(rest: str, depth: int = 0) -> bool:
    """True when every match of ``rest`` starts with whitespace or is at the end of the text."""
    if depth > 8:
        return False
    while rest.startswith(("(?=", "(?!")):  # lookarounds consume nothing
        end = _group_end(rest, 0)
        if end < 0:
            return False
        rest = rest[end + 1 :]
    if rest.startswith("$"):
        return True
    for ws in ("\\s", " "):
        if rest.startswith(ws):
            after = rest[len(ws) :]
            if after[:1] in ("*", "?"):
                return _ends_word(after[1:], depth + 1)
            return True
    if rest.startswith("("):
        end = _group_end(rest, 0)
        body = _group_body(rest[: end + 1]) if end > 0 else None
        if body is None:
            return False
        after = rest[end + 1 :]
        optional = after[:1] in ("*", "?")
        if after[:1] in ("*", "?", "+"):
            after = after[1:]
        alts = alternatives(body)
        ok = all(_ends_word(a, depth + 1) if a else _ends_word(after, depth + 1) for a in alts)
        return ok and (not optional or _ends_word(after, depth + 1))
    return False


def _classify(word: str, rest: str) -> tuple[str, str]:
    if not word or rest[:1] in ("?", "*", "{", "+"):
        return ("any", "")
    if _ends_word(rest):
        return ("exact", word)
    if rest.startswith("\\b") or rest == "":
        return ("prefix", word)
    return ("any", "")


def first_words(pattern: str) -> list[tuple[str, str]]:
    """Which first words a ``match_command`` can match: ``[(kind, word)]``.

    kind ``exact``: the command's first word equals ``word``; ``prefix``: it starts
    with ``word``; ``any``: cannot tell (the filter is tried for every command).
    The result is a superset: the regex itself still decides.
    """
    out: list[tuple[str, str]] = []
    for branch in alternatives(pattern):
        branch, icase = _strip_flags(branch)
        if icase or not branch.startswith("^"):
            return [("any", "")]
        branch = branch[1:]
        if branch.startswith("("):
            end = _group_end(branch, 0)
            body = _group_body(branch[: end + 1]) if end > 0 else None
            after = branch[end + 1 :] if end > 0 else ""
            if body is None or after[:1] in ("?", "*", "{", "+"):
                return [("any", "")]
            for alt in alternatives(body):
                word, rest = _literal_prefix(alt)
                kind = _classify(word, rest if rest else after)
                if kind[0] == "any":
                    return [kind]
                out.append(kind)
        else:
            word, rest = _literal_prefix(branch)
            kind = _classify(word, rest)
            if kind[0] == "any":
                return [kind]
            out.append(kind)
    return out
