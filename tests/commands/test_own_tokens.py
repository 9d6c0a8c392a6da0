"""rtk read, deps and smart record the shaped token estimate (as every filter does) and say so with -v."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtk import options, tokens
from rtk.commands import deps, read, smart

INPUTS = Path(__file__).parent / "inputs"
LOGDATA = Path(__file__).parents[1] / "logdata"
SOURCE = Path(read.__file__)  # a real source file over read.fold_min_lines (200) lines


def _last_record() -> list[str]:
    from rtk import tracking

    return Path(tracking.pending_path()).read_text().strip().split("\n")[-1].split("\t")


def _recorded() -> tuple[int, int]:
    fields = _last_record()
    return int(fields[6]), int(fields[7])


def call(main: object, args: list[str], capfdbinary: pytest.CaptureFixture[bytes], cwd: Path) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        code = int(main(args))  # type: ignore[operator]
    finally:
        os.chdir(old)
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def near(recorded: int, text: str) -> bool:
    """``recorded`` is the shaped estimate of ``text`` (a stream's tally may count the final line break: +1)."""
    return abs(recorded - tokens.estimate_shaped(text)) <= 1


def test_read_records_the_shaped_estimate(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    # README audit: rtk read recorded ceil(chars/4) while every other command records tokens.estimate_shaped.
    text = (INPUTS / "service.py.in").read_text()
    (tmp_path / "service.py").write_text(text)
    code, out, _ = call(read.main, ["service.py"], capfdbinary, tmp_path)
    raw, shown = _recorded()
    assert code == 0 and out == text and raw == shown and near(raw, text)
    assert raw != tokens.estimate(text)
    code, out, _ = call(read.main, ["--level", "minimal", "service.py"], capfdbinary, tmp_path)
    raw, shown = _recorded()
    assert near(raw, text) and near(shown, out) and raw > shown


def test_read_of_a_folded_log_records_the_shaped_estimate(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    # The raw side was the file's byte count / 4; a fold that gives way must not count the file twice.
    shutil.copy(LOGDATA / "jvm-ingest.log", tmp_path)
    text = (tmp_path / "jvm-ingest.log").read_text()
    code, out, _ = call(read.main, ["jvm-ingest.log"], capfdbinary, tmp_path)
    assert code == 0 and out.startswith("[rtk] jvm-ingest.log: 395 lines folded to ")
    raw, shown = _recorded()
    assert near(raw, text) and near(shown, out)
    assert raw != (len(text.encode()) + 3) // 4 and shown != tokens.estimate(out)
    code, out, _ = call(read.main, ["--tail-lines", "300", "jvm-ingest.log"], capfdbinary, tmp_path)
    assert out.startswith("[rtk] jvm-ingest.log: last 300 lines (lines 96-395) folded to ")
    raw, shown = _recorded()
    assert near(raw, "".join(text.splitlines(keepends=True)[95:])) and near(shown, out)


def test_deps_and_smart_record_the_shaped_estimate(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    d = INPUTS / "polyglot"
    code, out, _ = call(deps.main, ["."], capfdbinary, d)
    manifests = [p for p in sorted(os.listdir(d)) if deps._parser(p) is not None]
    raw, shown = _recorded()
    assert code == 0 and len(manifests) >= 5
    assert abs(raw - sum(tokens.estimate_shaped((d / m).read_text()) for m in manifests)) <= 1
    assert shown == tokens.estimate_shaped(out) != tokens.estimate(out)
    text = (INPUTS / "service.py.in").read_text()
    (tmp_path / "service.py").write_text(text)
    code, out, _ = call(smart.main, ["service.py"], capfdbinary, tmp_path)
    raw, shown = _recorded()
    assert code == 0 and raw == tokens.estimate_shaped(text) != tokens.estimate(text)
    assert shown == tokens.estimate_shaped(out)


def test_smart_of_a_binary_records_no_saving(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    # As rtk read (issue 14 defect 8): bytes that never were text are no saving.
    shutil.copy(INPUTS / "logo.png", tmp_path)
    code, out, _ = call(smart.main, ["logo.png"], capfdbinary, tmp_path)
    raw, shown = _recorded()
    assert code == 0 and out.startswith("logo.png: PNG image, 33 bytes\n") and raw == shown > 0


V_LINE = re.compile(
    r"^rtk: (\w+) \[([\w+ -]+)\]: (\d+) -> (\d+) tokens \(-?[\d.]+% saved, " + re.escape(tokens.METHOD) + r"\)$"
)


def _v_line(err: str) -> tuple[str, str, int, int]:
    lines = [m for ln in err.splitlines() if (m := V_LINE.match(ln))]
    assert len(lines) == 1, err
    m = lines[0]
    return m[1], m[2], int(m[3]), int(m[4])


def test_verbose_read_says_what_it_did_and_the_tokens(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    # README: -v shows the filter and the tokens before and after; rtk read printed nothing.
    shutil.copy(LOGDATA / "jvm-ingest.log", tmp_path)
    shutil.copy(SOURCE, tmp_path / "source.py")
    shutil.copy(INPUTS / "logo.png", tmp_path)
    options.verbose = 1
    _, out, err = call(read.main, ["jvm-ingest.log"], capfdbinary, tmp_path)
    assert "rtk: read: jvm-ingest.log: folded: log-like and over read.fold_min_lines (200) lines" in err
    assert "--raw" in err and "--lines A-B" in err and "[rtk]" not in err and "rtk: read" not in out
    assert _v_line(err) == ("read", "folded", *_recorded())
    _, out, err = call(read.main, ["source.py"], capfdbinary, tmp_path)
    assert out == SOURCE.read_text()
    assert "rtk: read: source.py: over read.fold_min_lines (200) lines but source code, data or not log-like" in err
    raw, shown = _recorded()
    assert _v_line(err) == ("read", "exact", raw, shown) and raw == shown
    _, _, err = call(read.main, ["--raw", "jvm-ingest.log", "logo.png"], capfdbinary, tmp_path)
    assert "binary input, recorded as 0 tokens saved" in err and "folded" not in err
    raw, shown = _recorded()
    assert _v_line(err) == ("read", "exact+binary", raw, shown) and raw == shown
    options.verbose = 0
    _, _, err = call(read.main, ["jvm-ingest.log"], capfdbinary, tmp_path)
    assert err == ""


def test_verbose_deps_and_smart_print_the_same_line(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    options.verbose = 1
    _, _, err = call(deps.main, ["."], capfdbinary, INPUTS / "polyglot")
    assert _v_line(err) == ("deps", "summary", *_recorded())
    _, _, err = call(smart.main, ["logo.png"], capfdbinary, INPUTS)
    raw, shown = _recorded()
    assert _v_line(err) == ("smart", "binary", raw, shown) and raw == shown


def test_verbose_through_the_cli() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "rtk", "-v", "read", str(LOGDATA / "jvm-ingest.log")],
        capture_output=True,
        text=True,
        check=False,
    )
    name, mode, raw, shown = _v_line(p.stderr)
    assert p.returncode == 0 and (name, mode) == ("read", "folded") and raw > 10 * shown > 0


def test_help_says_long_logs_are_folded() -> None:
    # The help opened with "by default the exact bytes, nothing added, nothing changed", then described folding.
    p = subprocess.run([sys.executable, "-m", "rtk", "read", "--help"], capture_output=True, text=True, check=False)
    intro = p.stdout.split("\n\n")[1]
    assert p.returncode == 0 and "nothing changed" not in p.stdout
    assert "byte for byte" in intro and "log-like file is folded" in intro
    assert "--raw" in intro and "--lines A-B" in intro
