"""git argv handling (which invocations are filtered, which run raw or live) and parser edge cases."""

from __future__ import annotations

import re

import pytest

from fixturelib import FIXTURES, load, run
from rtk import filters
from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.git import diff as _gitdiff
from rtk.filters.git import diffstat as _gitstat
from rtk.filters.git import listing as _gitlisting
from rtk.filters.git import log as _gitlog
from rtk.filters.git import ops as _gitops
from rtk.filters.git import stream as _gitstream
from rtk.filters.git.status import _keyed
from rtk.filters.git.status import status as git_status


def spec(*argv: str) -> Spec | None:
    return filters.lookup(["git", *argv])


def name(*argv: str) -> str | None:
    s = spec(*argv)
    if s is None:
        return None
    return s.name + (" live" if s.live else "")


# ---------------------------------------------------------------------------
# dispatch
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["status"], "git-status"),
        (["log"], "git-log"),
        (["show"], "git-show"),
        (["diff"], "git-diff"),
        (["add", "."], "git-add"),
        (["commit", "-m", "x"], "git-commit"),
        (["push"], "git-push"),
        (["pull"], "git-pull"),
        (["fetch"], "git-fetch"),
        (["branch"], "git-branch"),
        (["stash", "list"], "git-stash-list"),
        (["stash", "show"], "git-stash-show"),
        (["stash", "pop"], "git-stash-apply"),
        (["stash", "apply", "stash@{1}"], "git-stash-apply"),
        (["worktree", "list"], "git-worktree-list"),
        (["checkout", "main"], "git-checkout"),
        (["-C", "/tmp/x", "--no-pager", "diff"], "git-diff"),
        (["-c", "color.ui=always", "log", "-n", "3"], "git-log"),
    ],
)
def test_filtered_subcommands(argv: list[str], expected: str) -> None:
    assert name(*argv) == expected


@pytest.mark.parametrize(
    "sub",
    [
        "rebase",
        "merge",
        "reset",
        "tag",
        "remote",
        "clone",
        "cherry-pick",
        "revert",
        "switch",
        "restore",
        "blame",
        "grep",
    ],
)
def test_other_subcommands_pass_through(sub: str) -> None:
    assert spec(sub) is None


def test_parsed_output_runs_in_english() -> None:
    for argv in (["log"], ["diff"], ["show"], ["push"], ["commit", "-m", "x"], ["branch"], ["checkout", "x"]):
        s = spec(*argv)
        assert s is not None and s.env == {"LC_ALL": "C", "LANGUAGE": ""}, argv


def test_status_runs_in_english_from_its_own_module() -> None:
    s = spec("status")
    assert s is not None and s.env == {"LC_ALL": "C", "LANGUAGE": ""}
    assert s.filter is git_status and git_status.__module__ == "rtk.filters.git.status"


@pytest.mark.parametrize(
    "argv",
    [
        ["git"], ["git", "status"], ["git", "status", "-s"], ["git", ""], ["git", "log", "-C", "x"], ["git", "x=y"],
        ["git", "-C", "d", "status"], ["git", "--no-pager", "diff"], ["git", "-p", "log"], ["git", "--git-dir=x", "log"],
        ["git", "-c", "a=b"], ["git", "--version"],
    ],
)  # fmt: skip
def test_split_global_agrees_with_the_argv_scanner(argv: list[str]) -> None:
    """The dispatcher skips the scanner when the word after ``git`` is not an option: same answer."""
    from rtk.filters import git
    from rtk.filters.argv import first_word

    assert all(o.startswith("-") for o in git._GLOBAL_WITH_VALUE | git._GLOBAL_FLAGS)
    i = first_word(argv, git._GLOBAL_WITH_VALUE, git._GLOBAL_FLAGS, start=1)
    want = None if i is None else (argv[1:], None, []) if i >= len(argv) else (argv[1:i], argv[i], argv[i + 1 :])
    assert git.split_global(argv) == want


# ---------------------------------------------------------------------------
# log
# ---------------------------------------------------------------------------

