"""Ruby family: rubocop (offenses grouped per cop, every location kept) and bundle install/update."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rtk import filters
from rtk.filterapi import Filtered, Unrecognized
from rtk.filters.ruby import bundle, rubocop
from rtk.rewrite import engine

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
_OFFENSE = re.compile(r"^(\S.*?):(\d+):(\d+): [CWEFR]: ")


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["rubocop"], "rubocop"),
        (["rubocop", "-a"], "rubocop"),
        (["rubocop", "-A", "lib"], "rubocop"),
        (["rubocop", "--autocorrect-all"], "rubocop"),
        (["rubocop", "-f", "json"], None),
        (["rubocop", "-fj"], None),
        (["rubocop", "--format=offenses"], None),
        (["rubocop", "--auto-gen-config"], None),
        (["rubocop", "-L"], None),
        (["bundle", "install"], "bundle"),
        (["bundle", "install", "--local"], "bundle"),
        (["bundle", "update", "rails"], "bundle"),
        (["bundle", "exec", "rspec"], None),
        (["bundle", "outdated"], None),
        (["bundle", "install", "--help"], None),
        (["bundle"], "bundle"),  # issue 16: bare bundle is bundle install
        (["bundle", "--local"], "bundle"),
        (["bundle", "--version"], None),
    ],
)
def test_select(argv: list[str], name: str | None) -> None:
    spec = filters.resolve(argv)
    assert (spec.name if spec else None) == name


@pytest.mark.parametrize("command", ["rubocop -a", "bundle install", "bundle update", "bundle exec rubocop -A"])
def test_the_hook_reaches_them(command: str) -> None:
    """Issue 16: `rubocop -a` and `bundle install` were "not built yet" (no rule reached a filter)."""
    got = engine.rewrite(command)
    assert got is not None and "rtk " in got, (command, engine.classify(command).reason)


@pytest.mark.parametrize(
    "case", ["project", "autocorrect", "debian-offenses", "shared-rubocop-default_rails-app", "syntax-error"]
)
def test_every_offense_location_is_kept(case: str) -> None:
    """Grouped per cop, each file:line:col of the raw output is still in the output, under its file."""
    raw = (FIXTURES / "rubocop" / f"{case}.raw").read_text(encoding="utf-8")
    text = _text(rubocop.rubocop(["rubocop"], raw, 1))
    places = [m.groups() for m in map(_OFFENSE.match, raw.splitlines()) if m]
    assert places
    listed: set[tuple[str, str, str]] = set()
    for ln in text.splitlines():
        m = _OFFENSE.match(ln)
        if m:
            listed.add(m.groups())
        elif ln.startswith("  ") and ": " in ln:
            file, spots = ln[2:].split(": ", 1)
            listed.update((file, *spot.split(":")) for spot in spots.split())  # type: ignore[misc]
    assert set(places) <= listed, set(places) - listed
    assert "^^^" not in text and "Inspecting " not in text


def test_groups_count_and_keep_marks() -> None:
    raw = (FIXTURES / "rubocop" / "autocorrect.raw").read_text(encoding="utf-8")
    text = _text(rubocop.rubocop(["rubocop", "-a"], raw, 1))
    assert "C: [Corrected] Style/StringLiterals: Prefer single-quoted strings" in text
    assert "(104 offenses)" in text and "(12 offenses)" in text
    assert "lib/report.rb:4:5: W: Lint/UselessAssignment: Useless assignment to variable - unused." in text
    assert text.rstrip().endswith("8 more offenses can be corrected with `rubocop -A`")


def test_second_message_line_of_a_syntax_offense_stays() -> None:
    """Lint/Syntax prints the parser version on a line of its own under the message: part of the message."""
    raw = (FIXTURES / "rubocop" / "syntax-error.raw").read_text(encoding="utf-8")
    text = _text(rubocop.rubocop(["rubocop", "bad.rb"], raw, 1))
    using = "(Using Ruby 2.6 parser; configure using TargetRubyVersion parameter, under AllCops)"
    assert f"bad.rb:2:3: E: Lint/Syntax: unexpected token tIDENTIFIER\n{using}\n" in text
    assert f"bad.rb:3:1: E: Lint/Syntax: unexpected token kEND\n{using}\n" in text
    assert "rows.sum" not in text and "^^^" not in text  # the echoed source and carets still go
    # the same two-line message at two places is one group with both places
    twice = raw.replace("unexpected token kEND", "unexpected token tIDENTIFIER")
    text = _text(rubocop.rubocop(["rubocop", "bad.rb"], twice, 1))
    assert f"E: Lint/Syntax: unexpected token tIDENTIFIER\n{using} (2 offenses)\n  bad.rb: 2:3 3:1" in text


def test_rubocop_without_summary_is_unrecognized() -> None:
    with pytest.raises(Unrecognized):
        rubocop.rubocop(["rubocop"], "undefined method `x' for nil:NilClass (NoMethodError)\n", 2)


def test_rubocop_errors_and_warnings_stay() -> None:
    raw = (
        "Warning: unrecognized cop or department Foo/Bar found in .rubocop.yml\n"
        "Inspecting 2 files\nCC\n\nOffenses:\n\n"
        "a.rb:1:1: C: Style/X: m.\nx\n^\nb.rb:2:3: C: Style/X: m.\ny\n  ^\n\n"
        "2 files inspected, 2 offenses detected\n"
    )
    text = _text(rubocop.rubocop(["rubocop"], raw, 1))
    assert text == (
        "Warning: unrecognized cop or department Foo/Bar found in .rubocop.yml\n"
        "C: Style/X: m. (2 offenses)\n  a.rb: 1:1\n  b.rb: 2:3\n2 files inspected, 2 offenses detected\n"
    )


def _text(r: str | Filtered | None) -> str:
    assert r is not None
    return r.text if isinstance(r, Filtered) else r


def test_bundle_counts_using_lists_installs_and_keeps_errors() -> None:
    raw = (
        "Fetching gem metadata from https://rubygems.org/.\nResolving dependencies...\n"
        "Using rake 13.0.6\nFetching rack 3.0.8\nInstalling rack 3.0.8\nInstalling puma 6.4.0 with native extensions\n"
        "Bundle complete! 3 Gemfile dependencies, 3 gems now installed.\n"
        "Use `bundle info [gemname]` to see where a bundled gem is installed.\n"
    )
    assert _text(bundle.bundle(["bundle", "install"], raw, 0)) == (
        "Bundle complete! 3 Gemfile dependencies, 3 gems now installed.\n"
        "installed (2): rack 3.0.8, puma 6.4.0\n1 gems already installed (unchanged)\n"
    )


def test_bundle_update_keeps_a_version_change_of_an_installed_gem() -> None:
    # `Using rack 2.2.8 (was 2.2.7)`: already installed, but the update moved it; it was counted as unchanged.
    raw = "Resolving dependencies...\nUsing rake 13.0.6\nUsing rack 2.2.8 (was 2.2.7)\nBundle updated!\n"
    assert _text(bundle.bundle(["bundle", "update"], raw, 0)) == (
        "Bundle updated!\nversion changed (1): rack 2.2.8 (was 2.2.7)\n1 gems already installed (unchanged)\n"
    )


def test_bundle_unknown_output_is_raw() -> None:
    assert bundle.bundle(["bundle", "install"], "something bundler never printed\n", 1) is None


def test_bundle_backtrace_frames_are_counted_in_place() -> None:
    raw = (FIXTURES / "bundle" / "install-uncached.raw").read_text(encoding="utf-8")
    r = bundle.bundle(["bundle", "install", "--local"], raw, 5)
    assert isinstance(r, Filtered) and r.cut == 14
    lines = r.text.splitlines()
    at = lines.index("  ... 14 lines of Bundler's own backtrace")
    assert lines[at - 1] == "installation" and "/bundler/" not in r.text
