"""Filter for aws API commands: JSON responses compacted (every value kept), tables unboxed, errors whole."""

from __future__ import annotations

from rtk.filterapi import Filtered, Unrecognized

_BANNER = "Note: AWS CLI version 2, the latest major version"


def _table(lines: list[str]) -> str:
    """``--output table``: box drawing goes, every title, key and value stays, cells split by ``|``."""
    out: list[str] = []
    for line in lines:
        s = line.strip()
        if not s or set(s) <= {"-", "+"}:
            continue
        if not (s.startswith("|") and s.endswith("|")):
            raise Unrecognized("a line outside the table")
        inner = s.strip("|")
        out.append("|".join(c.strip() for c in inner.split("|")))
    return "\n".join(out) + "\n"


def _usage(lines: list[str]) -> str:
    """A usage error: the v2 advert goes, the choices table becomes one comma-separated list."""
    out: list[str] = []
    choices: list[str] = []
    for line in lines:
        if "|" in line and out and (choices or out[-1].endswith("valid choices are:") or not out[-1]):
            choices += [c.strip() for c in line.split("|") if c.strip()]
            continue
        if choices:
            out.append(", ".join(choices))
            choices = []
        out.append(line.rstrip())
    if choices:
        out.append(", ".join(choices))
    return "\n".join(out).strip("\n") + "\n"


def api(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """The compact form of one aws API response or error, or None (raw) when it is short or plain text."""
    # awscli 1.x prints an advert for v2 over its usage errors ("usage: \\rNote: ..."): noise
    lines = [line for line in output.splitlines() if _BANNER not in line]
    text = "\n".join(lines).strip()
    if not text:
        return None
    if text[0] in "{[":
        from rtk.filters.aws.compact import render

        return render(text)
    if text.startswith("-") and lines and any(line.startswith("|") for line in lines):
        return _table(lines)
    if text.startswith("usage:"):
        return _usage(lines)
    if text.startswith("An error occurred ("):
        return None  # one line already: printed as it came
    if "\t" in text:
        return None  # --output text: tab-separated rows, already compact
    raise Unrecognized("not JSON, a table, text rows or an aws error")