LOG_RAW = [
    "--oneline", "--format=%h %s", "--pretty", "--pretty=oneline", "--pretty=format:%H", "-p", "-u", "--patch",
    "--stat", "--stat=120", "--numstat", "--shortstat", "--dirstat", "--name-only", "--name-status", "--raw",
    "--graph", "--word-diff", "--color-words", "-z", "--show-signature", "--parents", "--children", "--left-right",
    "--boundary", "--source", "-L1,5:README.md", "-U5", "-W", "--cc", "-c", "-m", "-g", "--walk-reflogs",
    "--patch-with-stat", "--summary", "--compact-summary", "--check", "--help", "-h", "--cherry-mark",
]  # fmt: skip
LOG_FILTERED = [
    [], ["-n", "5"], ["-5"], ["-n5"], ["--max-count=5"], ["--merges"], ["--no-merges"], ["--first-parent"],
    ["--author=Ana"], ["--grep=-p"], ["-S-p"], ["-Gfoo"], ["--since=2.weeks"], ["--all"], ["main..feature"],
    ["--follow", "--", "README.md"], ["--", "-p"], ["--date=iso"], ["--reverse"], ["--decorate=full"],
]  # fmt: skip


@pytest.mark.parametrize("flag", LOG_RAW)
def test_log_format_flags_run_raw(flag: str) -> None:
    assert spec("log", flag) is None


@pytest.mark.parametrize("args", LOG_FILTERED)
def test_log_selection_flags_are_filtered(args: list[str]) -> None:
    assert name("log", *args) == "git-log"


def test_log_adds_decorate_after_the_subcommand_unless_chosen() -> None:
    s = spec("-C", "/r", "log", "-n", "3")
    assert s is not None and s.run_argv == ["git", "-C", "/r", "log", "--decorate", "-n", "3"]
    for chosen in ("--decorate", "--no-decorate", "--decorate=full"):
        s = spec("log", chosen)
        assert s is not None and s.run_argv is None


def test_log_graph_is_raw() -> None:
    # --graph draws the topology; its drawing characters are the information: shown as git prints it
    assert spec("log", "--graph", "--all") is None


# ---------------------------------------------------------------------------
# show
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["HEAD:README.md"], ["v1.0:docs/"], [":README.md"], ["--stat"], ["--name-only"], ["--format=%H"], ["--oneline"],
     ["-m"], ["--word-diff"], ["--help"], ["--pretty=raw", "HEAD"], ["-p"], ["-u", "HEAD"], ["--patch"]],
)  # fmt: skip
def test_show_raw(args: list[str]) -> None:
    assert spec("show", *args) is None


def test_show_filtered_and_context_flags() -> None:
    # every hunk is kept whole, so a context flag (-U5, -W) needs no filter of its own
    for args in ([], ["HEAD"], ["-s"], ["--no-patch"], ["--cc", "HEAD"], ["v1.0"], ["HEAD", "--", "a:b"],
                 ["-U5"], ["--unified=1"], ["-W"], ["--function-context"]):  # fmt: skip
        s = spec("show", *args)
        assert s is not None and s.filter is _gitlog.show, args


def test_show_blob_output_is_shown_raw() -> None:
    assert _gitlog.show(["git", "show", "abc123"], "just a file\nwith lines\n", 0) is None


# ---------------------------------------------------------------------------
# diff
# ---------------------------------------------------------------------------

DIFF_RAW = [
    "--stat", "--numstat", "--shortstat", "--dirstat=files", "--summary", "--name-only", "--name-status", "--raw",
    "--word-diff", "--word-diff=color", "--color-words", "-z", "--check", "--binary", "--patch-with-stat",
    "--compact-summary", "--no-prefix", "--src-prefix=x/", "--line-prefix=>", "--output=f", "--help", "-h",
    "-p", "-u", "--patch", "-pR", "-Rp",
]  # fmt: skip


@pytest.mark.parametrize("flag", DIFF_RAW)
def test_diff_format_flags_run_raw(flag: str) -> None:
    assert spec("diff", flag) is None


def test_diff_filtered_and_context_flags() -> None:
    # every hunk is kept whole, so a context flag (-U5, -W) needs no filter of its own
    for args in ([], ["--cached"], ["--staged"], ["HEAD~1"], ["a..b"], ["--", "src/"], ["--exit-code"], ["-w"], ["-M"],
                 ["--no-index", "a", "b"], ["--", "--stat"], ["-R"], ["--color=always"], ["--", "-p"], ["-Sup"],
                 ["-U5"], ["-U", "5"], ["--unified=0"], ["-W"], ["--function-context"], ["--inter-hunk-context=3"]):  # fmt: skip
        s = spec("diff", *args)
        assert s is not None and s.filter is _gitdiff.diff, args


