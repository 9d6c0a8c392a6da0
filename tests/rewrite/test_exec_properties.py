"""Properties of the permission verdict: nested executing constructs and deny rules on the resolved form.

1. A line holding a construct that can run code (command or process substitution,
   arithmetic, ``${!x}``, ``${x@P}``) at any depth inside expansions, double quotes,
   arithmetic and here-strings is never answered allow, even under ``Bash(*)``: not by
   ``rtk rewrite`` and not by any hook adapter (with ``[hooks] allow = ["*"]``).
2. For any allow/deny rule set, a line whose resolved form (env prefixes, wrappers,
   tool path and the tool's global options stripped) matches a deny rule is denied.

RTK_FUZZ_EXAMPLES raises the number of examples (a local soak).
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rwhelpers import all_registered  # noqa: F401  (autouse: every command has a filter)

from rtk.rewrite import cli, engine
from rtk.rewrite.permissions import Permissions

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "agents"))
from hookcases import AGENTS, Agent, allow

N = int(os.environ.get("RTK_FUZZ_EXAMPLES", "300"))
PROPS = settings(
    max_examples=N, deadline=None, derandomize=not os.environ.get("RTK_FUZZ_EXAMPLES"), database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip


# Constructs that run code in bash (and zsh's ${(e)x} and ${~x}). "<(" is not one inside plain double quotes.
EXEC = [
    "$(touch pwned)",
    "`touch pwned`",
    "$((x=1))",
    "$[x=1]",
    "${x@P}",
    "${!x}",
    "${a[i]}",
    "${x:i}",
    "${(e)x}",
    "${~x}",
]
PROCSUB = ["<(touch pwned)", ">(touch pwned)"]
# Wrappers: (template, may the child be a process substitution directly; None: as for the parent). Inside double
# quotes only templates without double quotes are used (``""${...}""`` would be unquoted).
WRAP: list[tuple[str, bool | None]] = [
    ("${x:-%s}", True), ("${x:+%s}", True), ("${x/a/%s}", True), ("${x#%s}", True), ("${x:=%s}", True),
    ("${a[%s]}", True), ('"%s"', False), ('"${x:-%s}"', True), ("\"${x:-'%s'}\"", False), ("$(( 1 + %s ))", True),
    ("$[%s]", True), ('${x:-"%s"}', False), ("pre%spost", None),
]  # fmt: skip
# Where the word goes: {} is replaced by it.
PLACES = [
    "git status {}", "git log --grep={}", "FOO={} git status", "git status <<< {}", "git status && ls {}",
    "ls; git diff {}", "git status {} 2>&1 | head", "timeout 5 git log {}",
]  # fmt: skip


@st.composite
def executing(draw: st.DrawFn, depth: int = 0, procsub_ok: bool = True, dq: bool = False) -> str:
    if depth >= 4 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(EXEC + (PROCSUB if procsub_ok else [])))
    template, ok = draw(st.sampled_from([w for w in WRAP if not (dq and '"' in w[0])]))
    child_ok = procsub_ok if ok is None else ok
    return template % draw(executing(depth + 1, child_ok, dq or '"' in template))


@st.composite
def exec_line(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(PLACES)).replace("{}", draw(executing()))


def approves(obj: Any) -> bool:
    """Whether a hook answer approves the call (any host's allow key)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("permissionDecision", "permission", "decision") and v == "allow":
                return True
            if approves(v):
                return True
    elif isinstance(obj, list):
        return any(approves(v) for v in obj)
    return False


@PROPS
@given(exec_line())
def test_executing_construct_at_any_depth_is_never_allowed(line: str) -> None:
    d = engine.decide(line, permissions=Permissions(allow=["*"]))
    assert d.verdict != "allow" and d.permission != "allow", (line, d)


def test_rewrite_cli_never_exits_allow(capsys: pytest.CaptureFixture[str]) -> None:
    allow("claude", "*")

    @PROPS
    @given(exec_line())
    def prop(line: str) -> None:
        assert cli.main([line]) != 0, line

    prop()


@pytest.mark.parametrize("agent", AGENTS, ids=repr)
def test_no_adapter_approves_an_executing_construct(agent: Agent) -> None:
    from rtk import hook

    allow(agent.name, "*")
    assert hook.Context(agent.name, []).decide("git status", None).verdict == "allow"  # the rules do apply

    @settings(PROPS, max_examples=max(N // 8, 20))
    @given(exec_line())
    def prop(line: str) -> None:
        p = agent.payload()
        agent.set_cmd(p, line)
        out, _err, _code = hook.run(agent.name, agent.flags, json.dumps(p).encode())
        assert not (out and approves(json.loads(out))), (line, out)

    prop()


# -- deny on the resolved form ---------------------------------------------------------------------

TOOLS: dict[str, tuple[list[str], list[str]]] = {
    # tool -> (global options as written, subcommands)
    "git": (["-C .", "-C /tmp/x", "--no-pager", "-c a=b", "--git-dir=.git", "--work-tree=/w", "-c core.x=1"],
            ["push", "commit", "status", "log", "reset"]),
    "kubectl": (["-n prod", "--context=c", "--namespace prod", "-s https://h"], ["delete", "get", "apply"]),
    "docker": (["-H tcp://h", "--context c", "-l debug"], ["rm", "ps", "run"]),
    "cargo": (["--color always", "-Z x"], ["publish", "test", "build"]),
}  # fmt: skip
PREFIXES = ["", "FOO=1 ", 'A="x y" ', "env B=2 ", "timeout 5 ", "time ", "nice -n 5 ", "nohup ", "command "]
ARGS = ["origin", "main", "-f", "--force", "x", "pod/a", "--all", "."]
OTHER = ["ls -la", "git status", "cargo test", "echo hi", "cd src"]
RULES = ["*", "git:*", "git status", "kubectl:*", "docker:*", "cargo:*", "ls:*", "git * main", "env:*", "timeout:*"]


@st.composite
def denied_case(draw: st.DrawFn) -> tuple[str, list[str], str]:
    tool = draw(st.sampled_from(sorted(TOOLS)))
    gopts, subs = TOOLS[tool]
    sub = draw(st.sampled_from(subs))
    args = draw(st.lists(st.sampled_from(ARGS), max_size=3))
    word = draw(st.sampled_from([tool, f"/usr/bin/{tool}", f"/opt/bin/{tool}"]))
    opts = draw(st.lists(st.sampled_from(gopts), max_size=3))
    seg = draw(st.sampled_from(PREFIXES)) + " ".join([word, *opts, sub, *args])
    resolved = " ".join([tool, sub, *args])
    deny = draw(st.sampled_from([f"{tool} {sub}:*", f"{tool} {sub} *", resolved, f"{tool} {sub}*"]))
    if draw(st.booleans()):
        other = draw(st.sampled_from(OTHER))
        seg = draw(st.sampled_from([f"{other} && {seg}", f"{seg}; {other}", f"{other} || {seg}"]))
    return seg, draw(st.lists(st.sampled_from(RULES), min_size=1, max_size=4)), deny


@PROPS
@given(denied_case())
def test_a_line_whose_resolved_form_is_denied_is_never_allowed(case: tuple[str, list[str], str]) -> None:
    line, allows, deny = case
    d = engine.decide(line, permissions=Permissions(allow=allows, deny=[deny]))
    assert (d.verdict, d.rewritten) == ("deny", None), (line, allows, deny, d)
