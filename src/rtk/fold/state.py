"""What the fold's helper modules (context, repeat, section, summary) read and change of a folder, and the two
records they share with it: the section held under a header, and the last line folded that ends in ``:``."""

from __future__ import annotations

from typing import Protocol

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import deque

    from rtk.fold.budget import Cache
    from rtk.fold.group import Group
    from rtk.fold.held import Known
    from rtk.fold.late import Late

# The last line folded (held or counted) that ends in ``:``: its number, text, group and held entry (None: counted).
Colon = tuple[int, str, "Group", "list[object] | None"]


class Section:
    """The block after a header line: its lines held (at most ``section.SECTION``) until it is known to be short."""

    __slots__ = ("held", "indent")

    def __init__(self, indent: int) -> None:
        self.indent = indent  # the header's indentation: the block's lines are indented more
        self.held: list[tuple[int, str]] = []


class FoldState(Protocol):
    """The part of :class:`rtk.fold.folder.Folder` its helper modules use (so they need not import it)."""

    groups: dict[int, Group]
    pending: deque[list[object]]
    lines: int
    shown: int
    folded: int
    base: int
    _blk: list[list[object]]
    _bodies: dict[tuple[str, ...], tuple[int, int, str]]
    _body_chars: int
    _sect: Section | None
    _known: Cache[int, Known] | None
    _late: Late
    _later: dict[int, list[object]]
    _colon: Colon | None

    def _take(self, no: int, line: str, shape: bytes | None = None, counted: bool = False) -> None: ...

    def _access(self, line: str) -> None: ...
