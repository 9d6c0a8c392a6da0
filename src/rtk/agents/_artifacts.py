"""What ``rtk init`` writes, as artifacts that add, remove and find rtk's own part of one file.

- :class:`JsonHook`: rtk's hook entry in a JSON settings file (recognised by its
  command, ``... rtk hook <agent>``); everything else in the file is kept.
- :class:`Section`: a marked block in a Markdown file (CLAUDE.md, AGENTS.md, rules files).
- :class:`TomlBlock`: a marked block in a TOML file, checked with ``tomllib``.
- :class:`OwnedFile`: a whole file rtk owns (plugins, hook scripts, rules files).

``add``/``strip`` map the file's bytes (None: no file) to new bytes; ``strip`` may
leave an empty document, which the installer deletes when rtk created the file.
``extract`` returns rtk's part as text (None when absent): its SHA-256 is the
integrity record.
"""

from __future__ import annotations

import os
import re

from rtk.agents import _toml_edit as _blocks
from rtk.agents._json_edit import Doc, EditError, Node, new_file, py

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Scope:
    """Where to install: the user's home (``global``) or a project directory."""

    __slots__ = ("is_global", "root")

    def __init__(self, is_global: bool, root: str) -> None:
        self.is_global = is_global
        self.root = root

    @property
    def label(self) -> str:
        return "global" if self.is_global else self.root

    def at(self, *parts: str) -> str:
        return os.path.join(self.root, *parts)


def home(*parts: str) -> str:
    return os.path.join(os.path.expanduser("~"), *parts)


def env_dir(var: str, *default: str) -> str:
    """``$var`` when set, else ``~/<default>``."""
    return os.environ.get(var) or home(*default)


class Options:
    """Choices that change what is written: the rtk command, block mode, Copilot's deny fallback."""

    __slots__ = ("block", "command", "suggest")

    def __init__(self, command: str, block: bool = False, suggest: bool = False) -> None:
        self.command = command
        self.block = block
        self.suggest = suggest

    def hook(self, agent: str, *flags: str) -> str:
        return " ".join((self.command, "hook", agent, *flags))

    def as_dict(self) -> dict[str, Any]:
        return {"command": self.command, "block": self.block, "suggest": self.suggest}


class Artifact:
    """rtk's part of one file."""

    kind = ""
    hook = False  # a hook registration or hook file (integrity and doctor look at these)

    def __init__(self, path: str) -> None:
        self.path = path

    def add(self, data: bytes | None) -> bytes | None:
        raise NotImplementedError

    def strip(self, data: bytes | None) -> bytes | None:
        raise NotImplementedError

    def extract(self, data: bytes | None) -> str | None:
        raise NotImplementedError

    def empty(self, data: bytes | None) -> bool:
        """Whether ``data`` (after ``strip``) holds nothing but what rtk would create."""
        return data is None or not data.strip()

    def describe(self) -> str:
        raise NotImplementedError

    def snippet(self) -> str:
        """What to add by hand when the file cannot be edited."""
        raise NotImplementedError

    def rendered(self) -> str:
        """rtk's part as it is written now (compared with the recorded one: outdated hooks)."""
        return self.extract(self.add(None)) or ""


_RTK_HOOK = r"(?:^|[\s/'\"])(?:rtk['\"]?|-m\s+rtk)\s+hook\s+{}(?:\s|$)"


def is_rtk_hook(command: object, agent: str) -> bool:
    """Whether a registered command runs ``rtk hook <agent>`` (any path, quoting or flags)."""
    return isinstance(command, str) and re.search(_RTK_HOOK.format(re.escape(agent)), command) is not None


