"""Configuration: where it is read from, validation messages, the cache, rtk config."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from helpers import rtk_argv
from rtk import config, paths


def cfg_path() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / "rtk" / "config.toml"


def write(text: str) -> Path:
    p = cfg_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    config.reset()
    return p


def test_defaults_without_file() -> None:
    assert config.get("tee.keep_files") == 100
    assert config.loaded_from() is None


def test_xdg_and_env_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert paths.config_file() == str(cfg_path())
    other = tmp_path / "other.toml"
    other.write_text("[tee]\nkeep_files = 7\n")
    monkeypatch.setenv("RTK_CONFIG", str(other))
    config.reset()
    assert config.get("tee.keep_files") == 7
    assert config.loaded_from() == str(other)


def test_values_are_read() -> None:
    write('[limits]\nstatus_max_files = 3\n[hooks]\nexclude_commands = ["git rebase", "^curl"]\n')
    assert config.get("limits.status_max_files") == 3
    assert config.get("hooks.exclude_commands") == ["git rebase", "^curl"]


def test_malformed_file_gives_one_line_naming_file_and_falls_back(capfd: pytest.CaptureFixture[str]) -> None:
    p = write("[tee\nkeep_files = 3\n")
    assert config.get("tee.keep_files") == 100
    _, err = capfd.readouterr()
    assert err.count("\n") == 1 and str(p) in err and "not valid TOML" in err


def test_wrong_type_names_the_key(capfd: pytest.CaptureFixture[str]) -> None:
    p = write('[tee]\nkeep_files = "many"\nmode = "sometimes"\n[nope]\nx = 1\n[limits]\ntypo = 1\n')
    assert config.get("tee.keep_files") == 100
    assert config.get("tee.mode") == "failures"
    _, err = capfd.readouterr()
    assert f"{p}: tee.keep_files must be an integer" in err
    assert "tee.mode must be" in err
    assert "unknown section [nope]" in err
    assert "unknown key limits.typo" in err


def test_negative_counts_are_rejected(capfd: pytest.CaptureFixture[str]) -> None:
    """A negative limit would slice from the end (lines[:-1]): the default applies instead."""
    p = write("[limits]\nbuild_error_lines = -1\ndiff_context = 0\n[tee]\nkeep_files = -3\n")
    assert config.get("limits.build_error_lines") == 60 and config.get("tee.keep_files") == 100
    assert config.get("limits.diff_context") == 0
    _, err = capfd.readouterr()
    assert f"{p}: limits.build_error_lines must be an integer (0 or more)" in err
    assert "tee.keep_files must be an integer (0 or more)" in err


def test_cache_is_used_until_the_file_changes(capfd: pytest.CaptureFixture[str]) -> None:
    p = write("[tee]\nkeep_files = 4\n")
    assert config.get("tee.keep_files") == 4
    cache = Path(paths.data_dir()) / "config.cache"
    assert cache.exists()
    config.reset()
    assert config.get("tee.keep_files") == 4  # from the cache
    p.write_text("[tee]\nkeep_files = 9\n# changed\n")
    config.reset()
    assert config.get("tee.keep_files") == 9


def test_cli_config_shows_path_and_values() -> None:
    write("[tee]\nkeep_files = 5\n")
    p = subprocess.run(rtk_argv("config"), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0
    assert f"config file: {cfg_path()}" in p.stdout
    assert "keep_files = 5   # set in config" in p.stdout
    assert "status_max_files = 15" in p.stdout


def test_cli_config_init_writes_commented_defaults_once() -> None:
    p = subprocess.run(rtk_argv("config", "--init"), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and cfg_path().exists()
    text = cfg_path().read_text()
    import tomllib

    assert tomllib.loads(text) == {section: {} for section in config.SCHEMA}
    assert {"tracking", "tee", "limits", "filters", "hooks", "display"} <= set(config.SCHEMA)
    assert "# keep_files = 100" in text
    again = subprocess.run(rtk_argv("config", "--init"), capture_output=True, text=True, timeout=60)
    assert again.returncode != 0 and "already exists" in again.stderr and again.stderr.count("\n") == 1


def test_every_default_round_trips_through_the_init_file() -> None:
    text = config.default_file_text()
    uncommented = "\n".join(ln[2:] if ln.startswith("# ") and " = " in ln else ln for ln in text.splitlines())
    import tomllib

    values, problems = config.validate(tomllib.loads(uncommented), "x")
    assert problems == [] and values == config.defaults()