# ---------------------------------------------------------------------------
# commit: editor -> live, message given -> streamed, status formats -> raw
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [["-m", "x"], ["-am", "x"], ["-amx"], ["-a", "-m", "x"], ["--message=x"], ["--message", "x"], ["-F", "msg.txt"],
     ["--file=msg.txt"], ["--amend", "--no-edit"], ["-C", "HEAD"], ["--reuse-message=HEAD"], ["--fixup=abc"],
     ["--fixup", "abc"], ["--squash=abc", "-m", "x"], ["-m", "-e"], ["-m", "x", "-S"], ["-sm", "x"], ["-v", "-m", "x"],
     ["-m", "x", "--", "-e"], ["--allow-empty", "-m", "x"]],
)  # fmt: skip
def test_commit_with_a_message_streams(args: list[str]) -> None:
    s = spec("commit", *args)
    assert s is not None and s.stream is _gitstream.Commit and not s.live, args


@pytest.mark.parametrize(
    "args",
    [[], ["-a"], ["--amend"], ["-e", "-m", "x"], ["-m", "x", "--edit"], ["-c", "HEAD"], ["--reedit-message=HEAD"],
     ["--fixup=amend:HEAD"], ["--fixup=reword:HEAD"], ["-p", "-m", "x"], ["--patch"], ["--interactive"],
     ["-t", "tmpl"], ["--squash=abc"]],
)  # fmt: skip
def test_commit_that_opens_an_editor_runs_live(args: list[str]) -> None:
    s = spec("commit", *args)
    assert s is not None and s.live, args
    assert s.env is None  # the editor keeps the user's locale


@pytest.mark.parametrize("flag", ["--dry-run", "--short", "--porcelain", "--long", "-z", "--help", "-h"])
def test_commit_status_formats_run_raw(flag: str) -> None:
    assert spec("commit", "-m", "x", flag) is None


# ---------------------------------------------------------------------------
# push / pull / fetch
# ---------------------------------------------------------------------------


def test_remote_commands_stream() -> None:
    for sub, cls in (("push", _gitstream.Push), ("pull", _gitstream.Pull), ("fetch", _gitstream.Fetch)):
        s = spec(sub, "origin", "main")
        assert s is not None and s.stream is cls
    for argv in (["push", "--porcelain"], ["push", "-n"], ["push", "--dry-run"], ["fetch", "--porcelain"],
                 ["fetch", "--dry-run"], ["pull", "--dry-run"], ["push", "--help"], ["pull", "-h"]):  # fmt: skip
        assert spec(*argv) is None, argv


def feed(cls: type[_gitstream.LineFilter], lines: list[str], code: int) -> tuple[list[str], str]:
    f = cls(["git"])
    shown = [r for ln in lines if (r := f.feed(ln)) is not None]
    return shown, f.finish(code)


def test_push_success_needs_exit_zero() -> None:
    lines = ["To /srv/origin.git", "   1a2b3c4..5d6e7f8  main -> main"]
    assert feed(_gitstream.Push, lines, 0) == ([], "ok to /srv/origin.git: main 1a2b3c4..5d6e7f8")
    shown, summary = feed(_gitstream.Push, lines, 1)
    assert "ok" not in summary and not any(s.startswith("ok") for s in shown)


def test_push_unknown_lines_pass_through_as_they_come() -> None:
    shown, summary = feed(
        _gitstream.Push, ["remote: Create a pull request:   ", "remote:   https://x/pr/1   ", "weird"], 0
    )
    assert shown == ["remote: Create a pull request:", "remote: https://x/pr/1", "weird"]
    assert summary == ""  # nothing to summarise: nothing made up


def test_fetch_quiet_is_empty_and_tag_updates_are_named() -> None:
    assert feed(_gitstream.Fetch, [], 0) == ([], "")
    _, summary = feed(_gitstream.Fetch, ["From x", " t [tag update]      v1         -> v1"], 0)
    assert summary == "ok from x: v1 (tag update)"


def test_commit_success_needs_exit_zero_and_the_result_line() -> None:
    lines = ["[main 1a2b3c4] subject", " 1 file changed, 2 insertions(+)"]
    assert feed(_gitstream.Commit, lines, 0)[1] == "ok main 1a2b3c4 subject: 1 file +2 -0"
    shown, summary = feed(_gitstream.Commit, lines, 1)
    assert not summary.startswith("ok") and "[main 1a2b3c4] subject" in summary
    shown, summary = feed(_gitstream.Commit, ["hook says hi"], 0)
    assert shown == ["hook says hi"] and summary == ""


