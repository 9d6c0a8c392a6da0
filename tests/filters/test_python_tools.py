"""ruff, mypy, pip, uv and poetry filters: which invocations are filtered, and fail-open paths."""

from __future__ import annotations

import pytest

from fixturelib import FIXTURES
from rtk import filters
from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.python import pip, uv
from rtk.text import clean, decode


def raw(case: str) -> str:
    return clean(decode((FIXTURES / f"{case}.raw").read_bytes()))


def name(argv: list[str]) -> str | None:
    spec = filters.lookup(argv)
    return None if spec is None else spec.name


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["ruff", "check"], "ruff-check"),
        (["ruff", "check", "--fix", "src", "--select", "E,F"], "ruff-check"),
        (["ruff", "--config", "ruff.toml", "check"], "ruff-check"),
        (["ruff", "check", "--some-future-flag"], "ruff-check"),
        (["ruff", "check", "--output-format=json"], "ruff-check"),  # the JSON report is read (issue 14)
        (["ruff", "check", "--output-format", "json", "src"], "ruff-check"),
        (["ruff", "check", "--output-format", "sarif"], None),
        (["ruff", "check", "--output-format=json-lines"], None),
        (["ruff", "check", "--output-format=json", "--statistics"], None),
        (["ruff", "check", "--output-format", "concise"], None),
        (["ruff", "check", "--statistics"], None),
        (["ruff", "check", "--watch"], None),
        (["ruff", "check", "--diff"], None),
        (["ruff", "check", "-q"], None),
        (["ruff", "format", "--check"], "ruff-format"),
        (["ruff", "format", "--check", "--diff"], None),
        (["ruff", "format"], None),  # rewrites files; its one-line report runs as is
        (["ruff", "rule", "F401"], None),
        (["ruff", "--version"], None),
        (["mypy", "src"], "mypy"),
        (["mypy", "--strict", "--pretty", "src"], "mypy"),
        (["mypy", "--show-error-context", "--show-column-numbers", "."], "mypy"),
        (["mypy", "--output", "json", "src"], None),
        (["mypy", "-O", "json", "src"], None),
        (["mypy", "--html-report", "out", "src"], None),
        (["mypy", "--version"], None),
        (["pip", "install", "-r", "requirements.txt"], "pip-install"),
        (["pip3", "install", "-U", "requests"], "pip-install"),
        (["pip", "--disable-pip-version-check", "install", "-e", "."], "pip-install"),
        (["pip", "install", "-f", "wheels/", "x"], "pip-install"),  # -f is --find-links here
        (["pip", "install", "-q", "x"], None),
        (["pip", "install", "--report", "-", "x"], None),
        (["pip", "-v", "install", "x"], None),
        (["pip", "list"], "pip-list"),
        (["pip", "list", "--outdated"], "pip-list"),
        (["pip", "list", "-o", "--not-required"], "pip-list"),
        (["pip", "list", "--format=json"], None),
        (["pip", "list", "--format", "freeze"], None),
        (["pip", "show", "requests"], "pip-show"),
        (["pip", "show", "-f", "requests"], "pip-show"),
        (["pip", "freeze"], None),
        (["python", "-m", "pip", "install", "x"], "pip-install"),
        (["uv", "sync"], "uv-sync"),
        (["uv", "sync", "--frozen", "--all-extras"], "uv-sync"),
        (["uv", "--directory", "proj", "sync"], "uv-sync"),
        (["uv", "sync", "-q"], None),
        (["uv", "pip", "install", "-r", "requirements.txt"], "uv-pip-install"),
        (["uv", "pip", "sync", "requirements.txt"], "uv-pip-install"),
        (["uv", "pip", "uninstall", "x"], "uv-pip-install"),
        (["uv", "pip", "list"], "uv-pip-list"),
        (["uv", "pip", "list", "--format", "json"], None),
        (["uv", "pip", "show", "x"], "uv-pip-show"),
        (["uv", "pip", "compile", "requirements.in"], None),
        (["uv", "pip", "freeze"], None),
        (["uv", "lock"], None),
        (["uv", "run", "mypy", "src"], "mypy"),
        (["uv", "run", "--no-project", "--with", "ruff", "ruff", "check"], "ruff-check"),
        (["uv", "run", "--", "ruff", "format", "--check"], "ruff-format"),
        (["uv", "run", "python", "app.py"], None),
        (["uv", "run", "uv", "sync"], None),
        (["poetry", "install"], "poetry-install"),
        (["poetry", "-C", "proj", "install", "--no-root"], "poetry-install"),
        (["poetry", "install", "-vvv"], None),
        (["poetry", "add", "x"], None),
        (["poetry", "run", "pytest"], None),
    ],
)
def test_which_invocations_are_filtered(argv: list[str], expected: str | None) -> None:
    assert name(argv) == expected


