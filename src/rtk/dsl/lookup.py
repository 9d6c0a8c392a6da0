"""Which TOML filter handles a command: project tier, then user tier, then built-in; first match wins.

Cheap by construction: the command's first word selects the candidate filters
(for built-ins from the generated literal index ``rtk.dsl._index``, no TOML
parsing; the full definition comes from ``rtk.dsl._builtin`` only when a
built-in filter is chosen), and only the candidates' ``match_command`` regexes are compiled. The
project and user tiers cost one ``listdir`` each when they hold no files.

Public API (also used by the rewrite engine):

* ``has_filter(argv, cwd=None) -> bool``: a TOML filter would handle ``argv``
  (built-in, user, or *trusted* project filter); never prints anything.
* ``filter_name(argv, cwd=None) -> str | None``: the name of that filter.
* ``find(argv, cwd=None, report=False) -> Match | None``: the filter itself;
  with ``report=True`` (the command path) it prints the one-line notices
  (untrusted or changed project file, invalid user filter) and records
  skipped untrusted filters for ``rtk gain``.

``RTK_NO_TOML=1`` turns TOML filters off entirely.
"""

from __future__ import annotations

import os

from rtk import paths
from rtk.dsl import _index

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.dsl.tiers import FileInfo


class Match:
    """A TOML filter chosen for a command (a built-in's definition is loaded on first use)."""

    __slots__ = ("_definition", "name", "tier")

    def __init__(self, tier: str, name: str, definition: dict[str, Any] | None = None) -> None:
        self.tier = tier  # "project", "user" or "builtin"
        self.name = name
        self._definition = definition

    @property
    def definition(self) -> dict[str, Any]:
        if self._definition is None:
            from rtk.dsl import _builtin

            self._definition = _builtin.FILTERS[self.name]
        return self._definition

    def __repr__(self) -> str:
        return f"Match({self.tier}, {self.name})"


def enabled() -> bool:
    return os.environ.get("RTK_NO_TOML") != "1"


def _has_toml(d: str) -> bool:
    try:
        return any(n.endswith(".toml") and not n.startswith(".") for n in os.listdir(d))
    except OSError:
        return False


def word_ok(words: list[tuple[str, str]] | tuple[tuple[str, str], ...], word: str) -> bool:
    """Whether a filter with these first-word keys can match a command starting with ``word``."""
    for kind, w in words:
        if kind == "any" or (kind == "exact" and w == word) or (kind == "prefix" and word.startswith(w)):
            return True
    return False


def builtin_candidates(word: str) -> tuple[str, ...]:
    """Names of the built-in filters that may match a command whose first word is ``word``."""
    names = _index.WORDS.get(word, ())
    extra = [n for p, ns in _index.PREFIXES if word.startswith(p) for n in ns] + list(_index.ANY)
    if extra:
        order = list(_index.MATCH)
        names = tuple(sorted(set(names) | set(extra), key=order.index))
    return names


def find(argv: list[str], cwd: str | None = None, report: bool = False) -> Match | None:
    """The TOML filter for ``argv``, or None."""
    if not argv or not enabled():
        return None
    word = argv[0].rsplit("/", 1)[-1]
    command: str | None = None
    base = cwd or os.getcwd()
    for tier, d in (
        ("project", os.path.join(base, ".rtk", "filters")),
        ("user", os.path.join(paths.config_dir(), "filters")),
    ):
        if not _has_toml(d):
            continue
        from rtk.dsl import engine, tiers

        command = command or engine.command_string(argv)
        m = _match_tier(tier, tiers.load_tier(tier, base), argv, command, word, report)
        if m is not None:
            return m
    names = builtin_candidates(word)
    if names:
        from rtk.dsl import engine

        command = command or engine.command_string(argv)
        for n in names:
            if engine.rx(_index.MATCH[n]).search(command) is not None:
                return Match("builtin", n)
    return None


def _match_tier(
    tier: str, infos: list[FileInfo], argv: list[str], command: str, word: str, report: bool
) -> Match | None:
    from rtk.dsl import deadline, engine

    notified = False
    for info in infos:
        if not info.applies and not report:
            continue  # an untrusted file's regexes are not even searched when there is nothing to tell
        if report and info.applies:
            for level, msg, _ in info.problems:
                if level == "error":
                    print(f"{msg} (filter skipped)", file=_stderr())
                elif info.fresh:
                    print(msg, file=_stderr())
        for d in info.defs:
            try:
                hit = word_ok(d["words"], word) and deadline.limited(deadline.MATCH_SECONDS, engine.matches, d, command)
            except Exception as e:  # one broken definition never takes the others (or the command) down
                if report and info.applies:
                    print(f"rtk: filters {info.path}: {type(e).__name__}: {e} (filter skipped)", file=_stderr())
                continue
            if not hit:
                continue
            if info.applies:
                return Match(tier, d["name"], d)
            if report and not notified:
                notified = True
                _notify_untrusted(argv, d, info.path, info.status)
    return None


def _stderr() -> Any:
    import sys

    return sys.stderr


def _notify_untrusted(argv: list[str], d: dict[str, Any], path: str, status: str) -> None:
    from rtk.dsl import trust
    from rtk.text import visible

    shown = os.path.relpath(path) if path.startswith(os.getcwd()) else path
    why = f"file {shown} changed since it was trusted" if status == trust.CHANGED else f"{shown} is not trusted"
    print(  # an untrusted file's name and filter id: no escape or line of theirs reaches the agent or terminal
        visible(f"rtk: project filter {d['name']} not applied: {why} (review it, then run `rtk trust`)"),
        file=_stderr(),
    )
    if trust.env_override() is False:
        print(f"rtk: {trust.ENV_VAR}=1 is ignored outside CI (CI is not set)", file=_stderr())
    try:
        from rtk import tracking
        from rtk.text import join

        tracking.append("U", tracking.now_iso(), tracking.mask_command(join(argv)), d["name"], path, status, _cwd())
    except Exception:  # tracking never breaks a command
        pass


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return ""


def has_filter(argv: list[str], cwd: str | None = None) -> bool:
    """True when a TOML filter (built-in, user, or trusted project) would handle ``argv``."""
    try:
        return find(argv, cwd) is not None
    except Exception:  # a broken filter file must never break the caller
        return False


def filter_name(argv: list[str], cwd: str | None = None) -> str | None:
    """The name of the TOML filter that would handle ``argv``, or None."""
    try:
        m = find(argv, cwd)
    except Exception:
        return None
    return m.name if m is not None else None
