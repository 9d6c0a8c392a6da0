"""PHP family: which phpunit forms are filtered, and the summariser's edge cases."""

from __future__ import annotations

import pytest

from rtk import filters
from rtk.filterapi import Filtered, Unrecognized
from rtk.filters.php import phpunit


@pytest.mark.parametrize(
    ("argv", "filtered"),
    [
        (["phpunit"], True),
        (["vendor/bin/phpunit", "--filter", "testDiv", "tests/DivTest.php"], True),
        (["phpunit", "--testdox"], False),
        (["phpunit", "--teamcity"], False),
        (["phpunit", "--list-tests"], False),
        (["phpunit", "--printer=Foo"], False),
        (["phpunit", "--version"], False),
        (["php", "-l", "a.php"], False),  # one or two lines: nothing to shorten
    ],
)
def test_select(argv: list[str], filtered: bool) -> None:
    spec = filters.resolve(argv)
    assert (spec is not None and spec.name == "phpunit") == filtered


def test_nonzero_exit_with_ok_is_not_a_pass() -> None:
    out = "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\n..  2 / 2 (100%)\n\nOK (2 tests, 2 assertions)\n"
    res = phpunit.phpunit(["phpunit"], out, 255)
    text = res.text if isinstance(res, Filtered) else res
    assert text.splitlines() == ["OK (2 tests, 2 assertions)", "phpunit exited with code 255 although it reported OK"]


def test_fatal_error_without_summary_prints_raw() -> None:
    out = 'PHP Fatal error:  Uncaught Error: Class "Calc" not found in /p/tests/AddTest.php:9\n'
    with pytest.raises(Unrecognized):
        phpunit.phpunit(["phpunit"], out, 255)


def test_composer_select_serves_operations_and_leaves_formats_and_help() -> None:
    from rtk import filters

    def name(argv: list[str]) -> str | None:
        spec = filters.resolve(argv)
        return spec.name if spec else None

    assert name(["composer", "install"]) == "composer"
    assert name(["composer", "--no-interaction", "require", "a/b"]) == "composer"
    assert name(["composer", "validate"]) == "composer"
    assert name(["composer", "show", "--format=json"]) is None
    assert name(["composer", "audit", "--format", "json"]) is None
    assert name(["composer", "install", "--help"]) is None
    assert name(["composer"]) is None
    assert name(["composer", "init"]) is None  # interactive questions


def test_composer_box_unwraps_cut_words_and_keeps_line_breaks() -> None:
    from rtk.filters.php import composer

    box = [
        "In X.php line 9:",
        " " * 14,
        "  abcdefghij  ",  # a full chunk (no padding): the word goes on in the next line
        "  klm         ",  # padded: the message line ends
        "   second     ",  # its own leading space is part of the message
        " " * 14,
        "",
        "install [--dry-run] [--] [<packages>...]",
        "",
    ]
    out = composer.composer(["composer", "install"], "\n".join(box), 1)
    assert out == "In X.php line 9:\n  abcdefghijklm\n   second\n"
    assert composer.composer(["composer", "validate"], "./composer.json is valid\n", 0) is None


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["php", "-l", "index.php"], "php-lint"),
        (["php", "--syntax-check", "a.php"], "php-lint"),
        (["php", "-d", "display_errors=1", "-l", "a.php"], "php-lint"),
        (["php", "artisan", "migrate"], None),
        (["php", "script.php", "-l"], None),
        (["php", "-r", "echo 1;"], None),
        (["php"], None),
    ],
)
def test_php_lint_select(argv: list[str], name: str | None) -> None:
    spec = filters.resolve(argv)
    assert (spec.name if spec else None) == name


def test_php_lint_drops_only_the_displayed_copy_of_a_logged_error() -> None:
    from rtk.filters.php import lint

    raw = (
        'PHP Parse error:  syntax error, unexpected token "}" in a.php on line 3\n\n'
        'Parse error: syntax error, unexpected token "}" in a.php on line 3\nErrors parsing a.php\n'
    )
    assert lint.lint(["php", "-l", "a.php"], raw, 255) == (
        'PHP Parse error:  syntax error, unexpected token "}" in a.php on line 3\nErrors parsing a.php\n'
    )
    # A displayed error that was not also logged is the only copy: kept (raw, nothing to drop).
    shown = "Parse error: syntax error in b.php on line 2\nErrors parsing b.php\n"
    assert lint.lint(["php", "-l", "b.php"], shown, 255) is None
    assert lint.lint(["php", "-l", "c.php"], "No syntax errors detected in c.php\n", 0) is None


def test_frames_below_one_project_directory_name_it_once() -> None:
    lines = ["1) T::a", "E: x", "/w/app/src/Billing/Tax.php:11", "/w/app/src/Invoice.php:18", "/w/app/tests/T.php:9"]
    assert phpunit.below_root(lines, (phpunit._FRAME,)) == [
        "(file paths below /w/app/)",
        "1) T::a",
        "E: x",
        "src/Billing/Tax.php:11",
        "src/Invoice.php:18",
        "tests/T.php:9",
    ]


def test_frames_stay_whole_when_few_or_spread_over_the_filesystem() -> None:
    two = ["/w/app/src/a.php:1", "/w/app/src/b.php:2"]
    spread = ["/w/app/src/a.php:1", "/usr/share/php/X.php:2", "/w/app/tests/T.php:3"]
    message = ["Cannot open /w/app/a.php:1 for reading", "/w/app/a.php:1", "/w/app/b.php:2", "/w/app/c.php:3"]
    assert phpunit.below_root(two, (phpunit._FRAME,)) == two
    assert phpunit.below_root(spread, (phpunit._FRAME,)) == spread  # only "/" in common
    out = phpunit.below_root(message, (phpunit._FRAME,))
    assert out[0] == "(file paths below /w/app/)" and out[1] == message[0]  # a message naming a path keeps it
