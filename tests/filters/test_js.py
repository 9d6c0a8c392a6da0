"""JS/TS filters beyond the fixtures: which invocations are filtered, live or raw, and the truth rules."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from rtk import filters
from rtk.filterapi import Unrecognized
from rtk.filters.js import reporters as _jsrunners
from rtk.filters.js import test as jstest
from rtk.filters.js import tsc

TESTS = Path(__file__).resolve().parent.parent


def kind(argv: list[str]) -> str:
    spec = filters.lookup(argv)
    if spec is None:
        return "raw"
    return f"live:{spec.name}" if spec.live else spec.name


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["tsc"], "tsc"),
        (["tsc", "--noEmit"], "tsc"),
        (["tsc", "-b"], "tsc"),
        (["tsc", "--watch"], "live:tsc"),
        (["tsc", "--showConfig"], "raw"),
        (["npx", "tsc", "--noEmit"], "tsc"),
        (["npx", "-y", "eslint", "."], "eslint"),
        (["npx", "cowsay", "hi"], "raw"),
        (["npx", "typescript@5", "tsc"], "raw"),
        (["pnpm", "exec", "vitest", "run"], "vitest"),
        (["eslint", ".", "-f", "json"], "raw"),
        (["eslint", ".", "--format=json"], "raw"),
        (["eslint", ".", "-f", "unix"], "eslint"),
        (["biome", "check", "--reporter=json"], "raw"),
        (["prettier", "src/a.ts"], "raw"),
        (["prettier", "--check", "."], "prettier"),
        (["vitest", "run"], "vitest"),
        (["vitest", "run", "--reporter=json"], "raw"),
        (["vitest", "--watch"], "live:vitest"),
        (["vitest", "watch"], "live:vitest"),
        (["jest", "--watch"], "live:jest"),
        (["jest", "--json"], "raw"),
        (["jest"], "jest"),
        (["playwright", "test"], "playwright"),
        (["playwright", "test", "--ui"], "live:playwright"),
        (["playwright", "codegen"], "live:playwright"),
        (["playwright", "test", "--reporter=json"], "raw"),
        (["node", "--test"], "node-test"),
        (["node", "--test", "--test-reporter=junit"], "raw"),
        (["node", "--watch", "--test"], "live:node-test"),
        (["node", "server.js", "--test"], "raw"),
        (["mocha", "--watch"], "live:mocha"),
        (["mocha", "--reporter", "json"], "raw"),
        (["next", "dev"], "live:next"),
        (["next", "start"], "live:next"),
        (["next", "build"], "next"),
        (["vite"], "live:vite"),
        (["vite", "dev"], "live:vite"),
        (["vite", "serve"], "live:vite"),
        (["vite", "preview"], "live:vite"),
        (["vite", "build", "--watch"], "live:vite"),
        (["vite", "build"], "vite"),
        (["prisma", "studio"], "live:prisma"),
        (["prisma", "generate"], "prisma"),
        (["prisma", "migrate", "dev"], "prisma"),
        (["npm", "install"], "npm-install"),
        (["npm", "ci"], "npm-install"),
        (["npm", "install", "--json"], "raw"),
        (["npm", "ls", "--json"], "raw"),
        (["npm", "outdated", "--json"], "raw"),
        (["npm", "run", "dev"], "live:npm-run"),
        (["npm", "start"], "live:npm-run"),
        (["npm", "run", "build", "--watch"], "live:npm-run"),
        (["pnpm", "list"], "pnpm-list"),
        (["yarn"], "yarn-install"),
        (["bun", "test", "--watch"], "live:bun-test"),
        (["bun", "test"], "bun-test"),
    ],
)
def test_what_runs_how(argv: list[str], expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no package.json around
    assert kind(argv) == expected


def test_npm_run_reads_the_script_to_decide_live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scripts = {"build": "tsc -p .", "watch-ts": "tsc --watch", "serve-it": "vite", "e2e": "vite build && vitest run"}
    (tmp_path / "package.json").write_text(json.dumps({"name": "x", "scripts": scripts}))
    sub = tmp_path / "src"
    sub.mkdir()
    monkeypatch.chdir(sub)  # npm finds package.json upward
    assert kind(["npm", "run", "build"]) == "npm-run"
    assert kind(["npm", "run", "watch-ts"]) == "live:npm-run"
    assert kind(["npm", "run", "serve-it"]) == "live:npm-run"
    assert kind(["pnpm", "e2e"]) == "pnpm-run"
    assert kind(["yarn", "watch-ts"]) == "live:yarn-run"


def test_tsc_success_is_one_line_and_failure_never_says_no_errors() -> None:
    assert tsc.check(["tsc"], "", 0) == "tsc: no errors"
    with pytest.raises(Unrecognized):
        tsc.check(["tsc"], "error TS5023: Unknown compiler option 'x'.\n", 0)  # errors but exit 0
    with pytest.raises(Unrecognized):
        tsc.check(["tsc"], "Segmentation fault\n", 1)  # failed without diagnostics
    with pytest.raises(Unrecognized):  # tsc's count and the parsed errors disagree
        tsc.check(["tsc"], "a.ts(1,1): error TS1: x\n\nFound 2 errors in 1 file.\n", 1)
    out = tsc.check(["tsc"], "error TS5023: Unknown compiler option 'x'.\n", 1)
    assert isinstance(out, str) and "TS5023: Unknown compiler option 'x'." in out


def test_test_runners_refuse_a_false_green() -> None:
    raw = (TESTS / "fixtures" / "vitest" / "run-failures.raw").read_bytes().decode()
    from rtk.text import clean

    with pytest.raises(Unrecognized):
        jstest.vitest(["vitest", "run"], clean(raw), 0)
    tap = (TESTS / "fixtures" / "node-test" / "tap-failures.raw").read_text()
    with pytest.raises(Unrecognized):
        _jsrunners.node_test(["node", "--test"], tap, 0)
    # a failing test missing from the printed failures: the counts disagree, so raw
    cut = tap.replace("not ok 3 - throws", "ok 3 - throws")
    with pytest.raises(Unrecognized):
        _jsrunners.node_test(["node", "--test"], cut, 1)


@pytest.mark.parametrize("cmd", ["test", "err", "summary"])
def test_generic_runners_bad_input_is_one_line(cmd: str) -> None:
    p = subprocess.run([*_rtk(), cmd], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "usage: rtk" in p.stderr and "Traceback" not in p.stderr
    p = subprocess.run([*_rtk(), cmd, "--"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    p = subprocess.run([*_rtk(), cmd, "rtk-no-such-tool-xyz"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 127 and "Traceback" not in p.stderr


@pytest.mark.parametrize("cmd", ["test", "err", "summary"])
def test_generic_runners_keep_the_exit_code(cmd: str, tmp_path: Path) -> None:
    script = "i=0; while [ $i -lt 80 ]; do echo line $i; i=$((i+1)); done; echo 'error: it broke'; exit 7"
    p = subprocess.run([*_rtk(), cmd, "sh", "-c", script], capture_output=True, text=True, timeout=60)
    assert p.returncode == 7
    assert "error: it broke" in p.stdout


def _rtk() -> list[str]:
    import sys

    return [sys.executable, "-m", "rtk"]


# ---------------------------------------------------------------------------
# integration: real node (skipped when node is absent)
# ---------------------------------------------------------------------------

NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_node_test_through_rtk_keeps_failures_and_exit_code(tmp_path: Path) -> None:
    (tmp_path / "a.test.mjs").write_text(
        'import { describe, it } from "node:test";\nimport assert from "node:assert/strict";\n'
        'describe("outer", () => { describe("inner", () => {\n'
        '  it("works", () => assert.equal(1, 1));\n'
        '  it("breaks", () => assert.equal(2 + 2, 5));\n'
        "}); });\n"
    )
    env = dict(os.environ)
    p = subprocess.run([*_rtk(), "node", "--test"], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "node --test: 1 failed, 1 passed" in p.stdout
    assert "outer > inner > breaks" in p.stdout
    assert "4 !== 5" in p.stdout
    p = subprocess.run(
        [*_rtk(), "test", "node", "--test"], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env
    )
    assert p.returncode == 1 and "outer > inner > breaks" in p.stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_npm_run_dev_is_live_never_buffered(tmp_path: Path) -> None:
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    # the dev script prints a readiness line, then waits for stdin: it must reach us before it exits
    script = "console.log('ready on http://localhost:3000'); process.stdin.once('data', () => process.exit(0))"
    (tmp_path / "package.json").write_text(json.dumps({"name": "x", "scripts": {"dev": f'node -e "{script}"'}}))
    p = subprocess.Popen(
        [*_rtk(), "npm", "run", "dev"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert p.stdout is not None and p.stdin is not None
    seen = ""
    try:
        while "ready on" not in seen:
            line = p.stdout.readline()
            if not line:
                break
            seen += line
        assert "ready on http://localhost:3000" in seen  # printed while the server still runs
        p.stdin.write("q\n")
        p.stdin.flush()
        assert p.wait(timeout=60) == 0
    finally:
        if p.poll() is None:
            p.kill()