# ---------------------------------------------------------------------------
# add, branch, stash, worktree, checkout
# ---------------------------------------------------------------------------


def test_add() -> None:
    for flag in ("-p", "--patch", "-i", "--interactive", "-e", "--edit"):
        s = spec("add", flag)
        assert s is not None and s.live and s.env is None, flag
    assert spec("add", "-h") is None
    assert name("add", "-v", ".") == "git-add"
    assert _gitops.add(["git", "add"], "", 0) is None  # silent success stays silent


@pytest.mark.parametrize(
    ("args", "filtered"),
    [([], True), (["-a"], True), (["-vv"], True), (["-r"], True), (["--list", "f*"], True), (["--contains", "HEAD"], True),
     (["-a", "--merged", "main"], True), (["new-branch"], False), (["-d", "x"], False), (["-D", "x"], False),
     (["-m", "a", "b"], False), (["--format=%(refname)"], False), (["--show-current"], False), (["--column"], False),
     (["-u", "origin/x"], False), (["--set-upstream-to=origin/x"], False)],
)  # fmt: skip
def test_branch(args: list[str], filtered: bool) -> None:
    assert (name("branch", *args) == "git-branch") is filtered


@pytest.mark.parametrize(
    ("args", "expected"),
    [([], None), (["list"], "git-stash-list"), (["list", "--stat"], None), (["list", "-p"], None),
     (["show"], "git-stash-show"), (["show", "stash@{1}"], "git-stash-show"), (["show", "-p"], None),
     (["show", "--patch"], None), (["show", "-u"], "git-stash-show"), (["show", "--include-untracked"], "git-stash-show"),
     (["show", "--stat"], None), (["show", "--name-only"], None), (["pop"], "git-stash-apply"),
     (["apply", "--index"], "git-stash-apply"), (["drop"], None), (["push", "-m", "x"], None), (["-p"], None),
     (["clear"], None), (["branch", "x"], None)],
)  # fmt: skip
def test_stash(args: list[str], expected: str | None) -> None:
    assert name("stash", *args) == expected


def test_stash_show_patch_is_the_users_format_and_runs_raw() -> None:
    # lesson 11: -p/--patch is an explicit format flag, as for git diff -p and git log -p
    for args in (["-p", "stash@{1}"], ["--patch"], ["-up"], ["-p", "-U5"]):
        assert spec("stash", "show", *args) is None, args
    # -u is --include-untracked for stash show (a diffstat), not a patch
    s = spec("stash", "show", "-u")
    assert s is not None and s.filter is _gitops.stash_show


def test_worktree_and_checkout() -> None:
    assert name("worktree", "list") == "git-worktree-list"
    assert name("worktree", "list", "-v") == "git-worktree-list"
    for args in (["list", "--porcelain"], ["list", "-z"], ["add", "../x"], ["remove", "x"], ["prune"], []):
        assert spec("worktree", *args) is None, args
    s = spec("checkout", "-p")
    assert s is not None and s.live
    assert name("checkout", "-b", "x") == "git-checkout"
    assert name("checkout", "--", "README.md") == "git-checkout"
    assert spec("checkout", "--help") is None


def test_branch_columns_are_not_taken_for_names() -> None:
    with pytest.raises(Unrecognized):
        _gitops.branch(["git", "branch"], "  a    b    c\n* main d\n", 0)


def test_worktree_path_with_spaces() -> None:
    out = _gitops.worktree_list(
        ["git", "worktree", "list"], "/tmp/my repo   1a2b3c4 [main]\n/tmp/bare.git  (bare)\n", 0
    )
    assert isinstance(out, Filtered)
    assert out.text == "/tmp/my repo 1a2b3c4 [main]\n/tmp/bare.git (bare)\n"


# ---------------------------------------------------------------------------
# the diff parser
# ---------------------------------------------------------------------------


def parse(text: str) -> list[_gitdiff.FileDiff]:
    files, i = _gitdiff.parse(text.split("\n")[:-1], 0)
    assert i == len(text.split("\n")) - 1
    return files


