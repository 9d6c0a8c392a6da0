"""Filter for jq: the data it prints is passed through byte for byte, unless it is one huge pretty JSON value.

jq's standard output is data (an agent reads values from it), so it is never
reshaped when short, when it is a stream of several values, when jq failed, or
when the user chose a layout (``-r``, ``-j``, ``-c``, ``--tab``, ``--indent``,
``--seq``, ``--stream``...). Longer than ``limits.passthrough_max_lines`` and a
single value: the JSON view of ``rtk json`` (values as written, long arrays and
strings cut with exact counts). jq's errors go to stderr and pass through untouched.
"""

from __future__ import annotations

from rtk import config
from rtk.filterapi import Filtered, Spec, Verbatim

COMMANDS = ("jq",)

_LAYOUT_LONG = frozenset(
    (
        "--raw-output", "--raw-output0", "--join-output", "--compact-output", "--ascii-output", "--tab",
        "--indent", "--seq", "--stream", "--stream-errors", "--color-output", "--help", "--version",
        "--run-tests", "--unbuffered",
    )
)  # fmt: skip
_LAYOUT_SHORT = frozenset("rjcaCh")  # -r -j -c -a -C -h, alone or in a cluster (-rc)
_WITH_VALUE = frozenset(("--arg", "--argjson", "--slurpfile", "--rawfile", "--indent", "-f", "--from-file", "-L"))


def select(argv: list[str]) -> Spec | None:
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            break
        if a.startswith("--"):
            if a.split("=", 1)[0] in _LAYOUT_LONG:
                return None
            if a in ("--arg", "--argjson", "--slurpfile", "--rawfile"):
                i += 2  # name and value
            elif a in _WITH_VALUE:
                i += 1
        elif a.startswith("-") and len(a) > 1:
            if _LAYOUT_SHORT & set(a[1:]):
                return None
            if a in ("-f", "-L"):
                i += 1
        i += 1
    return Spec("jq", view, merge_stderr=False)


def view(argv: list[str], output: str, exit_code: int) -> Filtered:
    """Huge single pretty-printed value -> the JSON view; anything else exactly as jq wrote it."""
    if exit_code != 0 or output.count("\n") <= int(config.get("limits.passthrough_max_lines")):
        raise Verbatim()
    if "\ufffd" in output or "\x00" in output:
        raise Verbatim()
    from rtk.filters import jsonview as _jsonview

    try:
        value = _jsonview.loads(output)  # several values (jq '.[]') do not parse as one: verbatim
    except ValueError:
        raise Verbatim() from None
    if not isinstance(value, dict | list):
        raise Verbatim()
    text, cut = _jsonview.compact(value)
    return Filtered(text + "\n", cut)
