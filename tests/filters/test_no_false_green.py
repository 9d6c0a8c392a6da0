"""No success the tool did not report (lesson 2): every fixture replayed as a failing run.

Each real capture is fed again with exit codes 1 and 2. Whatever the filter prints,
a line that claims success (``ok ...``, ``Success``, ``no errors``, ``passed``,
``nothing to ...``) must be a line the tool itself printed, never one rtk wrote.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from fixturelib import all_fixtures, load, run
from rtk import config, options

SUCCESS = re.compile(
    r"^\s*(?:✓\s*)?(?:ok\b|success|no errors|no issues|passed\b|all .*passed|build succeeded|clean\b|nothing to)",
    re.I,
)
PATHS = all_fixtures()


def invented_success(path: Path, code: int) -> list[str]:
    config.reset()
    options.ultra_compact = False
    fx = load(path)
    out = run(dataclasses.replace(fx, exit_code=code))
    return [ln for ln in out.text.splitlines() if SUCCESS.search(ln) and ln.strip() not in out.raw_text]


@pytest.mark.parametrize("path", PATHS, ids=[f"{p.parent.name}/{p.stem}" for p in PATHS])
def test_a_failing_exit_never_gets_a_success_line(path: Path) -> None:
    for code in (1, 2):
        assert invented_success(path, code) == [], code


def test_the_check_sees_rtk_own_success_lines() -> None:
    """With the real exit code 0, rtk's own one-line summaries are found: the pattern is live."""
    push = next(p for p in PATHS if p.parent.name == "git-push" and p.stem == "ok")
    assert invented_success(push, 0) == ["ok to /tmp/rtk-git-history/push-ok.origin.git: main 90f22e7..d3c55e8"]