def test_hunks_end_at_their_declared_length() -> None:
    text = (
        "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n--- not a header\n+++ not a header either\n ctx\n"
        "diff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n"
    )
    x, y = parse(text)
    assert (x.new, x.adds, x.dels) == ("x", 1, 1)
    assert "--- not a header" in x.hunks and "+++ not a header either" in x.hunks
    assert (y.new, y.adds, y.dels) == ("y", 1, 1)


def test_a_diff_cut_short_is_not_recognised() -> None:
    with pytest.raises(Unrecognized):
        parse("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+b\n")


def test_quoted_paths_and_spaces() -> None:
    (f,) = parse('diff --git "a/caf\\303\\251 x.txt" "b/caf\\303\\251 x.txt"\nnew file mode 100755\nindex 0..1\n')
    assert f.title() == "=== café x.txt (new, mode 100755)"
    (g,) = parse("diff --git a/my file.txt b/my file.txt\nold mode 100644\nnew mode 100755\n")
    assert g.title() == "=== my file.txt (mode 100644 -> 100755)"


def test_copy_and_combined_counts() -> None:
    (c,) = parse("diff --git a/a b/b\nsimilarity index 90%\ncopy from a\ncopy to b\n")
    assert c.title() == "=== a -> b (copied 90%)"
    (m,) = parse("diff --cc f\nindex 1,2..3\n--- a/f\n+++ b/f\n@@@ -1,2 -1,2 +1,2 @@@\n  same\n- a\n -b\n++c\n")
    assert (m.adds, m.dels, m.combined) == (1, 2, True)


def test_every_hunk_line_is_kept_context_included() -> None:
    # lesson 1: context before, between and after the changes stays, so the header's counts match what is shown
    ctx = [f" context line number {n}" for n in range(6)]
    body = [*ctx[:3], "-old", "+new", *ctx[3:]]
    text = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,7 +1,7 @@ def f():\n" + "\n".join(body) + "\n"
    (f,) = parse(text)
    assert f.hunks == ["@@ -1,7 +1,7 @@ def f():", *body]
    body = [*ctx[:3], "+added", *ctx[3:], "\\ No newline at end of file"]
    text = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,6 +1,7 @@\n" + "\n".join(body) + "\n"
    (f,) = parse(text)
    assert f.hunks == ["@@ -1,6 +1,7 @@", *body]
    out = _gitdiff.diff(["git", "diff"], text, 0)
    assert isinstance(out, Filtered) and out.cut == 0
    assert out.text.splitlines()[1:] == ["@@ -1,6 +1,7 @@", *body]


def test_diff_empty_and_errors() -> None:
    assert _gitdiff.diff(["git", "diff"], "", 0) == ""
    assert _gitdiff.diff(["git", "diff"], "fatal: bad revision 'x'\n", 128) is None
    with pytest.raises(Unrecognized):
        _gitdiff.diff(["git", "diff"], "external tool output\n", 0)


def test_stat_lines() -> None:
    assert _gitstat.stat_file(" src/a.py | 3 ++-") == ("src/a.py", " +2 -1")
    assert _gitstat.stat_file(" big.py | 900 +++++++++++++++-----") == ("big.py", " ±900")  # a scaled bar
    assert _gitstat.stat_file(" logo.png | Bin 10 -> 12 bytes") == ("logo.png", " (binary)")
    assert _gitstat.stat_summary(" 3 files changed, 4 insertions(+), 1 deletion(-)") == (3, 4, 1)
    assert _gitstat.stat_summary(" 1 file changed, 1 deletion(-)") == (1, 0, 1)
    assert _gitstat.stat_mode(" mode change 100644 => 100755 run.sh") == ("mode 100644 => 100755", "run.sh")
    assert _gitstat.ref_update(" = [up to date]      main       -> origin/main") == (
        "=", "[up to date]", "main", "origin/main", "")  # fmt: skip
    assert _gitstat.ref_update(" - [deleted]         tmp") == ("-", "[deleted]", "tmp", "tmp", "")
    assert _gitstat.ref_update(" a.txt | 1 +") is None


# ---------------------------------------------------------------------------
# the log parser
# ---------------------------------------------------------------------------


def test_log_unknown_headers_are_not_guessed_at() -> None:
    text = "commit 1234567890abcdef\nAuthor: A <a@x>\nAuthorDate: today\n\n    s\n"
    with pytest.raises(Unrecognized):
        _gitlog.log(["git", "log"], text, 0)


