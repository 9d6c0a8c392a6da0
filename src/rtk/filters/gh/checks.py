"""``gh pr checks``: failing and pending checks whole with their links; passing ones named, with a count.

On a pipe gh prints ``name<TAB>state<TAB>elapsed<TAB>link`` per check (``pass``,
``fail``, ``pending``, ``skipping``, ``cancel``). Every check that did not pass keeps
its row as gh printed it (a skipped one without its zero time and link); the passing
ones become one line of names. gh exits 8 while checks are pending and 1 when one
failed: both are results, not errors.
"""

from __future__ import annotations

from rtk.filterapi import Unrecognized

_STATES = ("pass", "fail", "pending", "skipping", "cancel")


def checks(argv: list[str], output: str, exit_code: int) -> str | None:
    if exit_code not in (0, 1, 8) or not output.strip():
        return None
    rows = [ln.split("\t") for ln in output.splitlines() if ln.strip()]
    if any(len(r) != 4 or r[1] not in _STATES for r in rows):
        raise Unrecognized("not a checks table")
    passed = [r[0] for r in rows if r[1] == "pass"]
    counts = {s: sum(1 for r in rows if r[1] == s) for s in _STATES}
    words = {"pass": "passing", "fail": "failing", "pending": "pending", "skipping": "skipped", "cancel": "cancelled"}
    out = [", ".join(f"{counts[s]} {words[s]}" for s in ("fail", "pending", "cancel", "skipping", "pass") if counts[s])]
    for r in rows:
        if r[1] in ("fail", "pending", "cancel"):
            out.append("\t".join(r))
    for r in rows:
        if r[1] == "skipping":
            out.append(f"{r[0]}\tskipping")
    if passed:
        out.append(f"{len(passed)} pass: " + ", ".join(passed))
    return "\n".join(out) + "\n"
