"""Filter for composer: its boxed error messages unwrapped to plain lines, the synopsis under them dropped.

Composer (Symfony Console) prints an exception as an ``In File.php line N:`` title over a
box: every message line cut into chunks of the box width, each padded with spaces. The
box becomes the message as written (chunks joined, padding gone), one line per line of
the message. The command's synopsis that follows an error (``install [--prefer-source]
...``) goes. Everything else (progress, warnings, ``composer validate`` findings) stays
as printed; output without a box is shown raw. ``--format``/``--help``/``list`` and the
interactive commands run unfiltered.
"""

from __future__ import annotations

from rtk.filterapi import Filtered, Spec
from rtk.filters.argv import plain_sub

COMMANDS = ("composer",)

# Subcommands whose output is an operation log or a report (not data, not interactive).
_SUBS = frozenset(
    (
        "install", "i", "update", "u", "upgrade", "require", "r", "remove", "rm", "validate", "dump-autoload",
        "dumpautoload", "audit", "check-platform-reqs", "diagnose", "run-script", "run", "reinstall", "bump",
    )
)  # fmt: skip
_RAW = ("--format", "-f", "--help", "-h", "--version", "-V", "--interactive")


def select(argv: list[str]) -> Spec | None:
    return (
        Spec("composer", composer, env={"COMPOSER_NO_INTERACTION": "1"}) if plain_sub(argv[1:], _SUBS, _RAW) else None
    )


def _box(lines: list[str], start: int) -> tuple[list[str], int]:
    """The message of the padded box from ``lines[start]`` (its blank top line); returns (lines, index after)."""
    width = len(lines[start])
    chunks: list[str] = []
    i = start + 1
    while i < len(lines) and len(lines[i]) == width and lines[i].startswith("  "):
        if not lines[i].strip():
            i += 1
            break  # the blank bottom line
        chunks.append(lines[i][2:-2])
        i += 1
    else:
        return [], start
    message: list[str] = []
    cur = ""
    for chunk in chunks:
        cur += chunk
        if chunk != chunk.rstrip(" "):  # padded: the message line ends here
            message.append(cur.rstrip(" "))
            cur = ""
    if cur:
        message.append(cur)
    return message, i


def _synopsis(line: str, sub: str) -> bool:
    return line.startswith(sub + " [") and "[--" in line


def composer(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """Boxed errors unwrapped, the synopsis under an error dropped; None (raw) when there is no box."""
    words = [a for a in argv[1:] if not a.startswith("-")]
    sub = words[0] if words else ""
    lines = output.split("\n")
    out: list[str] = []
    boxes = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        title = line.startswith("In ") and line.endswith(":") and " line " in line
        if title and i + 1 < len(lines) and lines[i + 1] and not lines[i + 1].strip():
            message, end = _box(lines, i + 1)
            if message:
                out.append(line)
                out.extend("  " + m for m in message)
                boxes += 1
                i = end
                continue
        if boxes and _synopsis(line, sub):
            i += 1
            continue
        out.append(line)
        i += 1
    if not boxes:
        return None
    text = "\n".join(out).strip("\n")
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text + "\n"
