"""Codex CLI's execpolicy ``.rules`` files, read without executing them: the literal ``prefix_rule(...)`` subset.

A ``.rules`` file is Starlark; Codex runs it. rtk never does: it reads only files made of
``prefix_rule(pattern=[...], decision="allow"|"prompt"|"forbidden", justification="...",
match=[...], not_match=[...])`` calls whose arguments are string literals and lists of them,
with ``#`` comments and trailing commas. Anything else (a variable, a ``load``, another
function, a number, an f-string, a positional argument, an unknown keyword, a ``match``
example the rule does not match) makes the whole file "cannot be evaluated": nothing is
auto-allowed while it is there.

A pattern is a command prefix, one element per argument; an element that is a list is a set
of alternatives (``["gh", "pr", ["view", "list"]]``). ``decision`` defaults to ``allow``.
Where several rules match, the most restrictive wins (forbidden > prompt > allow), which is
the rewrite engine's deny > ask > allow. The format follows Codex's documentation of its
execpolicy rules; it is not in the protocol reference (``agent-hooks.md``) and is
unconfirmed here: no Codex binary runs in this environment.

Files read: ``$CODEX_HOME/rules/*.rules`` (default ``~/.codex``) and ``.codex/rules/*.rules``
of the working directory and its parents (below the home directory). A project layer only
counts for allow when the user's ``config.toml`` marks that directory, or a parent,
``trust_level = "trusted"`` (Codex ignores an untrusted project's ``.codex``); its prompt and
forbidden rules are honoured either way.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

DECISIONS = {"allow": "allow", "prompt": "ask", "forbidden": "deny"}
_KWARGS = frozenset(("pattern", "decision", "justification", "match", "not_match"))
_MAX_EXPANSION = 256  # alternatives multiply; a pattern with more prefixes than this is refused
_PUNCT = "()[],=;"

Value = str | list["Value"]
Rule = tuple[list[tuple[str, ...]], str]  # (every prefix the pattern expands to, decision)


class Unreadable(ValueError):
    """The file is outside the literal subset rtk reads (or is not valid as Codex would load it)."""


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def _string(text: str, i: int) -> tuple[str, int]:
    """A Starlark string literal at ``text[i]`` (plain, ``r``-prefixed, single or triple quoted)."""
    raw = False
    if text[i] in "rR":
        raw = True
        i += 1
    q = text[i]
    triple = text.startswith(q * 3, i)
    end_q = q * 3 if triple else q
    i += len(end_q)
    out: list[str] = []
    n = len(text)
    while i < n:
        if text.startswith(end_q, i):
            return "".join(out), i + len(end_q)
        c = text[i]
        if c == "\n" and not triple:
            break
        if c == "\\":
            if i + 1 >= n:
                break
            nxt = text[i + 1]
            if raw:
                out.append(c + nxt)
            elif nxt in "\\'\"":
                out.append(nxt)
            elif nxt in "nt":
                out.append("\n" if nxt == "n" else "\t")
            elif nxt == "\n":
                pass
            else:
                raise Unreadable(f"escape \\{nxt} in a string")
            i += 2
            continue
        out.append(c)
        i += 1
    raise Unreadable("a string is not closed")


def tokens(text: str) -> list[tuple[str, str]]:
    """``(kind, value)`` tokens: ``name``, ``str`` and punctuation; comments and whitespace dropped."""
    out: list[tuple[str, str]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif c in "\"'" or (c in "rR" and i + 1 < n and text[i + 1] in "\"'"):
            s, i = _string(text, i)
            out.append(("str", s))
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(("name", text[i:j]))
            i = j
        elif c in _PUNCT:
            out.append((c, c))
            i += 1
        else:
            raise Unreadable(f"unexpected {c!r}")
    return out


class _Reader:
    def __init__(self, toks: list[tuple[str, str]]) -> None:
        self.toks = toks
        self.i = 0

    def peek(self) -> str:
        return self.toks[self.i][0] if self.i < len(self.toks) else ""

    def take(self, kind: str) -> str:
        if self.peek() != kind:
            got = self.toks[self.i][1] if self.i < len(self.toks) else "the end of the file"
            raise Unreadable(f"expected {kind!r}, found {got!r}")
        self.i += 1
        return self.toks[self.i - 1][1]

    def value(self, depth: int = 0) -> Value:
        if self.peek() == "str":
            return self.take("str")
        if self.peek() != "[" or depth > 3:
            raise Unreadable("only string literals and lists of them are read")
        self.take("[")
        items: list[Value] = []
        while self.peek() != "]":
            items.append(self.value(depth + 1))
            if self.peek() != ",":
                break
            self.take(",")
        self.take("]")
        return items


def parse_text(text: str) -> list[Rule]:
    """Every ``prefix_rule`` of a rules file; :class:`Unreadable` when the file is outside the literal subset."""
    r = _Reader(tokens(text))
    rules: list[Rule] = []
    while r.peek():
        if r.peek() == ";":
            r.take(";")
            continue
        name = r.take("name")
        if name != "prefix_rule":
            raise Unreadable(f"{name} is not a prefix_rule")
        r.take("(")
        args: dict[str, Value] = {}
        while r.peek() != ")":
            key = r.take("name")
            if key not in _KWARGS or key in args:
                raise Unreadable(f"prefix_rule argument {key!r}")
            r.take("=")
            args[key] = r.value()
            if r.peek() != ",":
                break
            r.take(",")
        r.take(")")
        rules.append(_rule(args))
    return rules


def _rule(args: dict[str, Value]) -> Rule:
    pattern = args.get("pattern")
    if not isinstance(pattern, list) or not pattern:
        raise Unreadable("prefix_rule needs a non-empty pattern list")
    decision = args.get("decision", "allow")
    if not isinstance(decision, str) or decision not in DECISIONS:
        raise Unreadable(f"decision {decision!r}")
    if "justification" in args and not isinstance(args["justification"], str):
        raise Unreadable("justification is not a string")
    prefixes = _expand(pattern)
    for key, want in (("match", True), ("not_match", False)):
        examples = args.get(key, [])
        if not isinstance(examples, list):
            raise Unreadable(f"{key} is not a list")
        for ex in examples:  # Codex checks these when it loads the file; a failing one stops the load
            if _matches(prefixes, _example(ex)) != want:
                raise Unreadable(f"{key} example {ex!r} disagrees with the pattern")
    return prefixes, DECISIONS[decision]


def _expand(pattern: list[Value]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for el in pattern:
        alts = el if isinstance(el, list) else [el]
        if not alts or not all(isinstance(a, str) and a for a in alts):
            raise Unreadable("a pattern element is not a non-empty string or list of them")
        out = [(*p, a) for p in out for a in alts if isinstance(a, str)]
        if len(out) > _MAX_EXPANSION:
            raise Unreadable("the pattern has too many alternatives")
    return out


def _example(ex: Value) -> list[str]:
    if isinstance(ex, str):
        import shlex

        try:
            return shlex.split(ex)
        except ValueError:
            raise Unreadable(f"example {ex!r} does not split") from None
    if isinstance(ex, list) and all(isinstance(w, str) for w in ex):
        return [w for w in ex if isinstance(w, str)]
    raise Unreadable("an example is not a string or a list of strings")


def _matches(prefixes: list[tuple[str, ...]], argv: list[str]) -> bool:
    return any(tuple(argv[: len(p)]) == p for p in prefixes)


# ---------------------------------------------------------------------------
# As rtk's permission patterns
# ---------------------------------------------------------------------------


def _safe_for_allow(prefix: tuple[str, ...]) -> bool:
    """A prefix whose words the ``Bash(...)`` matcher reads literally (no glob star, no word with a space)."""
    return all("*" not in w and not any(c.isspace() for c in w) for w in prefix)


def patterns(rules: list[Rule], *, allow: bool = True) -> dict[str, list[str]]:
    """``{"allow": [...], "ask": [...], "deny": [...]}`` as ``prefix:*`` patterns; ``allow=False`` drops allows.

    An allow prefix with a ``*`` or a word holding whitespace is dropped: the matcher would read it
    more broadly than Codex (a glob; two words), and an allow must never be broader.
    """
    out: dict[str, list[str]] = {"allow": [], "ask": [], "deny": []}
    for prefixes, verdict in rules:
        if verdict == "allow" and not allow:
            continue
        for p in prefixes:
            if verdict == "allow" and not _safe_for_allow(p):
                continue
            out[verdict].append(" ".join(" ".join(p).split()) + ":*")
    return out


def parse_files(files: list[str], counts_for_allow: Callable[[str], bool]) -> tuple[dict[str, list[str]], list[str]]:
    """The patterns of the ``.rules`` files among ``files`` and the problems; ``counts_for_allow(codex_dir)``
    says whether a layer's allow rules count (the user's, a trusted project's)."""
    out: dict[str, list[str]] = {"allow": [], "ask": [], "deny": []}
    broken: list[str] = []
    for path in files:
        if not path.endswith(".rules"):
            continue
        codex_dir = os.path.dirname(os.path.dirname(path))
        try:
            with open(path, "rb") as f:
                rules = parse_text(f.read().decode("utf-8"))
        except (OSError, UnicodeDecodeError) as e:
            broken.append(f"{path}: {type(e).__name__}")
            continue
        except Unreadable as e:
            broken.append(f"{path}: cannot be evaluated without running it ({e})")
            continue
        for verdict, pats in patterns(rules, allow=counts_for_allow(codex_dir)).items():
            out[verdict] += pats
    return out, broken
