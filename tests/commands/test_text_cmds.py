"""rtk json, deps, log and smart on real inputs: goldens, values kept, one-line errors, tracking."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rtk.commands import deps, json_cmd, log, smart

INPUTS = Path(__file__).parent / "inputs"
EXPECTED = Path(__file__).parent / "expected"


def call(main: object, args: list[str], capfd: pytest.CaptureFixture[str], cwd: Path = INPUTS) -> tuple[int, str, str]:
    from rtk.errors import guarded

    old = os.getcwd()
    os.chdir(cwd)
    try:
        code = guarded(lambda: int(main(args)))  # type: ignore[operator]
    finally:
        os.chdir(old)
    out, err = capfd.readouterr()
    return code, out, err


REPO = str(Path(__file__).resolve().parents[2])


def golden(name: str, text: str, update: bool) -> None:
    path = EXPECTED / name
    text = text.replace(REPO, "<repo>")  # recovery hints may name input files by absolute path
    if update:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"differs from {path.name} (--update-goldens to accept)"


def rtk(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "rtk", *args], input=stdin, capture_output=True, check=False)


@pytest.mark.parametrize("cmd", ["json", "deps", "log", "smart", "read"])
def test_help_and_unknown_flag(cmd: str) -> None:
    p = rtk(cmd, "--help")
    assert p.returncode == 0 and p.stdout.startswith(f"usage: rtk {cmd}".encode())
    p = rtk(cmd, "--no-such-flag")
    assert (
        p.returncode == 2 and p.stderr == f"rtk: {cmd}: unknown option --no-such-flag (see rtk {cmd} --help)\n".encode()
    )


# --- json ----------------------------------------------------------------------------------


def test_json_compact_view_keeps_values(capfd: pytest.CaptureFixture[str], update_goldens: bool) -> None:
    code, out, err = call(json_cmd.main, ["users.json"], capfd)
    assert code == 0 and err == ""
    golden("users.json.view", out, update_goldens)
    for v in ('"version": 2', '"email": "dev@example.com"', '"roles": ["admin", "ops"]', '"name": "user30"',
              '"note": "ünïcødé ✓ 数据"', '"deeper": "value"', '"name": "user80"'):  # fmt: skip
        assert v in out  # whole under limits.json_budget (the 80 users were cut at 30)
    assert "more items" not in out and "[rtk] full output" not in out


def test_json_depth_and_keys_only(capfd: pytest.CaptureFixture[str], update_goldens: bool) -> None:
    _, out, _ = call(json_cmd.main, ["-d", "2", "users.json"], capfd)
    assert '"theme": {…2 keys}' in out and '"owner": {"name": "Dev"' in out
    code, out, _ = call(json_cmd.main, ["--keys-only", "users.json"], capfd)
    assert code == 0
    golden("users.json.keys", out, update_goldens)
    assert "users[80]: {id, name, active, tags[2]}" in out and "dev@example.com" not in out


def test_json_numbers_as_written_and_bom(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "n.json"
    f.write_bytes(
        b'\xef\xbb\xbf{\n  "price": 1.10,\n  "big": 12345678901234567890,\n  "exp": 1e400,\n  "list": [\n    1,\n    2\n  ]\n}\n'
    )
    code, out, _ = call(json_cmd.main, [str(f)], capfd)
    assert code == 0
    assert out == '{"price": 1.10, "big": 12345678901234567890, "exp": 1e400, "list": [1, 2]}\n'


def test_json_small_file_prints_exact_bytes(capfd: pytest.CaptureFixture[str]) -> None:
    _, out, _ = call(json_cmd.main, ["bom.json"], capfd)
    assert out.encode() == (INPUTS / "bom.json").read_bytes()  # the view is not smaller: the file as is


def test_json_invalid_is_one_line_error(capfd: pytest.CaptureFixture[str]) -> None:
    code, out, err = call(json_cmd.main, ["broken.json"], capfd)
    assert code == 1 and out == ""
    assert err == "rtk: json: broken.json: not valid JSON at line 2 column 1: Expecting value\n"
    code, _, err = call(json_cmd.main, ["nope.json"], capfd)
    assert code == 1 and err == "rtk: json: nope.json: No such file or directory\n"


def test_json_stdin() -> None:
    p = rtk("json", "-", stdin=b'{\n  "a": [\n    1,\n    2,\n    3\n  ],\n  "b": {\n    "c": "d"\n  }\n}\n')
    assert p.returncode == 0 and p.stdout == b'{"a": [1, 2, 3], "b": {"c": "d"}}\n'


# --- deps ----------------------------------------------------------------------------------


def test_deps_polyglot(capfd: pytest.CaptureFixture[str], update_goldens: bool) -> None:
    code, out, err = call(deps.main, ["polyglot"], capfd)
    assert code == 0 and err == ""
    golden("polyglot.deps", out, update_goldens)
    for fact in ("serde 1.0 [derive]", "local-util (path ../util)", "dev-dependencies (1): proptest 1.4", "web-client@1.4.0",
                 "@types/react ^18.2.0", "pydantic>=2,<3", "optional [test] (2): pytest>=7, hypothesis", "group dev (2): ruff, mypy",
                 "-e ./libs/local", "github.com/spf13/cobra v1.8.0", "indirect (1): github.com/inconshreveable/mousetrap v1.1.0",
                 "rails ~> 7.1", "puma >= 6", "group development, test (2): rspec-rails, rubocop (require: false)"):  # fmt: skip
        assert fact in out


def test_deps_single_manifest_and_errors(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    code, out, _ = call(deps.main, ["polyglot/go.mod"], capfd)
    assert code == 0 and out.startswith("polyglot/go.mod: example.com/worker (go 1.22)\n")
    code, out, err = call(deps.main, [str(tmp_path)], capfd)
    assert code == 1 and err.startswith(f"rtk: deps: no dependency manifest in {tmp_path}")
    bad = tmp_path / "Cargo.toml"
    bad.write_text("[package\nname = 1\n")
    (tmp_path / "package.json").write_text('{"name": "x", "version": "1.0.0", "dependencies": {"a": "1"}}')
    code, out, _ = call(deps.main, [str(tmp_path)], capfd)
    assert code == 1
    assert f"{tmp_path}/Cargo.toml: cannot parse (TOMLDecodeError" in out
    assert "package.json: x@1.0.0\n  dependencies (1): a 1\n" in out


# --- log -----------------------------------------------------------------------------------


def test_log_dedups_and_summarises(capfd: pytest.CaptureFixture[str], update_goldens: bool) -> None:
    code, out, err = call(log.main, ["app.log"], capfd)
    assert code == 0 and err == ""
    golden("app.log.view", out, update_goldens)
    # folded since issue 15: one kind of line shown once with its exact count and range; errors whole
    assert out.startswith("52 lines, 1 kind; errors: 5 (first at line 15); warnings: 5\n")
    assert "2026-11-22T10:01:00Z INFO request served path=/api/users status=200\n" in out
    assert "… 38 more like: <time> INFO request served path=/api/users status=200  (lines 2-46)\n" in out
    assert out.count("ERROR db: connection refused (host=db port=5432)") == 3
    assert out.count("WARN slow query took 1200ms") == 5
    assert "ValueError: bad" in out


def test_log_caps_other_lines_but_never_errors(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    lines = [f"info line {i}" for i in range(300)] + ["ERROR boom"]
    f = tmp_path / "x.log"
    f.write_text("\n".join(lines) + "\n")
    _, out, _ = call(log.main, [str(f)], capfd)
    assert "ERROR boom" in out and "info line 0\n" in out and "info line 199" not in out
    assert "… 294 more like: info line <n>  (lines 2-295)\ninfo line 295\n" in out and f"[rtk] full output: {f}" in out


def test_log_stdin() -> None:
    p = rtk("log", stdin=b"same line\n" * 12 + b"other\n")  # folding would not be shorter: as it is
    assert p.returncode == 0 and p.stdout == b"same line\n" * 12 + b"other\n"
    p = rtk("log", stdin=b"same line\n" * 200 + b"other\n")
    out = "201 lines, 1 kind; no error lines\nsame line\n… 195 more like: same line  (lines 2-196)\n"
    assert p.returncode == 0 and p.stdout.decode().startswith(out + "same line\n" * 4 + "other\n[rtk] full output: ")


# --- smart ---------------------------------------------------------------------------------


SOURCES = [
    "service.py",
    "index.ts",
    "util.js",
    "lib.rs",
    "main.go",
    "util.c",
    "app.rb",
    "deploy.sh",
    "schema.sql",
    "cjk.md",
    "logo.png",
]


def test_smart_two_lines(tmp_path: Path, capfd: pytest.CaptureFixture[str], update_goldens: bool) -> None:
    d = tmp_path / "in"
    shutil.copytree(INPUTS, d)
    (d / "service.py.in").rename(d / "service.py")
    outs = []
    for name in SOURCES:
        code, out, err = call(smart.main, [name], capfd, d)
        assert code == 0 and err == "" and out.count("\n") == 2, name
        outs.append(out)
    golden("smart.txt", "".join(outs), update_goldens)
    text = "".join(outs)
    assert "service.py: Python source, 50 lines - Order service: loads orders and computes totals." in text
    assert "defines 1 class: Order; 2 defs: load, report | imports __future__, json, os, dataclasses" in text
    assert "logo.png: PNG image, 33 bytes" in text


def test_smart_errors(capfd: pytest.CaptureFixture[str]) -> None:
    code, _, err = call(smart.main, ["nope.py"], capfd)
    assert code == 1 and err == "rtk: smart: nope.py: No such file or directory\n"
    code, _, err = call(smart.main, [], capfd)
    assert code == 1 and err == "rtk: smart: give one file\n"


def test_json_nested_too_deeply_to_decode_is_a_one_line_error() -> None:
    p = rtk("json", stdin=b"[" * 100_000 + b"]" * 100_000)
    assert p.returncode == 1 and p.stdout == b""
    assert p.stderr == b"rtk: json: -: JSON nested too deeply to read\n"


@pytest.mark.parametrize("args", [[], ["--keys-only"]])
def test_json_nested_deeper_than_the_view_prints_the_document(args: list[str]) -> None:
    """Python decodes 900 levels; the views recurse once more per level: the document is printed as it is."""
    doc = b'{"a":' * 900 + b"1" + b"}" * 900 + b"\n"
    p = rtk("json", *args, stdin=doc)
    assert p.returncode == 0 and b"Traceback" not in p.stderr and b"internal error" not in p.stderr, p.stderr
    assert p.stdout.startswith(b'{"a":{"a":') and p.stdout.rstrip(b"\n").endswith(b"1" + b"}" * 900), p.stdout[-50:]
