"""rtk.recache: patterns loaded from the cache are the very patterns re.compile gives."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rtk import recache
from rtk.fold import detect, folder, group, markers, mask

LOGDATA = Path(__file__).resolve().parent.parent / "logdata"


def _module_patterns() -> list[re.Pattern[str]]:
    mods = (mask, markers, detect, folder, group)
    return [v for m in mods for v in vars(m).values() if isinstance(v, re.Pattern)]


def test_every_fold_pattern_equals_re_compile() -> None:
    """Same pattern text, flags and compiled code (Pattern.__eq__ compares the code): the same matches."""
    pats = _module_patterns()
    assert len(pats) >= 15
    for p in pats:
        assert p == re.compile(p.pattern, p.flags & ~re.UNICODE), p.pattern


def test_table_round_trip_gives_equal_patterns(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(recache, "path", lambda: str(tmp_path / "regex.cache"))
    monkeypatch.setattr(recache, "_table", None)
    monkeypatch.setattr(recache, "_dirty", False)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    texts = [p.pattern for p in _module_patterns()] + [r"(?P<a>x)(?i:y)|(z)", r"\d{2,}(?=%)"]
    first = [recache.pattern(t) for t in texts]  # compiled, remembered
    recache.save()
    assert (tmp_path / "regex.cache").exists()
    monkeypatch.setattr(recache, "_table", None)
    again = [recache.pattern(t) for t in texts]  # loaded from the file
    assert recache._table is not None and len(recache._table) >= len(set(texts))
    for t, a, b in zip(texts, first, again, strict=True):
        assert a == b == re.compile(t), t
        assert a.groupindex == b.groupindex == re.compile(t).groupindex


def test_damaged_or_foreign_cache_compiles(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    cache = tmp_path / "regex.cache"
    monkeypatch.setattr(recache, "path", lambda: str(cache))
    import marshal

    for data in (b"\x00garbage", marshal.dumps(((0,), {("a+", 0): (32, [1, 2, 3], 0, {}, (None,))}))):
        cache.write_bytes(data)
        monkeypatch.setattr(recache, "_table", None)
        assert recache.pattern("a+") == re.compile("a+")
    # An entry the engine refuses (code that does not validate) is compiled again, not trusted.
    cache.write_bytes(marshal.dumps((recache.KEY, {("b+", 0): (32, [99999, 1, 2], 0, {}, (None,))})))
    monkeypatch.setattr(recache, "_table", None)
    assert recache.pattern("b+") == re.compile("b+")


def test_nothing_written_without_bytecode(tmp_path: Path) -> None:
    """PYTHONDONTWRITEBYTECODE: no cache file either (as no .pyc)."""
    code = (
        "import rtk.recache as r, sys; r.path = lambda: sys.argv[1]; r.pattern('q+x'); r.save();"
        "import os; print(os.path.exists(sys.argv[1]))"
    )
    target = str(tmp_path / "c.cache")
    env_off = {"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code, target], capture_output=True, text=True, env=env_off)
    assert out.stdout.strip() == "False", out.stderr
    out = subprocess.run([sys.executable, "-c", code, target], capture_output=True, text=True, env={"PATH": "/usr/bin"})
    assert out.stdout.strip() == "True", out.stderr


def test_import_of_recache_does_not_import_re() -> None:
    code = "import sys, rtk.recache; print('re' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-S", "-c", code],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(Path(importlib.util.find_spec("rtk").origin).parent.parent)},
    )  # type: ignore[union-attr]
    assert out.stdout.strip() == "False", out.stderr


def test_a_warm_fold_of_a_log_compiles_no_pattern(tmp_path: Path) -> None:
    """The second `rtk read` of a log in a fresh interpreter compiles nothing (the first one fills the cache)."""
    log = LOGDATA / "nginx-access.log"
    code = (
        "import sys, os, rtk.recache as r; r.path = lambda: sys.argv[1]\n"
        "import re._parser as c; n = [0]; o = c.parse\n"
        "def count(*a):\n    n[0] += 1\n    return o(*a)\n"
        "c.parse = count\n"
        "from rtk.commands import _readfold\n"
        "data = open(sys.argv[2], 'rb').read()\n"
        "assert _readfold.decide('x.log', [data])\n"
        "assert _readfold.fold('x.log', iter([data]), lambda b: None)[0]\n"
        "print(n[0])\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    runs = [
        subprocess.run(
            [sys.executable, "-c", code, str(tmp_path / "c.cache"), str(log)], capture_output=True, text=True, env=env
        )
        for _ in range(2)
    ]
    assert [r.stderr for r in runs] == ["", ""]
    assert int(runs[0].stdout) >= 10 and int(runs[1].stdout) == 0
