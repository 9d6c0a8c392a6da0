"""Argument scanning shared by tool families: skip a tool's global options to find its subcommand."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection


def first_word(
    args: list[str],
    with_value: Collection[str],
    flags: Collection[str],
    *,
    start: int = 0,
    also: Callable[[str], bool] | None = None,
) -> int | None:
    """Index of the first word that is not one of the tool's known global options.

    Options in ``with_value`` take the next word (or ``--opt=value``), ``flags`` take
    none, and ``also(word)`` may accept more flag shapes (``cargo +nightly``). Returns
    ``len(args)`` when only options follow, and None when an unknown option comes
    first: the caller cannot know what it means, so the command runs unfiltered.
    """
    i = start
    while i < len(args):
        a = args[i]
        if a in with_value:
            i += 2
        elif a in flags or (also is not None and also(a)) or ("=" in a and a.split("=", 1)[0] in with_value):
            i += 1
        elif a.startswith("-"):
            return None
        else:
            return i
    return len(args)


def subcommand(args: list[str], with_value: Collection[str], flags: Collection[str]) -> tuple[str, list[str]] | None:
    """``[global options] sub rest...`` -> (sub, rest); None without a plain subcommand."""
    i = first_word(args, with_value, flags)
    if i is None or i >= len(args):
        return None
    return args[i], args[i + 1 :]


def plain_sub(args: list[str], subs: Collection[str], raw: Collection[str]) -> bool:
    """Whether the first word of ``args`` that is not an option is one of ``subs`` and no option in
    ``raw`` (``--help``, a format flag: the user asked for the tool's own output) is given."""
    words = [a for a in args if not a.startswith("-")]
    return bool(words) and words[0] in subs and not any(a.split("=", 1)[0] in raw for a in args)
