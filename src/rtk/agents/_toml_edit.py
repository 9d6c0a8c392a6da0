"""Marked blocks in text files: rtk's part of a TOML (or Markdown) file lives between two marker lines.

Adding replaces an existing block or appends one; removing takes the block (and the
blank line put before it) out again. A TOML result is parsed with ``tomllib``
before anything is written, so a block that would clash with the user's tables
(``[hooks]`` already holding ``PreToolUse = [...]``, say) is refused.
"""

from __future__ import annotations

from rtk.agents._json_edit import EditError


class Markers:
    """The begin and end lines of a block (``# rtk:begin`` or ``<!-- rtk:begin -->``)."""

    __slots__ = ("begin", "end")

    def __init__(self, begin: str, end: str) -> None:
        self.begin = begin
        self.end = end


TOML = Markers("# rtk:begin (managed by rtk init; rtk init --uninstall removes it)", "# rtk:end")
MARKDOWN = Markers("<!-- rtk:begin (managed by rtk init; rtk init --uninstall removes it) -->", "<!-- rtk:end -->")


def _span(text: str, m: Markers) -> tuple[int, int] | None:
    """Start and end offsets of the block, lines included (end after the end line's newline)."""
    start = text.find(m.begin)
    if start < 0:
        return None
    if start > 0 and text[start - 1] != "\n":
        return None
    end = text.find(m.end, start)
    if end < 0:
        raise EditError("rtk's begin marker has no end marker")
    end += len(m.end)
    if text.startswith("\r\n", end):
        end += 2
    elif text[end : end + 1] == "\n":
        end += 1
    return start, end


def newline(text: str) -> str:
    """The file's line ending: CRLF when it has one, else LF."""
    return "\r\n" if "\r\n" in text else "\n"


def extract(text: str, m: Markers) -> str | None:
    """The block (markers included, LF line endings), or None."""
    span = _span(text, m)
    return None if span is None else text[span[0] : span[1]].replace("\r\n", "\n")


def put(text: str, body: str, m: Markers) -> str:
    """``text`` with the block holding ``body`` (replaced in place, or appended after a blank line),
    in the file's line endings."""
    nl = newline(text)
    block = f"{m.begin}\n{body.rstrip(chr(10))}\n{m.end}\n".replace("\n", nl)
    span = _span(text, m)
    if span is not None:
        return text[: span[0]] + block + text[span[1] :]
    if not text:
        return block
    sep = nl if text.endswith("\n") else nl + nl
    return text + sep + block


def remove(text: str, m: Markers) -> str:
    """``text`` without the block and the blank line before it."""
    span = _span(text, m)
    if span is None:
        return text
    start, end = span
    nl = newline(text)
    if text[:start].endswith(nl + nl):
        start -= len(nl)
    return text[:start] + text[end:]


def check_toml(text: str) -> None:
    import tomllib

    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise EditError(f"not valid TOML ({str(e).splitlines()[0]})") from None
