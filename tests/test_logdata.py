"""The real logs of tests/logdata/ (issue 15): every capture is documented and its facts are really in it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "logdata"
ROOT = Path(__file__).parent.parent
TOMLS = sorted(DATA.glob("*.toml"))
KEYS = {
    "log",
    "kind",
    "argv",
    "command",
    "script",
    "tools",
    "exit_code",
    "captured",
    "lines",
    "notes",
    "facts",
    "facts_re",
}


def test_there_is_data() -> None:
    assert len(TOMLS) >= 10


@pytest.fixture(params=TOMLS, ids=[p.stem for p in TOMLS])
def meta(request: pytest.FixtureRequest) -> tuple[Path, dict[str, object]]:
    path: Path = request.param
    return path, tomllib.loads(path.read_text(encoding="utf-8"))


def test_capture_is_documented(meta: tuple[Path, dict[str, object]]) -> None:
    path, m = meta
    assert set(m) <= KEYS, f"{path.name}: unknown keys {sorted(set(m) - KEYS)}"
    assert m["log"] == f"{path.stem}.log"
    assert (DATA / str(m["log"])).is_file(), f"{path.name}: names a missing log"
    assert m["kind"] in ("log-file", "output")
    argv = m["argv"]
    assert isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv)
    assert isinstance(m["exit_code"], int)
    assert m["command"] and m["captured"] and m["tools"]
    assert (ROOT / str(m["script"])).is_file(), f"{path.name}: capture script {m['script']} missing"
    assert m["facts"], f"{path.name}: declare the facts"


def test_facts_are_in_the_log(meta: tuple[Path, dict[str, object]]) -> None:
    path, m = meta
    raw = (DATA / str(m["log"])).read_bytes()
    text = raw.decode("utf-8")
    assert raw.count(b"\n") == m["lines"], f"{path.name}: line count differs from the capture"
    assert len(raw) < 1_100_000, f"{path.name}: keep logs under ~1 MB"
    assert raw.count(b"\n") >= 300, f"{path.name}: long-output captures have at least 300 lines"
    facts = m["facts"]
    facts_re = m.get("facts_re", [])
    assert isinstance(facts, list) and isinstance(facts_re, list)
    missing = [f for f in facts if f not in text]
    missing += [f"re:{r}" for r in facts_re if not re.search(r, text, re.M)]
    assert not missing, f"{path.name}: declared facts not in the log: {missing}"
