"""Requirements from user-lessons.md and the README, each checked by what rtk does (content and exit codes)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from rtk.commands import read
from rtk.rewrite import engine


def _recorded() -> tuple[int, int]:
    from rtk import tracking

    fields = Path(tracking.pending_path()).read_text().strip().split("\n")[-1].split("\t")
    return int(fields[6]), int(fields[7])


def _read(args: list[str], cwd: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> tuple[int, bytes]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        code = read.main(args)
    finally:
        os.chdir(old)
    return code, capfdbinary.readouterr().out


# 15: savings are measured against what the raw command would have printed.
def test_read_n_is_measured_against_cat_n(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    # `cat -n f` is rewritten to `rtk read -n f`, which prints the same bytes: 0 saved, not a negative saving
    # from counting the file without its line numbers as the raw side.
    (tmp_path / "f.c").write_bytes(b"int main() {\n  return 0;\n}\n")
    code, out = _read(["-n", "f.c"], tmp_path, capfdbinary)
    assert code == 0 and out == b"     1\tint main() {\n     2\t  return 0;\n     3\t}\n"
    raw, shown = _recorded()
    assert raw == shown and raw > 0


def test_read_n_with_a_level_counts_numbered_raw(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    body = "".join(f"# comment {i}\nx{i} = {i}\n" for i in range(20))
    (tmp_path / "m.py").write_text(body)
    code, out = _read(["-n", "--level", "minimal", "m.py"], tmp_path, capfdbinary)
    assert code == 0 and b"# comment" not in out and b"    40\tx19 = 19\n" in out
    raw, shown = _recorded()
    from rtk import tokens

    numbered = "".join(f"{n:6d}\t{line}\n" for n, line in enumerate(body.splitlines(), 1))
    assert abs(raw - tokens.estimate_shaped(numbered)) <= 1 and raw > shown


# 5: a producer is rewritten only when every consumer is display-only and nothing goes to a file.
@pytest.mark.parametrize(
    "line",
    ["grep -rn foo . | wc -l", "git log > out.txt", "ls | sort", "git log |& head", "cat a.txt > b", "echo $((1+2))"],
)
def test_machine_consumers_and_redirects_stay_raw(line: str) -> None:
    assert engine.rewrite(line) is None


def test_display_consumer_gets_the_rewritten_producer() -> None:
    assert engine.rewrite("git log | head") == "rtk git log | head"


# 13: cat/head/tail rewrites are exact windows; forms rtk does not model stay raw.
@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("head -n 5 l.txt", "rtk read l.txt --head-lines 5"),
        ("tail -5 l.txt", "rtk read l.txt --tail-lines 5"),
        ("cat -n f.c", "rtk read -n f.c"),
        ("head -c 5 l.txt", None),
        ("cat -A f.c", None),
        ("head -n -5 l.txt", None),
        ("tail -n +5 l.txt", None),
    ],
)
def test_cat_head_tail_rewrites(line: str, want: str | None) -> None:
    assert engine.rewrite(line) == want


def test_read_windows_and_code_are_byte_exact(tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    data = b'int main() {\n  char *s = "/* not a comment";\n}\r\n\xff\xfe bad\n\n\nlast no newline'
    (tmp_path / "f.c").write_bytes(data)
    assert _read(["f.c"], tmp_path, capfdbinary) == (0, data)
    lines = data.splitlines(keepends=True)
    assert _read(["f.c", "--head-lines", "2"], tmp_path, capfdbinary) == (0, b"".join(lines[:2]))
    assert _read(["f.c", "--tail-lines", "3"], tmp_path, capfdbinary) == (0, b"".join(lines[-3:]))


# 22: every instructions text rtk init writes states the coverage boundary (built-in tools bypass the hook).
def test_every_instructions_text_states_the_coverage_boundary() -> None:
    from rtk.agents import registry

    texts = [registry.awareness(), registry.awareness(shared=True), registry.agents_md(), registry.rules_text()]
    for text in texts:
        assert "Built-in read/search tools do not go through rtk; for big listings prefer the shell." in text


# 11: an explicit format flag gets the raw output (git show -p as git log -p).
def test_git_show_with_explicit_patch_flag_is_raw(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b"}
    env |= {"GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b"}

    def git(*args: str) -> bytes:
        return subprocess.run(["git", *args], cwd=tmp_path, env=env, capture_output=True, check=True).stdout

    git("init", "-q")
    (tmp_path / "f.txt").write_text("".join(f"{i}\n" for i in range(30)))
    git("add", "f.txt")
    git("commit", "-qm", "one")
    (tmp_path / "f.txt").write_text("".join(f"{i}\n" if i != 15 else "fifteen\n" for i in range(30)))
    git("commit", "-qam", "two")
    for flags in (["show", "-p", "HEAD"], ["show", "--patch"], ["log", "-p", "-1"]):
        rtk = [sys.executable, "-m", "rtk", "git", *flags]
        got = subprocess.run(rtk, cwd=tmp_path, env=env, capture_output=True)
        assert got.returncode == 0 and got.stdout == git(*flags), flags
        assert b" 16\n 17\n 18\n" in got.stdout


def _git_repo(tmp_path: Path) -> tuple[dict[str, str], Callable[..., bytes]]:
    """A repository whose last commit changes line 15 of 30, then a working-tree change to line 5."""
    import subprocess

    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b"}
    env |= {"GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@b", "GIT_CONFIG_GLOBAL": os.devnull}

    def git(*args: str) -> bytes:
        return subprocess.run(["git", *args], cwd=tmp_path, env=env, capture_output=True, check=True).stdout

    git("init", "-q")
    (tmp_path / "f.txt").write_text("".join(f"line {i}\n" for i in range(30)))
    git("add", "f.txt")
    git("commit", "-qm", "one")
    (tmp_path / "f.txt").write_text("".join(f"line {i}\n" if i != 15 else "fifteen\n" for i in range(30)))
    git("commit", "-qam", "two")
    return env, git


# 11: git diff -p/-u/--patch and git stash show -p are the user's format choice: raw, as git log -p.
def test_git_diff_and_stash_show_with_explicit_patch_flag_are_raw(tmp_path: Path) -> None:
    import subprocess
    import sys

    env, git = _git_repo(tmp_path)
    (tmp_path / "f.txt").write_text("".join({5: "five\n", 15: "fifteen\n"}.get(i, f"line {i}\n") for i in range(30)))
    for flags in (["diff", "-p"], ["diff", "-u"], ["diff", "--patch"], ["diff", "-p", "HEAD~1"]):
        got = subprocess.run([sys.executable, "-m", "rtk", "git", *flags], cwd=tmp_path, env=env, capture_output=True)
        assert got.returncode == 0 and got.stdout == git(*flags), flags
        assert got.stdout.startswith(b"diff --git a/f.txt b/f.txt\n"), flags
    git("stash", "-q")
    for flags in (["stash", "show", "-p"], ["stash", "show", "--patch", "stash@{0}"]):
        got = subprocess.run([sys.executable, "-m", "rtk", "git", *flags], cwd=tmp_path, env=env, capture_output=True)
        assert got.returncode == 0 and got.stdout == git(*flags), flags
        assert b"+five\n" in got.stdout


# 1: never cut diff hunk content: the context after a hunk's last change stays (the @@ counts include it).
def test_git_diff_and_show_keep_every_hunk_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    env, git = _git_repo(tmp_path)
    (tmp_path / "f.txt").write_text("".join({5: "five\n", 15: "fifteen\n"}.get(i, f"line {i}\n") for i in range(30)))
    for flags, change in ((["diff"], "-line 5\n+five\n"), (["show"], "-line 15\n+fifteen\n")):
        got = subprocess.run([sys.executable, "-m", "rtk", "git", *flags], cwd=tmp_path, env=env, capture_output=True)
        raw = git(*flags).decode()
        hunk = raw[raw.index("@@ ") :]  # the one hunk, whole: header, 3 context lines, the change, 3 more
        assert hunk.count("\n") == 1 + 3 + 2 + 3 and change in hunk, flags
        assert got.returncode == 0 and hunk in got.stdout.decode(), (flags, got.stdout)


def _rtk(args: list[str], cwd: Path) -> tuple[int, str, str]:
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "rtk", *args], cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# 4: the child's exact exit code; an engine error (grep exit 2) is an error, never "0 matches".
def test_grep_engine_error_keeps_exit_2_and_its_message(tmp_path: Path) -> None:
    code, out, err = _rtk(["grep", "foo", "missing.txt"], tmp_path)
    assert code == 2 and "missing.txt" in out + err and "0 match" not in out + err


# 5/13: `cmd 2>/dev/null` is rewritten to `rtk cmd 2>/dev/null`; the stderr the user discarded stays discarded
# (rtk merged the child's stderr into its stdout, so the errors came back on stdout).
def test_stderr_sent_to_dev_null_stays_away(tmp_path: Path) -> None:
    import subprocess
    import sys

    assert engine.rewrite("grep -r foo . 2>/dev/null") == "rtk grep -r foo . 2>/dev/null"
    (tmp_path / "g.txt").write_text("foo here\n")
    argv = [sys.executable, "-m", "rtk", "grep", "foo", "missing.txt", "g.txt"]
    p = subprocess.run(argv, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    native = subprocess.run(argv[3:], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert (p.returncode, p.stdout) == (native.returncode, native.stdout) == (2, "g.txt:foo here\n")
    script = "echo out; echo err >&2; exit 3"
    p = subprocess.run([*argv[:3], "run", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert (p.returncode, p.stdout) == (3, "out\n")
    p = subprocess.run([*argv[:3], "run", "-c", script], capture_output=True, text=True)  # not discarded: kept
    assert p.returncode == 3 and "err" in p.stdout + p.stderr


def test_missing_tool_is_127(tmp_path: Path) -> None:
    code, _, err = _rtk(["no-such-tool-xyz"], tmp_path)
    assert code == 127 and "no-such-tool-xyz" in err


# 12: dotfiles the native command lists are listed.
def test_ls_a_and_find_keep_dotfiles(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("X=1\n")
    (tmp_path / "a.py").write_text("")
    assert ".env" in _rtk(["ls", "-A"], tmp_path)[1].split()
    code, out, _ = _rtk(["find", ".", "-type", "f"], tmp_path)
    assert code == 0 and "./.env" in out.split() and "./a.py" in out.split()
