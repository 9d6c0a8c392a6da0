"""``gh run view RUN`` (the summary): failing jobs and steps, annotations, artifacts and hints kept; passed steps counted.

gh prints the run header, ``JOBS`` with one line per job (and, for a failed job or with
``--verbose``, one line per step), ``ANNOTATIONS``, ``ARTIFACTS`` and two hint lines.
The filter keeps every line but the steps that succeeded, which become one count per
job, and the blank lines between sections.
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
    return "\n".join(out) + "\n"
