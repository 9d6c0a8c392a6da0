"""Ruby family: which commands are filtered, and the rspec/Minitest summarisers' edge cases."""

from __future__ import annotations

import pytest

from rtk import config, filters
from rtk.filterapi import Filtered, Unrecognized
from rtk.filters.ruby import minitest, rspec


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["rspec"], "rspec"),
        (["rspec", "spec/a_spec.rb:12"], "rspec"),
        (["rspec", "-f", "d"], None),
        (["rspec", "-fd"], None),
        (["rspec", "--format=json"], None),
        (["rspec", "--dry-run"], None),
        (["rake", "test"], "rake-test"),
        (["rake", "test:models"], "rake-test"),
        (["rake", "TESTOPTS=-v", "test"], "rake-test"),
        (["rake"], None),
        (["rake", "db:migrate"], None),
        (["rake", "-T"], None),
        (["rails", "test"], "rake-test"),
        (["bin/rails", "test", "test/models/user_test.rb:12"], "rake-test"),
        (["rails", "server"], None),
        (["rails", "generate", "model", "test"], None),
    ],
)
def test_select(argv: list[str], name: str | None) -> None:
    spec = filters.resolve(argv)
    assert (spec.name if spec else None) == name


def _text(result: str | Filtered) -> str:
    return result.text if isinstance(result, Filtered) else result


def test_rspec_nonzero_exit_without_failures_is_not_a_pass() -> None:
    out = "....\n\nFinished in 0.01 seconds (files took 0.1 seconds to load)\n4 examples, 0 failures\n"
    text = _text(rspec.rspec(["rspec"], out, 2))
    assert "4 examples, 0 failures" in text
    assert "rspec exited with code 2 although no example failed" in text
    assert "Finished in" not in text


def test_rspec_keeps_errors_outside_examples() -> None:
    out = (
        "\nAn error occurred while loading ./spec/x_spec.rb.\nFailure/Error: require 'nope'\n\nLoadError:\n"
        "  cannot load such file -- nope\n# ./spec/x_spec.rb:1:in `<top (required)>'\n"
        "No examples found.\n\nFinished in 0.00003 seconds (files took 0.1 seconds to load)\n"
        "0 examples, 0 failures, 1 error occurred outside of examples\n"
    )
    text = _text(rspec.rspec(["rspec"], out, 1))
    for kept in (
        "An error occurred while loading ./spec/x_spec.rb.",
        "cannot load such file -- nope",
        "# ./spec/x_spec.rb:1:in",
        "0 examples, 0 failures, 1 error occurred outside of examples",
    ):
        assert kept in text
    assert "although no example failed" in text


def test_rspec_unknown_output_is_unrecognized() -> None:
    with pytest.raises(Unrecognized):
        rspec.rspec(["rspec"], "something else entirely\n", 1)


def test_failure_block_is_bounded_and_counted() -> None:
    LIMIT = int(config.get("limits.test_failure_lines"))
    frames = "".join(f"     # ./lib/deep.rb:{i}:in `f'\n" for i in range(100))
    out = f"Failures:\n\n  1) X fails\n     Failure/Error: boom\n{frames}\n1 example, 1 failure\n"
    res = rspec.rspec(["rspec"], out, 1)
    assert isinstance(res, Filtered)
    assert res.cut == 100 + 2 - LIMIT  # the header, Failure/Error and 100 frames
    assert "./lib/deep.rb:0:in" in res.text
    assert "./lib/deep.rb:99:in" in res.text  # the tail (where the spec's own frame is) stays
    assert "./lib/deep.rb:60:in" not in res.text
    assert f"{102 - LIMIT} more lines of this failure (bound {LIMIT} per failure)" in res.text


def test_minitest_nonzero_exit_without_failures_is_said() -> None:
    out = "Run options: --seed 1\n\n# Running:\n\n..\n\nFinished in 0.1s, 2 runs/s.\n\n2 runs, 2 assertions, 0 failures, 0 errors, 0 skips\n"
    text = _text(minitest.minitest(["rake", "test"], out, 1))
    assert text.splitlines() == [
        "2 runs, 2 assertions, 0 failures, 0 errors, 0 skips",
        "exited with code 1 although no test failed",
    ]


def test_minitest_load_error_prints_raw() -> None:
    out = "rake aborted!\nLoadError: cannot load such file -- calc\n/tmp/x/test/a_test.rb:2:in `require'\n"
    with pytest.raises(Unrecognized):
        minitest.minitest(["rake", "test"], out, 1)


def test_minitest_rails_style_summary_and_rerun_lines() -> None:
    # rails test prints "tests" instead of "runs" and a rerun line after each failure.
    out = (
        "Running 3 tests in a single process\nRun options: --seed 5\n\n# Running:\n\n.F\n\nFailure:\n"
        "UserTest#test_name [test/models/user_test.rb:8]:\nExpected false to be truthy.\n\n"
        "rails test test/models/user_test.rb:6\n\n.\n\nFinished in 0.2s, 15 runs/s.\n"
        "3 tests, 3 assertions, 1 failures, 0 errors, 0 skips\n"
    )
    text = _text(minitest.minitest(["rails", "test"], out, 1))
    for kept in (
        "UserTest#test_name [test/models/user_test.rb:8]:",
        "Expected false to be truthy.",
        "rails test test/models/user_test.rb:6",
        "3 tests, 3 assertions, 1 failures, 0 errors, 0 skips",
    ):
        assert kept in text
    assert "# Running:" not in text


def test_minitest_paths_below_the_project_directory_name_it_once() -> None:
    raw = (
        "  1) Error:\nT#test_a:\nKeyError: no file /srv/app/data/x.csv\n"
        "    /srv/app/lib/shop/p.rb:6:in `vat'\n    /srv/app/test/t_test.rb:14:in `test_a'\n\n"
        "  2) Failure:\nT#test_b [/srv/app/test/t_test.rb:22]:\nExpected: 1\n  Actual: 2\n\n"
        "2 runs, 2 assertions, 1 failures, 1 errors, 0 skips\n"
    )
    out = minitest.minitest(["rake", "test"], raw, 1)
    assert isinstance(out, Filtered)
    text = out.text
    assert text.startswith("(file paths below /srv/app/)\n")
    assert "    lib/shop/p.rb:6:in `vat'\n    test/t_test.rb:14:in `test_a'\n" in text
    assert "T#test_b [test/t_test.rb:22]:\n" in text
    assert "KeyError: no file /srv/app/data/x.csv\n" in text  # a message keeps its path whole
    two = raw.replace("    /srv/app/lib/shop/p.rb:6:in `vat'\n", "")
    out2 = minitest.minitest(["rake", "test"], two, 1)  # two paths: not worth a line of its own
    assert isinstance(out2, Filtered) and "    /srv/app/test/t_test.rb:14:in `test_a'" in out2.text