def test_uv_run_runs_the_users_command_and_reads_it_with_the_tools_filter() -> None:
    spec = filters.lookup(["uv", "run", "--no-project", "--with", "ruff", "ruff", "check", "app/util.py"])
    assert spec is not None and spec.filter is not None and spec.run_argv is None
    out = spec.filter(["uv", "run", "ruff", "check"], raw("ruff-check/uv-run-with"), 1)
    assert isinstance(out, Filtered)
    assert out.text.startswith("app/util.py:1:1: E401")
    assert out.text.endswith(
        "Found 7 errors.\n[*] 4 fixable with `--fix` (3 unsafe fixes available with `--fix --unsafe-fixes`).\n"
    )
    assert "Installed 1 package" not in out.text and "Downloading" not in out.text


def test_uv_run_stream_sets_uv_lines_aside() -> None:
    spec = filters.lookup(["uv", "run", "pytest", "-q"])
    assert spec is not None and spec.stream is not None
    f = spec.stream(["uv", "run", "pytest", "-q"])
    printed = [o for ln in raw("pytest/uv-run-fresh-env").split("\n") if (o := f.feed(ln)) is not None]
    text = "\n".join([*printed, f.finish(1)])
    assert "Installed" not in text and "Creating virtual environment" not in text
    assert text.splitlines()[-1].startswith("pytest: 1 failed, 1 passed in")


def test_show_reader_fails_open_on_something_else() -> None:
    # real `pip list` output handed to the `pip show` reader: not key/value lines, so raw
    with pytest.raises(Unrecognized):
        pip.show(["pip", "show", "x"], raw("pip-list/plain"), 0)


def test_table_reader_fails_open_on_something_else() -> None:
    with pytest.raises(Unrecognized):
        pip.package_list(["pip", "list"], raw("pip-show/one"), 0)


def test_installers_never_report_success_on_failure() -> None:
    text = uv.install(["uv", "sync"], raw("uv-sync/unsatisfiable"), 1)
    assert isinstance(text, Filtered) and "FAILED (exit 1)" in text.text
    with pytest.raises(Unrecognized):
        uv.install(["uv", "sync"], raw("uv-sync/unsatisfiable"), 0)  # error lines but exit 0
    with pytest.raises(Unrecognized):
        pip.install(["pip", "install"], raw("pip-install/dry-run-unrecognized"), 0)  # nothing installed
    out = pip.install(["pip", "install"], raw("pip-install/not-found"), 0)
    assert isinstance(out, Filtered) and out.text.endswith(
        "pip install: done, with errors above - 0 installed, 1 already satisfied\n"
    )


def test_uv_run_puts_an_inner_run_argv_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    real = filters.lookup

    def lookup(argv: list[str]) -> Spec | None:
        if argv[0] == "tool":
            return Spec("tool-x", lambda a, o, c: o, run_argv=["tool", "--color=never", *argv[1:]])
        return real(argv)

    monkeypatch.setattr(filters, "lookup", lookup)
    spec = uv.select(["uv", "run", "--frozen", "tool", "a"])
    assert spec is not None and spec.run_argv == ["uv", "run", "--frozen", "tool", "--color=never", "a"]
