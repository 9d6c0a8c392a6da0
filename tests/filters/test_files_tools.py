"""The real tools through rtk: their own errors and exit codes survive, stdin works, data stays byte-exact."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from helpers import path_with, stub_tool

DATA = Path(__file__).parent / "data"
pytestmark = pytest.mark.integration


def need(*tools: str) -> None:
    for t in tools:
        if shutil.which(t) is None:
            pytest.skip(f"{t} is not installed")


def rtk(
    *args: str, cwd: Path | None = None, stdin: bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "rtk", *args], cwd=cwd, input=stdin, capture_output=True, check=False, timeout=60,
        env=env, stdin=None if stdin is not None else subprocess.DEVNULL,
    )  # fmt: skip


def raw(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, check=False, timeout=60, stdin=subprocess.DEVNULL)


@pytest.fixture
def tree_dir(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x = 1  # TODO one\n")
    (tmp_path / "src" / "b.py").write_text("y = 2\n")
    (tmp_path / ".env").write_text("SECRET=1\n")
    return tmp_path


@pytest.mark.parametrize(
    "argv",
    [
        ["tree", "-Z"],  # bad flag: tree's usage text, exit 1
        ["tree", "nothere"],  # exit 2
        ["find", "nothere"],  # exit 1
        ["find", ".", "-bogus"],  # unknown predicate: find's own error
        ["grep", "-n", "TODO", "nothere"],  # exit 2
        ["grep", "a\\(", "src/a.py"],  # invalid regex, exit 2
        ["grep", "--bogus", "x"],  # bad flag, exit 2
        ["grep", "-rn", "zzz_no_match", "src"],  # exit 1, no output
        ["rg", "TODO", "nothere"],
        ["rg", "("],
        ["rg", "--bogus", "x"],
        ["fdfind", "x", "nothere"],
        ["fdfind", "--bogus"],
        ["wc", "nothere"],
        ["wc", "--bogus"],
        ["diff", "nothere", "src/a.py"],
        ["diff", "--bogus", "a", "b"],
        ["env", "-u"],  # env's own usage error (exit 125)
        ["curl", "http://127.0.0.1:1/"],  # connection refused, exit 7
        ["curl", "--bogus"],
        ["wget", "http://127.0.0.1:1/x"],  # exit 4
    ],
)
def test_the_tools_error_text_and_exit_code_survive(argv: list[str], tree_dir: Path) -> None:
    need(argv[0])
    native = raw(*argv, cwd=tree_dir)
    assert native.returncode != 0
    ours = rtk(*argv, cwd=tree_dir)
    assert ours.returncode == native.returncode, (ours.stdout, ours.stderr)
    import re

    def timeless(b: bytes) -> str:  # "after 3 ms" differs from run to run
        return re.sub(r"\d+ ms", "N ms", b.decode("utf-8", "replace"))

    ours_text = timeless(ours.stdout + ours.stderr)
    for line in timeless(native.stdout + native.stderr).splitlines():
        if line.startswith("--20") or "Connecting to" in line:
            continue  # wget's timestamped request line is condensed
        if any(word in line for word in ("No such file", "Invalid", "invalid", "unrecognized", "unknown", "Unmatched",
                                         "error", "failed", "Failed", "requires an argument", "not a directory")):  # fmt: skip
            assert line.strip() in ours_text, f"{argv}: lost {line!r}\n{ours_text}"
    assert "0 matches" not in ours_text


def test_grep_error_with_matches_is_an_error(tree_dir: Path) -> None:
    need("grep")
    p = rtk("grep", "-rn", "TODO", "src", "nothere", cwd=tree_dir)
    assert p.returncode == 2
    out = p.stdout.decode()
    assert "grep: nothere: No such file or directory" in out and "TODO one" in out


@pytest.mark.parametrize("engine", ["grep", "rg"])
def test_piped_stdin_is_searched(engine: str) -> None:
    need(engine)
    data = b"alpha\nneedle one\nbeta\nneedle two\n"
    p = rtk(engine, "needle", stdin=data)
    assert p.returncode == 0
    assert b"needle one" in p.stdout and b"needle two" in p.stdout
    p = rtk(engine, "absent", stdin=data)
    assert p.returncode == 1 and p.stdout == b""


@pytest.mark.parametrize("engine", ["grep", "rg"])
def test_the_engine_called_is_the_engine_run(engine: str, tmp_path: Path) -> None:
    bindir = stub_tool(tmp_path, engine, f'echo "ran {engine} $*"')
    other = "rg" if engine == "grep" else "grep"
    stub_tool(tmp_path, other, f'echo "ran {other} $*"')
    p = rtk(engine, "x", env=dict(os.environ, PATH=path_with(bindir)))
    assert p.stdout.decode().startswith(f"ran {engine} ")


def test_env_running_a_command_is_live_and_untouched() -> None:
    p = rtk("env", "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "sh", "-c", 'echo "$GITHUB_TOKEN"; exit 3')
    assert p.returncode == 3 and p.stdout == b"ghp_abcdefghijklmnopqrstuvwxyz0123456789\n"


def test_env_listing_masks_secrets() -> None:
    p = rtk("env", "-i", "API_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "HOME=/home/dev", "PATH=/bin:/usr/bin:/bin",
            "PASSWORD=correct-horse-battery", "NOTE=a plain value that is long enough to make the summary fit")  # fmt: skip
    out = p.stdout.decode()
    assert p.returncode == 0 and "ghp_" not in out and "correct-horse" not in out
    assert "API_TOKEN=****" in out and "PASSWORD=****" in out and "HOME=/home/dev" in out


# --- curl and wget against a local server ------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("site")
    (root / "logo.png").write_bytes((DATA / "curl-png.raw").read_bytes())
    blob = bytes(range(256)) * 64 + b"\r\n\x1b[31m not text \xff\xfe"
    (root / "blob.bin").write_bytes(blob)
    (root / "list.json").write_text(
        '{\n  "items": [\n' + ",\n".join(f'    {{"id": {i}}}' for i in range(100)) + "\n  ]\n}\n"
    )
    (root / "page.html").write_text("<html>\r\n<body>\x1b[1mhi\x1b[0m</body>\r\n</html>\r\n")

    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kw: object) -> None:
            super().__init__(*args, directory=str(root), **kw)  # type: ignore[arg-type,misc]

        def log_message(self, *args: object) -> None:
            pass

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = ThreadingHTTPServer(("127.0.0.1", port), Quiet)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()


@pytest.mark.parametrize("path", ["logo.png", "blob.bin", "page.html"])
def test_curl_non_json_bodies_are_byte_exact(site: str, path: str) -> None:
    need("curl")
    native = raw("curl", "-s", f"{site}/{path}")
    p = rtk("curl", f"{site}/{path}")
    assert p.returncode == 0 and p.stdout == native.stdout and len(p.stdout) > 0


def test_curl_json_is_compacted_with_counts(site: str) -> None:
    need("curl")
    p = rtk("curl", f"{site}/list.json")
    out = p.stdout.decode()
    assert p.returncode == 0 and '{"id": 0}' in out and '{"id": 99}' in out and "more items" not in out  # whole: data
    assert p.stderr == b""  # -sS: no progress meter


def test_curl_output_file_is_untouched(site: str, tmp_path: Path) -> None:
    need("curl")
    p = rtk("curl", "-s", "-o", str(tmp_path / "x.json"), f"{site}/list.json")
    assert p.returncode == 0 and p.stdout == b""
    assert (tmp_path / "x.json").read_bytes() == raw("curl", "-s", f"{site}/list.json").stdout


def test_wget_to_stdout_binary_is_byte_exact(site: str) -> None:
    need("wget")
    p = rtk("wget", "-q", "-O", "-", f"{site}/blob.bin")
    assert p.returncode == 0 and p.stdout == raw("wget", "-q", "-O", "-", f"{site}/blob.bin").stdout


def test_curl_binary_through_a_stand_in(tmp_path: Path) -> None:
    """The real PNG capture, replayed: the bytes written are the bytes read."""
    png = DATA / "curl-png.raw"
    bindir = stub_tool(tmp_path, "curl", f"cat '{png}'")
    p = rtk("curl", "-s", "http://example.invalid/logo.png", env=dict(os.environ, PATH=path_with(bindir)))
    assert p.stdout == png.read_bytes()
