"""Filter for phpunit's default (progress) output, also as ``vendor/bin/phpunit``.

Passing runs shrink to ``OK (N tests, N assertions)``. Failing runs keep every
error, failure, warning and risky block (test id, message, diff, ``file:line``
frames, below the project directory said once; bounded per block by ``limits.test_failure_lines``), the section headers
and the ``Tests: N, Assertions: N, ...`` summary. The banner, progress rows and
the time/memory line go. Output without a phpunit summary prints raw; other
printers (``--testdox``, ``--teamcity``...) and listings run unfiltered.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.failblocks import Blocks, below_root, squeeze

COMMANDS = ("phpunit",)

_RAW = (
    "--testdox", "--teamcity", "--printer", "--list-tests", "--list-tests-xml", "--list-suites", "--list-groups",
    "--help", "-h", "--version", "--debug", "--migrate-configuration", "--generate-configuration",
    "--check-version", "--atleast-version", "--testdox-text", "--testdox-html", "--testdox-xml",
)  # fmt: skip
_OK = re.compile(r"^OK \((\d+) tests?, \d+ assertions?\)$")
_SUMMARY = re.compile(r"^Tests: \d+, Assertions: \d+(, [A-Za-z ]+: \d+)*\.$")
_PROGRESS = re.compile(r"^[.FEWSIRD]+\s+\d+ / \d+ \(\s*\d+%\)$|^[.FEWSIRD]+$")
_NOISE = re.compile(r"^(PHPUnit \d[\w.-]* by Sebastian Bergmann and contributors\.|Time: [\d:.]+, Memory: .*)$")
_SECTION = re.compile(r"^There (was|were) (1|\d+) \w+:$|^(ERRORS!|FAILURES!|WARNINGS!|OK, but .*)$")
_ITEM = re.compile(r"^\d+\) \S+")
_FRAME = re.compile(r"^(?P<path>/\S+):\d+$")  # a stack frame phpunit prints: an absolute file path and a line


def select(argv: list[str]) -> Spec | None:
    if any(a.split("=", 1)[0] in _RAW for a in argv[1:]):
        return None
    return Spec("phpunit", phpunit)


def phpunit(argv: list[str], output: str, exit_code: int) -> str | Filtered:
    lines = output.splitlines()
    if not any(_OK.match(s) or _SUMMARY.match(s) for s in (ln.strip() for ln in lines)):
        raise Unrecognized("no phpunit summary line")
    passed = False
    acc = Blocks()
    out, block, flush = acc.out, acc.block, acc.flush

    for ln in lines:
        s = ln.strip()
        if _ITEM.match(ln):
            flush()
            block.append(ln)
        elif s == "--":  # separator between the error and failure sections: the headers say it
            flush()
        elif _SECTION.match(s) or _SUMMARY.match(s) or _OK.match(s):
            flush()
            passed = passed or bool(_OK.match(s))
            out.append(s)
        elif block:
            if s:  # the blank line between a message and its frames goes
                block.append(ln)
        elif not (_PROGRESS.match(s) or _NOISE.match(s)):
            out.append(ln)
    flush()
    text = squeeze(below_root(out, (_FRAME,)))
    if exit_code != 0 and passed:
        text += f"\nphpunit exited with code {exit_code} although it reported OK"
    return Filtered(text, acc.cut)
