"""Hypothesis mutations of real output lines, shared by the stream guard tests: lines dropped, doubled, cut, foreign lines put in."""

from __future__ import annotations

from typing import TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

Line = TypeVar("Line", str, bytes)


def mutate(draw: st.DrawFn, lines: list[Line], foreign: list[Line]) -> list[Line]:
    """``lines`` (text or bytes) with each line kept, dropped, doubled, cut short or followed by one of ``foreign``."""
    out: list[Line] = []
    for line in lines:
        op = draw(st.integers(0, 9))
        if op == 0:
            continue
        if op == 1:
            out += [line, line]
        elif op == 2:
            out.append(line[: draw(st.integers(0, max(len(line) - 1, 0)))])
        elif op == 3:
            out += [line, draw(st.sampled_from(foreign))]
        else:
            out.append(line)
    return out


def mutation_settings(examples: int) -> settings:
    """The settings of a property over mutated real output: reproducible, no deadline, large inputs allowed."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
