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


_STAMP = r"\s*(?:\[?\d{4}-\d{2}-\d{2}[T _]\d|[VDIWEF]/\w|(?:time|ts|level)=)"  # a class with a bitmap word


def _fresh(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    monkeypatch.setattr(recache, "path", lambda: str(cache))
    monkeypatch.setattr(recache, "_table", None)
    monkeypatch.setattr(recache, "_dirty", False)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def test_a_bit_flipped_on_disk_gives_re_compile_s_pattern(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The engine's check lets a changed charset word through: the file's checksum must catch it."""
    cache = tmp_path / "regex.cache"
    _fresh(monkeypatch, cache)
    want = re.compile(_STAMP)
    from re import _compiler, _parser  # type: ignore[attr-defined]

    code = list(map(int, _compiler._code(_parser.parse(_STAMP, 0), 0)))
    word = max(w for w in code if w < 1 << 31)  # a charset's bitmap word (marshal writes it in 4 bytes)
    assert code.count(word) == 1 and word > 0xFFFF
    recache.pattern(_STAMP)
    recache.save()
    data = cache.read_bytes()
    mark = word.to_bytes(4, "little")
    assert data.count(mark) == 1
    cache.write_bytes(data.replace(mark, (word ^ 1).to_bytes(4, "little")))  # one bit of the disk changed
    monkeypatch.setattr(recache, "_table", None)
    got = recache.pattern(_STAMP)
    assert got == want
    assert got.search("\x00") is None  # the flipped bit would have put NUL in the class


def test_a_damaged_word_the_engine_accepts_does_not_crash(tmp_path: Path) -> None:
    """One word of compiled code changed (4 -> 0) passes _sre's check and crashed the interpreter (SIGSEGV)."""
    code = (
        "import sys, marshal, re, rtk.recache as r\n"
        "from re import _compiler, _parser\n"
        "t = sys.argv[2]\n"
        "c = list(map(int, _compiler._code(_parser.parse(t, 0), 0)))\n"
        "assert c[71] == 4; c[71] = 0\n"
        "table = {(t, 0): (32, c, 0, {}, (None,))}\n"
        "for key in (r.KEY, (1,) + r.KEY[1:]):\n"  # as this module writes, and as the first version wrote
        "    open(sys.argv[1], 'wb').write(marshal.dumps((key, table)))\n"
        "    r._table = None; r.path = lambda: sys.argv[1]\n"
        "    p = r.pattern(t)\n"
        "    assert p == re.compile(t) and p.search('x time=1')\n"
        "print('ok')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "c.cache"), _STAMP], capture_output=True, text=True, timeout=60
    )
    assert (out.returncode, out.stdout.strip()) == (0, "ok"), out.stderr


def test_a_fifo_in_the_cache_s_place_is_not_waited_for(tmp_path: Path) -> None:
    """open() of a FIFO blocks until a writer comes: every rtk read of a log would hang."""
    fifo = tmp_path / "c.cache"
    os.mkfifo(fifo)
    code = (
        "import sys, re, rtk.recache as r; r.path = lambda: sys.argv[1]; print(r.pattern('a+b') == re.compile('a+b'))"
    )
    try:
        out = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("recache waited on a FIFO")
    assert out.stdout.strip() == "True", out.stderr


def test_regexflag_flags_are_cached_with_the_rest(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """re.I is a RegexFlag, which marshal cannot write: the whole table went unsaved."""
    cache = tmp_path / "regex.cache"
    _fresh(monkeypatch, cache)
    a = recache.pattern(r"x+y", re.I)
    b = recache.pattern(r"\d+")
    recache.save()
    assert cache.exists()
    monkeypatch.setattr(recache, "_table", None)
    assert recache.pattern(r"x+y", re.I) == a == re.compile(r"x+y", re.I)
    assert recache.pattern(r"\d+") == b
    assert recache._table is not None and len(recache._table) == 2  # both loaded from the file, none compiled


def test_save_never_writes_through_a_file_planted_at_its_temporary_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A symlink (or a stale file) at ``<cache>.<pid>`` is replaced, not followed: its target is not truncated."""
    cache = tmp_path / "regex.cache"
    monkeypatch.setattr(recache, "path", lambda: str(cache))
    monkeypatch.setattr(recache, "_table", None)
    monkeypatch.setattr(recache, "_dirty", False)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr("atexit.register", lambda fn: fn)
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    os.symlink(victim, f"{cache}.{os.getpid()}")
    recache.pattern(r"planted-\d+")
    recache.save()
    assert victim.read_text() == "keep me"
    assert cache.is_file() and not os.path.lexists(f"{cache}.{os.getpid()}")
    monkeypatch.setattr(recache, "_table", None)
    assert (r"planted-\d+", 0) in recache._load()
