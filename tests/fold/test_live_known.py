"""The live fold remembers templates shown whole across its windows and quiet spells: repeats are counted, never reprinted."""

from __future__ import annotations

import re

from rtk.fold.live import FoldStream

WARN = "x.h:10:5: warning: unused variable ‘k’ [-Wunused-variable]"


def build(n: int) -> list[str]:
    """``n`` compile steps, each printing the same header warning block (rtk's own test input)."""
    out: list[str] = []
    for i in range(n):
        out += [f"gcc -c -o unit{i}.o unit{i}.c", WARN, "   10 |   int k;", "      |       ^"]
    return out


def run(lines: list[str], idle_at: int | None = None) -> list[str]:
    fs = FoldStream(["make"])
    out: list[str | None] = []
    for no, ln in enumerate(lines, 1):
        out.append(fs.feed(ln))
        if no == idle_at:
            out.append(fs.idle())
    out.append(fs.finish(0))
    return "\n".join(o for o in out if o is not None).splitlines()


def counted(out: list[str], line: str, no: int) -> int:
    """How many times ``line`` (input line ``no``) is accounted for: printed whole, or counted by a line naming ``no``."""
    refs = [re.match(r"… (\d+) more like line (\d+)  \(lines (\d+)-(\d+)\)$", o) for o in out]
    return out.count(line) + sum(int(m.group(1)) for m in refs if m is not None and int(m.group(2)) == no)


def test_repeated_warning_counted_across_windows() -> None:
    lines = build(250)  # 1,000 lines: five windows of 200
    out = run(lines)
    assert out[2] == WARN
    assert out[:-5].count(WARN) == 1  # printed whole once (and in the last lines); was once per window
    # every later window counts it, naming line 2: one count line at the end for all of them (was one a window,
    # ``… 50 more like line 2  (lines 206-402)`` for the second)
    assert "… 248 more like line 2  (lines 6-994)" in out
    assert counted(out, WARN, 2) == 250  # exact count
    assert len("\n".join(out)) < len("\n".join(lines)) / 4


def test_repeated_warning_counted_after_a_quiet_spell() -> None:
    lines = build(250)
    out = run(lines, idle_at=600)  # the command goes quiet after line 600: what is held is printed
    pause = out.index("gcc -c -o unit149.o unit149.c")  # the last lines before the pause: printed whole
    assert out[:pause].count(WARN) == 1
    assert out[pause + 4 : -5].count(WARN) == 0  # a new folder after the pause still knows the line was shown
    # the later windows' counts are printed at the pause (one line) and at the end (one line for those after it)
    assert "… 148 more like line 2  (lines 6-594)" in out[:pause]
    assert "… 99 more like line 2  (lines 602-994)" in out
    assert counted(out, WARN, 2) == 250


def test_known_template_lists_its_values() -> None:
    """A known template whose lines differ (another file:line:col) is counted with its values, not by one line."""
    lines: list[str] = []
    for i in range(250):
        lines += [f"gcc -c -o unit{i}.o unit{i}.c", f"y.h:{i % 3 + 1}:5: note: declared here"]
    out = run(lines)
    assert out[2] == "y.h:1:5: note: declared here"
    later = [o for o in out[3:-5] if "note: declared here" in o]
    assert len(later) == 2 and all(o.startswith("… ") for o in later)  # the first window's, the later ones', none whole
    assert later[0] == (
        "… 98 more like: <*> note: declared here  (lines 3-198); <*>: y.h:1:5: ×33, y.h:2:5: ×33, y.h:3:5: ×33"
    )
    # the later windows' counts are one line at the end (was one a window, each with its values)
    assert later[1] == "… 148 more like: <*> note: declared here  (lines 200-494)"


def test_later_windows_add_no_count_lines() -> None:
    """A template shown in the first window costs the same few lines over 5 windows or 20: its later counts are one line."""
    short, long = run(build(250)), run(build(1000))
    assert len(long) == len(short)
    assert counted(long, WARN, 2) == 1000
    assert "… 998 more like line 2  (lines 6-3994)" in long


def _sparse() -> list[str]:
    """A template in bulk in the first windows, then one line of it after each 300 lines of another (rtk's own input)."""
    lines = [f"worker {i % 7} stored item {i * 7919 % 1000} in {i % 13 + 2} ms" for i in range(400)]
    for w in range(4):
        lines += [f"queue {j % 3} depth {j * 31 % 17}" for j in range(300)]
        lines.append(f"worker {w} stored item {w * 37 % 100} in 7 ms")
    return [*lines, "done"]


def test_a_waiting_count_takes_the_later_lines_and_names_no_values() -> None:
    out = run(_sparse())
    # the later windows' counts wait as one line; the lone lines of later windows join it instead of being shown
    # whole (they were: one line is shorter than a count line of its own), and the line says the template, not
    # the values of the last group it took (``worker 2 stored item 74 in 7 ms`` once did)
    assert "… 200 more like: worker <n> stored item <n> in <n> ms  (lines 198-1303)" in out
    assert [o for o in out if o.startswith("worker ")] == [
        "worker 0 stored item 0 in 2 ms",
        "worker 0 stored item 681 in 11 ms",  # the last line of the first window's group (a counter moved)
        "worker 3 stored item 11 in 7 ms",  # among the last lines
    ]
    assert "… 1,000 more like: queue <n> depth <n>  (lines 598-1600)" in out
