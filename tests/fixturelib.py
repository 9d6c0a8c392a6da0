"""Load filter fixtures (real captured output + facts) and run them through the real pipeline."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from rtk import filters, pipeline, tokens
from rtk.filterapi import Spec

FIXTURES = Path(__file__).parent / "fixtures"
# Goldens name the recovery file as the hint does, `rtk recall <content hash>` (the same in the
# replay test, which writes the real file). TEE_DIR and tee_placeholder remain for older callers.
TEE_DIR = "/home/dev/.local/share/rtk/tee"
TEE_EPOCH = "1700000000"
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


def tee_placeholder(argv: list[str]) -> str:
    from rtk.text import slug

    return f"{TEE_DIR}/{TEE_EPOCH}_{slug(argv)}.log"


_KEEP_DIR: list[str] = []


def keep_dir() -> str:
    """A scratch recovery directory for this test process (``run`` points RTK_TEE_DIR at it)."""
    import tempfile

    if not _KEEP_DIR:
        _KEEP_DIR.append(tempfile.mkdtemp(prefix="rtk-fixture-tee-"))
    return _KEEP_DIR[0]


def keeper(argv: list[str], raw: bytes) -> str | None:
    """tee.write into the scratch directory: under ``run`` the hint names ``rtk recall <content hash>``."""
    import os

    from rtk import tee

    old = os.environ.get("RTK_TEE_DIR")
    os.environ["RTK_TEE_DIR"] = keep_dir()
    try:
        return tee.write(argv, raw)
    finally:
        _set_tee_dir(old)


def _set_tee_dir(value: str | None) -> None:
    import os

    if value is None:
        os.environ.pop("RTK_TEE_DIR", None)
    else:
        os.environ["RTK_TEE_DIR"] = value


RUNNERS = ("test", "err", "summary")  # rtk's own runners: argv = ["rtk", runner, command...]


def spec_for(fx: Fixture) -> Spec:
    if fx.argv[0] == "rtk" and len(fx.argv) > 2 and fx.argv[1] in RUNNERS:
        from rtk.commands import _generic

        spec: Spec | None = _generic.spec_for(fx.argv[1], fx.argv[2:])
        assert spec is not None and spec.name == fx.filter, f"{fx.name}: runner spec {spec}, fixture dir {fx.filter}"
        return spec
    spec = filters.resolve(fx.argv)
    assert spec is not None, f"{fx.name}: no filter selected for {fx.argv}"
    assert spec.name == fx.filter, f"{fx.name}: argv selects filter {spec.name}, fixture dir says {fx.filter}"
    return spec


def run(fx: Fixture) -> pipeline.Outcome:
    from rtk import options

    options.ultra_compact = fx.ultra_compact
    spec = spec_for(fx)
    argv = fx.argv[2:] if fx.argv[0] == "rtk" and fx.argv[1:2] and fx.argv[1] in RUNNERS else fx.argv
    import os

    old = os.environ.get("RTK_TEE_DIR")
    os.environ["RTK_TEE_DIR"] = keep_dir()
    try:
        if spec.stream is not None:
            return pipeline.apply_stream(spec.name, spec.stream, argv, fx.raw, fx.exit_code, keeper)
        assert spec.filter is not None
        return pipeline.apply(spec.name, spec.filter, argv, fx.raw, fx.exit_code, keeper)
    finally:
        _set_tee_dir(old)


def savings(out: pipeline.Outcome) -> float:
    return tokens.savings_pct(out.raw_tokens, out.out_tokens)


def missing_facts(fx: Fixture, text: str) -> list[str]:
    missing = [f for f in fx.facts if f not in text]
    missing += [f"re:{r}" for r in fx.facts_re if not re.search(r, text, re.M)]
    return missing
