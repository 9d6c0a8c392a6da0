"""Facts an agent needs from a command's output: the generic, data-driven extractor of the fact guard.

A *fact* is something an agent acts on: a location (``path:line``, ``path(line,col)``,
``File "path", line N``), an error or rule code, a failing test's id, a commit hash,
a ref or path in a listing, a URL, a count in a summary line, and every line that
carries an error, failure, warning, exception or panic marker. Extraction is
data-driven (the tables below) and knows no filter.

Nothing here imports ``re``: the guard runs on ``rtk git status``, whose import
budget forbids it. The guard itself (``rtk.factguard``) looks only at lines the
filter dropped, so most lines never reach this module.
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
BOILERPLATE = frozenset(
    ["most", "recent", "call", "last", "short", "test", "tests", "summary", "info", "the", "following"]
)
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
    """An abbreviated (7-12) or full (40) commit hash (a 64-digit SHA-256 is a checksum far more often)."""
    return (
        (7 <= len(tok) <= 12 or len(tok) == 40)
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


def token_facts(tok: str, listing: bool, failing: bool, early: bool = True) -> Iterable[Fact]:
    """The facts one whitespace-separated token holds (``early``: among the first words of its line)."""
    if failing and "[" in tok and tok.endswith("]"):  # error[E0425], [attr-defined], [no-unused-vars]
        inner = tok[tok.rfind("[") + 1 : -1]
        if inner[:2] == "--":  # an option in a usage synopsis: [--dry-run]
            pass
        elif inner and (("-" in inner and inner.replace("-", "").isalpha()) or _code(inner)):
            yield ("word", inner, "")
    t = _clean_token(tok)
    if len(t) < 2:
        return
    if "://" in t:
        if failing and not any(lib in t for lib in LIBRARY):
            yield ("word", t, "")
        return
    if failing and "::" in t and "(" not in t and (t[0].isalnum() or t[0] in "._/"):  # tests/t.py::test_x
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
    elif _hash(t) and tok[0] not in "([" and (early or len(t) == 40):
        # A commit id opens its line (log, blame, reflog) or follows a short phrase ("HEAD is now at");
        # hex deep in a line is an address or register, and one in parentheses a build id.
        yield ("hash", t, "")
    elif listing and _pathlike(t) and tok[0] not in "-[(":
        yield ("path", _context_path(t), "")


def _context_path(t: str) -> str:
    """A listed path without grep's context separator: ``path-`` and ``path-12-`` (``-A/-B/-C`` lines) name ``path``."""
    if not t.endswith("-"):
        return t
    stem = t[:-1]
    num = stem.rstrip("0123456789")
    if num != stem and num.endswith("-"):
        stem = num[:-1]
    return stem if _has_ext(stem.rsplit("/", 1)[-1]) else t


# Word splitting for presence checks keeps ``/``, ``_`` and ``-``.
_PUNCT = str.maketrans({c: " " for c in "!\"#$%&'()*+,.:;<=>?@[\\]^`{|}~"})
# Marker words are words of prose: ``collection.errors``, ``throw(exception)``, ``rich/errors.py`` mark nothing.
_MARK_SPLIT = str.maketrans({c: " " for c in "!\"#$%&'*+,:;<=>?[\\]^{|}~"})
# A marker word after one of these is code in an excerpt, not a report: ``raise exception``.
CODE_WORDS = frozenset(("raise", "throw", "new", "catch", "except", "rescue", "return"))
# Words too common to tell one problem line from another.
_CONTENT_MIN = 4
# Words of a run's status line ("Some errors were emitted while running checks", "test failed, to rerun
# pass --lib", ctest's 'Use "--rerun-failed" to re-run the failed cases verbosely'): such a line only
# says that the run failed, which the exit code and the summary say too.
STATUS_WORDS = frozenset(
    [
        "some",
        "were",
        "emitted",
        "while",
        "running",
        "checks",
        "rerun",
        "cases",
        "verbosely",
        "pass",
        "with",
        "exit",
        "code",
        "status",
        "command",
        "subtest",
        "subtests",
        "during",
        "build",
        "there",
        "have",
        "been",
        "found",
        "detected",
    ]
)


def _words(low: str) -> list[str]:
    return low.translate(_PUNCT).split()


def _unquote(line: str) -> str:
    """``line`` without its backtick-quoted spans (``-D warnings`` in a hint names no problem)."""
    return " ".join(line.split("`")[0::2]) if "`" in line else line


# _MARK_SPLIT's characters, those ``_marker_at`` strips from a word's ends, and whitespace, as spaces (bytes, for ASCII
# lines; 0x1c-0x1f split str but not bytes): a marker word of a line is then one of its words (a quick test first).
_MARK_ANY = bytes(32 if chr(c) in "!\"#$%&'*+,:;<=>?[\\]^{|}~.()@\x1c\x1d\x1e\x1f" else c for c in range(256))
_MARKERS_B = frozenset(m.encode() for m in MARKERS)


