"""ls -l through rtk keeps modes, owners, exact sizes, dates and special files; shared values said once."""

from __future__ import annotations

import pytest

from rtk.filterapi import Unrecognized
from rtk.filters.files import ls, lslong


def _run(argv: list[str], lines: list[str]) -> str:
    return ls.ls(argv, "\n".join(lines) + "\n", 0).text


# Unit inputs built for rtk's own logic (the real captures are tests/fixtures/ls/long-modes*).
LISTING = [
    "total 12",
    "drwxr-xr-x 2 root root 4096 Nov 20 09:00 src",
    "drwxr-xr-x 2 root root 4096 Nov 20 09:00 docs",
    "drwx------ 2 root root 4096 Nov 20 09:00 private",
    "-rw-r--r-- 1 root root   12 Nov 20 09:00 a.py",
    "-rw-r--r-- 1 root root   13 Nov 20 09:00 b.py",
    "-rw-r--r-- 1 root root 1500000 Nov 20 09:00 data.bin",
    "-rwsr-xr-x 1 root root   10 Nov 20 09:00 su-helper",
    "-rw-r----- 1 ann  staff   7 Nov 23 17:45 notes.txt",
    "-rw-r--r--+ 1 root root   5 Nov 20 09:00 acl.txt",
    "-rw-r--r-- 1 root root    4 Mar  1  2024 old.txt",
    "crw-rw---- 1 root disk 8, 0 Nov 20 09:00 sda",
]


def test_long_rows_keep_mode_owner_date_and_exact_size() -> None:
    text = _run(["ls", "-l"], LISTING)
    lines = text.splitlines()
    assert lines[0] == "[unless shown per entry: owner root:root, dirs rwxr-xr-x, files rw-r--r--, date Nov 20 09:00]"
    assert "private/  rwx------" in lines
    assert "data.bin  1500000B" in lines  # never rounded to 1.5M
    assert "su-helper*  10B rwsr-xr-x" in lines
    assert "notes.txt  7B rw-r----- ann:staff Nov 23 17:45" in lines
    assert "acl.txt  5B rw-r--r--+" in lines
    assert "old.txt  4B Mar 1 2024" in lines
    assert "sda (char device 8, 0)  rw-rw---- root:disk" in lines
    assert "a.py  12B" in lines and "src/" in lines
    assert "total " not in text


def test_no_shared_values_means_no_header_and_full_rows() -> None:
    text = _run(["ls", "-l"], ["-rw-r--r-- 1 ann staff 3 Nov 20 09:00 x", "-rwx------ 1 bob wheel 4 Oct  1 10:00 y"])
    assert text.splitlines()[:2] == ["x  3B rw-r--r-- ann:staff Nov 20 09:00", "y*  4B rwx------ bob:wheel Oct 1 10:00"]


def test_common_day_keeps_each_time() -> None:
    rows = [f"-rw-r--r-- 1 root root 1 Nov 20 0{i}:00 f{i}" for i in range(4)]
    text = _run(["ls", "-l"], rows)
    assert text.startswith("[unless shown per entry: owner root:root, files rw-r--r--, day Nov 20 (time per entry)]\n")
    assert "f3  1B 03:00" in text.splitlines()


def test_no_group_column() -> None:
    """-G: owner only; the old parser took the first word of the date for the size and lost names."""
    text = _run(["ls", "-lG"], ["-rw-r--r-- 1 ann 20 Nov 20 09:00 my file.txt", "-rw-r--r-- 1 bob 21 Nov 20 09:00 b"])
    assert "my file.txt  20B ann" in text.splitlines()
    assert "b  21B bob" in text.splitlines()


def test_long_iso_dates_and_names_with_spaces() -> None:
    text = _run(["ls", "-l"], ["-rw-r--r-- 1 root root 20 2026-11-20 09:00 a b.txt"])
    assert "a b.txt  20B rw-r--r-- root:root 2026-11-20 09:00" in text


def test_human_sizes_as_ls_printed_them() -> None:
    text = _run(
        ["ls", "-lh"], ["-rw-r--r-- 1 root root 1.1M Nov 20 09:00 big", "-rw-r--r-- 1 root root 20 Nov 20 09:00 s"]
    )
    assert "big  1.1M" in text.splitlines() and "s  20B" in text.splitlines()


@pytest.mark.parametrize(
    "line",
    [
        "-rw-r--r-- 1 root root 20 20. Nov 09:00 x",  # a locale's date: not read as a name
        "-rw-r--r-- 1 root root 20 Nov 20 09:00",  # no name
        "-rw-r--r-- x root root 20 Nov 20 09:00 x",
        "hello world this is not ls output at all",
    ],
)
def test_lines_that_are_not_c_locale_ls_l_are_refused(line: str) -> None:
    with pytest.raises(Unrecognized):
        lslong.parse(line, True)


def test_entries_ls_could_not_stat_keep_their_names_and_say_so() -> None:
    """Every column "?" (a directory you may read but not enter): the old parser refused the whole listing."""
    text = _run(
        ["ls", "-l", "d"],
        [
            "ls: cannot access 'd/a.txt': Permission denied",
            "-????????? ? ? ? ?            ? a.txt",
            "d????????? ? ? ? ?            ? sub",
            "-rw-r--r-- 1 root root 3 Nov 20 09:00 b",
        ],
    )
    lines = text.splitlines()
    assert lines[:4] == [
        "ls: cannot access 'd/a.txt': Permission denied",
        "sub/  ?",
        "a.txt  ?",
        "b  3B rw-r--r-- root:root Nov 20 09:00",
    ]