class JsonHook(Artifact):
    """A hook entry in a JSON settings file.

    ``keys`` lead to the list of entries (``("hooks", "PreToolUse")``). With ``group``
    the list holds Claude-style groups (``{"matcher": ..., "hooks": [entry]}``);
    without, the entries themselves. ``command_at`` is where the entry keeps its
    command; ``top`` are the keys a new file starts with (``{"version": 1}``).
    """

    kind = "hook"
    hook = True

    def __init__(
        self,
        path: str,
        agent: str,
        keys: tuple[str, ...],
        entry: dict[str, Any],
        group: dict[str, Any] | None = None,
        command_at: tuple[str, ...] = ("command",),
        top: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(path)
        self.agent = agent
        self.keys = keys
        self.entry = entry
        self.group = group
        self.command_at = command_at
        self.top = top or {}

    def _ours(self, item: object) -> bool:
        node: Any = item
        for k in self.command_at:
            if not isinstance(node, dict):
                return False
            node = node.get(k)
        return is_rtk_hook(node, self.agent)

    def _item(self) -> dict[str, Any]:
        return dict(self.entry) if self.group is None else {**self.group, "hooks": [dict(self.entry)]}

    def _next(self, doc: Doc) -> tuple[Node, int, Node | None, int] | None:
        """The next rtk entry: (list, index in it, the group's hooks list or None, index in that)."""
        lst = doc.list_at(self.keys)
        if lst is None:
            return None
        for gi, item in enumerate(lst.items):
            if self.group is None:
                if self._ours(py(item)):
                    return lst, gi, None, 0
                continue
            at = item.member("hooks") if item.kind == "object" else None
            hooks = item.items[at] if at is not None else None
            if hooks is None or hooks.kind != "array":
                continue
            for hi, h in enumerate(hooks.items):
                if self._ours(py(h)):
                    return lst, gi, hooks, hi
        return None

    def _edit(self, doc: Doc, keep: bool) -> bool:
        """Cut rtk's entries out of the text; with ``keep``, put the current one where the first one was
        (or at the end). Whether anything was cut."""
        first: int | None = None
        cut = False
        while (hit := self._next(doc)) is not None:
            lst, gi, hooks, hi = hit
            cut = True
            if hooks is not None and len(hooks.items) > 1:
                doc.remove(hooks, hi)  # the group keeps the user's other hooks
                continue
            doc.remove(lst, gi)
            first = gi if first is None else min(first, gi)
        if keep:
            self._place(doc, first)
        return cut

    def _place(self, doc: Doc, at: int | None) -> None:
        assert doc.root is not None
        if not doc.root.items and self.top:
            for k, v in self.top.items():
                doc.insert(doc.root, len(doc.root.items), v, k)
        chain = doc.walk(self.keys)
        if len(chain) == len(self.keys):
            lst = doc.list_at(self.keys)
            assert lst is not None
            doc.insert(lst, len(lst.items) if at is None else at, self._item())
            return
        parent = chain[-1] if chain else doc.root
        if parent.kind != "object":
            raise EditError(f"{'.'.join(self.keys[: len(chain)])} is not an object")
        value: Any = [self._item()]
        for k in reversed(self.keys[len(chain) + 1 :]):
            value = {k: value}
        doc.insert(parent, len(parent.items), value, self.keys[len(chain)])

    def add(self, data: bytes | None) -> bytes | None:
        doc = Doc(data)
        if self.extract(data) == self.rendered_entry():
            return data  # already there, exactly: not even reformatted
        if doc.root is None:
            fresh: dict[str, Any] = dict(self.top)
            node = fresh
            for k in self.keys[:-1]:
                node = node.setdefault(k, {})
            node[self.keys[-1]] = [self._item()]
            return new_file(fresh)
        self._edit(doc, keep=True)
        out = doc.data()
        return data if data is not None and out == data else out

    def strip(self, data: bytes | None) -> bytes | None:
        if data is None:
            return None
        doc = Doc(data)
        if doc.root is None or not self._edit(doc, keep=False):
            return data
        self._prune(doc)
        return doc.data()

    def _prune(self, doc: Doc) -> None:
        """Remove the list at ``keys`` if left empty, then each parent object left empty."""
        chain = doc.walk(self.keys)
        if len(chain) < len(self.keys):
            return
        for depth in range(len(self.keys) - 1, -1, -1):
            chain = doc.walk(self.keys)
            if chain[depth].items:
                return
            parent = chain[depth - 1] if depth else doc.root
            assert parent is not None
            at = parent.member(self.keys[depth])
            assert at is not None
            doc.remove(parent, at)

    def empty(self, data: bytes | None) -> bool:
        if data is None or not data.strip():
            return True
        try:
            doc = Doc(data).value()
        except EditError:
            return False
        return doc == {} or doc == self.top

    def found(self, data: bytes | None) -> list[Any]:
        doc = Doc(data)
        try:
            lst = doc.list_at(self.keys)
        except EditError:
            return []
        out: list[Any] = []
        for item in py(lst) if lst is not None else []:
            if self.group is None:
                if self._ours(item):
                    out.append(item)
            elif isinstance(item, dict) and isinstance(item.get("hooks"), list):
                for h in item["hooks"]:
                    if self._ours(h):
                        out.append({k: v for k, v in item.items() if k != "hooks"} | {"hooks": [h]})
        return out

    def extract(self, data: bytes | None) -> str | None:
        import json

        try:
            found = self.found(data)
        except EditError:
            return None
        return json.dumps(found, sort_keys=True) if found else None

    def rendered_entry(self) -> str:
        import json

        return json.dumps([self._item()], sort_keys=True)

    def rendered(self) -> str:
        return self.rendered_entry()

    def command(self) -> str:
        node: Any = self.entry
        for k in self.command_at:
            node = node[k]
        return str(node)

    def describe(self) -> str:
        return f"{'.'.join(self.keys)} hook: {self.command()}"

    def snippet(self) -> str:
        import json

        item = dict(self.entry) if self.group is None else {**self.group, "hooks": [self.entry]}
        doc: dict[str, Any] = dict(self.top)
        node = doc
        for k in self.keys[:-1]:
            node = node.setdefault(k, {})
        node[self.keys[-1]] = [item]
        return json.dumps(doc, indent=2)


class _TextBlock(Artifact):
    markers = _blocks.MARKDOWN

    def __init__(self, path: str, body: str) -> None:
        super().__init__(path)
        self.body = body

    def _text(self, data: bytes | None) -> str:
        try:
            return (data or b"").decode("utf-8")
        except UnicodeDecodeError:
            raise EditError("not UTF-8 text") from None

    def _check(self, text: str) -> None:
        pass

    def add(self, data: bytes | None) -> bytes | None:
        text = self._text(data)
        new = _blocks.put(text, self.body, self.markers)
        if new == text:
            return data
        self._check(new)
        return new.encode("utf-8")

    def strip(self, data: bytes | None) -> bytes | None:
        if data is None:
            return None
        text = self._text(data)
        new = _blocks.remove(text, self.markers)
        return data if new == text else new.encode("utf-8")

    def extract(self, data: bytes | None) -> str | None:
        try:
            return _blocks.extract(self._text(data), self.markers)
        except EditError:
            return None

    def snippet(self) -> str:
        return _blocks.put("", self.body, self.markers)


class Section(_TextBlock):
    """A marked block in a Markdown file (awareness text, rules)."""

    kind = "section"

    def describe(self) -> str:
        return "rtk section (marked block)"


class TomlBlock(_TextBlock):
    """A marked block in a TOML file; the result must still parse."""

    kind = "toml"
    markers = _blocks.TOML

    def __init__(self, path: str, body: str, hook: bool = False) -> None:
        super().__init__(path, body)
        self.hook = hook

    def _check(self, text: str) -> None:
        _blocks.check_toml(text)

    def describe(self) -> str:
        return "rtk block (marked, TOML)"


OWN_MARK = b"rtk init"


class OwnedFile(Artifact):
    """A whole file written by rtk (its text names ``rtk init``, so a foreign file is never overwritten)."""

    kind = "file"

    def __init__(self, path: str, content: str, executable: bool = False, hook: bool = False) -> None:
        super().__init__(path)
        self.content = content.encode("utf-8")
        self.executable = executable
        self.hook = hook

    def add(self, data: bytes | None) -> bytes | None:
        if data is None or data == self.content or OWN_MARK in data:
            return self.content
        raise EditError("the file exists and was not written by rtk init")

    def strip(self, data: bytes | None) -> bytes | None:
        return None if data is None or OWN_MARK in data else data

    def extract(self, data: bytes | None) -> str | None:
        if data is None or OWN_MARK not in data:
            return None
        return data.decode("utf-8", "replace")

    def describe(self) -> str:
        return "file written by rtk" + (" (executable)" if self.executable else "")

    def snippet(self) -> str:
        return self.content.decode("utf-8")
