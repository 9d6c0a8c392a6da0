"""A short list under a header line (``The following packages will be upgraded:``) is shown whole, never folded."""

from __future__ import annotations

from rtk.fold.state import Section

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.fold.state import FoldState as Folder

SECTION = 5  # a block of at most this many lines indented under a header is shown whole (as a rare template is)


def header(line: str, seen: int) -> Section | None:
    """A section for ``line`` when it is a rare header: it ends in ``:`` and its template has ``seen`` lines, a few.

    The lines indented under it are its block. A header repeated more (rustc's ``= help: ... for
    the lint:`` above the same two lines, each time) is a line like others, and so is its block.
    """
    s = line.rstrip()
    if s[-1:] != ":" or seen > SECTION:
        return None
    return Section(len(s) - len(s.lstrip()))


def section_line(f: Folder, no: int, line: str) -> bool:
    """Line ``no`` after a header (``f._sect`` set): True when taken here (held, or the block let go with it).

    A block that ends within :data:`SECTION` lines is shown whole: its lines are the facts of
    their section, which a fold counting them with like lines of other sections would hide. A
    longer block is let go: its lines take the usual way, in order.
    """
    sec = f._sect
    assert sec is not None
    s = line.lstrip()
    if not s or len(line) - len(s) <= sec.indent:  # a blank or an outdented line: the block ended
        end_section(f)
        return False
    if len(sec.held) < SECTION:
        sec.held.append((no, line))
        return True
    f._sect = None
    for n, ln in sec.held:
        f._take(n, ln)
    f._take(no, line)
    return True


def end_section(f: Folder) -> None:
    """The block under a header ended short: each of its lines is shown whole."""
    sec, f._sect = f._sect, None
    if sec is not None:
        for no, line in sec.held:
            f._access(line)
            f.pending.append(["show", no, line])
