"""Lists of names (packages) on one line: whole up to ``limits.listing_budget``, above it counted per prefix."""

from __future__ import annotations

from rtk import config

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

NOUN = ("package", "packages")


def budget() -> int:
    """``limits.listing_budget`` (tokens), the budget every listing shares."""
    return int(config.get("limits.listing_budget"))


def prefix(item: str) -> str:
    """The group of a package item: its name's first word (``google`` of ``google-cloud-core==2.4``)."""
    name = item.split()[0] if item.split() else item
    for sep in ("==", "@", "["):
        name = name.split(sep, 1)[0]
    for i, c in enumerate(name):
        if c in "-_." and i:
            return name[:i].lower()
    return name.lower()


def directory(path: str) -> str:
    """The group of a path: its directory (``src/app/``), ``./`` for a top-level name."""
    k = path.rstrip("/").rfind("/")
    return path[: k + 1] if k >= 0 else "./"


def listed(
    head: str,
    items: list[str],
    limit: int | None = None,
    noun: tuple[str, str] = NOUN,
    key: Callable[[str], str] | None = None,
) -> tuple[list[str], int]:
    """``HEADa, b, c`` on one line while it fits ``limit`` tokens (``limits.listing_budget``); above it,
    ``HEAD`` then one line per name prefix (``key``: per directory, say): each group's names while
    they fit, the others as ``  prefix*  (N packages)`` (exact). Returns (lines, items not named)."""
    from rtk import tokens
    from rtk.filters.files.paths import Unit, fit

    limit = budget() if limit is None else limit
    whole = head + ", ".join(items)
    if tokens.estimate(whole) <= limit:
        return [whole], 0
    groups: dict[str, list[str]] = {}
    for it in items:
        groups.setdefault((key or prefix)(it), []).append(it)
    star = "" if key else "*"
    units = [Unit(f"  {k}{star}", "  " + ", ".join(v), len(v), "") for k, v in groups.items()]
    lines, cut = fit(units, limit, noun, "group", smallest_first=True)
    return ([head.rstrip()] if head.strip() else []) + lines, cut