def _marker_at(line: str) -> int:
    """Index of the first marker word among the line's prose words, or -1."""
    low = _unquote(line).lower()
    if low.isascii() and _MARKERS_B.isdisjoint(low.encode().translate(_MARK_ANY).split()):
        return -1  # no marker word, even with ".()@" splitting words too
    words = [w.strip(".()@") for w in low.translate(_MARK_SPLIT).split()]
    for i, w in enumerate(words):
        negated = i and (words[i - 1] in NEGATORS or words[i - 1] in CODE_WORDS)
        if w in MARKERS and not negated and words[i + 1 : i + 2] != ["0"]:  # "RX errors 0": a zero count
            return i
    return -1


def is_marker(line: str) -> bool:
    """Does the line report an error, failure, warning, exception or panic?"""
    if line[:1].isspace() and line.lstrip().startswith(("#", "//")):
        return False  # a comment in a source excerpt
    low = line.lower()
    if "not ok " in low or "✗" in low or "✘" in low:  # GLYPHS
        return True
    if _marker_at(line) >= 0:
        return True
    if "Error:" not in line and "Exception:" not in line:
        return False
    return any(t.endswith(("Error:", "Exception:")) and t[:1].isupper() for t in line.split())


def tag_of(line: str) -> tuple[str, str] | None:
    """A line opened by a program name and a marker (``npm error ...``): the tag, and the rest of the line."""
    parts = line.split(None, 2)
    if len(parts) < 2 or not parts[0].isalpha() or not parts[0].islower():
        return None
    if parts[1].lower().rstrip(":!>") not in MARKERS:
        return None
    start = line.find(parts[1]) + len(parts[1])
    return f"{parts[0]} {parts[1].lower()}", line[start:]


def line_facts(line: str, tags: frozenset[str] = frozenset()) -> list[Fact]:
    """Every fact of one output line (``tags``: line tags so frequent that they mark a stream, not a problem)."""
    out = _line_facts(line, tags)
    if CODE_FIELD in line:
        out.extend(f for f in field_codes(line) if f not in out)
    return out


_REPORT_WORDS = frozenset(("failed", "fail", "failure", "error", "errors", "fatal", "panic", "panicked", "not"))


def _excerpt(line: str) -> bool:
    """A line of a source excerpt under a diagnostic: ``  18 |     sys.exit(1)`` (a numbered gutter), or a line of
    its suggested change, indented (``   -         except IOError:``). The code it shows is not a report; the
    diagnostic's own line holds the location and code."""
    s = line.lstrip(" >")
    if s[:1].isdigit():
        num = s.lstrip("0123456789").lstrip(" ")
        # Not a table row (``  17 | failed | timeout``: psql): a gutter is followed by code, no other column.
        if not num.startswith("|") or " | " in num.lstrip(" |"):
            return False
        # Nor a numbered report (``  12 | FAILED test_x``, ``3 | error: ...``): code is indented, or its first
        # word is no report's status (``4 | except ImportError:`` is code).
        code = num[2:] if num[1:2] == " " else num[1:]
        first = code.split(None, 1)[0].rstrip(":").lower() if code.strip() else ""
        return code[:1].isspace() or first not in _REPORT_WORDS or not is_marker(code)
    return line[:2] == "  " and s[:1] in "-+" and s[1:3] == "  "


def _line_facts(line: str, tags: frozenset[str]) -> list[Fact]:
    """``line_facts`` but for JSON ``"code"`` fields."""
    if _excerpt(line):
        return []
    tagged = tag_of(line)
    if tagged is not None:
        tag, rest = tagged
        # "npm error", "npm error   --dry-run": a bare tag, a continuation, or a tag on every line of a
        # block (a usage text): the marker says which stream the line is on; the rest says what it holds.
        if not rest.strip() or rest.startswith("  ") or tag in tags:
            return [f for f in line_facts(rest) if f[0] != "line"] if rest.strip() else []
    failing = is_marker(line)
    if not failing:
        low = line.lower()
        if any(p in low for p in PASS_MARKS):
            return _counts(line)
    tokens = line.split()
    if not tokens or line.startswith(NOISE_PREFIXES):
        return []

    # A listing entry (git status, diff --stat...) is a failing line's path or a short line's last token.
    listing = failing and not _command_echo(tokens)
    out: list[Fact] = []
    # An indented line that reports nothing (a passing test's log, a library frame) holds no location.
    located = failing or not line[:1].isspace()
    for i, tok in enumerate(tokens):
        if tok.isalpha() or tok.isdigit():
            continue  # a plain word or number holds no fact of its own (counts are read below)
        if located:
            out.extend(token_facts(tok, listing, failing, i <= 4))
        else:
            out.extend(f for f in token_facts(tok, listing, failing, i <= 4) if f[0] != "loc")
    loc = file_loc(line)
    if loc is not None:
        out.append(loc)
    counts = _counts(line)
    out.extend(counts)
    if failing and not counts and not any(f[0] in ("loc", "word") for f in out) and _says_more(line):
        out.append(("line", " ".join(tokens), ""))
    return out


