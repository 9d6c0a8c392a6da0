"""``gh run view --log`` / ``--log-failed``: the job/step/timestamp prefixes factored out, long steps folded.

gh prints every log line as ``job<TAB>step<TAB>timestamp text``. The filter prints one
header per step (``== job / step (first-last time) ==``) and the text without the
prefixes; a step whose text repeats an earlier step's exactly (a test matrix) is named,
not repeated; a long step goes through the folding stage (rtk.fold), which keeps every
error, failure and traceback line whole and counts what it folds. ``##[endgroup]``
markers go; every other line of the runner stays.
"""

from __future__ import annotations

from rtk.filterapi import Filtered, Unrecognized

# Steps up to this many lines print whole.
SHORT_STEP = 30


def _stamp(text: str) -> tuple[str, str]:
    """``2026-11-21T10:02:51.0004521Z text`` -> (``10:02:51``, ``text``); a line without one -> ("", text)."""
    text = text.lstrip("\ufeff")
    head, sep, rest = text.partition(" ")
    if sep and len(head) >= 20 and head[4] == "-" and head[10] == "T" and head.endswith("Z") and head[:4].isdigit():
        return head[11:19], rest
    if head.endswith("Z") and len(head) >= 20 and not rest and head[:4].isdigit() and head[10:11] == "T":
        return head[11:19], ""
    return "", text


def _steps(output: str) -> list[tuple[str, str, list[str], str, str]]:
    """(job, step, lines, first time, last time) per run of lines of one step."""
    steps: list[tuple[str, str, list[str], str, str]] = []
    for line in output.splitlines():
        parts = line.split("\t", 2)
        if len(parts) != 3:
            raise Unrecognized("a log line without job and step")
        job, step, rest = parts
        t, text = _stamp(rest)
        if not steps or steps[-1][0] != job or steps[-1][1] != step:
            steps.append((job, step, [], t, t))
        j, s, lines, first, last = steps[-1]
        if text.strip() != "##[endgroup]":
            lines.append(text.removeprefix("##[group]"))
        steps[-1] = (j, s, lines, first or t, t or last)
    return steps


def run_log(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    if exit_code != 0 or not output.strip():
        return None
    steps = _steps(output)
    if not any(first for _, _, _, first, _ in steps):
        raise Unrecognized("no timestamps: not an Actions log")
    from rtk.fold import fold_lines

    out: list[str] = []
    cut = 0
    seen: dict[tuple[str, ...], str] = {}
    for job, step, lines, first, last in steps:
        when = f" ({first}-{last})" if first and last != first else (f" ({first})" if first else "")
        name = f"{job} / {step}"
        key = tuple(lines)
        if key in seen and len(lines) > 1:
            out.append(f"== {name}{when}: the same {len(lines)} lines as {seen[key]} ==")
            continue
        seen.setdefault(key, name)
        out.append(f"== {name}{when} ==")
        if len(lines) <= SHORT_STEP:
            out += lines
            continue
        folded, folder = fold_lines(lines)
        out += folded
        cut += folder.folded
    return Filtered("\n".join(out) + "\n", cut)
