"""Surgical edits of JSON settings files: rtk's entries are spliced into the text, every other byte is kept.

The text is parsed into a tree that remembers where each value, key and item
lies; an edit inserts or cuts one item (or object member) in the text and parses
again. Number tokens (``1e400``, ``2E3``), duplicate keys, key order, whitespace,
line endings and the byte-order mark the edit does not touch stay as they were.
A new item is written in the file's own indentation. A file that does not parse
(JSON with comments, for example) raises :class:`EditError` and is never written.
Like JavaScript's ``JSON.parse``, the last of duplicate keys is the one that counts.
"""

from __future__ import annotations

import json
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class EditError(Exception):
    """The file cannot be edited safely (not JSON, or an unexpected shape); nothing is written."""


WS = " \t\r\n"
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_LITERALS = {"true": True, "false": False, "null": None}


class Node:
    """A value of the document: its kind, where it starts and ends, and its items (keys for an object)."""

    __slots__ = ("end", "items", "keys", "kind", "start", "value")

    def __init__(self, kind: str, start: int) -> None:
        self.kind = kind  # "object" | "array" | "scalar"
        self.start = start
        self.end = start
        self.items: list[Node] = []
        self.keys: list[tuple[str, int]] = []  # objects: (key, offset of its opening quote) per item
        self.value: Any = None  # scalars: the Python value

    def member(self, key: str) -> int | None:
        """The index of the last member named ``key`` (the one a JSON parser keeps), or None."""
        for i in range(len(self.keys) - 1, -1, -1):
            if self.keys[i][0] == key:
                return i
        return None

    def elem_start(self, i: int) -> int:
        return self.keys[i][1] if self.kind == "object" else self.items[i].start


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, what: str) -> EditError:
        line = self.text.count("\n", 0, self.pos) + 1
        col = self.pos - (self.text.rfind("\n", 0, self.pos) + 1) + 1
        return EditError(f"not valid JSON ({what}: line {line} column {col})")

    def skip(self) -> None:
        t, p = self.text, self.pos
        while p < len(t) and t[p] in WS:
            p += 1
        self.pos = p

    def string(self) -> tuple[str, int]:
        m = _STRING.match(self.text, self.pos)
        if m is None:
            raise self.fail("expected a string")
        start = self.pos
        self.pos = m.end()
        return json.loads(m.group()), start

    def value(self) -> Node:
        self.skip()
        t, p = self.text, self.pos
        c = t[p : p + 1]
        if c == "{" or c == "[":
            node = Node("object" if c == "{" else "array", p)
            close = "}" if c == "{" else "]"
            self.pos += 1
            self.skip()
            if t[self.pos : self.pos + 1] != close:
                while True:
                    if node.kind == "object":
                        self.skip()
                        node.keys.append(self.string())
                        self.skip()
                        if t[self.pos : self.pos + 1] != ":":
                            raise self.fail("expected ':'")
                        self.pos += 1
                    node.items.append(self.value())
                    self.skip()
                    c = t[self.pos : self.pos + 1]
                    if c == close:
                        break
                    if c != ",":
                        raise self.fail(f"expected ',' or '{close}'")
                    self.pos += 1
            self.pos += 1
            node.end = self.pos
            return node
        node = Node("scalar", p)
        if c == '"':
            node.value = self.string()[0]
        elif (m := _NUMBER.match(t, p)) is not None:
            tok = m.group()
            node.value = float(tok) if any(x in tok for x in ".eE") else int(tok)
            self.pos = m.end()
        else:
            word = next((w for w in _LITERALS if t.startswith(w, p)), None)
            if word is None:
                raise self.fail("expected a value")
            node.value = _LITERALS[word]
            self.pos += len(word)
        node.end = self.pos
        return node


def parse(text: str) -> Node:
    p = _Parser(text)
    try:
        root = p.value()
    except RecursionError:
        raise EditError("not valid JSON (nested too deeply)") from None
    except ValueError as e:  # an int too long to convert, say
        raise EditError(f"not valid JSON ({str(e).splitlines()[0][:80]})") from None
    p.skip()
    if p.pos != len(text):
        raise p.fail("extra data")
    return root


def py(node: Node) -> Any:
    """The Python value of ``node`` (the last of duplicate keys wins, as with ``json.loads``)."""
    if node.kind == "object":
        return {k: py(v) for (k, _), v in zip(node.keys, node.items, strict=True)}
    if node.kind == "array":
        return [py(v) for v in node.items]
    return node.value