# A JSON field naming an error or rule code (``"code": "E401"``, gh's ``"code":"missing_field"``). In JSON the guard
# reads as JSON (``rtk.factjson``) such a field is a value; in JSON that does not parse (a truncated document, cut
# by head and tail) its line is text, and the line holds no marker word: the field is the fact.
CODE_FIELD = '"code"'
# A code value longer than this is a message, not a code.
CODE_MAX = 64


def field_codes(line: str) -> list[Fact]:
    """The values of the ``"code"`` fields of a line of JSON text (a string or a number; not null, false or 0)."""
    out: list[Fact] = []
    i = line.find(CODE_FIELD)
    while i >= 0:
        j = i + len(CODE_FIELD)
        rest = line[j : j + CODE_MAX + 8].lstrip()
        if rest[:1] == ":":
            rest = rest[1:].lstrip()
            if rest[:1] == '"':
                end = rest.find('"', 1)
                value = rest[1:end] if end > 0 else ""
                if "\\" in value:
                    value = ""  # an escape: the text as written is not the value
            else:
                n = 0
                while n < len(rest) and (rest[n].isdigit() or rest[n] in "-."):
                    n += 1
                value = rest[:n].lstrip("-0.")
                value = rest[:n] if value else ""
            if value.strip() and len(value) <= CODE_MAX:
                out.append(("word", value, ""))
        i = line.find(CODE_FIELD, j)
    return out


def file_loc(line: str) -> Fact | None:
    """A Python traceback's ``File "path", line N`` outside a library, as a location."""
    if 'File "' not in line:
        return None
    path = line.split('File "', 1)[1].split('"', 1)[0]
    after = line.split('", line ', 1)
    num = after[1].split(",", 1)[0].strip() if len(after) == 2 else ""
    if num.isdigit() and not any(lib in path for lib in LIBRARY):
        return ("loc", path, num)
    return None


def _says_more(line: str) -> bool:
    """A marker line that says more than a section title (``=== FAILURES ===``, ``Traceback:``)."""
    words = [w for w in _words(line.lower()) if w not in MARKERS and w not in BOILERPLATE]
    return any(len(w) >= 3 or w.isdigit() for w in words)


def _counts(line: str) -> list[Fact]:
    """Summary counts (``3 failed``, ``12 warnings``); a line naming a file counts for that file only."""
    tokens = line.split()
    out: list[Fact] = []
    for i in range(len(tokens) - 1):
        n = tokens[i].strip(_STRIP)
        if n.isdigit() and n != "0" and tokens[i + 1].strip(_STRIP + ".:;").lower() in COUNT_WORDS:
            out.append(("count", n, tokens[i + 1].strip(_STRIP + ".:;").lower()))
    if out and "/" in line and any("/" in t and _pathlike(_clean_token(t)) for t in tokens):
        return []  # per-file counts: a filter rightly sums them
    return out


def details(value: str) -> tuple[list[str], list[str], list[str]]:
    """What sets a marker line apart: quoted text and identifiers, numbers that are not counts, content words."""
    named: list[str] = []
    for op, cl in (("`", "`"), ('"', '"'), ("‘", "’"), ("“", "”")):
        start = value.find(op)
        while start >= 0:
            end = value.find(cl, start + 1)
            if end < 0:
                break
            quoted = value[start + 1 : end].strip().lower()
            if quoted and quoted[0] != "-" and quoted not in MARKERS:  # not an option (`--lib`), not "fail"
                named.append(quoted)
            start = value.find(op, end + 1)
    numbers: list[str] = []
    content: list[str] = []
    tokens = value.split()
    for i, tok in enumerate(tokens):
        t = tok.strip(_STRIP + ".:!?;")
        if t.isdigit():
            if i and tokens[i - 1].lower() == "ok":
                continue  # TAP's test number (``not ok 3 - name``): a position, the name says which test
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if t != "0" and not (tok[-1].isdigit() and nxt[:1].isalpha()):  # "3 failed" is a count
                numbers.append(t)
        elif t[:1] != "-" and t.replace("_", "").isalnum() and any(c.isalpha() for c in t):
            low = t.lower()
            if "_" in t.strip("_") or (any(c.isupper() for c in t[1:]) and any(c.islower() for c in t)):
                named.append(low)
            elif (
                len(t) >= _CONTENT_MIN
                and t.isalpha()
                and not (low in MARKERS or low in BOILERPLATE or low in STATUS_WORDS)
            ):
                content.append(low)
    return named, numbers, content


def extract(text: str) -> dict[Fact, int]:
    """Every fact of ``text``, with the index of the first line that holds it."""
    found: dict[Fact, int] = {}
    for i, line in enumerate(text.split("\n")):
        for f in line_facts(line):
            found.setdefault(f, i)
    return found
