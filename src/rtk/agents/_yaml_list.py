"""One name in a list of a YAML file (Hermes' ``plugins.enabled``), added and removed line by line, stdlib only.

Only the shapes a person or Hermes itself writes are edited: a top-level block
mapping ``plugins:`` whose ``enabled`` is a block sequence of plain or quoted
names, an empty or simple flow sequence (``[]``, ``[a, b]``), or missing. Anything
else (tabs, anchors, several documents, a flow mapping, nested items, a duplicate
key, a line break other than LF or CRLF) raises :class:`EditError`, and the installer prints the line to add by hand.
Every other byte of the file is kept.
"""

from __future__ import annotations

import re

from rtk.agents._artifacts import Artifact
from rtk.agents._json_edit import EditError

_KEY = re.compile(r"^(?P<ind> *)(?P<key>[A-Za-z_][\w-]*)[ ]*:(?:[ ]+(?P<val>[^#]*?))?[ ]*(?:#.*)?$")
_ITEM = re.compile(r"^(?P<ind> *)-[ ]+(?P<val>[^#]*?)[ ]*(?:#.*)?$")
_NAME = re.compile(r"^(?:[\w./-]+|'[\w./-]+'|\"[\w./-]+\")$")


# Line breaks for a YAML reader (PyYAML: a lone CR, NEL, LS, PS) that a split on LF does not see.
_OTHER_BREAKS = ("\r", "\x85", "\u2028", "\u2029")


def _unquote(v: str) -> str:
    return v[1:-1] if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"" else v


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _blank(line: str) -> bool:
    s = line.strip()
    return not s or s.startswith("#")


class _Doc:
    """The file as lines (without line endings) and where ``<top>.<key>`` is."""

    def __init__(self, text: str, top: str, key: str) -> None:
        self.nl = "\r\n" if "\r\n" in text else "\n"
        self.lines = text.replace("\r\n", "\n").split("\n")
        if any(c in ln for ln in self.lines for c in _OTHER_BREAKS):
            raise EditError("YAML with line breaks other than LF and CRLF")  # PyYAML breaks lines there too
        self.final_nl = text.endswith("\n") or not text
        if self.final_nl:
            self.lines.pop()
        self.top_at: int | None = None  # the ``top:`` line
        self.end = len(self.lines)  # the first line after the ``top`` block
        self.key_at: int | None = None  # the ``key:`` line inside it
        self.items: list[int] = []  # the lines of its block sequence
        self.flow: list[str] | None = None  # its flow sequence's items
        self.child = 2  # indentation of the block's keys
        self._parse(top, key)

    def _parse(self, top: str, key: str) -> None:
        first = next((i for i, ln in enumerate(self.lines) if not _blank(ln)), -1)
        for i, ln in enumerate(self.lines):
            if ln[: _indent(ln) + 1].endswith("\t"):
                raise EditError("YAML indented with tabs")
            if ln.startswith(("---", "...", "%")) and not (i == first and ln.rstrip() == "---"):
                raise EditError("YAML with several documents or directives")
        for i, ln in enumerate(self.lines):
            if _blank(ln) or ln[0] == " " or (i == first and ln.rstrip() == "---"):
                continue
            if ln.startswith("-") or ln.startswith("{") or ln.startswith("["):
                raise EditError("the YAML document is not a mapping")
            if ln.split(":")[0].strip().strip("'\"") != top:
                continue
            m = _KEY.match(ln)
            if self.top_at is not None or m is None or m["key"] != top or m["val"]:
                raise EditError(f"{top} is not a plain block mapping")
            self.top_at = i
        if self.top_at is None:
            return
        self.end = next(
            (
                i
                for i in range(self.top_at + 1, len(self.lines))
                if not _blank(self.lines[i]) and self.lines[i][0] != " "
            ),
            len(self.lines),
        )
        body = [i for i in range(self.top_at + 1, self.end) if not _blank(self.lines[i])]
        for i in body:
            if re.search(r"(?:^|[\s:\[,])[&*!<][\w<-]", self.lines[i].split("#")[0]):
                raise EditError(f"{top} uses anchors, aliases, tags or merge keys")
        if body:
            self.child = _indent(self.lines[body[0]])
            if self.lines[body[0]].lstrip().startswith(("-", "[", "{", "?")):
                raise EditError(f"{top} is not a plain block mapping")
        for i in body:
            ln = self.lines[i]
            if _indent(ln) != self.child or ln.lstrip().startswith("-"):
                continue
            if ln.strip().split(":")[0].strip().strip("'\"") != key:
                continue
            m = _KEY.match(ln)
            if self.key_at is not None or m is None or m["key"] != key:
                raise EditError(f"{top}.{key} is not a plain key")
            self.key_at = i
            self._value(m["val"] or "", body, top, key)

    def _value(self, val: str, body: list[int], top: str, key: str) -> None:
        assert self.key_at is not None
        after = [i for i in body if i > self.key_at]
        nested = []
        for i in after:
            ind = _indent(self.lines[i])
            if ind < self.child or (ind == self.child and not self.lines[i].lstrip().startswith("-")):
                break
            nested.append(i)
        if val in ("", "~", "null"):
            for i in nested:
                m = _ITEM.match(self.lines[i])
                if m is None or not _NAME.match(m["val"]) or _indent(self.lines[i]) != _indent(self.lines[nested[0]]):
                    raise EditError(f"{top}.{key} holds something other than names")
            if val and nested:
                raise EditError(f"{top}.{key} is not a list")
            self.items = nested
            if val:
                self.flow = []
            return
        if nested:
            raise EditError(f"{top}.{key} is not a list")
        if not (val.startswith("[") and val.endswith("]")):
            raise EditError(f"{top}.{key} is not a list")
        inner = val[1:-1].strip()
        names = [v.strip() for v in inner.split(",")] if inner else []
        if not all(_NAME.match(n) for n in names):
            raise EditError(f"{top}.{key} holds something other than names")
        self.flow = names

    def names(self) -> list[str]:
        if self.flow is not None:
            return [_unquote(n) for n in self.flow]
        out = []
        for i in self.items:
            m = _ITEM.match(self.lines[i])
            assert m is not None
            out.append(_unquote(m["val"]))
        return out

    def set_flow(self, names: list[str]) -> None:
        assert self.key_at is not None
        ln = self.lines[self.key_at]
        comment = ln[ln.index("#") :] if "#" in ln else ""
        head = ln[: ln.index(":") + 1]
        self.lines[self.key_at] = f"{head} [{', '.join(names)}]" + (f"  {comment}" if comment else "")

    def text(self) -> str:
        out = self.nl.join(self.lines)
        return out + self.nl if self.final_nl and self.lines else out


