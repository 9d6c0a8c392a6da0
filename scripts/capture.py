#!/usr/bin/env python3
"""Capture a real tool's output as a filter fixture.

usage: python scripts/capture.py FILTER CASE [--cwd DIR] [--note TEXT] [--stdin FILE] [--force-filter] -- COMMAND [ARGS...]

Runs COMMAND exactly as rtk would (same extra flags, environment and stream
merging as the filter's Spec), then writes

    tests/fixtures/FILTER/CASE.raw    the bytes the tool printed
    tests/fixtures/FILTER/CASE.toml   argv, exit code, how it was captured, facts

An existing CASE.toml keeps its facts; only the capture fields are refreshed.
Then fill in the facts (what the filtered output must keep) and run
``pytest tests/test_fixtures.py --update-goldens`` to write CASE.expected.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rtk import filters  # noqa: E402
from rtk.text import join  # noqa: E402


def toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def toml_list(items: list[str]) -> str:
    if not items:
        return "[]"
    return "[\n" + "".join(f"    {toml_str(i)},\n" for i in items) + "]"


def tool_version(tool: str) -> str:
    for flag in ("--version", "version", "-V"):
        try:
            p = subprocess.run([tool, flag], capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            continue
        text = (p.stdout or p.stderr).strip().splitlines()
        if p.returncode == 0 and text:
            return text[0].strip()
    return "version unknown"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("filter")
    ap.add_argument("case")
    ap.add_argument("--cwd", default=".")
    ap.add_argument("--note", default="", help="how the input state was made (script, scenario)")
    ap.add_argument("--stdin", default=None, help="a file given to the command as its standard input")
    ap.add_argument("--force-filter", action="store_true", help="capture even if the command maps to another filter")
    args = sys.argv[1:]
    if "--" not in args:
        ap.error("give the command after --")
    cut = args.index("--")
    ns = ap.parse_args(args[:cut])
    argv = args[cut + 1 :]
    if not argv:
        ap.error("give the command after --")
    runner = argv[1] if argv[0] == "rtk" and len(argv) > 2 and argv[1] in ("test", "err", "summary") else None
    if runner:  # rtk's own runners: capture the command they run, as they run it
        from rtk.commands import _generic

        spec = _generic.spec_for(runner, argv[2:])
    else:
        spec = filters.resolve(argv)
    name = spec.name if spec else "(no filter)"
    if name != ns.filter and not ns.force_filter:
        print(f"capture: {join(argv)} maps to filter {name}, not {ns.filter} (use --force-filter)", file=sys.stderr)
        return 2
    run_argv = (spec.run_argv if spec and spec.run_argv else None) or (argv[2:] if runner else argv)
    env = dict(os.environ)
    if spec and spec.env:
        env.update(spec.env)
    merge = spec.merge_stderr if spec else True
    p = subprocess.run(
        run_argv,
        cwd=ns.cwd,
        env=env,
        stdin=open(ns.stdin, "rb") if ns.stdin else subprocess.DEVNULL,  # noqa: SIM115
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merge else None,
        timeout=600,
    )
    out_dir = ROOT / "tests" / "fixtures" / ns.filter
    out_dir.mkdir(parents=True, exist_ok=True)
    raw_path = out_dir / f"{ns.case}.raw"
    meta_path = out_dir / f"{ns.case}.toml"
    raw_path.write_bytes(p.stdout)
    old: dict[str, object] = {}
    if meta_path.exists():
        old = tomllib.loads(meta_path.read_text(encoding="utf-8"))
    env_note = " ".join(f"{k}={v}" for k, v in (spec.env or {}).items()) if spec else ""
    captured = (
        f"{datetime.date.today().isoformat()}: {(env_note + ' ') if env_note else ''}{join(run_argv)}"
        f" ({tool_version(run_argv[0])})"
        + (f" < {os.path.basename(ns.stdin)}" if ns.stdin else "")
        + (f"; {ns.note}" if ns.note else "")
    )
    lines = [
        "# Real output captured by scripts/capture.py; facts are what the filtered output must keep.",
        "argv = [" + ", ".join(toml_str(a) for a in argv) + "]",
        f"exit_code = {p.returncode}",
        f"captured = {toml_str(captured)}",
        f"min_savings = {old.get('min_savings', 0)}",
        f"facts = {toml_list(list(old.get('facts', [])))}",  # type: ignore[call-overload]
    ]
    for key in ("facts_re", "absent"):
        if old.get(key):
            lines.append(f"{key} = {toml_list(list(old[key]))}")  # type: ignore[call-overload]
    for key in ("mode", "notes"):
        if key in old:
            lines.append(f"{key} = {toml_str(str(old[key]))}")
    if old.get("ultra_compact"):
        lines.append("ultra_compact = true")
    meta_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {raw_path.relative_to(ROOT)} ({len(p.stdout)} bytes, exit {p.returncode}) and {meta_path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
