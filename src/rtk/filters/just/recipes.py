"""A just recipe run: echoed command lines that printed nothing go, each command's output stays or is delegated.

just prints each recipe line to stderr before running it; rtk asks it to mark
those lines (``ENV``: a timestamp whose format is a fixed word), so the output is
read exactly as a sequence of commands: an echoed recipe line and what that
command printed up to the next one. What the filter is compared with (and what is
shown when it cannot save) is the output without the marks, as the user's own
command prints it.

- A command that printed nothing is dropped (its line is in the justfile); the
  one a recipe failed on is kept, with just's ``error: recipe `x` failed on line N
  with exit code M`` whole. A command that printed something is kept above its
  output, unless it is an ``echo``/``printf`` (its output says it).
- A command rtk has a filter for (``pytest``, ``cargo test``, ``cc``, ``ruff``...,
  after ``NAME=value`` assignments; a plain command line, no shell syntax) has its
  output read by that filter, with the exit code just reported for it; when that
  filter does not recognise it or would not shorten it, the output stays as printed.
- Every other output line stays as printed.

A successful run ends with ``just: ok (N commands)``; a failure keeps just's own
error line (or says the exit code when just printed none). Output without any
echoed line (quiet recipes, just's own errors) is shown raw.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered
from rtk.text import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filterapi import Spec

# What rtk asks just to print before each echoed recipe line: "[rtk-echo] ".
MARK_WORD = "rtk-echo"
MARK = f"[{MARK_WORD}] "
ENV = {"JUST_TIMESTAMP": "true", "JUST_TIMESTAMP_FORMAT": MARK_WORD}

_FAILED = re.compile(r"^error: [Rr]ecipe `[^`]+` failed (?:on line \d+ )?with exit code (\d+)$")
# Commands whose output is the text of their own line: that line adds nothing above it.
_SAYS = frozenset(("echo", "printf"))
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
# A recipe line holding any of these is not one plain command (pipes, lists, redirections, expansions...).
_SHELL = frozenset("|&;<>()$`*?[]{}~!#\\\n")


def run(argv: list[str], output: str, exit_code: int) -> Filtered | None:
    if MARK not in output:
        return None  # nothing echoed: quiet recipes or just's own error, as printed
    baseline = ("\n" + output).replace("\n" + MARK, "\n")[1:]
    lines = output.splitlines()
    out: list[str] = []
    cut = 0
    dropped = 0
    ran = 0
    failed_line = False
    command: str | None = None
    body: list[str] = []

    def flush(code: int, failed: bool) -> None:
        nonlocal command, body, cut, dropped
        if command is None:
            out.extend(body)
            body = []
            return
        while body and not body[-1].strip():
            body.pop()
        if not body:
            if failed:
                out.append(command)
            else:
                dropped += 1
        else:
            if failed or (command.split() or [""])[0] not in _SAYS:
                out.append(command)
            shown = _delegate(command, body, code)
            if shown is None:
                out.extend(body)
            else:
                out.extend(shown[0])
                cut += shown[1]
        command, body = None, []

    for ln in lines:
        if ln.startswith(MARK):
            flush(0, False)
            command = ln[len(MARK) :]
            ran += 1
            continue
        m = _FAILED.match(ln)
        if m is not None:
            flush(int(m.group(1)), True)
            out.append(ln)
            failed_line = True
            continue
        body.append(ln)
    last_failed = exit_code != 0 and not failed_line
    flush(exit_code if last_failed else 0, last_failed)
    while out and not out[-1].strip():
        out.pop()
    if exit_code == 0 and not failed_line:
        out.append(f"just: ok ({plural(ran, 'command')})")
    elif not failed_line:
        out.append(f"just: exit {exit_code}")
    return Filtered("\n".join(out) + "\n", cut, baseline=baseline)


def _words(command: str) -> list[str] | None:
    """The words of an echoed recipe line that is one plain command, assignments in front removed."""
    if any(c in _SHELL for c in command):
        return None
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return None
    while words and _ASSIGN.match(words[0]):
        words.pop(0)
    if not words or words[0].rsplit("/", 1)[-1] == "just":
        return None
    return words


def _spec(words: list[str]) -> Spec | None:
    from rtk import filters

    try:
        spec = filters.resolve(words)
    except Exception:  # a broken filter must not stop this one: the output stays as printed
        return None
    if spec is None or spec.live or spec.run_argv is not None or not spec.merge_stderr:
        return None  # the filter reads output of another command line, or output this run did not merge
    return spec


def _delegate(command: str, body: list[str], code: int) -> tuple[list[str], int] | None:
    """``body`` as the filter of ``command`` shows it, and what it cut; None to keep it as printed."""
    words = _words(command)
    spec = _spec(words) if words is not None else None
    if words is None or spec is None:
        return None
    try:
        if spec.stream is not None:
            filt = spec.stream(words)
            parts = [t for t in (filt.feed(ln) for ln in body) if t is not None]
            summary = filt.finish(code)
            if summary:
                parts.append(summary)
            text, cut = "\n".join(parts), filt.cut
        else:
            assert spec.filter is not None
            res = spec.filter(words, "\n".join(body) + "\n", code)
            if res is None:
                return None
            text, cut = (res.text, res.cut) if isinstance(res, Filtered) else (res, 0)
    except Exception:  # Unrecognized, Verbatim or a filter bug: the output as printed
        return None
    shown = text.rstrip("\n").splitlines()
    if len("\n".join(shown)) >= len("\n".join(body)):
        return None  # not shorter: as printed
    return shown, cut
