"""Every hook adapter on mutated payloads: values of the wrong type, keys gone, shell soup as the command.

The hook must never fail inside (with RTK_HOOK_DEBUG=1 a swallowed exception would
print its traceback), must exit 0 (2 only in block mode, with a suggestion), and must
print either nothing or exactly one JSON object; a rewrite is the rewrite engine's form
of the command the payload carried, never of anything else in it.
"""

from __future__ import annotations

import copy
import json
import os
from typing import Any

import pytest
from hookcases import AGENTS, Agent, allow
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtk import hook

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
COMMANDS = st.one_of(
    st.sampled_from(
        [
            "git status",
            "git log -5 && cargo test 2>&1 | tail -3",
            "cat README.md",
            "echo $(git status)",
            "FOO=1 pytest -x",
            "rtk git status",
            "",
            " ",
            "git status\nrm -rf /",
            "ls\x00x",
            "\ufeffgit status",
        ]
    ),
    st.text(alphabet=st.sampled_from(list("gitsaul -|&;<>$()'\"\\`\n")), max_size=30),
)


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in a payload (dict keys only; lists are leaves)."""
    out: list[tuple[Any, ...]] = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.append((*prefix, k))
            out += _paths(v, (*prefix, k))
    return out


@st.composite
def payloads(draw: st.DrawFn, agent: Agent) -> tuple[dict[str, Any], str]:
    p = agent.payload()
    cmd = draw(COMMANDS)
    agent.set_cmd(p, cmd)
    for _ in range(draw(st.integers(0, 3))):
        paths = _paths(p)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = p
        for k in path[:-1]:
            parent = parent[k]
        if draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(JSONISH)
    return p, cmd


@pytest.mark.parametrize("agent", AGENTS, ids=repr)
def test_hook_survives_mutated_payloads(agent: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RTK_HOOK_DEBUG", "1")
    allow(agent.name, "git status", "cargo test", "pytest:*", "ls")

    @settings(max_examples=int(os.environ.get("RTK_FUZZ_EXAMPLES", "60")), deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
    @given(payloads(agent))
    def prop(case: tuple[dict[str, Any], str]) -> None:
        payload, cmd = case
        sent = copy.deepcopy(payload)
        out, err, code = hook.run(agent.name, agent.flags, json.dumps(payload).encode())
        assert b"Traceback" not in err, err.decode()
        assert code == 0 or (code == 2 and agent.flags == ["--block"] and b"rtk " in err), (code, err)
        if out:
            assert out.endswith(b"\n") and out.count(b"\n") == 1
            assert isinstance(json.loads(out), dict)
        new = agent.rewritten(out, err) if (out or err) else None
        # (the suggesting hosts' answers are prose: their reader cannot unescape a command)
        if agent.echoes_input and isinstance(new, dict) and isinstance(new.get("command"), str):
            assert new["command"] == hook.Context(agent.name, []).decide(cmd, None).rewritten, (sent, new)
        assert payload == sent  # the adapter never mutates what it was given

    prop()


@given(st.binary(max_size=300))
@settings(max_examples=150, deadline=None, derandomize=True, database=None)
def test_any_bytes_on_stdin_give_the_noop(data: bytes) -> None:
    for agent in AGENTS:
        out, err, code = hook.run(agent.name, agent.flags, data)
        if hook.parse(data) is None:
            assert (out, err, code) == (agent.noop if agent.name in hook.NOOP else b"", b"", 0)


@pytest.mark.parametrize("number", ["1e999", "-1e999", "NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("agent", AGENTS, ids=repr)
def test_a_number_json_cannot_carry_back_gives_the_noop(agent: Agent, number: str) -> None:
    """1e999 (a double's overflow) or NaN in the tool input came back as null: a changed argument, not a no-op."""
    allow(agent.name, "git status")
    p = agent.payload()
    agent.set_cmd(p, "git status")
    text = json.dumps(p)
    before = text
    text = text.replace(': "git status"', f': "git status", "x_limit": {number}')  # next to the command
    text = text.replace(': \\"git status\\"', f': \\"git status\\", \\"x_limit\\": {number}')  # in a JSON string
    assert text != before
    out, err, code = hook.run(agent.name, agent.flags, text.encode())
    assert (out, err, code) == (agent.noop if agent.name in hook.NOOP else b"", b"", 0)