class Doc:
    """A JSON file as text plus its tree; each edit splices the text and parses it again."""

    def __init__(self, data: bytes | None) -> None:
        raw = data or b""
        self.bom = raw.startswith(b"\xef\xbb\xbf")
        try:
            self.text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise EditError("not valid JSON (not UTF-8)") from None
        self.root: Node | None = parse(self.text) if self.text.strip() else None
        if self.root is not None and self.root.kind != "object":
            raise EditError("the top level is not a JSON object")
        self.nl = "\r\n" if "\r\n" in self.text else "\n"
        self.unit = _indent(self.text)
        self.ascii = self.text.isascii() and "\\u" in self.text

    def data(self) -> bytes:
        return (b"\xef\xbb\xbf" if self.bom else b"") + self.text.encode("utf-8")

    def value(self) -> dict[str, Any]:
        return py(self.root) if self.root is not None else {}

    def _splice(self, start: int, end: int, new: str) -> None:
        self.text = self.text[:start] + new + self.text[end:]
        self.root = parse(self.text)

    def walk(self, keys: tuple[str, ...]) -> list[Node]:
        """The nodes at ``keys[:1]``, ``keys[:2]``... as far as they exist (objects on the way, or EditError)."""
        out: list[Node] = []
        node = self.root
        for i, k in enumerate(keys):
            if node is None or node.kind != "object":
                raise EditError(f"{'.'.join(keys[:i])} is not an object")
            at = node.member(k)
            if at is None:
                break
            node = node.items[at]
            out.append(node)
        return out

    def list_at(self, keys: tuple[str, ...]) -> Node | None:
        """The array at ``keys`` (None when missing; EditError when something else is there)."""
        chain = self.walk(keys)
        if len(chain) < len(keys):
            return None
        if chain[-1].kind != "array":
            raise EditError(f"{'.'.join(keys)} is not a list")
        return chain[-1]

    def remove(self, parent: Node, i: int) -> None:
        """Cut item (or member) ``i`` of ``parent`` with its comma; the whitespace around stays as it was."""
        n = len(parent.items)
        if n == 1:
            self._splice(parent.start + 1, parent.end - 1, "")
        elif i < n - 1:
            self._splice(parent.elem_start(i), parent.elem_start(i + 1), "")
        else:
            self._splice(parent.items[i - 1].end, parent.items[i].end, "")

    def insert(self, parent: Node, i: int, value: Any, key: str | None = None) -> None:
        """Put ``value`` (as member ``key`` of an object) at index ``i`` of ``parent``, in the file's layout."""
        n = len(parent.items)
        t = self.text
        if n == 0:
            if self.unit is None:
                self._splice(parent.start + 1, parent.end - 1, self._render(value, key, None))
                return
            outer = _line_indent(t, parent.start)
            inner = outer + self.unit
            new = self.nl + inner + self._render(value, key, inner) + self.nl + outer
            self._splice(parent.start + 1, parent.end - 1, new)
            return
        ref = min(i, n - 1)
        at = parent.elem_start(ref)
        gap_start = at
        while gap_start > 0 and t[gap_start - 1] in WS:
            gap_start -= 1
        gap = t[gap_start:at]
        indent = gap[gap.rfind("\n") + 1 :] if "\n" in gap else None
        sep = self._kv_sep(parent)
        item = self._render(value, key, indent, sep)
        if i >= n:
            self._splice(parent.items[n - 1].end, parent.items[n - 1].end, "," + gap + item)
        else:
            self._splice(at, at, item + "," + gap)

    def _kv_sep(self, parent: Node) -> str:
        if parent.kind != "object" or not parent.items:
            return ": "
        key_end = _STRING.match(self.text, parent.keys[-1][1])
        assert key_end is not None
        return self.text[key_end.end() : parent.items[-1].start]

    def _render(self, value: Any, key: str | None, indent: str | None, sep: str = ": ") -> str:
        unit = self.unit if indent is not None else None
        text = json.dumps(value, indent=unit, ensure_ascii=self.ascii)
        if indent is not None:
            text = text.replace("\n", self.nl + indent)
        return text if key is None else json.dumps(key, ensure_ascii=self.ascii) + sep + text


def new_file(doc: dict[str, Any]) -> bytes:
    """A new settings file: two-space indent, final newline."""
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _indent(text: str) -> str | None:
    """The indent unit of the first indented line (None for a one-line document)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else " " * len(lead)
    return None if "\n" not in text.strip() else "  "


def _line_indent(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]
