"""Files rtk rewrites in its data directory: a symlink planted at a temporary name is never written through,
a FIFO planted at a cache's name never blocks a command or the hook."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import rtk_argv
from rtk import config, paths
from rtk.agents import _manifest
from rtk.dsl import trust
from rtk.rewrite import permissions


def _write_permissions_cache() -> str:
    settings = Path(paths.data_dir()).parent / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text('{"permissions": {"allow": ["Bash(git status)"]}}')
    st = settings.stat()
    key = ((str(settings), st.st_mtime_ns, st.st_size),)
    perms = permissions.cached("permissions.cache", key, permissions._parse)
    assert perms.allow == ["git status"] or perms.allow  # parsed, whatever its stored form
    return os.path.join(paths.data_dir(), "permissions.cache")


def _write_config_cache() -> str:
    cfg = Path(paths.config_file())
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text("[tee]\nkeep_files = 7\n")
    config.reset()
    assert config.get("tee.keep_files") == 7
    return os.path.join(paths.data_dir(), "config.cache")


def _write_trust_store() -> str:
    trust.save({"/some/project/.rtk/filters/a.toml": "0" * 64})
    assert trust.load() == {"/some/project/.rtk/filters/a.toml": "0" * 64}
    return trust.store_path()


def _write_manifest() -> str:
    _manifest.Manifest({"installs": {"claude:user": {}}, "files": {}}).save()
    return _manifest.manifest_path()


WRITERS: dict[str, tuple[str, Callable[[], str]]] = {
    "permissions cache": ("permissions.cache", _write_permissions_cache),
    "config cache": ("config.cache", _write_config_cache),
    "trust store": ("trusted_filters.tsv", _write_trust_store),
    "install manifest": ("manifest.json", _write_manifest),
}


@pytest.mark.parametrize("what", sorted(WRITERS))
def test_a_symlink_at_the_temporary_name_is_not_written_through(tmp_path: Path, what: str) -> None:
    name, write = WRITERS[what]
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = _manifest.manifest_path() if name == "manifest.json" else os.path.join(paths.data_dir(), name)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    pid = os.getpid()
    planted = [f"{target}.{pid}", f"{target}.{pid}.tmp"]  # the temporary names, then and now
    for p in planted:
        os.symlink(victim, p)
    written = write()
    assert written == target
    assert victim.read_text() == "precious\n"
    assert not os.path.islink(target) and os.path.isfile(target) and os.path.getsize(target) > 0


@pytest.mark.parametrize("name", ["permissions.cache", "config.cache"])
def test_a_fifo_at_a_cache_name_does_not_block_the_hook(tmp_path: Path, name: str) -> None:
    home = Path(os.environ["HOME"])
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text('{"permissions": {"allow": ["Bash(git status)"]}}')
    cfg = Path(paths.config_file())
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text("[tee]\nkeep_files = 7\n")
    data = Path(paths.data_dir())
    data.mkdir(parents=True, exist_ok=True)
    os.mkfifo(data / name)
    event = json.dumps({"tool_name": "Bash", "tool_input": {"command": "git status"}})
    p = subprocess.run(
        rtk_argv("hook", "claude"), input=event, capture_output=True, text=True, timeout=20, cwd=tmp_path
    )
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)["hookSpecificOutput"]
    assert out["updatedInput"]["command"] == "rtk git status"
    assert "Traceback" not in p.stderr


def test_a_fifo_at_the_trust_store_does_not_block_trust_load() -> None:
    """``rtk trust`` / ``rtk verify`` read the store: a FIFO there reads as an empty store (a child, so a hang fails)."""
    os.makedirs(paths.data_dir(), exist_ok=True)
    os.mkfifo(trust.store_path())
    code = "from rtk.dsl import trust; print(trust.load())"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20)
    assert (p.returncode, p.stdout) == (0, "{}\n"), p.stderr


def test_a_symlink_named_like_a_recovery_file_is_not_taken_for_one(tmp_path: Path) -> None:
    """Content addressing reuses a recovery file with the same bytes: never a symlink planted under such a name."""
    from rtk import tee

    raw = b"error: the build failed\n" * 3
    victim = tmp_path / "victim.log"
    victim.write_bytes(raw)
    os.utime(victim, (1_000_000_000, 1_000_000_000))
    d = Path(tee.directory())
    d.mkdir(parents=True, exist_ok=True)
    planted = d / f"1700000000_{tee.file_stem(['make'], raw)}.log"
    planted.symlink_to(victim)
    got = tee.write(["make"], raw)
    assert got is not None and got != str(planted)
    assert not os.path.islink(got) and Path(got).read_bytes() == raw
    assert victim.stat().st_mtime == 1_000_000_000 and victim.read_bytes() == raw


def test_an_installed_file_is_never_written_through_a_symlink_at_its_temporary_name(tmp_path: Path) -> None:
    """``rtk init`` writes a hook script by a temporary name beside it: a symlink planted there is not followed."""
    from rtk.agents import _install

    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = tmp_path / "hooks" / "rtk-hook.sh"
    target.parent.mkdir()
    os.symlink(victim, target.parent / f".{target.name}.rtk-{os.getpid()}")
    _install.write(str(target), b"#!/bin/sh\nexec rtk hook claude\n", executable=True)
    assert victim.read_text() == "precious\n"
    assert target.read_bytes() == b"#!/bin/sh\nexec rtk hook claude\n" and os.access(target, os.X_OK)
