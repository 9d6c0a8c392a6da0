"""Surgical edits of JSON settings files: parse, change only rtk's entries, write back in the file's own style.

The document is parsed with ``json`` (key order is kept), and written back with
the indentation, byte-order mark and final newline the file had. A file that does
not parse (JSON with comments, for example) raises :class:`EditError` and is
never written.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class EditError(Exception):
    """The file cannot be edited safely (not JSON, or an unexpected shape); nothing is written."""


class Style:
    """How a JSON file was written: indent, final newline, BOM, non-ASCII kept as is."""

    __slots__ = ("ascii", "bom", "indent", "newline")

    def __init__(self, indent: int | str | None = 2, newline: bool = True, bom: bool = False, ascii: bool = False):
        self.indent = indent
        self.newline = newline
        self.bom = bom
        self.ascii = ascii


def load(data: bytes | None) -> tuple[dict[str, Any], Style]:
    """The document (``{}`` for a missing or blank file) and its style."""
    if data is None or not data.strip():
        return {}, Style()
    bom = data.startswith(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8-sig")
        doc = json.loads(text)
    except (UnicodeDecodeError, ValueError) as e:
        raise EditError(f"not valid JSON ({_short(e)})") from None
    if not isinstance(doc, dict):
        raise EditError("the top level is not a JSON object")
    return doc, Style(_indent(text), text.endswith("\n"), bom, text.isascii() and "\\u" in text)


def dump(doc: dict[str, Any], style: Style) -> bytes:
    text = json.dumps(doc, indent=style.indent, ensure_ascii=style.ascii)
    if style.newline:
        text += "\n"
    return (b"\xef\xbb\xbf" if style.bom else b"") + text.encode("utf-8")


def _indent(text: str) -> int | str | None:
    """The indent unit of the first indented line (None for a one-line document)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else len(lead)
    return None if "\n" not in text.strip() else 2


def _short(e: Exception) -> str:
    return str(e).split("\n")[0][:120]


def container(doc: dict[str, Any], keys: tuple[str, ...], create: bool) -> list[Any] | None:
    """The list at ``doc[k1][k2]...`` (created when ``create``); EditError if something else is there."""
    node: Any = doc
    for i, k in enumerate(keys):
        last = i == len(keys) - 1
        if not isinstance(node, dict):
            raise EditError(f"{'.'.join(keys[:i])} is not an object")
        if k not in node:
            if not create:
                return None
            node[k] = [] if last else {}
        node = node[k]
    if not isinstance(node, list):
        raise EditError(f"{'.'.join(keys)} is not a list")
    return node


def prune(doc: dict[str, Any], keys: tuple[str, ...]) -> None:
    """Remove the list at ``keys`` if empty, then each parent object left empty."""
    chain: list[tuple[dict[str, Any], str]] = []
    node: Any = doc
    for k in keys:
        if not isinstance(node, dict) or k not in node:
            return
        chain.append((node, k))
        node = node[k]
    for parent, k in reversed(chain):
        if parent[k] in ([], {}):
            del parent[k]
        else:
            return
