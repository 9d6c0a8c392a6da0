"""Load filter fixtures (real captured output + facts) and run them through the real pipeline."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from rtk import filters, pipeline, tokens
from rtk.filterapi import LineFilter, Spec, Unrecognized

FIXTURES = Path(__file__).parent / "fixtures"
TEE_PLACEHOLDER = "/rtk-data/tee/fixture.log"
KNOWN_KEYS = {
    "argv",
    "exit_code",
    "captured",
    "facts",
    "facts_re",
    "absent",
    "min_savings",
    "mode",
    "notes",
    "source",
    "ultra_compact",
}


@dataclass
class Fixture:
    name: str  # filter-id/case
    filter: str
    case: str
    argv: list[str]
    exit_code: int
    raw: bytes
    captured: str
    facts: list[str] = field(default_factory=list)
    facts_re: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    min_savings: float = 0.0
    mode: str | None = None
    ultra_compact: bool = False
    expected_path: Path = Path()


def load(meta_path: Path) -> Fixture:
    meta = tomllib.loads(meta_path.read_text(encoding="utf-8"))
    unknown = set(meta) - KNOWN_KEYS
    if unknown:
        raise ValueError(f"{meta_path}: unknown keys {sorted(unknown)}")
    raw_path = meta_path.with_suffix(".raw")
    return Fixture(
        name=f"{meta_path.parent.name}/{meta_path.stem}",
        filter=meta_path.parent.name,
        case=meta_path.stem,
        argv=list(meta["argv"]),
        exit_code=int(meta["exit_code"]),
        raw=raw_path.read_bytes(),
        captured=str(meta.get("captured", "")),
        facts=list(meta.get("facts", [])),
        facts_re=list(meta.get("facts_re", [])),
        absent=list(meta.get("absent", [])),
        min_savings=float(meta.get("min_savings", 0)),
        mode=meta.get("mode"),
        ultra_compact=bool(meta.get("ultra_compact", False)),
        expected_path=meta_path.with_suffix(".expected"),
    )


def all_fixtures() -> list[Path]:
    return sorted(FIXTURES.glob("*/*.toml"))


def keeper(argv: list[str], raw: bytes) -> str:
    """Stand-in for tee.write: a fixed path so goldens are stable."""
    return TEE_PLACEHOLDER


def spec_for(fx: Fixture) -> Spec:
    spec = filters.lookup(fx.argv)
    assert spec is not None, f"{fx.name}: no filter selected for {fx.argv}"
    assert spec.name == fx.filter, f"{fx.name}: argv selects filter {spec.name}, fixture dir says {fx.filter}"
    return spec


def run_stream_offline(factory: object, argv: list[str], raw: bytes, exit_code: int) -> pipeline.Outcome:
    """Run a streaming filter over a whole fixture as the runner does for held output."""
    from rtk.text import clean, decode, split_lines

    text = clean(decode(raw))
    try:
        filt: LineFilter = factory(argv)  # type: ignore[operator]
        parts = []
        for ln in split_lines(text):
            r = filt.feed(ln)
            if r is not None:
                parts.append(r + "\n")
        summary = filt.finish(exit_code)
    except Exception as e:
        # As the runner does for held output: the raw output replaces everything.
        mode = "raw-unrecognized" if isinstance(e, Unrecognized) else "raw-error"
        return pipeline.Outcome("\n".join(split_lines(text)) + "\n", text, mode)
    if summary and not summary.endswith("\n"):
        summary += "\n"
    # The runner judges held stream output against the raw lines joined (a final blank line drops).
    raw_text = "\n".join(split_lines(text))
    return pipeline.finish(argv, raw, raw_text, exit_code, "".join(parts) + summary, filt.cut, keeper)


def run(fx: Fixture) -> pipeline.Outcome:
    from rtk import options

    options.ultra_compact = fx.ultra_compact
    spec = spec_for(fx)
    if spec.stream is not None:
        return run_stream_offline(spec.stream, fx.argv, fx.raw, fx.exit_code)
    assert spec.filter is not None
    return pipeline.apply(spec.name, spec.filter, fx.argv, fx.raw, fx.exit_code, keeper)


def savings(out: pipeline.Outcome) -> float:
    return tokens.savings_pct(out.raw_tokens, out.out_tokens)


def missing_facts(fx: Fixture, text: str) -> list[str]:
    missing = [f for f in fx.facts if f not in text]
    missing += [f"re:{r}" for r in fx.facts_re if not re.search(r, text, re.M)]
    return missing
