"""jq family: layout flags run unfiltered, data stays data, and jq's errors and exit codes reach the caller."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.helpers import rtk_argv

from rtk import filters
from rtk.filterapi import Verbatim
from rtk.filters.jq import jq
from rtk.rewrite import engine


@pytest.mark.parametrize(
    ("argv", "filtered"),
    [
        (["jq", "."], True),
        (["jq", ".items", "a.json"], True),
        (["jq", "-S", "."], True),
        (["jq", "--arg", "v", "-r", ".[$v]"], True),  # -r is the value of --arg v
        (["jq", "-r", ".name"], False),
        (["jq", "-rc", "."], False),
        (["jq", "-c", "."], False),
        (["jq", "--raw-output", "."], False),
        (["jq", "--tab", "."], False),
        (["jq", "--indent", "4", "."], False),
        (["jq", "--seq", "."], False),
        (["jq", "--stream", "."], False),
    ],
)
def test_select(argv: list[str], filtered: bool) -> None:
    spec = filters.resolve(argv)
    assert (spec is not None and spec.name == "jq") == filtered
    if spec is not None:
        assert spec.merge_stderr is False  # stdout is data; jq's errors pass through on stderr


@pytest.mark.parametrize(
    ("line", "out"),
    [
        ("jq . a.json", "rtk jq . a.json"),
        ("curl -s http://x/api | jq .", "curl -s http://x/api | rtk jq ."),
        ("jq -r .name a.json", ""),
    ],
)
def test_rewrite(line: str, out: str) -> None:
    engine.reset()
    assert (engine.rewrite(line) or "") == out


def test_short_and_streamed_output_is_verbatim() -> None:
    with pytest.raises(Verbatim):
        jq.view(["jq", "."], '{\n  "a": 1\n}\n', 0)
    many = "".join(f'{{\n  "i": {i}\n}}\n' for i in range(300))  # 300 values: a stream, not one document
    with pytest.raises(Verbatim):
        jq.view(["jq", ".[]"], many, 0)
    with pytest.raises(Verbatim):  # jq failed part-way: what it printed is shown as it is
        jq.view(["jq", "."], "[\n" + "  1,\n" * 300, 5)


needs_jq = pytest.mark.skipif(shutil.which("jq") is None, reason="jq not installed")


def _rtk_jq(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    return subprocess.run(rtk_argv("jq", *args), capture_output=True, env=env, cwd=tmp_path, timeout=60)


@needs_jq
def test_runtime_error_and_exit_code_reach_the_caller(tmp_path: Path) -> None:
    (tmp_path / "list.json").write_text('[{"a": 1}, {"a": 2}]\n')
    p = _rtk_jq(tmp_path, ".a.b", "list.json")
    assert p.returncode == 5
    assert b"Cannot index array with" in p.stderr
    assert p.stdout == b""


@needs_jq
def test_parse_error_and_exit_code_reach_the_caller(tmp_path: Path) -> None:
    (tmp_path / "broken.json").write_text('[{"name": "adduser", "ver')
    p = _rtk_jq(tmp_path, ".", "broken.json")
    direct = subprocess.run(["jq", ".", "broken.json"], capture_output=True, cwd=tmp_path)
    assert direct.returncode != 0
    assert p.returncode == direct.returncode  # 2 or 4 depending on the jq version
    assert b"parse error: Unfinished string" in p.stderr
    assert p.stdout == b""


@needs_jq
def test_small_output_is_jqs_bytes(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"b": [1, 2.50, "x"]}')
    p = _rtk_jq(tmp_path, ".", "a.json")
    direct = subprocess.run(["jq", ".", "a.json"], capture_output=True, cwd=tmp_path)
    assert p.returncode == 0
    assert p.stdout == direct.stdout
