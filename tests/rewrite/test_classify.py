"""The classification API shared with history analysis: supported / unsupported / ignored."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rwhelpers import AllRegistry, SetRegistry

from rtk.rewrite import engine


@pytest.fixture(autouse=True)
def all_registered() -> Iterator[None]:
    saved = engine.registry
    engine.registry = AllRegistry()
    yield
    engine.registry = saved


@pytest.mark.parametrize(
    ("command", "kind", "rtk", "category", "savings"),
    [
        ("git status", "supported", "rtk git", "Git", 70),
        ("git diff HEAD", "supported", "rtk git", "Git", 80),
        ("cargo test", "supported", "rtk cargo", "Cargo", 90),
        ("cargo fmt", "supported", "rtk cargo", "Cargo", 0),  # passthrough: tracked, not credited
        ("python -m pytest -x", "supported", "rtk pytest", "Python", 90),
        ("uv run mypy src", "supported", "rtk mypy", "Build", 80),
        ("head -5 a.txt", "supported", "rtk read", "Files", 60),
        ("make -j4", "supported", "rtk make", "Build", 65),
        ("kubectl apply -f x.yaml", "supported", "rtk kubectl", "Infra", 85),
        ("pulumi destroy", "unsupported", "", "", 0),  # no pulumi filter: the rule went (issue 16)
        ("aws ecs list-clusters", "supported", "rtk aws", "Infra", 90),
        ("cd src", "ignored", "", "", 0),
        ("rtk git status", "ignored", "", "", 0),
        ("unknown-tool", "unsupported", "", "", 0),
        ("git rebase -i", "unsupported", "", "", 0),
        ("gh pr list --json x", "unsupported", "rtk gh", "GitHub", 18),  # pr list's measured savings (was 87)
    ],
)
def test_classify(command: str, kind: str, rtk: str, category: str, savings: int) -> None:
    c = engine.classify(command)
    assert (c.kind, c.rtk, c.category, c.savings) == (kind, rtk, category, savings), c.reason
    assert c.reason


def test_compound_line_classifies_first_real_segment_and_every_segment() -> None:
    assert engine.classify("cd x && cargo build").rtk == "rtk cargo"
    kinds = [c.kind for c in engine.classify_line("cd x && cargo build | head && foo")]
    assert kinds == ["ignored", "supported", "unsupported", "unsupported"]


def test_active_only_follows_the_registry() -> None:
    engine.registry = SetRegistry(frozenset({"git"}), frozenset())
    assert engine.classify("cargo test").kind == "unsupported"
    assert "not built yet" in engine.classify("cargo test").reason
    assert engine.classify("cargo test", active_only=False).kind == "supported"
    assert engine.classify("git log").kind == "supported"


def test_bad_input_is_ignored_not_an_error() -> None:
    assert engine.classify("").kind == "ignored"
    assert engine.classify("echo 'x").kind in ("ignored", "unsupported")
    assert engine.classify_line("\x00") == []


def test_decision_api_shape() -> None:
    d = engine.decide("git status && cd x", agent=None)
    assert d.as_tuple() == ("rtk git status && cd x", "ask", d.reason)
    assert d.exit_code == 3 and d.permission == "ask"
    d = engine.decide("cd x", agent=None)
    assert (d.rewritten, d.verdict, d.exit_code) == (None, "none", 1)
