"""Hostile review 12: recovery files (crafted .log.gz, full disk), OpenCode's rules, runners, the excerpt rule."""

from __future__ import annotations

import errno
import os
import zlib
from pathlib import Path

import pytest

from rtk import tee, teefile
from rtk.commands import recall


def recall_out(capsys: pytest.CaptureFixture[bytes], *args: str) -> tuple[int, bytes, bytes]:
    try:
        code = recall.main(list(args))
    except Exception as e:  # RtkError: the CLI prints it on one line
        out = capsys.readouterr()
        return -1, out.out, str(e).encode()
    out = capsys.readouterr()
    return code, out.out, out.err


def plant(name: str, data: bytes) -> Path:
    d = Path(tee.directory())
    d.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = d / name
    path.write_bytes(data)
    path.chmod(0o600)
    return path


def member(data: bytes) -> bytes:
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    return z.compress(data) + z.flush()


# --- recovery files -------------------------------------------------------------------------------------------


def test_a_compressed_file_without_its_last_member_is_damaged_not_printed_as_compressed_bytes(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    gz = member(b"line one\nline two\n")  # a .log.gz cut short (no rtk trailer): was printed raw, gzip bytes
    plant("1764000000_make_abcdef.log.gz", gz)
    for args in (["abcdef"], ["abcdef", "--full"], ["abcdef", "--lines", "1-2"], ["abcdef", "--grep", "line"]):
        code, out, err = recall_out(capsysbinary, *args)
        assert code == -1 and b"damaged" in err, (args, code, err)
        assert b"\x1f\x8b" not in out


def test_a_crafted_compressed_file_inflates_no_more_than_the_output_it_says_it_holds(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    # A bomb: 64 MiB of zeros in member 2 of a file whose trailer says the output is 10 bytes of 2 lines.
    info = teefile.Info("ab" * 32, 10, 2, 6, tail=2)
    bomb = member(b"head\n") + member(b"\0" * (64 << 20)) + teefile.trailer(info)
    assert len(bomb) < 100_000
    plant("1764000000_make_ababab.log.gz", bomb)
    for args in (["ababab"], ["ababab", "--full"], ["ababab", "--lines", "2-"], ["ababab", "--grep", "x"]):
        code, out, err = recall_out(capsysbinary, *args)
        assert code == -1 and b"damaged" in err, (args, code, err)
        assert len(out) < 1 << 20
    # A member past the tail (or past the head when nothing was lost) is no part of an rtk file either.
    extra = member(b"a\nb\n") + member(b"\0" * (8 << 20)) + teefile.trailer(teefile.Info("cd" * 32, 4, 2, 4))
    plant("1764000001_make_cdcdcd.log.gz", extra)
    code, out, err = recall_out(capsysbinary, "cdcdcd", "--full")
    assert code == -1 and b"damaged" in err and len(out) <= 4


def test_a_corrupt_compressed_file_is_one_line_damaged(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    raw = b"".join(b"%06d %s\n" % (i, os.urandom(20).hex().encode()) for i in range(60_000))
    path = Path(tee.write(["make"], raw) or "")
    assert path.name.endswith(".log.gz")
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one byte flipped in the middle of the deflate stream
    path.write_bytes(bytes(data))
    rid = tee.content_id(str(path)) or ""
    code, _, err = recall_out(capsysbinary, rid, "--full")
    assert code == -1 and b"damaged" in err and b"\n" not in err.strip()


def test_a_full_disk_while_writing_a_plain_file_leaves_no_partial_file(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write

    def full(fd: int, data: bytes | memoryview) -> int:
        if len(data) > 10:
            real(fd, bytes(data[:10]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(os, "write", full)
    assert tee.write(["make"], b"x" * 5000 + b"\n") is None
    monkeypatch.setattr(os, "write", real)
    d = Path(tee.directory())
    assert not d.exists() or list(d.iterdir()) == []  # was a 10-byte file named for the whole output's id


def test_a_full_disk_while_spooling_changes_nothing_the_command_gets(monkeypatch: pytest.MonkeyPatch) -> None:
    real = os.write
    calls = [0]

    def full(fd: int, data: bytes | memoryview) -> int:
        calls[0] += 1
        raise OSError(errno.ENOSPC, "No space left on device")

    sp = tee.spool()
    monkeypatch.setattr(os, "write", full)
    raw = b"".join(b"%07d of the output\n" % i for i in range(200_000))
    for i in range(0, len(raw), 65536):
        sp.add(raw[i : i + 65536])
    path = tee.write(["make"], sp)
    monkeypatch.setattr(os, "write", real)
    assert calls[0] >= 1
    assert path is None
    d = Path(tee.directory())
    assert [p.name for p in d.iterdir()] == []  # the temporary file removed too


def test_a_recovery_file_of_another_user_is_not_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    path = plant("1764000000_make_abcdef.log", b"x\n")
    assert tee.regular(str(path)) is not None
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(path).st_uid + 1)  # as if someone else made it
    assert tee.regular(str(path)) is None


def test_a_failing_close_of_the_spooled_file_is_no_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    sp = tee.spool()
    raw = b"".join(b"%07d of the output\n" % i for i in range(200_000))
    for i in range(0, len(raw), 65536):
        sp.add(raw[i : i + 65536])
    assert sp.on_disk
    real, target = os.close, sp.fd
    failed: list[int] = []

    def close(fd: int) -> None:
        real(fd)
        if fd == target and not failed:
            failed.append(fd)
            raise OSError(errno.EDQUOT, "Disk quota exceeded")

    monkeypatch.setattr(os, "close", close)
    path = tee.write(["make"], sp) or ""  # OSError came out of tee.write, into the run
    assert path.endswith(".log")  # the head and tail held in memory, as when no directory takes the spool
    monkeypatch.setattr(os, "close", real)
    assert not [p for p in Path(tee.directory()).iterdir() if p.name.endswith(".tmp")]


def test_grep_reads_a_long_line_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    line = b"x" * (8 << 20) + b" needle\n"  # 8 MiB in 1 KiB pieces: each piece copied the line so far (32 GB)
    monkeypatch.setattr(recall, "_pieces", lambda path: ((1, line[i : i + 1024]) for i in range(0, len(line), 1024)))
    t = time.process_time()
    got = list(recall._numbered("unused"))
    assert time.process_time() - t < 3
    # the views hold LINE_CAP bytes of a line and name the rest (final review: a 200 MB line took 402 MB)
    assert [n for n, _ in got] == [1] and got[0][1].startswith(b"x" * recall.LINE_CAP)
    assert b" [rtk: %d more bytes of line 1: " % (len(line) - 1 - recall.LINE_CAP) in got[0][1]
    pieces = [b"a\nbb", b"b", b"\nc", b"cc\n", b"\n", b"d"]
    monkeypatch.setattr(recall, "_pieces", lambda path: ((1, p) for p in pieces))
    assert list(recall._numbered("unused")) == [(1, b"a\n"), (2, b"bbb\n"), (3, b"ccc\n"), (4, b"\n"), (5, b"d")]


# --- OpenCode's own rules -------------------------------------------------------------------------------------


def _widens(tmp_path: Path, line: str, new: str) -> str:
    from rtk.rewrite import opencodeperms

    try:
        return opencodeperms.widens([(line, new)], opencodeperms.rule_sets(str(tmp_path)))
    except opencodeperms.Broken as e:
        return f"broken: {e}"


ASK_PUSH = {"bash": {"*": "allow", "git push*": "ask"}}


def test_opencode_mode_rules_count_beside_agent_rules(tmp_path: Path) -> None:
    import json

    doc = {"agent": {"plan": {"model": "x"}}, "mode": {"build": {"permission": ASK_PUSH}}}
    (tmp_path / "opencode.json").write_text(json.dumps(doc))
    assert "ask" in _widens(tmp_path, "git push", "rtk git push")  # "mode" was not read when "agent" was there


def test_opencode_config_dir_and_managed_config_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from rtk.rewrite import opencodeperms

    proj, conf, managed = tmp_path / "proj", tmp_path / "conf", tmp_path / "managed"
    for d in (proj, conf, managed):
        d.mkdir()
    (conf / "opencode.json").write_text(json.dumps({"permission": ASK_PUSH}))
    monkeypatch.setenv("OPENCODE_CONFIG_DIR", str(conf))
    assert "ask" in _widens(proj, "git push", "rtk git push")
    monkeypatch.delenv("OPENCODE_CONFIG_DIR")
    assert _widens(proj, "git push", "rtk git push") == ""
    (managed / "opencode.jsonc").write_text('{"permission": {"bash": {"git push*": "ask",},},} // the admin\'s')
    monkeypatch.setattr(opencodeperms, "MANAGED", (str(managed),))
    assert "ask" in _widens(proj, "git push", "rtk git push")


def test_opencode_markdown_agent_with_a_permission_cannot_be_judged(tmp_path: Path) -> None:
    agents = tmp_path / ".opencode" / "agents"
    agents.mkdir(parents=True)
    (agents / "review.md").write_text("---\ndescription: reviews\nmodel: x\n---\nYou review code. permission: none\n")
    assert _widens(tmp_path, "git push", "rtk git push") == ""  # no permission in its front matter
    (agents / "deploy.md").write_text('---\ndescription: d\npermission:\n  bash:\n    "git push*": ask\n---\nDeploy.\n')
    assert _widens(tmp_path, "git push", "rtk git push").startswith("broken: ")


def test_opencode_jsonc_comments_inside_strings_stay_text(tmp_path: Path) -> None:
    (tmp_path / "opencode.jsonc").write_text('{"permission": {"bash": {"echo //x*": "allow", "git push*": "ask",}}}')
    assert "ask" in _widens(tmp_path, "git push", "rtk git push")
    (tmp_path / "opencode.jsonc").write_text('{"permission": {"bash": {"/* x */git push*": "ask"}}} /* c */')
    assert _widens(tmp_path, "git push", "rtk git push") == ""  # a literal pattern: matches no git push


# --- runners: deny rules see the program -------------------------------------------------------------------------


def _decide(line: str) -> str:
    from rtk.rewrite import engine
    from rtk.rewrite.permissions import Permissions

    allow = ["yarn:*", "pnpm:*", "ssh:*", "git:*"]
    return engine.decide(line, permissions=Permissions(allow=allow, deny=["curl:*", "rm:*"], ask=())).verdict


@pytest.mark.parametrize(
    "line",
    [
        "yarn workspace web exec curl x", "yarn workspace web run curl x", "yarn run curl x", "yarn run -B rm x",
        "yarn workspaces foreach -A exec curl x", "yarn workspaces foreach --include web -pt exec rm -rf x",
        "ssh -o X=1 host -- curl x", "ssh host -- 'rm -rf /'",
    ],
)  # fmt: skip
def test_a_denied_program_run_through_a_workspace_or_yarn_run_is_denied(line: str) -> None:
    assert _decide(line) == "deny"


@pytest.mark.parametrize(
    "line",
    ["yarn workspace web test", "yarn workspaces foreach -A run build", "yarn run build", "yarn run", "yarn workspace",
     "yarn workspaces foreach", "pnpm install", "yarn test", "pnpm --filter web test", "ssh host -- git status"],
)  # fmt: skip
def test_a_runner_own_commands_are_not_refused(line: str) -> None:
    assert _decide(line) in ("allow", "none")


# --- facts: a numbered report line is not a source excerpt -----------------------------------------------------


@pytest.mark.parametrize(
    "line",
    ["  12 | FAILED test_x", "  3 | error: build failed", " 7 | ERROR tests/test_a.py::test_b - AssertionError",
     "  2 | not ok 3 - adds", "10 | FAIL src/app.test.ts > adds", "4 | fatal: not a git repository"],
)  # fmt: skip
def test_a_numbered_failure_line_holds_its_fact(line: str) -> None:
    from rtk import facts

    assert facts.line_facts(line), line  # was read as a source excerpt: the guard never saw it


@pytest.mark.parametrize(
    "line", ["4 | except ImportError:", "18 |     sys.exit(1)", "5 | ERROR_CODE = 3", " 9 |     raise Error('failed')"]
)
def test_code_in_a_gutter_still_holds_no_fact(line: str) -> None:
    from rtk import facts

    assert facts.line_facts(line) == [], line


# --- rtk log, rtk smart: any input ------------------------------------------------------------------------------


def test_log_of_binary_input_folds_without_an_internal_error(tmp_path: Path) -> None:
    import random
    import subprocess
    import sys as _sys

    sys_path = Path(__file__).parent
    _sys.path.insert(0, str(sys_path))
    from helpers import rtk_argv

    data = random.Random(12).randbytes(300_000)  # a binary file: long "lines", a lone '-' among many tokens
    f = tmp_path / "blob.dat"
    f.write_bytes(data)
    for args, stdin in ((["log", str(f)], None), (["log"], data)):
        r = subprocess.run(rtk_argv(*args), input=stdin, capture_output=True, timeout=120)
        assert r.returncode == 0 and b"internal error" not in r.stderr, r.stderr[-300:]
        assert r.stdout


def test_a_lone_dash_past_the_catch_all_template_is_no_index_error() -> None:
    from rtk.fold import miner

    m = miner.Miner()
    other = m.other  # the template of every line past max_templates/max_children: one token
    assert miner.group_key(other, ["x", "y", "<n>"]) == (other.id, (2, "<n>"))
    # a lone '-' where a line of the same template had a number: toks[2] read past the template's one token
    assert miner.group_key(other, ["x", "y", "-"]) == (other.id,)
