"""The log decision counts only until the answer is known: the same decisions as counting every line."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.fold import detect
from rtk.fold.mask import mask, tokens
from rtk.fold.miner import Miner

TESTS = Path(__file__).resolve().parent.parent


# The decision as it was written before (every line counted), kept here as the reference.
def _ref_data_kind(lines: list[str]) -> str | None:
    body = [ln for ln in lines if ln.strip()]
    if not body:
        return None
    first = body[0].strip()
    if first[:1] == "{" and _ref_json_log(body):  # a structured log (JSON lines with a level and a message)
        return None
    if first[:1] == "{" or (
        first[:1] == "[" and (first == "[" or (first[-1:] in ']}[{,"' and first[1:2] in '[{"]0123456789-tfn '))
    ):
        return "json"
    if body[-1].strip() in ("]", "}") and any(ln.strip() in ("[", "{") for ln in body[1:5]):  # after a preamble
        return "json"
    yaml = sum(1 for ln in body if detect._YAML.match(ln) and not detect._EPOCH.match(ln))  # an epoch stamp is no key
    if first.startswith("---") or yaml >= 0.9 * len(body):
        return "yaml"
    for sep, name in (("\t", "tsv"), (",", "csv")):
        n = body[0].count(sep)
        if n < 2 or f"{sep} " in body[0]:
            continue
        if sum(1 for ln in body if ln.count(sep) == n) >= 0.95 * len(body):
            return name
    if _ref_aligned(body):
        return "table"
    return None


_REF_LEVEL = re.compile(r'"(?:level|severity|lvl|levelname|@l|log\.level)":\s*(?:"([^"]*)"|(\d{1,3})(?!\d))')


def _ref_json_log(body: list[str]) -> bool:
    def level(s: str) -> bool:
        for name, num in _REF_LEVEL.findall(s):
            if (num and int(num) <= 100) or (not num and name.lower() in detect.LEVEL_NAMES):
                return True
        return False

    def event(ln: str) -> bool:
        s = ln.strip()
        return s[:1] == "{" and s[-1:] == "}" and level(s) and any(k in s for k in detect._MSG_KEYS)

    return len(body) >= 20 and sum(1 for ln in body if event(ln)) >= 0.9 * len(body)


def _ref_aligned(body: list[str]) -> bool:
    sample = body[:400]
    if len(sample) < 20:
        return False
    starts: dict[int, int] = {}
    for ln in sample:
        for m in detect._GAP.finditer(ln):
            starts[m.end()] = starts.get(m.end(), 0) + 1
    shared = {i for i, n in starts.items() if n >= 0.8 * len(sample)}
    if len(shared) < 2 or sum(1 for ln in sample if detect._START.match(ln)) >= 0.6 * len(sample):
        return False
    return any(
        not any(c.isdigit() for c in ln) and len(shared & {m.end() for m in detect._GAP.finditer(ln)}) >= 2
        for ln in sample[:5]
    )


def _ref_looks_like_log(lines: list[str]) -> bool:
    body = [ln for ln in lines if ln.strip()]
    if len(body) < 20 or _ref_data_kind(body) is not None:
        return False
    if sum(1 for ln in body if detect._START.match(ln)) >= 0.6 * len(body) or _ref_json_log(body):
        return True
    m = Miner()
    for ln in body:
        m.add([mask(t) for t in tokens(ln)])
    return max(t.count for t in m.templates) >= 0.5 * len(body)


def _texts() -> list[Path]:
    files = [p for p in (TESTS / "fixtures").rglob("*.raw")]
    files += [p for p in (TESTS / "logdata").glob("*.log")]
    files += [p for p in (TESTS / "commands" / "inputs").iterdir() if p.is_file()]
    return sorted(files)


def test_same_decisions_on_every_fixture_and_log() -> None:
    files = _texts()
    assert len(files) > 700
    logs = 0
    for p in files:
        lines = p.read_bytes().decode("utf-8", "surrogateescape").split("\n")[:2000]
        want = _ref_looks_like_log(lines)
        assert detect.looks_like_log(lines) == want, p
        assert detect.data_kind(lines[:400]) == _ref_data_kind(lines[:400]), p
        logs += want
    assert logs >= 20  # the logs among them are decided on too, not only the short outputs


def test_same_decisions_on_the_first_lines_of_each_log() -> None:
    """Samples cut anywhere (a file's first reads): the same decision at every length."""
    for p in sorted((TESTS / "logdata").glob("*.log")):
        lines = p.read_text(errors="surrogateescape").split("\n")
        for n in (19, 20, 21, 50, 201, 333, 999):
            assert detect.looks_like_log(lines[:n]) == _ref_looks_like_log(lines[:n]), (p, n)


_LINE = st.one_of(
    st.sampled_from(
        [
            "2024-11-24 10:00:01 INFO started",
            "key: value",
            "- item",
            "a,b,c",
            "a\tb\tc",
            "name    version    arch",
            "INFO x",
            "   ",
            "",
            "plain words here",
            "[    0.123] kernel",
            "---",
        ]
    ),
    st.text(alphabet=st.sampled_from("ab0:,- \t[]{}-I"), max_size=30),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINE, min_size=0, max_size=60))
def test_same_decisions_on_generated_lines(lines: list[str]) -> None:
    assert detect.data_kind(lines) == _ref_data_kind(lines)
    assert detect.looks_like_log(lines) == _ref_looks_like_log(lines)


@given(st.lists(st.booleans(), max_size=50), st.sampled_from([0.5, 0.6, 0.8, 0.9, 0.95, 1.0]))
def test_most_is_a_count(flags: list[bool], share: float) -> None:
    items = ["y" if f else "" for f in flags]
    assert detect._most(bool, items, share) == (sum(flags) >= share * len(flags))


def test_a_log_file_name_is_no_language_but_by_shebang() -> None:
    """decide() skips the language tables for ``*.log`` without a shebang: no table may name such a file."""
    from rtk.commands import _readfold, _source

    assert not [e for e in _source._BY_EXT if e.lower() == ".log"]
    assert not [n for n in _source._BY_NAME if n.lower().endswith(".log")]
    for name in ("app.log", "x.LOG", "Makefile.log", "dir/build.py.log"):
        assert _source.language(name, "2024-01-01 INFO x\n") is None
        assert _source.language(name, "#!/bin/bash\necho\n") is not None
    body = "".join(f"2024-05-01 10:00:{i % 60:02d} INFO tick {i}\n" for i in range(300)).encode()
    assert _readfold.decide("app.log", [body])
    assert not _readfold.decide("app.log", [b"#!/bin/sh\n" + body])  # a script that happens to be named .log
