"""TOML filter files fail open: a broken user/project file, trust store or parse cache never stops a command."""

from __future__ import annotations

import marshal
import os
import subprocess
from pathlib import Path

import pytest

from helpers import path_with, rtk_argv, stub_tool
from rtk import paths
from rtk.dsl import lookup, tiers, trust

GOOD = """\
schema_version = 1

[filters.mine]
match_command = "^mytool(\\\\s|$)"
strip_lines_matching = ["^noise"]
"""

BROKEN = {
    "latin1": b"# caf\xe9\nschema_version = 1\n",
    "huge-int": b"schema_version = " + b"9" * 5000 + b"\n",
    "deep-arrays": b"x = " + b"[" * 10000 + b"]" * 10000 + b"\n",
}


def user_dir() -> Path:
    d = Path(paths.config_dir()) / "filters"
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.fixture
def tool(tmp_path: Path) -> Path:
    stub_tool(tmp_path, "mytool", "".join(f"echo 'noise {i}'\n" for i in range(30)) + "echo 'keep me'\nexit 3")
    return tmp_path


def run(tmp_path: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    return subprocess.run(rtk_argv(*args), cwd=cwd or tmp_path, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("name", "why"), [*((n, "not ") for n in BROKEN), ("fifo", "not a regular file")])
def test_broken_user_file_is_skipped_and_the_others_still_apply(tool: Path, name: str, why: str) -> None:
    """One line names the broken file; the good file next to it filters; the exit code is the tool's."""
    d = user_dir()
    (d / "z-good.toml").write_text(GOOD)
    if name == "fifo":
        os.mkfifo(d / "a-broken.toml")  # reading it would block until a writer comes
    else:
        (d / "a-broken.toml").write_bytes(BROKEN[name])
    p = run(tool, "mytool")
    assert p.returncode == 3
    assert p.stdout.startswith("keep me\n[rtk] mine: 30 of 31 lines hidden\n")
    errs = p.stderr.splitlines()
    assert len(errs) == 1 and f"rtk: filters {d / 'a-broken.toml'}: " in errs[0] and why in errs[0], errs
    assert "Traceback" not in p.stderr


def test_oversized_user_file_is_skipped_unread() -> None:
    d = user_dir()
    (d / "big.toml").write_bytes(GOOD.encode() + b"#" * tiers.MAX_FILE_BYTES)
    (info,) = tiers.load_tier(tiers.USER)
    assert info.defs == [] and "larger than" in info.problems[0][1]


def test_trust_store_with_bytes_that_are_not_utf8(tool: Path) -> None:
    """Another line of the store naming a Latin-1 path does not make trusted files untrusted."""
    project = tool / "proj"
    (project / ".rtk" / "filters").mkdir(parents=True)
    f = project / ".rtk" / "filters" / "p.toml"
    f.write_text(GOOD)
    store = Path(trust.store_path())
    store.parent.mkdir(parents=True, exist_ok=True)
    digest = trust.sha256_hex(f.read_bytes())
    store.write_bytes(f"{'0' * 64}\t/tmp/caf".encode() + b"\xe9\n" + f"{digest}\t{trust.canonical(str(f))}\n".encode())
    assert trust.load()[trust.canonical(str(f))] == digest
    p = run(tool, "mytool", cwd=project)
    assert p.returncode == 3 and p.stdout.startswith("keep me\n[rtk] mine: 30 of 31 lines hidden\n")
    assert not p.stderr


def test_trust_store_round_trips_a_path_that_is_not_utf8() -> None:
    odd = "/tmp/caf" + b"\xe9".decode("utf-8", "surrogateescape")  # as os.path.realpath returns it
    trust.save({odd: "1" * 64})
    assert trust.load() == {odd: "1" * 64}


def _poison(entry: object) -> None:
    """Replace every entry of the parse cache by ``entry``."""
    cache = Path(paths.data_dir()) / "dsl.cache"
    version, entries = marshal.loads(cache.read_bytes())
    cache.write_bytes(marshal.dumps((version, dict.fromkeys(entries, entry))))
    tiers._cache = None


@pytest.mark.parametrize(
    "entry",
    [
        "not a tuple",
        ([{"name": "mine"}], [], []),  # no first words
        ([{"name": "mine", "words": "mytool"}], [], []),
        ([], [], [("error",)]),
        ([], [], []),  # well formed and empty: shadows the file (a cache entry is trusted by its key)
    ],
)
def test_damaged_parse_cache_entry_is_parsed_again(entry: object) -> None:
    (user_dir() / "mine.toml").write_text(GOOD)
    assert lookup.filter_name(["mytool"]) == "mine"  # parses, writes the cache
    _poison(entry)
    got = lookup.filter_name(["mytool"])
    assert got == (None if entry == ([], [], []) else "mine")


def test_garbage_parse_cache_is_ignored() -> None:
    (user_dir() / "mine.toml").write_text(GOOD)
    assert lookup.filter_name(["mytool"]) == "mine"
    (Path(paths.data_dir()) / "dsl.cache").write_bytes(b"\xff" * 64)
    tiers._cache = None
    assert lookup.filter_name(["mytool"]) == "mine"


def test_a_definition_that_fails_to_match_skips_only_itself(capfd: pytest.CaptureFixture[str]) -> None:
    """A cached definition without its pattern: that file is skipped with one line, the next one applies."""
    (user_dir() / "a.toml").write_text(GOOD.replace("mine", "first"))
    (user_dir() / "b.toml").write_text(GOOD)
    assert lookup.filter_name(["mytool"]) == "first"
    cache = Path(paths.data_dir()) / "dsl.cache"
    version, entries = marshal.loads(cache.read_bytes())
    for key, (defs, _tests, _probs) in entries.items():
        if key.endswith("a.toml"):
            del defs[0]["match_command"]
    cache.write_bytes(marshal.dumps((version, entries)))
    tiers._cache = None
    m = lookup.find(["mytool"], report=True)
    assert m is not None and m.name == "mine"
    _, err = capfd.readouterr()
    assert err.splitlines() == [f"rtk: filters {user_dir() / 'a.toml'}: KeyError: 'match_command' (filter skipped)"]


@pytest.mark.parametrize("args", [("filters", "validate"), ("verify",), ("filters", "list")])
def test_a_fifo_in_the_filter_directory_does_not_block_verify_or_filters(tmp_path: Path, args: tuple[str, ...]) -> None:
    """The command path skipped it already; rtk verify and rtk filters read it with open() and waited for a writer."""
    d = user_dir()
    (d / "z-good.toml").write_text(GOOD)
    os.mkfifo(d / "a-fifo.toml")
    p = run(tmp_path, *args)  # a 60 s timeout: the old code never returned
    assert "Traceback" not in p.stderr
    if args[0] == "filters" and args[1] == "list":
        assert p.returncode == 0 and "mine" in p.stdout
    else:
        assert p.returncode == 1
        assert "a-fifo.toml: cannot read (not a regular file)" in p.stdout, p.stdout
