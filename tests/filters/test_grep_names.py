"""grep/rg: a file name that itself holds ``:N:`` keeps its whole name (issue 14, filters3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rtk.filters.files.grep import grep


def test_a_name_holding_colon_number_is_not_cut_at_its_first_colon() -> None:
    raw = "plain.py:2:retry=0\nlogs 2024/app:10:backup.conf:1:retry=3\n"
    out = grep(["rg", "retry"], raw, 0)
    assert "logs 2024/app:10:backup.conf:retry=3" in out.text
    assert "logs 2024/app:backup.conf" not in out.text
    assert out.baseline is not None and "logs 2024/app:10:backup.conf:retry=3" in out.baseline


def test_the_disk_settles_a_name_without_an_extension(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "notes").write_text("see a.py:4: here\n")
    monkeypatch.chdir(tmp_path)
    out = grep(["grep", "-r", "see", "."], "notes:1:see a.py:4: here\nREADME:2:x\n", 0)
    assert "notes:see a.py:4: here" in out.text


def test_text_holding_colon_numbers_stays_with_the_first_name() -> None:
    out = grep(["rg", "x"], "src/a.py:10:x = t[1:2:3]\nsrc/b.py:3:x\n", 0)
    assert "src/a.py:x = t[1:2:3]" in out.text
