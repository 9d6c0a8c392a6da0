"""Pieces of the files/search/text filters: exact folding, whole diff hunks, fail-open on foreign output."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixturelib import FIXTURES, keeper
from rtk import pipeline
from rtk.filters.files import diff, env, find, grep, http, tree, wc
from rtk.filters.files import paths as _paths


def test_fold_is_exact() -> None:
    names = [f"r{i:03d}.txt" for i in (1, 2, 3, 5, 6, 7, 8, 10)] + ["other", "v2.txt"]
    assert _paths.fold(names) == [
        ("r{001..003}.txt", 3),
        ("r{005..008}.txt", 4),
        ("r010.txt", 1),
        ("other", 1),
        ("v2.txt", 1),
    ]
    assert _paths.fold(["a1", "a2"]) == [("a1", 1), ("a2", 1)]  # runs shorter than 3 stay as they are
    assert _paths.fold(["p9", "p10", "p11"]) == [("p{9..11}", 3)]
    assert _paths.fold(["x08", "x09", "x10"]) == [("x{08..10}", 3)]
    assert _paths.fold(["f{1}", "f{2}", "f{3}"]) == [
        ("f{1}", 1),
        ("f{2}", 1),
        ("f{3}", 1),
    ]  # braces in names: never folded


def test_fold_paths_varies_one_number() -> None:
    paths = [f"node_modules/pkg-{i}/lib/index.js" for i in (3, 1, 2, 4)] + ["node_modules/pkg-9/lib/index.js"]
    assert _paths.fold_paths(paths) == [
        ("node_modules/pkg-{1..4}/lib/index.js", 4),
        ("node_modules/pkg-9/lib/index.js", 1),
    ]


def test_qname_quotes_only_ambiguous_names() -> None:
    assert _paths.qname("file with spaces.txt") == "file with spaces.txt"
    assert _paths.qname("two  spaces") == "'two  spaces'"
    assert _paths.qname(" lead") == "' lead'"
    assert _paths.qname("数据报告.txt") == "数据报告.txt"


def _apply(func: object, argv: list[str], raw: bytes, code: int = 0) -> pipeline.Outcome:
    return pipeline.apply("t", func, argv, raw, code, keeper)  # type: ignore[arg-type]


FOREIGN = (FIXTURES / "ls" / "long-recursive.raw").read_bytes()  # real `ls -lR` output


@pytest.mark.parametrize(
    ("func", "argv"),
    [
        (tree.tree, ["tree"]),
        (wc.wc, ["wc", "a"]),
        (diff.diff, ["diff", "a", "b"]),
        (env.env, ["env"]),
        (http.wget_log, ["wget", "http://x"]),
        (grep.grep, ["grep", "x"]),
    ],
)
def test_foreign_output_comes_out_raw(func: object, argv: list[str]) -> None:
    out = _apply(func, argv, FOREIGN)
    # env never gives up on lines it cannot read: it prints them masked, as its own baseline.
    assert out.mode in ("raw-unrecognized", "raw") or (func is env.env and out.mode == "raw-guard"), out.mode
    assert out.text.startswith(FOREIGN.decode("utf-8", "replace").splitlines()[0])


def test_find_with_only_errors_keeps_them() -> None:
    raw = "find: ‘a’: No such file or directory\nfind: ‘b’: No such file or directory\n".encode()
    out = _apply(find.find, ["find", "a", "b"], raw, 1)
    assert "find: ‘a’: No such file or directory" in out.text and out.text.count("\n") >= 2


def test_diff_zero_length_sides_and_marks() -> None:
    raw = b"--- a\t2026-01-01\n+++ b\t2026-01-01\n@@ -1,4 +1,3 @@\n keep\n-gone\n keep2\n keep3\n@@ -10,0 +10,2 @@\n+new1\n+new2\n"
    text = diff.diff(["diff", "-u", "a", "b"], raw.decode(), 1).text  # type: ignore[union-attr]
    # every hunk whole (lesson 1): its header as diff printed it, its context before and after the change
    assert text == "a -> b (+2 -1)\n@@ -1,4 +1,3 @@\n keep\n-gone\n keep2\n keep3\n@@ -10,0 +10,2 @@\n+new1\n+new2\n"


def test_diff_hunks_are_read_by_their_declared_lengths_and_kept_whole() -> None:
    # diff -u -p: the function name after the header stays; "--- x" inside a hunk is content, not a file header
    raw = (
        "--- a\t2026-01-01\n+++ b\t2026-01-01\n@@ -1,5 +1,5 @@ def f():\n ctx1\n---- x\n+++- y\n ctx2\n ctx3\n ctx4\n"
        "@@ -20,2 +20,2 @@\n-old\n+new\n after\n\\ No newline at end of file\n"
    )
    out = diff.diff(["diff", "-u", "-p", "a", "b"], raw, 1)
    assert out is not None
    assert out.text.splitlines()[1:] == raw.splitlines()[2:]
    assert out.cut == 0


def test_diff_bom_and_whitespace_are_named() -> None:
    bom = "1c1\n< first\n---\n> \ufefffirst\n".encode()
    assert _apply(diff.diff, ["diff", "a", "b"], bom * 3, 1).text.startswith("identical except a byte-order mark")
    ws = b"--- a\t2026-11-22 04:22:20.531413598 +0000\n+++ b\t2026-11-22 04:22:20.531413598 +0000\n@@ -1,2 +1,2 @@\n-x = 1\n-y = 2\n+x  =  1\n+y = 2   \n"
    out = _apply(diff.diff, ["diff", "-u", "a", "b"], ws, 1).text
    assert out.startswith("a -> b: identical except whitespace") and "(whitespace only)" in out and "+x  =  1" in out


def test_grep_line_cut_around_the_match() -> None:
    line = "a" * 3000 + "NEEDLE" + "b" * 3000
    raw = f"f.txt:7:{line}\n".encode()
    out = _apply(grep.grep, ["grep", "NEEDLE", "f.txt"], raw).text
    assert "NEEDLE" in out and "[line cut: 400 of 6006 chars shown]" in out and len(out) < 700


def test_grep_context_file_names_with_dash_numbers() -> None:
    raw = b"".join(
        b"a-1-b.txt-%d-before\na-1-b.txt:%d:match here\na-1-b.txt-%d-after\n--\n" % (n, n + 1, n + 2)
        for n in range(1, 80, 10)
    )
    # -H -n: the user asks for the names and numbers, so the grouped form is the smaller one
    out = _apply(grep.grep, ["grep", "-H", "-n", "-C1", "match", "a-1-b.txt"], raw).text
    assert "a-1-b.txt (8):" in out and "\n1-before\n2:match here\n3-after\n--\n11-before\n" in out


def test_wc_keeps_names_exactly() -> None:
    raw = b"      1       2       3 dir/file with spaces\n      4       5       6 dir/ lead space\n      5       7       9 total\n"
    out = _apply(wc.wc, ["wc", "x", "y"], raw).text
    assert out == "lines words bytes  (paths under dir/)\n1 2 3  file with spaces\n4 5 6   lead space\n5 7 9  total\n"


def test_env_multiline_values_and_secret_names() -> None:
    assert env.is_secret("GITHUB_TOKEN") and env.is_secret("db_password") and env.is_secret("AWS_SECRET_ACCESS_KEY")
    assert not env.is_secret("PWD") and not env.is_secret("XDG_SESSION_ID") and not env.is_secret("KEYBOARD_LAYOUT")
    raw = b"BASH_FUNC_f%%=() {  echo hi\n}\nMY_API_KEY=abcdefghijklmnopqrstuvwxyz\n" + b"X=" + b"y" * 200 + b"\n"
    out = _apply(env.env, ["env"], raw).text
    assert "BASH_FUNC_f%%=() {  echo hi\n}" in out and "MY_API_KEY=****" in out and "abcdefghij" not in out


def test_http_body_json_vs_data() -> None:
    with pytest.raises(http.Verbatim):
        http.body(["curl", "x"], "<html></html>", 0)
    with pytest.raises(http.Verbatim):
        http.body(["curl", "x"], "\x00\x01", 0)
    res = http.body(["curl", "x"], '{"a": [' + ", ".join(str(i) for i in range(40)) + "]}", 0)
    assert res.cut == 0 and "    39\n" in res.text  # whole under limits.json_budget (was cut at 30 items)


def test_verbatim_outcome_carries_the_exact_bytes() -> None:
    data = b"\x89PNG\r\n\x1a\n\x00\x1b[31m\xff"
    out = _apply(http.body, ["curl", "x"], data)
    assert out.mode == "verbatim" and out.data == data and out.cut == 0


def test_tree_root_must_be_a_listed_directory(tmp_path: Path) -> None:
    raw = b"elsewhere\n\xe2\x94\x94\xe2\x94\x80\xe2\x94\x80 a\n\n0 directories, 1 file\n"
    assert _apply(tree.tree, ["tree", "src"], raw).mode == "raw-unrecognized"
    assert _apply(tree.tree, ["tree", "elsewhere"], raw).mode in ("filtered", "raw-guard")


def test_listing_budget_shows_everything_below_it_and_exact_counts_above() -> None:
    from rtk.filters.files.paths import Unit, fit

    units = [Unit(f"d{i}/", f"d{i}/  " + "  ".join(f"f{j}.txt" for j in range(30)), 30, f"d{i}") for i in range(8)]
    lines, cut = fit(units, 10_000, ("entry", "entries"), "dir")
    assert cut == 0 and lines == [u.text for u in units]  # no count of 10: all 240 names
    lines, cut = fit(units, 400, ("entry", "entries"), "dir")
    counted = [ln for ln in lines if ln.endswith("(30 entries)")]
    assert counted and cut == 30 * len(counted) and len(lines) == 8  # each dir in full or counted exactly
    lines, cut = fit(units, 5, ("entry", "entries"), "dir")
    assert cut == 240 and lines == ["./  (240 entries in 8 dirs)"]


def test_grep_rg_without_n_print_no_line_numbers_and_keep_indentation() -> None:
    raw = b"a.py:3:    def parse(self):\nb.yaml:7:  retries: 3\nb.yaml:9:  retries: 5\n"
    out = _apply(grep.grep, ["rg", "retries|parse"], raw).text
    # grouping does not pay on three lines: the never-worse guard prints what rg itself prints to a pipe
    assert out == "a.py:    def parse(self):\nb.yaml:  retries: 3\nb.yaml:  retries: 5\n"
    assert ":3:" not in out and ":7" not in out


def test_grep_on_stdin_has_no_label() -> None:
    raw = b"(standard input):2:dev  4242  0.0  0.1 python3 app.py\n"
    out = _apply(grep.grep, ["grep", "python"], raw).text
    assert out.startswith("dev  4242  0.0  0.1 python3 app.py\n") and "(standard input)" not in out
