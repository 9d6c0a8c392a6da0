"""The awareness and rules texts: short, and every tool they name is one rtk really covers."""

from __future__ import annotations

import re

import pytest

from rtk.__main__ import COMMANDS
from rtk.agents.registry import agents_md, awareness, rules_text
from rtk.filters import FAMILIES


@pytest.mark.parametrize(
    "text",
    [awareness(), awareness(shared=True), rules_text(), agents_md()],
    ids=["awareness", "shared", "rules", "agents-md"],
)
def test_text_is_at_most_15_lines(text: str) -> None:
    assert len(text.splitlines()) <= 15
    assert "rtk proxy" in text and "[rtk] full output:" in text  # how to get raw output back
    assert "rtk read FILE --lines A-B" in text  # exact lines behind a fold (issue 15)


@pytest.mark.parametrize(
    "text",
    [awareness(), awareness(shared=True), rules_text(), agents_md()],
    ids=["awareness", "shared", "rules", "agents-md"],
)
def test_every_covered_tool_is_covered(text: str) -> None:
    listed = re.search(r"Covered: (.*?)\.\n", text, re.S)
    assert listed is not None
    tools = [t.strip() for t in listed.group(1).replace("\n", " ").split(",")]
    assert len(tools) >= 20
    assert [t for t in tools if t not in FAMILIES] == []


def test_commands_named_in_the_texts_exist() -> None:
    for text in (awareness(), awareness(shared=True), rules_text(), agents_md()):
        for cmd in re.findall(r"`rtk (\w+)", text):
            assert cmd in COMMANDS or cmd in FAMILIES, cmd


def test_init_and_doctor_and_hook_are_rtk_commands() -> None:
    assert {"init", "doctor", "hook"} <= set(COMMANDS)