class YamlListItem(Artifact):
    """``name`` in the list ``top.key`` of a YAML file (Hermes' ``plugins.enabled``)."""

    kind = "yaml"

    def __init__(self, path: str, top: str, key: str, name: str) -> None:
        super().__init__(path)
        self.top = top
        self.key = key
        self.name = name

    def _doc(self, data: bytes | None) -> _Doc:
        try:
            text = (data or b"").decode("utf-8")
        except UnicodeDecodeError:
            raise EditError("not UTF-8 text") from None
        return _Doc(text.removeprefix("\ufeff"), self.top, self.key)

    def add(self, data: bytes | None) -> bytes | None:
        d = self._doc(data)
        if self.name in d.names():
            return data
        item = f"{' ' * (d.child + 2)}- {self.name}"
        if d.top_at is None:
            if d.lines and d.lines[-1].strip():
                d.lines.append("")
            d.lines += [f"{self.top}:", f"{' ' * d.child}{self.key}:", item]
            d.final_nl = True
        elif d.key_at is None:
            d.lines[d.top_at + 1 : d.top_at + 1] = [f"{' ' * d.child}{self.key}:", item]
        elif d.flow is not None:
            d.set_flow([*d.flow, self.name])
        elif d.items:
            last = d.items[-1]
            d.lines.insert(last + 1, " " * _indent(d.lines[last]) + f"- {self.name}")
        else:
            d.lines.insert(d.key_at + 1, item)
        return d.text().encode("utf-8")

    def strip(self, data: bytes | None) -> bytes | None:
        if data is None:
            return None
        d = self._doc(data)
        if self.name not in d.names():
            return data
        if d.flow is not None:
            d.set_flow([n for n in d.flow if _unquote(n) != self.name])
        else:
            drop = [i for i, n in zip(d.items, d.names(), strict=True) if n == self.name]
            for i in reversed(drop):
                del d.lines[i]
            if len(drop) == len(d.items):
                d.flow = []
                d.set_flow([])  # an empty list, as Hermes writes it: still "nothing else enabled"
        return d.text().encode("utf-8")

    def extract(self, data: bytes | None) -> str | None:
        try:
            return f"{self.top}.{self.key}: {self.name}" if self.name in self._doc(data).names() else None
        except EditError:
            return None

    def empty(self, data: bytes | None) -> bool:
        """Nothing left but the empty list rtk's ``add`` created."""
        if data is None:
            return True
        rest = [ln.strip() for ln in data.decode("utf-8", "replace").splitlines() if not _blank(ln)]
        return rest in ([], [f"{self.top}:", f"{self.key}: []"])

    def describe(self) -> str:
        return f"{self.name} added to {self.top}.{self.key}"

    def snippet(self) -> str:
        return f"{self.top}:\n  {self.key}:\n    - {self.name}"
