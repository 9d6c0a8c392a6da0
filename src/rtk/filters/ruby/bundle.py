"""Filter for ``bundle install`` (also bare ``bundle``) and ``bundle update`` (Bundler's operation log).

``Using gem x.y`` lines (gems already installed, unchanged) become one count; gems
installed or updated by this run stay listed, one line, and so do installed gems an update
moved to another version (``Using rack 2.2.8 (was 2.2.7)``). Progress (``Fetching ...``,
``Resolving dependencies...``), the ``bundle info`` hint and the warning about
running as root go. Errors stay as printed, except Bundler's own backtrace frames
(``/usr/lib/ruby/.../bundler/....rb:N:in ...``), which are counted (the raw output
is kept). Output with no line the filter knows prints raw; other subcommands
(``bundle exec`` runs the tool, rewritten on its own) run unfiltered.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec
from rtk.filters.argv import plain_sub

COMMANDS = ("bundle",)

_SUBS = frozenset(("install", "update", "i"))
_RAW = ("-h", "--help", "--version", "-v")
_USING = re.compile(r"^Using (\S+ \S+)(?: \(was (\S+)\))?$")  # "(was X)": an update picked another version
_INSTALLING = re.compile(r"^(Installing|Updating) (\S+ \S+)(?: \(was (\S+)\))?(?: with native extensions)?$")
_NOISE = re.compile(
    r"^(Resolving dependencies\.\.\.|Fetching gem metadata from \S+|Fetching source index from \S+"
    r"|Fetching \S+ \S+|Use `bundle info \[gemname\]` to see where a bundled gem is installed\."
    r"|Fetching \S+)$"
)
_ROOT = (
    "Don't run Bundler as root. Bundler can ask for sudo if it is needed, and",
    "installing your bundle as root will break this application for all non-root",
    "users on this machine.",
)
# Bundler's own stack frames (wrapped at 80 columns: the method name may fall on the next line).
_FRAME = re.compile(r"^\s*/\S+/bundler/\S+\.rb:\d+:in(?: `.*)?$")
_FRAME_REST = re.compile(r"^`?[^\s`']+'$")


def select(argv: list[str]) -> Spec | None:
    args = argv[1:]
    bare = not any(not a.startswith("-") for a in args) and not any(a.split("=", 1)[0] in _RAW for a in args)
    return Spec("bundle", bundle) if bare or plain_sub(args, _SUBS, _RAW) else None  # bare bundle: install


def bundle(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``Using`` lines counted, installs listed, progress dropped; None (raw) when nothing is known."""
    out: list[str] = []
    using = 0
    installed: list[str] = []
    changed: list[str] = []  # already installed, but another version than before
    frames = 0
    runs: list[int] = []  # where each run of frames was, in out
    run_len: dict[int, int] = {}
    known = False
    prev_frame = False
    for ln in output.splitlines():
        if ln in _ROOT:
            known = True
            continue
        if _FRAME.match(ln) or (prev_frame and _FRAME_REST.match(ln)):
            frames += 1
            if not prev_frame:
                runs.append(len(out))
                out.append("")
            run_len[len(out) - 1] = run_len.get(len(out) - 1, 0) + 1
            prev_frame = True
            continue
        prev_frame = False
        m = _USING.match(ln)
        if m:
            if m.group(2):
                changed.append(f"{m.group(1)} (was {m.group(2)})")
            else:
                using += 1
            known = True
            continue
        m = _INSTALLING.match(ln)
        if m:
            installed.append(m.group(2) + (f" (was {m.group(3)})" if m.group(3) else ""))
            known = True
            continue
        if _NOISE.match(ln):
            known = True
            continue
        out.append(ln)
    if not known:
        return None
    head: list[str] = []
    if installed:
        head.append(f"installed ({len(installed)}): " + ", ".join(installed))
    if changed:
        head.append(f"version changed ({len(changed)}): " + ", ".join(changed))
    if using:
        head.append(f"{using} gems already installed (unchanged)")
    for at in runs:
        out[at] = f"  ... {run_len[at]} lines of Bundler's own backtrace"
    text = "\n".join(out + head).strip("\n")
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return Filtered(text + "\n", frames)
