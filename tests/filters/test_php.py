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
