"""rtk cc-economics: spend per day and model from the real Claude Code usage fields, beside rtk's savings."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from histlib import claude_session, homes, install_real, iso, rtk, rtk_json, track

from rtk.history import economics


def econ(*args: str) -> dict:  # type: ignore[type-arg]
    return rtk_json("cc-economics", "--since", "all", *args)  # type: ignore[no-any-return]


def model_rows(d: dict) -> dict[tuple[str, str], dict]:  # type: ignore[type-arg]
    return {(p["period"], m["model"]): m for p in d["spend"]["periods"] for m in p["models"]}


def test_spend_per_day_and_model_on_real_transcripts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_real(tmp_path, monkeypatch)
    d = econ()
    rows = model_rows(d)
    assert set(rows) == {
        ("2025-12-10", "claude-sonnet-4-5-20250929"),
        ("2026-01-08", "claude-sonnet-4-5-20250929"),
        ("2026-02-10", "claude-opus-4-6"),
        ("2026-02-11", "claude-haiku-4-5-20251001"),
    }
    s = rows[("2026-01-08", "claude-sonnet-4-5-20250929")]
    # 47 requests on 133 assistant lines; the largest value per request of each field
    assert (s["requests"], s["input"], s["output"], s["cache_write_5m"], s["cache_write_1h"], s["cache_read"]) == (
        47, 6711, 65263, 1473882, 0, 2560506,
    )  # fmt: skip
    # sonnet 4.5: $3 input, $15 output, $3.75 5-minute cache write, $0.30 cache read per million
    want = (6711 * 3 + 65263 * 15 + 1473882 * 3.75 + 2560506 * 0.30) / 1e6
    assert s["cost"] == round(want, 4)
    h = rows[("2026-02-11", "claude-haiku-4-5-20251001")]
    assert h["cache_write_5m"] == 0 and h["cache_write_1h"] == 13554  # 1-hour writes priced at 2x input
    assert h["cost"] == round((94 * 1 + 33 * 5 + 13554 * 2 + 299487 * 0.10) / 1e6, 4)
    assert d["spend"]["unpriced_models"] == []
    assert d["totals"]["rtk_saved_tokens"] == 0 and d["rtk"][0]["share_of_spend_pct"] == 0.0
    assert any("ceil(characters / 4)" in n for n in d["notes"])


def test_requests_in_several_files_count_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude, _ = install_real(tmp_path, monkeypatch)
    one = econ()["totals"]["cost"]
    src = next((claude / "projects").rglob("196820da-*.jsonl"))
    shutil.copyfile(src, src.with_name("resumed-copy.jsonl"))
    d = econ()
    assert d["totals"]["cost"] == one and d["spend"]["duplicate_requests_skipped"] == 47


def test_weekly_monthly_csv_and_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_real(tmp_path, monkeypatch)
    weekly = {p["period"] for p in econ("--weekly")["spend"]["periods"]}
    assert weekly == {"2025-12-07", "2026-01-04", "2026-02-08"}  # Sundays
    assert {p["period"] for p in econ("--monthly")["spend"]["periods"]} == {"2025-12", "2026-01", "2026-02"}
    p = rtk("cc-economics", "--since", "all", "--format", "csv")
    assert p.stdout.splitlines()[0].startswith("period,model,requests,input,output,cache_write_5m")
    p = rtk("cc-economics", "--since", "all")
    assert p.returncode == 0
    assert (
        "$7.29" in p.stdout
        and "rtk's savings are estimates: character classes weighted to match o200k/cl100k" in p.stdout
    )


def test_price_table_from_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install_real(tmp_path, monkeypatch)
    cfg = tmp_path / "config.toml"
    cfg.write_text('[economics]\nprices = ["claude-opus-4-6*: input=10 output=50 cache_write_1h=20 cache_read=1"]\n')
    monkeypatch.setenv("RTK_CONFIG", str(cfg))
    rows = model_rows(econ())
    o = rows[("2026-02-10", "claude-opus-4-6")]
    assert o["cost"] == round(
        (o["input"] * 10 + o["output"] * 50 + o["cache_write_1h"] * 20 + o["cache_read"] * 1) / 1e6, 4
    )
    cfg.write_text('[economics]\nprices = ["claude-opus-4-6*: input=ten"]\n')
    p = rtk("cc-economics", "--since", "all")
    assert p.returncode == 1 and p.stderr.count("\n") == 1
    assert p.stderr.startswith("rtk: config economics.prices: ") and "input must be a number" in p.stderr


def test_unknown_models_are_not_guessed() -> None:
    table = economics.DEFAULT_PRICES
    assert economics.price_for("us.anthropic.claude-sonnet-4-5-20250929-v1:0", table) is not None
    assert economics.price_for("claude-opus-4-1@20250805", table)[1]["input"] == 15.0  # type: ignore[index]
    assert economics.price_for("claude-opus-4-5-20251101", table)[1]["input"] == 5.0  # type: ignore[index]
    assert economics.price_for("gpt-5", table) is None
    with pytest.raises(ValueError, match="required"):
        economics.parse_price("claude-x*: input=1")


def test_rtk_savings_and_reruns_beside_spend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude, _ = homes(tmp_path, monkeypatch)
    start = time.time() - 3 * 3600
    claude_session(
        claude,
        [
            {"command": "rtk git log -5", "output": "abc fix\n"},
            {"command": "git log -5", "output": "commit abc\n" * 40},  # 440 chars: 110 tokens re-run raw
        ],
        start=start,
    )
    track("git log -5", "git-log", 2000, 200, iso(start + 21)[:19] + "Z", "/work/demo")
    d = econ()
    (row,) = d["rtk"]
    assert (row["saved_tokens"], row["rerun_tokens"], row["net_tokens"]) == (1800, 110, 1690)
    assert row["priced_as"] == "claude-sonnet-4-5-20250929" and row["price_per_mtok"] == 3.75
    assert row["value"] == round(1690 * 3.75 / 1e6, 4)
    # negative savings are reported as such
    track("ls", "ls", 10, 40, iso(start + 30)[:19] + "Z", "/work/demo")
    assert econ()["rtk"][0]["saved_tokens"] == 1770


def test_no_usage_on_the_days_rtk_saved_is_not_worth_0_dollars(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    homes(tmp_path, monkeypatch)  # no Claude Code transcript at all
    track("git log -5", "git-log", 2000, 200, iso(time.time() - 3600)[:19] + "Z", "/work/demo")
    d = econ()
    (row,) = d["rtk"]
    assert row["saved_tokens"] == 1800 and row["value"] is None and d["totals"]["value"] is None
    out = rtk("cc-economics", "--all").stdout
    assert "$0.00" not in out
    assert "net: rtk kept about 1,800 tokens out of the context (no Claude Code usage on those days" in out


@pytest.mark.parametrize("cmd", ["gain", "discover", "session", "learn", "cc-economics"])
def test_every_report_takes_the_same_scope_flags(cmd: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    homes(tmp_path, monkeypatch)
    for flags in (["--all"], ["--since", "all"], ["--project", str(tmp_path)], ["-p"], ["--all", "--since", "7d"]):
        p = rtk(cmd, *flags, cwd=tmp_path)
        assert p.returncode == 0, (flags, p.stderr)
    p = rtk(cmd, "--all", "--project", str(tmp_path), cwd=tmp_path)
    assert p.returncode != 0 and "Traceback" not in p.stderr
