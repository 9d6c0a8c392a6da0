"""``gh run view RUN`` (the summary): failing jobs and steps, annotations, artifacts and hints kept; passed steps counted.

gh prints the run header, ``JOBS`` with one line per job (and, for a failed job or with
``--verbose``, one line per step), ``ANNOTATIONS``, ``ARTIFACTS`` and two hint lines.
The filter keeps every line but the steps that succeeded, which become one count per
job, and the blank lines between sections. Annotations print as a message line and a
``job: path#line`` line each; one message raised by several jobs (a test matrix's
``Process completed with exit code 1.``) is printed once, with each job's line under it.
"""

from __future__ import annotations

from rtk.filterapi import Unrecognized

_OK = "\u2713"  # gh's check mark for a success


def run_view(argv: list[str], output: str, exit_code: int) -> str | None:
    if not output.strip() or exit_code not in (0, 1):
        return None
    lines = output.splitlines()
    if exit_code != 0 and "JOBS" not in lines:  # an error (no such run), or a run that failed to start
        return None
    if "JOBS" not in lines and not any(ln.startswith("To see the full job log") for ln in lines):
        raise Unrecognized("no JOBS section")
    out: list[str] = []
    passed = 0

    def flush() -> None:
        nonlocal passed
        if passed:
            out.append(f"  {_OK} {passed} other {'step' if passed == 1 else 'steps'} passed")
            passed = 0

    for line in lines:
        if line.startswith("  ") and line[2:4] == _OK + " ":
            passed += 1
            continue
        flush()
        if line.strip():
            out.append(line)
    flush()
    return "\n".join(_annotations(out)) + "\n"


def _annotations(lines: list[str]) -> list[str]:
    """The ANNOTATIONS section with each message once and every location line under it."""
    if "ANNOTATIONS" not in lines:
        return lines
    start = lines.index("ANNOTATIONS") + 1
    end = start
    while end < len(lines) and lines[end] != "ARTIFACTS" and not lines[end].startswith(("To see ", "View this run")):
        end += 1
    body = lines[start:end]
    marks = ("X ", "! ", "- ")  # gh's symbols for a failure, a warning and a notice
    msgs, locs = body[::2], body[1::2]
    if len(body) % 2 or not all(m.startswith(marks) for m in msgs) or any(loc.startswith(marks) for loc in locs):
        return lines  # not message/location pairs: as printed
    grouped: dict[str, list[str]] = {}
    for msg, loc in zip(msgs, locs, strict=True):
        grouped.setdefault(msg, []).append(loc)
    section = [x for msg, locs in grouped.items() for x in (msg, *locs)]
    return lines[:start] + section + lines[end:]