def test_log_commit_without_message_and_dates() -> None:
    text = "commit 1234567890abcdef1234\nAuthor: A B <a@x>\nDate:   Tue Mar 3 10:00:00 2026 +0100\n\ncommit abcdef1234567890\nAuthor: C <c@x>\nDate:   Mon Mar 2 09:00:00 2026 +0100\n\n    second\n"
    out = _gitlog.log(["git", "log"], text, 0)
    assert isinstance(out, Filtered)
    assert out.text.splitlines() == [
        "A B, 2026-03-03:",
        "  1234567890",
        "C, 2026-03-02:",
        "  abcdef1234 second",
        "2 commits",
    ]


def test_prefixes_are_only_removed_when_git_added_them() -> None:
    (f,) = parse("diff --git a/a/b.txt b/a/b.txt\n--- a/a/b.txt\n+++ b/a/b.txt\n@@ -1 +1 @@\n-x\n+y\n")
    assert f.new == "a/b.txt"
    (g,) = parse("diff --git a/b.txt a/b.txt\n--- a/b.txt\n+++ a/b.txt\n@@ -1 +1 @@\n-x\n+y\n")  # diff.noprefix
    assert g.new == "a/b.txt"
    (h,) = parse("diff --git i/x.py w/x.py\n--- i/x.py\n+++ w/x.py\n@@ -1 +1 @@\n-x\n+y\n")  # diff.mnemonicPrefix
    assert h.new == "x.py"
    (r,) = parse("diff --git a/a/x b/b/x\nsimilarity index 100%\nrename from a/x\nrename to b/x\n")
    assert r.title() == "=== a/x -> b/x (renamed 100%)"
    (n,) = parse(
        "diff --git a/new file.txt b/new file.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new file.txt\t\n@@ -0,0 +1 @@\n+x\n"
    )
    assert n.title() == "=== new file.txt (new) +1 -0"


def test_empty_log_is_shown_as_git_printed_it() -> None:
    assert _gitlog.log(["git", "log"], "", 0) is None


def test_pull_failure_after_a_result_repeats_what_git_said() -> None:
    lines = ["From x", "   1a2b..3c4d  main -> origin/main", "Updating 1a2b..3c4d", "Fast-forward", " a | 1 +",
             " 1 file changed, 1 insertion(+)", "error: something went wrong afterwards"]  # fmt: skip
    shown, summary = feed(_gitstream.Pull, lines, 1)
    assert shown == ["error: something went wrong afterwards"]
    assert not summary.startswith("ok")
    assert summary.splitlines() == ["fetched from x: origin/main 1a2b..3c4d", "Updating 1a2b..3c4d", "Fast-forward", " a | 1 +",
                                    " 1 file changed, 1 insertion(+)"]  # fmt: skip


# ---------------------------------------------------------------------------
# listings: whole under limits.git_list_tokens, counted by directory above it (issue 14, defect 5)
# ---------------------------------------------------------------------------

_COUNT_LINE = re.compile(r"(\d+) (?:paths?|files?) (?:under (\S+/)|in (\S+/)|at the top level)(?: \((.*)\))?")


def _accounted(paths: list[str], shown: list[str]) -> None:
    """Every path is named, or counted on exactly one directory line whose count is exact."""
    named = {p for p in paths if p in shown}
    counted: dict[str, int] = {}
    for line in shown:
        m = _COUNT_LINE.fullmatch(line)
        if m is None:
            assert line in paths, line
            continue
        n, under, inside = int(m[1]), m[2], m[3]
        if under is not None:
            members = [p for p in paths if p.startswith(under) and p not in named]
        elif inside is not None:
            members = [p for p in paths if p.rpartition("/")[0] + "/" == inside and p not in named]
        else:
            members = [p for p in paths if "/" not in p.rstrip("/") and p not in named]
        assert n == len(members), line
        for p in members:
            counted[p] = counted.get(p, 0) + 1
    assert all(counted.get(p, 0) == 1 for p in paths if p not in named)


def _untracked(raw: bytes) -> list[str]:
    lines = raw.decode().split("Untracked files:\n", 1)[1].splitlines()
    return [ln[1:] for ln in lines if ln.startswith("\t")]


