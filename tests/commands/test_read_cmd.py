"""rtk read: exact bytes by default, exact head/tail windows, cat -n numbering, opt-in minimal/aggressive views."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rtk.commands import read

INPUTS = Path(__file__).parent / "inputs"
EXPECTED = Path(__file__).parent / "expected"
TEXT_FILES = ["latin1.txt", "cjk.md", "emoji.txt", "crlf.txt", "nonl.txt", "index.ts", "util.js", "lib.rs", "app.rb"]


def inputs(tmp_path: Path) -> Path:
    """A directory holding every input under its real name (service.py.in -> service.py)."""
    d = tmp_path / "in"
    shutil.copytree(INPUTS, d)
    (d / "service.py.in").rename(d / "service.py")
    return d


def run(args: list[str], capfdbinary: pytest.CaptureFixture[bytes], cwd: Path | None = None) -> tuple[int, bytes, str]:
    import os

    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        code = read.main(args)
    finally:
        os.chdir(old)
    out, err = capfdbinary.readouterr()
    return code, out, err.decode("utf-8", "replace")


def tool(*argv: str, cwd: Path) -> bytes:
    return subprocess.run(list(argv), cwd=cwd, capture_output=True, check=False).stdout


@pytest.mark.parametrize("name", [*TEXT_FILES, "service.py"])
def test_default_is_the_exact_bytes(name: str, tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    d = inputs(tmp_path)
    code, out, err = run([name], capfdbinary, d)
    assert code == 0 and err == ""
    assert out == (d / name).read_bytes()


def test_non_utf8_bytes_survive(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    d = inputs(tmp_path)
    _, out, _ = run(["latin1.txt"], capfdbinary, d)
    assert b"caf\xe9 cr\xe8me" in out


def test_several_files_are_concatenated_like_cat(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    d = inputs(tmp_path)
    files = ["nonl.txt", "cjk.md", "crlf.txt", "latin1.txt"]
    _, out, _ = run(files, capfdbinary, d)
    assert out == tool("cat", *files, cwd=d)


@pytest.mark.parametrize("files", [["service.py"], ["nonl.txt", "cjk.md"], ["crlf.txt", "latin1.txt", "emoji.txt"]])
def test_number_is_exactly_cat_n(files: list[str], tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    d = inputs(tmp_path)
    _, out, _ = run(["-n", *files], capfdbinary, d)
    assert out == tool("cat", "-n", *files, cwd=d)


@pytest.mark.parametrize("n", [0, 1, 3, 49, 50, 51, 1000])
@pytest.mark.parametrize("name", ["service.py", "nonl.txt", "crlf.txt", "latin1.txt"])
def test_head_and_tail_windows_are_exact(
    name: str, n: int, tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    d = inputs(tmp_path)
    _, out, _ = run(["--head-lines", str(n), name], capfdbinary, d)
    assert out == tool("head", "-n", str(n), name, cwd=d)
    _, out, _ = run(["--tail-lines", str(n), name], capfdbinary, d)
    assert out == tool("tail", "-n", str(n), name, cwd=d)


def test_windows_over_several_files_have_head_headers(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    d = inputs(tmp_path)
    _, out, _ = run(["--head-lines", "2", "service.py", "cjk.md"], capfdbinary, d)
    assert out == tool("head", "-n", "2", "service.py", "cjk.md", cwd=d)
    _, out, _ = run(["--tail-lines", "2", "service.py", "cjk.md"], capfdbinary, d)
    assert out == tool("tail", "-n", "2", "service.py", "cjk.md", cwd=d)


def test_tail_with_numbers_uses_the_files_own_line_numbers(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    d = inputs(tmp_path)
    _, out, _ = run(["-n", "--tail-lines", "2", "service.py"], capfdbinary, d)
    assert (
        out
        == b'    49\tif __name__ == "__main__":\n    50\t    print(report(load(os.environ.get("ORDERS", "orders.json"))))\n'
    )


def test_missing_file_is_reported_like_cat_and_the_rest_printed(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    d = inputs(tmp_path)
    code, out, err = run(["missing.txt", "cjk.md"], capfdbinary, d)
    assert code == 1  # cat's status
    assert err == "rtk: read: missing.txt: No such file or directory\n"
    assert out == (d / "cjk.md").read_bytes()


def test_directory_is_an_error(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    code, out, err = run([str(tmp_path)], capfdbinary)
    assert code == 1 and out == b"" and err.endswith(": Is a directory\n")


def test_binary_file_is_described_not_dumped(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    d = inputs(tmp_path)
    code, out, err = run(["logo.png"], capfdbinary, d)
    assert code == 0 and err == ""
    assert out == b"rtk read: logo.png: binary (PNG image, 33 bytes); not printed\n"


def test_standard_input(tmp_path: Path) -> None:
    data = (INPUTS / "latin1.txt").read_bytes()
    p = subprocess.run([sys.executable, "-m", "rtk", "read"], input=data, capture_output=True, check=False)
    assert p.returncode == 0 and p.stdout == data
    p = subprocess.run([sys.executable, "-m", "rtk", "read", "-n", "-"], input=data, capture_output=True, check=False)
    assert p.stdout == subprocess.run(["cat", "-n"], input=data, capture_output=True, check=False).stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus", "x"], "rtk: read: unknown option --bogus (see rtk read --help)\n"),
        (["--level", "max", "x"], "rtk: read: --level must be one of none, minimal, aggressive, not 'max'\n"),
        (["--head-lines", "ten", "x"], "rtk: read: head-lines must be a whole number, not 'ten'\n"),
        (["--head-lines", "1", "--tail-lines", "1", "x"], "rtk: read: give --head-lines or --tail-lines, not both\n"),
    ],
)
def test_bad_usage_is_one_line(args: list[str], message: str) -> None:
    p = subprocess.run([sys.executable, "-m", "rtk", "read", *args], capture_output=True, text=True, check=False)
    assert p.returncode == 2 and p.stderr == message and p.stdout == ""


def test_help() -> None:
    p = subprocess.run([sys.executable, "-m", "rtk", "read", "--help"], capture_output=True, text=True, check=False)
    assert p.returncode == 0 and p.stdout.startswith("usage: rtk read")


LEVEL_CASES = ["service.py", "index.ts", "util.js", "lib.rs", "main.go", "util.c", "app.rb", "deploy.sh", "schema.sql"]


@pytest.mark.parametrize("level", ["minimal", "aggressive"])
@pytest.mark.parametrize("name", LEVEL_CASES)
def test_levels_match_reviewed_goldens(
    name: str, level: str, tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes], update_goldens: bool
) -> None:
    d = inputs(tmp_path)
    code, out, err = run(["-n", "--level", level, name], capfdbinary, d)
    assert code == 0 and err.startswith(f"rtk: read: {name}: ")
    golden = EXPECTED / f"{name}.{level}"
    if update_goldens:
        golden.parent.mkdir(exist_ok=True)
        golden.write_bytes(out + b"--- stderr\n" + err.encode())
    assert out + b"--- stderr\n" + err.encode() == golden.read_bytes()


def test_minimal_respects_strings(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    d = inputs(tmp_path)
    _, out, _ = run(["--level", "minimal", "index.ts"], capfdbinary, d)
    text = out.decode()
    assert 'const API = "https://api.example.com/v1/*";' in text  # "/*" in a string opens no comment
    assert "const GLOB = '/* still a string */';" in text
    assert "export function main(): void {" in text  # the rest of the file survives
    assert "A block comment" not in text and "// TODO" not in text
    _, out, _ = run(["--level", "minimal", "util.js"], capfdbinary, d)
    assert "const re = /\\/\\*.*\\*\\//;" in out.decode()  # a regex literal holding /* and //
    _, out, _ = run(["--level", "minimal", "service.py"], capfdbinary, d)
    text = out.decode()
    assert 'URL = "http://example.com/#anchor"' in text and "# not a comment, inside a string" in text
    assert "# TODO" not in text and "# VAT rate" not in text
    _, out, _ = run(["--level", "minimal", "deploy.sh"], capfdbinary, d)
    assert out.decode() == '#!/bin/sh\nset -eu\necho "deploying #1"\nn=${#1}\n'


def test_minimal_keeps_non_utf8_bytes(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    f = tmp_path / "x.py"
    f.write_bytes(b"# comment\nname = 'caf\xe9'  # latin-1 byte\n")
    _, out, _ = run(["--level", "minimal", str(f)], capfdbinary)
    assert out == b"name = 'caf\xe9'\n"


def test_aggressive_states_elided_ranges(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    d = inputs(tmp_path)
    _, out, _ = run(["--level", "aggressive", "service.py"], capfdbinary, d)
    text = out.decode()
    assert "def load(path: str) -> list[Order]:\n    # … lines 29-35 elided\n" in text
    assert "def report(orders: list[Order],\n           verbose: bool = False) -> str:\n" in text
    assert "import json\nimport os\nfrom dataclasses import dataclass\n" in text
    assert "class Order:" in text and "    def total(self) -> float:" in text


def test_level_without_language_rules(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    f = tmp_path / "notes.txt"
    f.write_bytes(b"a\n\n\n\nb # not a comment here\n")
    code, out, err = run(["--level", "aggressive", str(f)], capfdbinary)
    assert code == 0 and out == b"a\n\nb # not a comment here\n"
    assert "no comment rules for this file type" in err


def test_runs_are_tracked(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    from rtk import tracking

    d = inputs(tmp_path)
    run(["--level", "minimal", "service.py"], capfdbinary, d)
    journal = Path(tracking.pending_path()).read_text()
    assert "\trtk read --level minimal service.py\t" in journal
    fields = journal.strip().split("\n")[-1].split("\t")
    assert fields[5] == "read" and int(fields[6]) > int(fields[7]) > 0


# Text as files hold it: CRLF and lone CR, tabs, no final newline, blank lines, Latin-1 and
# stray bytes, UTF-8 in several scripts. No NUL: a NUL makes the file binary (described).
_PIECES = st.sampled_from(
    [
        b"a",
        b"line",
        b" ",
        b"\t",
        b"\n",
        b"\n",
        b"\n",
        b"\r\n",
        b"\r",
        b"caf\xe9",
        b"\xff",
        "错误".encode(),
        "🚀".encode(),
    ]
)
_CONTENT = st.lists(_PIECES, max_size=60).map(b"".join)


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(content=_CONTENT, n=st.integers(0, 12))
def test_windows_and_numbers_match_head_tail_and_cat_on_any_text(
    content: bytes, n: int, tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    """Lesson 13: a rewritten cat/head/tail must be byte-for-byte what the tool prints."""
    f = tmp_path / "f.txt"
    f.write_bytes(content)
    cases = [
        ([], ["cat"]),
        (["-n"], ["cat", "-n"]),
        (["--head-lines", str(n)], ["head", "-n", str(n)]),
        (["--tail-lines", str(n)], ["tail", "-n", str(n)]),
    ]
    for ours, theirs in cases:
        _, out, _ = run([*ours, "f.txt"], capfdbinary, tmp_path)
        assert out == tool(*theirs, "f.txt", cwd=tmp_path), (ours, content)


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(content=_CONTENT, shift=st.integers(-2, 2), big=st.sampled_from([2**31, 10**18, 2**63 - 1]))
def test_windows_match_at_the_line_count_and_for_huge_counts(
    content: bytes,
    shift: int,
    big: int,
    tmp_path: Path,
    capfdbinary: pytest.CaptureFixture[bytes],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counts around the file's own line count, and the largest counts the rewrite passes on."""
    f = tmp_path / "f.txt"
    f.write_bytes(content)
    lines = content.count(b"\n") + (0 if content.endswith(b"\n") or not content else 1)
    for n in (max(0, lines + shift), big):
        for flag, cmd in (("--head-lines", "head"), ("--tail-lines", "tail")):
            code, out, _ = run([flag, str(n), "f.txt"], capfdbinary, tmp_path)
            assert (code, out) == (0, tool(cmd, "-n", str(n), "f.txt", cwd=tmp_path)), (flag, n, content)
        with monkeypatch.context() as m:  # the same window read from a pipe (no seeking back)
            m.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(content)))
            _, out, _ = run(["--tail-lines", str(n), "-"], capfdbinary, tmp_path)
        assert out == tool("tail", "-n", str(n), "f.txt", cwd=tmp_path)


def _last_record() -> list[str]:
    from rtk import tracking

    return Path(tracking.pending_path()).read_text().strip().split("\n")[-1].split("\t")


def test_binary_read_records_no_saving(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    # issue 14 defect 8: the sniffed bytes of a binary file were counted as the plain output, so every
    # binary read recorded ~2000 tokens saved; bytes that never were text are no saving.
    from rtk import options

    big = tmp_path / "blob.bin"
    big.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 12000)
    code, out, err = run([str(big)], capfdbinary)
    assert code == 0 and out == f"rtk read: {big}: binary (PNG image, 3072008 bytes); not printed\n".encode()
    fields = _last_record()
    assert fields[5] == "read" and int(fields[6]) == int(fields[7]) > 0  # 0 saved
    assert "recorded as 0" not in err
    options.verbose = 1
    code, out, err = run([str(big)], capfdbinary)
    assert code == 0 and "binary input, recorded as 0 tokens saved" in err
    text = tmp_path / "t.txt"
    text.write_text("hello\n" * 50)
    run(["--head-lines", "2", str(text), str(big)], capfdbinary)
    fields = _last_record()
    assert int(fields[6]) == int(fields[7]) > 0  # head -n 2 prints the same: headers, 2 lines, no binary
