"""Text plumbing shared by the runner and filters: decoding, ANSI stripping, quoting, git path unquoting.

Nothing here imports ``re`` at module level: the regex for escape sequences is
compiled only when a text actually contains an ESC byte.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re

_ANSI: re.Pattern[str] | None = None

# Characters that make a word need quoting when a command line is displayed.
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")


def _ansi_re() -> re.Pattern[str]:
    global _ANSI
    if _ANSI is None:
        import re

        # CSI sequences, OSC sequences (BEL or ST terminated), character-set designations
        # (``ESC ( B``, emitted with every colour reset by terminfo-based tools such as rustfmt)
        # and two-byte escapes.
        _ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()*+][0-~]|\x1b[@-Z\\-_]")
    return _ANSI


def strip_ansi(text: str) -> str:
    """Remove terminal escape sequences."""
    if "\x1b" not in text:
        return text
    return _ansi_re().sub("", text)


# The encoding of a line that is not UTF-8: on Windows the ANSI code page tools write to a
# pipe (cp1252, cp936/GBK...), elsewhere UTF-8 with replacement characters.
_fallback: str | None = None


def fallback_encoding() -> str:
    global _fallback
    if _fallback is None:
        _fallback = "utf-8"
        if os.name == "nt":
            import locale

            _fallback = locale.getencoding() or "utf-8"
    return _fallback


def decode(data: bytes) -> str:
    """Decode child output: UTF-8, else line by line the platform's code page, never dropping a line.

    A line that is not UTF-8 is decoded with :func:`fallback_encoding`, replacing what
    that cannot decode either, so one stray byte never costs more than itself.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    enc = fallback_encoding()
    if enc.replace("-", "").lower() == "utf8":
        return data.decode("utf-8", "replace")
    out = []
    for line in data.split(b"\n"):
        try:
            out.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(line.decode(enc, "replace"))
    return "\n".join(out)


# Erase-in-line sequences: a redraw after one of these replaces the whole line.
_ERASE = ("\x1b[K", "\x1b[0K", "\x1b[2K")


def clean_line(line: str) -> str:
    """A line as a terminal would show it: no escapes; after a CR, text overwrites only what it covers.

    ``10%\r100%`` shows ``100%``; ``FAIL x: got "b\r"`` shows ``"AIL x: got "b`` (the quote
    overwrote one character, the rest stays). A segment that erases the line first (``ESC[K``)
    replaces it whole.
    """
    if "\r" not in line:
        return _ansi_re().sub("", line) if "\x1b" in line else line
    # Each column shows the last segment that reaches it, back to the last one that erased the line:
    # read from the end (building ``seg + shown[len(seg):]`` forward copies the line once per CR).
    pieces: list[str] = []
    covered = 0
    for seg in reversed(line.split("\r")):
        erase = "\x1b" in seg and any(e in seg for e in _ERASE)
        if "\x1b" in seg:
            seg = _ansi_re().sub("", seg)
        if len(seg) > covered:
            pieces.append(seg[covered:])
            covered = len(seg)
        if erase:
            break
    return "".join(pieces)


def clean(text: str) -> str:
    """Normalise a whole output: escapes stripped, CRLF and CR redraws resolved."""
    if "\r" in text:  # escapes go line by line: an erase before a redraw decides what stays
        return "\n".join(clean_line(ln) for ln in text.split("\n"))
    if "\x1b" in text:
        text = _ansi_re().sub("", text)
    return text


def split_lines(text: str) -> list[str]:
    """Split on ``\\n`` only (``str.splitlines`` also splits on form feeds etc.)."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def quote(word: str) -> str:
    """Quote one word for display the way a POSIX shell would need it."""
    if word and all(c in _SAFE for c in word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


def visible(s: str) -> str:
    """``s`` with every non-printable character (terminal escapes, newlines, bidi and other format
    characters) written as a ``\\xNN``/``\\uNNNN`` escape: for text from an untrusted file shown on a line."""
    if s.isprintable():
        return s
    return "".join(
        c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}" if ord(c) < 0x10000
        else f"\\U{ord(c):08x}"
        for c in s
    )  # fmt: skip


def join(argv: list[str]) -> str:
    """Render an argv as a shell command line (shlex.join without importing shlex)."""
    return " ".join(quote(w) for w in argv)


def slug(argv: list[str], limit: int = 40) -> str:
    """A short file-name-safe label for a command: ``git_status``; credential-looking words are masked first."""
    from rtk.tracking import mask_command

    words: list[str] = []
    for w in argv[:3]:
        if w.startswith("-") and words:
            break
        words.append(mask_command(w).replace("****", "").rsplit("/", 1)[-1])
    s = "_".join(words)
    out = "".join(c if (c.isascii() and c.isalnum()) or c in "-." else "_" for c in s)
    while "__" in out:
        out = out.replace("__", "_")
    return out[:limit].strip("_") or "cmd"


def unquote_path(p: str) -> str:
    """Undo git's C-style path quoting (``"caf\\303\\251.txt"`` -> ``café.txt``) when printable."""
    if len(p) < 2 or not (p.startswith('"') and p.endswith('"')):
        return p
    body = p[1:-1]
    out = bytearray()
    i = 0
    esc = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, '"': 34}
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n in "01234567" and i + 3 < len(body) + 1 and body[i + 1 : i + 4].isdigit():
                out.append(int(body[i + 1 : i + 4], 8) & 0xFF)
                i += 4
                continue
            if n in esc:
                out.append(esc[n])
                i += 2
                continue
        out += c.encode("utf-8")
        i += 1
    try:
        s = out.decode("utf-8")
    except UnicodeDecodeError:
        return p
    if any(ord(ch) < 32 or ch == "\x7f" for ch in s):
        return p  # control characters: keep git's quoted form, it is unambiguous
    return s


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 file`` / ``3 files``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def utf8_end(data: bytes) -> int:
    """Where ``data`` can be cut without splitting a UTF-8 character: before an unfinished one at its end."""
    i = len(data)
    while i > len(data) - 4 and i > 0 and data[i - 1] & 0xC0 == 0x80:  # continuation bytes
        i -= 1
    if i > 0 and data[i - 1] >= 0xC0:  # a lead byte: its character may go on in the next read
        want = 2 if data[i - 1] < 0xE0 else 3 if data[i - 1] < 0xF0 else 4
        if len(data) - (i - 1) < want:
            return i - 1
    return len(data)
