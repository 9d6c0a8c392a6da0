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
    write('[limits]\ngit_list_tokens = 3\n[hooks]\nexclude_commands = ["git rebase", "^curl"]\n')
    assert config.get("limits.git_list_tokens") == 3
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
    p = write("[limits]\nbuild_error_lines = -1\njson_max_items = 0\n[tee]\nkeep_files = -3\n")
    assert config.get("limits.build_error_lines") == 60 and config.get("tee.keep_files") == 100
    assert config.get("limits.json_max_items") == 0
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
    assert "git_list_tokens = 4000" in p.stdout


def test_cli_config_init_writes_live_defaults_once() -> None:
    p = subprocess.run(rtk_argv("config", "--init"), capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and cfg_path().exists()
    text = cfg_path().read_text()
    import tomllib

    # every key is live at its default: a valid file that changes no default
    doc = tomllib.loads(text)
    assert {s: set(b) for s, b in doc.items()} == {s: set(keys) for s, keys in config.SCHEMA.items()}
    assert {"tracking", "tee", "limits", "filters", "hooks", "display"} <= set(config.SCHEMA)
    assert "\nkeep_files = 100\n" in text
    config.reset()
    assert config.problems() == [] and config.load() == config.defaults()
    again = subprocess.run(rtk_argv("config", "--init"), capture_output=True, text=True, timeout=60)
    assert again.returncode != 0 and "already exists" in again.stderr and again.stderr.count("\n") == 1


def test_every_default_round_trips_through_the_init_file() -> None:
    text = config.default_file_text()
    import tomllib

    values, problems = config.validate(tomllib.loads(text), "x")
    assert problems == [] and values == config.defaults()


def test_editing_a_value_of_the_init_file_takes_effect() -> None:
    """A user who edits ``exclude_commands = []`` in the written file gets the exclusion (it was written
    commented out, so the edit changed nothing until the line was uncommented)."""
    text = config.default_file_text()
    assert "\nexclude_commands = []\n" in text
    write(text.replace("\nexclude_commands = []\n", '\nexclude_commands = ["git rebase"]\n'))
    assert config.get("hooks.exclude_commands") == ["git rebase"]
    write(text.replace("\nkeep_files = 100\n", "\nkeep_files = 7\n"))
    assert config.get("tee.keep_files") == 7 and config.problems() == []


# -- fail open: no config file, however broken, stops a command (issue 12, item 5) ---------------

BROKEN = {
    "latin1": b"# caf\xe9\n[tee]\nkeep_files = 3\n",
    "huge-int": b"[limits]\ngrep_max_results = " + b"9" * 5000 + b"\n",
    "deep-arrays": b"x = " + b"[" * 10000 + b"]" * 10000 + b"\n",
}


def write_bytes(data: bytes) -> Path:
    p = cfg_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    config.reset()
    return p


@pytest.mark.parametrize(
    ("name", "why"), [("latin1", "not UTF-8"), ("huge-int", "digits"), ("deep-arrays", "nested too deeply")]
)
def test_undecodable_or_pathological_file_gives_defaults_and_one_line(
    name: str, why: str, capfd: pytest.CaptureFixture[str]
) -> None:
    p = write_bytes(BROKEN[name])
    assert config.load() == config.defaults()
    _, err = capfd.readouterr()
    assert err.count("\n") == 1 and f"rtk: config {p}: " in err and why in err and "using defaults" in err
    assert config.problems() == [err.strip()]


def test_file_over_the_size_cap_is_not_parsed(capfd: pytest.CaptureFixture[str]) -> None:
    p = write_bytes(b"[tee]\nkeep_files = 3\n" + b"#" * config.MAX_FILE_BYTES)
    assert config.get("tee.keep_files") == 100
    _, err = capfd.readouterr()
    assert err.count("\n") == 1 and f"{p}: larger than {config.MAX_FILE_BYTES} bytes" in err


def test_directory_or_fifo_in_place_of_the_file(capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    p = cfg_path()
    p.mkdir(parents=True)
    config.reset()
    assert config.load() == config.defaults()
    _, err = capfd.readouterr()
    assert err.splitlines() == [f"rtk: config {p}: not a regular file; using defaults"]
    p.rmdir()
    os.mkfifo(p)  # opening it would block until a writer comes: run in a child with a timeout
    (tmp_path / "kept.txt").write_text("x\n")
    r = subprocess.run(rtk_argv("ls", str(tmp_path)), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "kept.txt" in r.stdout
    assert r.stderr.splitlines() == [f"rtk: config {p}: not a regular file; using defaults"]


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_config_never_stops_a_filtered_command(name: str, tmp_path: Path) -> None:
    """The command runs, its output and exit code come through, one line names the file."""
    p = write_bytes(BROKEN[name])
    (tmp_path / "kept.txt").write_text("x\n")
    r = subprocess.run(
        rtk_argv("ls", str(tmp_path), str(tmp_path / "missing")), capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 2  # ls: a missing operand
    assert "kept.txt" in r.stdout and "Traceback" not in r.stderr
    assert [ln for ln in r.stderr.splitlines() if "rtk: config" in ln] == [
        next(ln for ln in r.stderr.splitlines() if ln.startswith(f"rtk: config {p}: "))
    ]
    rw = subprocess.run(rtk_argv("rewrite", "git status"), capture_output=True, text=True, timeout=60)
    assert rw.stdout.strip() == "rtk git status" and "Traceback" not in rw.stderr


def test_integer_beyond_the_cap_is_rejected_without_echoing_it(capfd: pytest.CaptureFixture[str]) -> None:
    """4,000 digits parse, but overflow C sizes and time arithmetic (history_days * 86400)."""
    p = write("[tracking]\nhistory_days = " + "9" * 4000 + f"\n[limits]\nbuffer_max_bytes = {config.MAX_INT}\n")
    assert config.get("tracking.history_days") == 90
    assert config.get("limits.buffer_max_bytes") == config.MAX_INT  # the cap itself is allowed
    _, err = capfd.readouterr()
    assert err.count("\n") == 1 and f"{p}: tracking.history_days must be an integer (0 or more)" in err
    assert "about 4000 digits" in err and len(err) < 300


def test_nul_character_in_a_string_is_rejected(capfd: pytest.CaptureFixture[str]) -> None:
    """A NUL in a path raises ValueError (not OSError) wherever the path is used."""
    write('[tee]\ndirectory = "a\\u0000b"\n[hooks]\nexclude_commands = ["git\\u0000push", "ok"]\n')
    assert config.get("tee.directory") == "" and config.get("hooks.exclude_commands") == []
    _, err = capfd.readouterr()
    assert "tee.directory must be a string without NUL characters" in err
    assert "hooks.exclude_commands must be a list of strings, without NUL characters" in err


def _cache() -> Path:
    return Path(paths.data_dir()) / "config.cache"


@pytest.mark.parametrize(
    "damage",
    ["truncated", "garbage", "wrong-type", "missing-key", "not-a-tuple", "bad-mode"],
)
def test_damaged_or_poisoned_cache_is_ignored(damage: str) -> None:
    import marshal

    write("[tee]\nkeep_files = 4\n")
    assert config.get("tee.keep_files") == 4  # writes the cache
    key, values, problems = marshal.loads(_cache().read_bytes())
    bad: object
    if damage == "truncated":
        _cache().write_bytes(_cache().read_bytes()[:40])
    elif damage == "garbage":
        _cache().write_bytes(b"\xff" * 64)
    else:
        if damage == "wrong-type":
            bad = (key, {**values, "tee.keep_files": "many"}, problems)
        elif damage == "missing-key":
            bad = (key, {k: v for k, v in values.items() if k != "tee.keep_files"}, problems)
        elif damage == "bad-mode":
            bad = (key, {**values, "tee.mode": "sometimes"}, problems)
        else:
            bad = [key, values, problems]
        _cache().write_bytes(marshal.dumps(bad))
    config.reset()
    assert config.get("tee.keep_files") == 4
    assert config.get("tee.mode") == "failures"
    assert set(config.load()) == set(config.defaults())