def test_status_over_the_budget_names_or_counts_every_path() -> None:
    fx = load(FIXTURES / "git-status" / "untracked-over-budget.toml")
    paths = _untracked(fx.raw)
    assert len(paths) == 1070
    out = run(fx).text
    section = out.split("untracked (1070):\n", 1)[1].splitlines()
    shown = [ln[2:] for ln in section if ln.startswith("  ") and not ln.startswith("  (")]
    _accounted(paths, shown)
    assert "600 paths under src/gen/" in shown  # the biggest directory is the one counted
    assert "tests/data/sample_300.json" in shown and "scratch_20.txt" in shown
    assert "  (600 counted by directory, not named: over limits.git_list_tokens)" in section


@pytest.mark.parametrize("budget", [0, 1, 50, 200, 1000, 2500])
def test_any_budget_accounts_for_every_path_and_stays_within_it(budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from rtk import config

    monkeypatch.setattr(
        config, "get", lambda k, _real=config.get: budget if k == "limits.git_list_tokens" else _real(k)
    )
    fx = load(FIXTURES / "git-status" / "untracked-over-budget.toml")
    paths = _untracked(fx.raw)
    res = git_status(["git", "status"], fx.raw.decode(), 0)
    assert isinstance(res, Filtered)
    section = res.text.split("untracked (1070):\n", 1)[1].splitlines()
    shown = [ln[2:] for ln in section if ln.startswith("  ") and not ln.startswith("  (")]
    _accounted(paths, shown)
    readme_counted = "  M README.md" not in res.text  # the other section, budgeted on its own
    assert res.cut == len(paths) - sum(p in shown for p in paths) + readme_counted
    if budget >= 50:  # above the few lines the counts themselves need, the budget holds
        assert sum(len(s) + 3 for s in shown) <= budget * 4


def test_listing_under_the_budget_is_whole_and_over_it_opens_small_directories_first() -> None:
    entries = [(f"big/f{i}.py", f"M big/f{i}.py", "M") for i in range(200)]
    entries += [("small/a.py", "D small/a.py", "D"), ("small/b.py", "M small/b.py", "M"), ("top.txt", "M top.txt", "M")]
    shown, hidden = _gitlisting.group(entries, 20)
    assert shown == ["200 paths under big/ (200 M)", "D small/a.py", "M small/b.py", "M top.txt"] and hidden == 200
    shown, hidden = _gitlisting.group(entries, 0)
    assert shown == ["200 paths under big/ (200 M)", "2 paths under small/ (1 D, 1 M)", "1 path at the top level (1 M)"]
    assert hidden == 203


def test_file_lists_of_add_pull_and_stash_are_budgeted_not_cut_at_20() -> None:
    files = [f"pkg/mod_{i}.py +1" for i in range(60)]
    cut = [0]
    assert _gitstat.files_line(files, cut) == ["  " + ", ".join(files)] and cut == [0]
    many = [f"pkg/sub/generated_{i}.py +1 -1" for i in range(1500)] + ["README.md +2"]
    cut = [0]
    (line,) = _gitstat.files_line(many, cut)
    assert line == "  1500 files under pkg/sub/, README.md +2" and cut == [1500]


def test_status_entries_are_grouped_by_their_new_path() -> None:
    assert _keyed("staged", "R old/a.py -> new/a.py") == ("new/a.py", "R old/a.py -> new/a.py", "R")
    assert _keyed("conflicts", "both modified src/x.c") == ("src/x.c", "both modified src/x.c", "both modified")
    assert _keyed("untracked", "M file with spaces") == ("M file with spaces", "M file with spaces", "")


def test_real_stash_patch_runs_raw_and_its_hunks_survive_the_diff_parser_whole() -> None:
    import tomllib
    from pathlib import Path

    data = Path(__file__).parent / "data"
    meta = tomllib.loads((data / "git-stash-show-patch.toml").read_text(encoding="utf-8"))
    raw = (data / "git-stash-show-patch.raw").read_text(encoding="utf-8")
    assert filters.resolve(meta["argv"]) is None  # `git stash show -p`: the user's own format, raw
    out = _gitdiff.diff(["git", "diff"], raw, 0)
    assert isinstance(out, Filtered)
    shown = out.text.splitlines()
    hunk_lines = [
        ln for ln in raw.splitlines() if ln[:1] in (" ", "+", "-", "@", "\\") and not ln.startswith(("--- ", "+++ "))
    ]
    assert [ln for ln in shown if ln in hunk_lines] == hunk_lines  # every hunk line, in order
