"""The fact guard runs on folded output (unrecognised output and rtk read), and a fold is never larger than raw."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from rtk import factguard, fold, pipeline
from rtk.commands import read
from rtk.text import clean, decode

ROOT = Path(__file__).resolve().parent.parent
RAWS = [
    *sorted((ROOT / "logdata").glob("*.log")),
    *sorted((ROOT / "fixtures").glob("*/*.raw")),
]


def test_no_fold_of_real_output_loses_a_fact_or_grows() -> None:
    folded = 0
    for path in RAWS:
        raw = clean(decode(path.read_bytes()))
        res = fold.fold_output(raw.splitlines())
        if res is None:
            continue
        folded += 1
        text = "\n".join(res[0]) + "\n"
        assert factguard.missing(raw, text, True) == {}, path
        assert len(text.encode()) <= len(raw.encode()) + 1, path
    assert folded >= 100  # the logs and most fixtures really went through the fold


def _log(n: int) -> list[str]:
    return [f"2024-05-01T10:00:{i % 60:02d}Z INFO worker order {i} processed in {i % 9}ms" for i in range(n)]


def test_unrecognised_output_fold_goes_through_the_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _log(400)
    lines[200] = "2024-05-01T10:03:20Z ERROR worker order 200 failed: stock would go negative"
    raw_text = "\n".join(lines) + "\n"

    def lossy(ls: list[str]) -> tuple[list[str], int]:  # a fold that (wrongly) dropped the error line
        return [ls[0], f"… {len(ls) - 2:,} more like: <time> INFO worker  (lines 2-{len(ls) - 1})", ls[-1]], len(ls) - 2

    monkeypatch.setattr(fold, "fold_output", lossy)
    res = pipeline.bounded_raw(["app"], raw_text.encode(), raw_text, 0, lambda a, d: "/tmp/x.log", "raw")
    assert lines[200] in res.text.splitlines()
    assert res.restored == 1
    assert res.text.rstrip().endswith("[rtk] full output: /tmp/x.log")


def test_read_fold_goes_through_the_guard(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    lines = _log(400)
    lines[300] = "2024-05-01T10:05:00Z ERROR worker order 300 failed: payment declined"
    path = tmp_path / "app.log"
    path.write_text("\n".join(lines) + "\n")

    class Lossy(fold.Folder):  # a fold that (wrongly) folds the error line away
        def feed(self, line: str) -> list[str]:
            if "ERROR" in line and self.dropped is not None:
                self.dropped.append(line)
                return []
            return super().feed(line)

    monkeypatch.setattr(fold, "Folder", Lossy)
    capfdbinary.readouterr()
    assert read.main([str(path)]) == 0
    out = capfdbinary.readouterr().out.decode()
    assert out.startswith(f"[rtk] {path}: ")
    assert lines[300] in out.splitlines()


def test_logdata_facts_survive_read_unchanged_by_the_guard(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    # On the real logs the fold keeps every fact itself: the guard adds nothing.
    for toml in sorted((ROOT / "logdata").glob("*.toml")):
        meta = tomllib.loads(toml.read_text())
        if meta["kind"] != "log-file":
            continue
        capfdbinary.readouterr()
        assert read.main([str(ROOT / "logdata" / str(meta["log"]))]) == 0
        out = capfdbinary.readouterr().out.decode("utf-8", "replace")
        assert factguard.HEADER.split("{")[0] not in out, toml.stem


def test_every_line_is_shown_or_handed_to_the_guard() -> None:
    # rtk read's guard looks at the lines the fold left out: each input line is printed or among them.
    for path in sorted((ROOT / "logdata").glob("*.log")):
        lines = clean(decode(path.read_bytes())).splitlines()
        f = fold.Folder()
        f.dropped = []
        out: list[str] = []
        for ln in lines:
            out.extend(f.feed(ln))
        out.extend(f.finish())
        assert set(lines) <= set(out) | set(f.dropped), path.stem
        assert len(f.dropped) >= f.folded, path.stem


def test_a_json_report_after_a_warning_line_is_data_not_a_log() -> None:
    # ruff printed a config warning before its JSON report: the rule codes are values of a document, which
    # the fold would have counted away (``"code": <str>`` with 8 codes, none listed).
    raw = clean(decode((ROOT / "fixtures" / "ruff-check" / "json-config-warning.raw").read_bytes()))
    lines = raw.splitlines()
    assert fold.detect.data_kind(lines) == "json"
    assert fold.fold_output(lines) is None
    log = [*_log(300), "]"]  # a log that happens to end on a bracket does not open a document early
    assert fold.detect.data_kind(log) is None
