"""Output too large to buffer is passed through as it comes: one endless line too, in bounded memory and linear time."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from helpers import path_with, rtk_argv, stub_tool
from rtk import paths


def test_one_endless_line_over_the_buffer_limit_passes_through_whole_and_quickly(tmp_path: Path) -> None:
    cfg = Path(paths.config_file())
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text("[limits]\nbuffer_max_bytes = 100000\n")
    size = 30_000_000
    stub_tool(tmp_path, "git", f"head -c {size} /dev/zero | tr '\\0' a\nprintf 'é\\nend\\n'\nexit 3")
    env = dict(os.environ, PATH=path_with(tmp_path / "bin"))
    start = time.monotonic()
    p = subprocess.run(rtk_argv("git", "status"), env=env, capture_output=True, timeout=120, cwd=tmp_path)
    took = time.monotonic() - start
    assert p.returncode == 3
    assert p.stdout == b"a" * size + "é\nend\n".encode(), (len(p.stdout), p.stdout[-20:])
    assert took < 6, took  # was 14 s for 30 MB, 54 s for 60 MB: the line was copied on every read


def test_a_piece_of_a_line_is_never_cut_inside_a_utf8_character() -> None:
    from rtk.run import _utf8_end

    assert _utf8_end(b"ab") == 2
    assert _utf8_end("aé".encode()) == 3
    assert _utf8_end("aé".encode()[:-1]) == 1
    assert _utf8_end(b"a" + "€".encode()[:2]) == 1
    assert _utf8_end(b"a" + "😀".encode()[:3]) == 1
    assert _utf8_end(b"a" + "😀".encode()) == 5
