"""Facts an agent needs from a command's output, and the check that a compact output kept them.

A *fact* is something an agent acts on: a location (``path:line``, ``path(line,col)``,
``File "path", line N``), an error or rule code, a failing test's id, a commit hash,
a ref or path in a listing, a URL, a count in a summary line, and every line that
carries an error, failure, warning, exception or panic marker. Extraction is
data-driven (the tables below) and knows no filter.

Nothing here imports ``re``: the guard runs on ``rtk git status``, whose import
budget forbids it. Work is kept in C where possible: lines and tokens already
present in the compact output are removed with set operations first, so only what
the filter dropped is looked at token by token.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

# A fact: (kind, value, detail). Kinds: loc (path, line), word (exact text), hash,
# path, count (number, word), line (a marker line with no finer fact).
Fact = tuple[str, str, str]

# Words (lowercased, punctuation removed) that make a line a fact: it reports a problem.
MARKERS = frozenset(
    [
        "error",
        "errors",
        "fail",
        "failed",
        "failure",
        "failures",
        "failing",
        "warning",
        "warnings",
        "exception",
        "panic",
        "panicked",
        "traceback",
        "fatal",
        "crashed",
    ]
)
GLYPHS = ("✗", "✘", "not ok ")
# Lines that report success carry no fact (a passing test is rightly folded into a count).
PASS_MARKS = (" passed", " pass ", "pass:", " ok ", "✓", "✔", "[ok]")
# Words that make a preceding non-zero number a summary count: "3 failed", "12 warnings".
COUNT_WORDS = frozenset(
    [
        "passed",
        "failed",
        "failures",
        "failure",
        "errors",
        "error",
        "warnings",
        "warning",
        "skipped",
        "xfailed",
        "xpassed",
    ]
)
# A marker word after one of these does not report a problem ("0 errors", "no warnings").
NEGATORS = frozenset(("0", "no", "zero", "without"))
# Words of section titles and traceback headers: a marker line of only these says nothing.
BOILERPLATE = frozenset(["most", "recent", "call", "last", "short", "test", "summary", "info", "the", "following"])
# Lines that name no fact an agent acts on (blob ids of a diff header).
NOISE_PREFIXES = ("index ", "similarity index ", "dissimilarity index ")
# Frames inside a runtime or a dependency: their locations are not the agent's code.
LIBRARY = (
    "/rustc/",
    "node_modules/",
    "site-packages/",
    "/usr/lib/",
    "/usr/local/lib/",
    "<frozen",
    "/.cargo/registry/",
    "/go/src/runtime/",
    "/lib/python3",
    "node:internal",
)
_STRIP = "()[]{}<>,;'\"`"
_HEX = frozenset("0123456789abcdef")
_DIGITS = frozenset("0123456789")
_PERMS = frozenset("-rwxdlsStTcbp@+.")


def _clean_token(tok: str) -> str:
    if "(" in tok and tok.rstrip(":,.").endswith(")") and tok[:1] not in _STRIP:  # path(line,col):
        return tok.rstrip(":,.")
    tok = tok.strip(_STRIP)
    while tok and tok[-1] in ".:!?":
        tok = tok[:-1]
    return tok.strip(_STRIP)


def _location(tok: str) -> Fact | None:
    """``path:line[:col]`` or ``path(line,col)``: (loc, path, line)."""
    if "(" in tok and tok.endswith(")"):
        path, _, rest = tok.partition("(")
        line = rest.rstrip(")").split(",", 1)[0]
        if path and line.isdigit() and _pathlike(path):
            return ("loc", path, line)
        return None
    parts = tok.split(":")
    for i in range(1, len(parts)):
        if parts[i].isdigit() and parts[i] and i >= 1:
            path = ":".join(parts[:i])
            if path and _pathlike(path) and not (path.startswith("http") and "//" in path):
                return ("loc", path, parts[i])
            return None
    return None


def _pathlike(s: str) -> bool:
    """A file path or file name: has a slash or an extension, and a letter."""
    if not any(c.isalpha() for c in s):
        return False
    if "/" in s or "\\" in s:
        return True
    return _has_ext(s)


def _has_ext(s: str) -> bool:
    """``name.ext``: a name with a letter, an extension of 1-5 characters with a letter."""
    stem, dot, ext = s.rpartition(".")
    return bool(dot and any(c.isalpha() for c in stem) and 0 < len(ext) <= 5 and ext.isalnum() and not ext.isdigit())


def _code(tok: str) -> bool:
    """``E0425``, ``TS2322``, ``F401``, ``SC2086``: 1-4 capitals then 2-5 digits."""
    n = len(tok)
    i = 0
    while i < n and "A" <= tok[i] <= "Z":
        i += 1
    return 1 <= i <= 4 and 2 <= n - i <= 5 and tok[i:].isdigit()


def _hash(tok: str) -> bool:
    """An abbreviated (7-12) or full (40, 64) commit hash."""
    return (
        (7 <= len(tok) <= 12 or len(tok) in (40, 64))
        and set(tok) <= _HEX
        and not set(tok) <= _DIGITS
        and any(c in _DIGITS for c in tok)
    )


def _command_echo(tokens: list[str]) -> bool:
    """A command line echoed by a build (``cc -Wall -c -o x.o x.c``): its paths are not facts."""
    for t in tokens[1:]:
        if len(t) > 1 and t[0] == "-" and (t[1].isalpha() or t[1] == "-") and not set(t) <= _PERMS:
            return True
    return False


def token_facts(tok: str, listing: bool, failing: bool) -> Iterable[Fact]:
    """The facts one whitespace-separated token holds."""
    if failing and "[" in tok and tok.endswith("]"):  # error[E0425], [attr-defined], [no-unused-vars]
        inner = tok[tok.rfind("[") + 1 : -1]
        if inner and (("-" in inner and inner.replace("-", "").isalpha()) or _code(inner)):
            yield ("word", inner, "")
    t = _clean_token(tok)
    if len(t) < 2:
        return
    if "://" in t:
        if failing and not any(lib in t for lib in LIBRARY):
            yield ("word", t, "")
        return
    if failing and "::" in t:  # a failing test id: tests/test_a.py::test_x
        yield ("word", t, "")
        return
    if ".." in t and not t.startswith("."):  # 166c2d7..74867d3
        for part in t.replace("...", "..").split(".."):
            if _hash(part):
                yield ("hash", part, "")
        return
    if ":" in t or "(" in t:
        loc = _location(t)
        if loc is not None:
            base = loc[1].replace("\\", "/").rsplit("/", 1)[-1]
            if (failing or _has_ext(base)) and not any(lib in loc[1] for lib in LIBRARY):
                yield loc
            return
    if _code(t):
        if failing:
            yield ("word", t, "")
    elif _hash(t) and tok[0] not in "([":  # not a build id in parentheses: "bun v1.4.5 (a7733435c)"
        yield ("hash", t, "")
    elif listing and _pathlike(t) and tok[0] not in "-[(":
        yield ("path", t, "")


# Word splitting for markers keeps ``/``, ``_`` and ``-``: ``rich/errors.py`` or ``py-fail`` mark nothing.
_PUNCT = str.maketrans({c: " " for c in "!\"#$%&'()*+,.:;<=>?@[\\]^`{|}~"})


def _words(low: str) -> list[str]:
    return low.translate(_PUNCT).split()


def is_marker(line: str) -> bool:
    """Does the line report an error, failure, warning, exception or panic?"""
    low = line.lower()
    if any(g in low for g in GLYPHS):
        return True
    words = _words(low)
    for i, w in enumerate(words):
        if w in MARKERS and not (i and words[i - 1] in NEGATORS):
            return True
    return any(t.endswith(("Error:", "Exception:")) and t[:1].isupper() for t in line.split())


def line_facts(line: str) -> list[Fact]:
    """Every fact of one output line."""
    failing = is_marker(line)
    if not failing:
        low = line.lower()
        if any(p in low for p in PASS_MARKS):
            return _counts(line)
    tokens = line.split()
    if not tokens:
        return []
    # A listing entry (git status, diff --stat...) is a failing line's path or a short line's last token.
    listing = failing and not _command_echo(tokens)
    out: list[Fact] = []
    if line.startswith(NOISE_PREFIXES):
        return out
    # An indented line that reports nothing (a passing test's log, a library frame) holds no location.
    located = failing or not line[:1].isspace()
    for tok in tokens:
        out.extend(f for f in token_facts(tok, listing, failing) if located or f[0] != "loc")
    if 'File "' in line:  # Python traceback: File "path", line N
        path = line.split('File "', 1)[1].split('"', 1)[0]
        rest = line.split('", line ', 1)
        num = rest[1].split(",", 1)[0].strip() if len(rest) == 2 else ""
        if num.isdigit() and not any(lib in path for lib in LIBRARY):
            out.append(("loc", path, num))
    out.extend(_counts(line))
    if failing and not any(f[0] in ("loc", "word") for f in out) and _says_more(line):
        out.append(("line", " ".join(tokens), ""))
    return out


def _says_more(line: str) -> bool:
    """A marker line that says more than a section title (``=== FAILURES ===``, ``Traceback:``)."""
    words = [w for w in _words(line.lower()) if w not in MARKERS and w not in BOILERPLATE]
    return any(len(w) >= 3 or w.isdigit() for w in words)


def _counts(line: str) -> list[Fact]:
    tokens = line.split()
    out: list[Fact] = []
    for i in range(len(tokens) - 1):
        n = tokens[i].strip(_STRIP)
        if n.isdigit() and n != "0" and tokens[i + 1].strip(_STRIP + ".:").lower() in COUNT_WORDS:
            out.append(("count", n, tokens[i + 1].strip(_STRIP + ".:").lower()))
    return out


def extract(text: str) -> dict[Fact, int]:
    """Every fact of ``text``, with the index of the first line that holds it."""
    found: dict[Fact, int] = {}
    for i, line in enumerate(text.split("\n")):
        for f in line_facts(line):
            found.setdefault(f, i)
    return found


class Output:
    """A compact output prepared for presence checks."""

    __slots__ = ("flat", "text", "words")

    def __init__(self, text: str) -> None:
        self.text = text
        self.flat = " ".join(text.split())
        self.words = frozenset(_words(text.lower()))


def present(f: Fact, out: Output) -> bool:
    """Does the compact output still hold fact ``f`` (in any presentation)?"""
    kind, value, detail = f
    text = out.text
    if kind == "word":
        return value in text
    if kind == "hash":
        return value[:7] in text
    if kind == "loc":
        if f"{value}:{detail}" in text or f"{value}({detail}" in text or f'{value}", line {detail}' in text:
            return True
        base = value.replace("\\", "/").rsplit("/", 1)[-1]
        return base in text and any(
            form in text for form in (f":{detail}", f"{detail}:", f"({detail}", f"line {detail}", f"L{detail}")
        )
    if kind == "path":
        v = value[2:] if value.startswith("./") else value
        if v in text:
            return True
        parent, _, base = v.rstrip("/").rpartition("/")
        return base in text and (not parent or parent.rsplit("/", 1)[-1] in text)
    if kind == "count":
        return value in out.words
    if value in out.flat:  # a marker line: whole, or its numbers and most of its words
        return True
    words = [w for w in _words(value.lower()) if len(w) >= 4 or w.isdigit()]
    kept = sum(1 for w in words if w in out.words)
    return all(w in out.words for w in words if w.isdigit()) and kept * 2 >= len(words)


def missing(raw: str, compact: str) -> dict[Fact, int]:
    """Facts of ``raw`` that ``compact`` lost, with the raw line index of each."""
    kept = set(compact.split("\n"))
    out = Output(compact)
    words = set(compact.split())
    lost: dict[Fact, int] = {}
    seen: set[str] = set()
    for i, line in enumerate(raw.split("\n")):
        if line in kept or line in seen or not line:
            continue
        seen.add(line)
        if words.issuperset(line.split()):
            continue  # every word of the line is still there, in place: nothing to restore
        for f in line_facts(line):
            if f not in lost and not present(f, out):
                lost[f] = i
    return lost


HEADER = "[rtk] restored {} the filter dropped:"


def restore(raw: str, compact: str) -> tuple[str, int]:
    """``compact`` with the raw lines holding lost facts appended under one header; and their count."""
    lost = missing(raw, compact)
    if not lost:
        return compact, 0
    lines = raw.split("\n")
    idx = sorted(set(lost.values()))
    n = len(idx)
    head = HEADER.format(f"{n} line" if n == 1 else f"{n} lines")
    block = "\n".join([head, *(lines[i] for i in idx)]) + "\n"
    if compact and not compact.endswith("\n"):
        compact += "\n"
    return compact + block, n


# Lowercased substrings a streamed block must contain for any of its lines to be looked at.
_STREAM_HINTS = ("error", "fail", "warn", "panic", "exception", "traceback", "fatal", "not ok", "crash", "✗", "✘")


class StreamGuard:
    """The fact guard for a streamed output: what was printed is already out, so lost facts come at the end.

    Only problem lines (error, failure, warning, panic...) are tracked while streaming:
    a block with none of the marker substrings costs one ``lower()`` and a few
    substring searches. Memory stays flat: at most ``LIMIT`` facts and ``KEEP``
    characters of printed output are kept.
    """

    LIMIT = 5000
    KEEP = 8 << 20

    __slots__ = ("facts", "kept", "printed")

    def __init__(self) -> None:
        self.facts: dict[Fact, str] = {}
        self.printed: list[str] = []
        self.kept = 0

    def feed(self, lines: list[str], parts: list[str]) -> None:
        """One block of raw lines and what the filter printed for it."""
        if self.kept < self.KEEP:
            for p in parts:
                self.printed.append(p)
                self.kept += len(p)
        low = "\n".join(lines).lower()
        if not any(h in low for h in _STREAM_HINTS) or len(self.facts) >= self.LIMIT:
            return
        shown = set("".join(parts).split("\n"))
        for line in lines:
            if line in shown or not any(h in line.lower() for h in _STREAM_HINTS):
                continue
            for f in line_facts(line):
                self.facts.setdefault(f, line)

    def finish(self, summary: str) -> tuple[str, int]:
        """The block of restored lines to print before ``summary``, and how many lines it has."""
        if not self.facts:
            return "", 0
        out = Output("".join(self.printed) + summary)
        lines = list(dict.fromkeys(line for f, line in self.facts.items() if not present(f, out)))
        if not lines:
            return "", 0
        n = len(lines)
        return "\n".join([HEADER.format(f"{n} line" if n == 1 else f"{n} lines"), *lines]) + "\n", n
