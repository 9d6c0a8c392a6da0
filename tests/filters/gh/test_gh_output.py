"""gh filters on real captures (tests/fixtures/gh-*) and on inputs built for their edge cases."""

from __future__ import annotations

import json

import pytest

from fixturelib import FIXTURES
from rtk.filterapi import Filtered, Unrecognized
from rtk.filters.gh import api, checks, lists, runlog, runs, views


def raw(case: str) -> str:
    return (FIXTURES / f"{case}.raw").read_bytes().decode("utf-8")


# --- lists ---------------------------------------------------------------------------------------
def test_pr_list_keeps_every_row_and_column_and_cuts_timestamps_to_the_day() -> None:
    text = raw("gh-pr-list/state-all")
    out = lists.pr_list(["gh", "pr", "list"], text, 0)
    assert out is not None
    rows = [r.split("\t") for r in text.splitlines()]
    got = [r.split("\t") for r in out.splitlines()]
    assert len(got) == len(rows) == 25
    for r, g in zip(rows, got, strict=True):
        assert g[:4] == r[:4] and g[4] == r[4][:10]
    assert "+0000 UTC" not in out


def test_run_list_drops_completed_only_where_a_conclusion_says_it() -> None:
    text = "completed\tfailure\tFix\tCI\tmain\tpush\t7\t1m2s\t2d\nin_progress\t\tWIP\tCI\tdev\tpush\t8\t10s\t1m\n"
    out = lists.run_list(["gh", "run", "list"], text, 0)
    assert out == "failure\tFix\tCI\tmain\tpush\t7\t1m2s\t2d\nin_progress\t\tWIP\tCI\tdev\tpush\t8\t10s\t1m\n"


def test_run_list_groups_adjacent_runs_of_one_commit_under_it() -> None:
    text = (
        "completed\tsuccess\tFix\tCI\tmain\tpush\t9\t1m2s\t2d\n"
        "in_progress\t\tFix\tDocs\tmain\tpush\t8\t10s\t2d\n"
        "completed\tfailure\tOther\tCI\tdev\tpush\t7\t1m\t3d\n"
        "completed\tsuccess\tFix\tCodeQL\tmain\tpush\t6\t2m\t3d\n"  # same commit, not next to it: its own row
        "completed\tsuccess\tFix\tCodeQL\tmain\tschedule\t5\t2m\t3d\n"  # another event: another group
    )
    out = lists.run_list(["gh", "run", "list"], text, 0)
    assert out == (
        "Fix\tmain\tpush\n\tsuccess\tCI\t9\t1m2s\t2d\n\tin_progress\t\tDocs\t8\t10s\t2d\n"
        "failure\tOther\tCI\tdev\tpush\t7\t1m\t3d\n"
        "success\tFix\tCodeQL\tmain\tpush\t6\t2m\t3d\n"
        "success\tFix\tCodeQL\tmain\tschedule\t5\t2m\t3d\n"
    )


def test_list_of_an_unknown_shape_is_raw_and_errors_print_raw() -> None:
    with pytest.raises(Unrecognized):
        lists.pr_list(["gh", "pr", "list"], "221\tOnly three\tcolumns\n", 0)
    assert lists.issue_list(["gh", "issue", "list"], "", 0) is None  # no issues: gh prints nothing
    assert lists.release_list(["gh", "release", "list"], "HTTP 401: Bad credentials\n", 1) is None


# --- views ---------------------------------------------------------------------------------------
def test_pr_view_drops_empty_fields_and_keeps_the_body_whole() -> None:
    text = raw("gh-pr-view/open-with-reviews")
    out = views.view(["gh", "pr", "view", "221"], text, 0)
    assert out is not None
    assert "projects" not in out
    assert "reviewers: dlopez (Approved), priya-n (Changes requested), tanaka-ren (Requested)" in out
    assert out.split("\n\n", 1)[1].rstrip() == text.split("\n--\n", 1)[1].rstrip()


def test_pr_view_header_is_compact_with_every_field() -> None:
    out = views.view(["gh", "pr", "view", "221"], raw("gh-pr-view/open-with-reviews"), 0)
    assert out is not None
    assert out.split("\n\n", 1)[0].splitlines() == [
        "#221 OPEN Add rate limiting to the widget sync worker",
        "author: oyelaran; labels: enhancement, performance; assignees: oyelaran; milestone: 3.0; +184 -37",
        "reviewers: dlopez (Approved), priya-n (Changes requested), tanaka-ren (Requested)",
        "url: https://localhost:8443/acme/widgets/pull/221",
    ]


def test_view_header_puts_long_or_semicolon_fields_alone_and_keeps_unknown_ones() -> None:
    text = (
        "title:\tA; B\nstate:\tCLOSED\nauthor:\tana\nlabels:\tx; y\nprojects:\tRoadmap\n"
        f"milestone:\t{'m' * 70}\nnumber:\t7\nadditions:\t1\n--\nbody\n"
    )
    out = views.view(["gh", "pr", "view", "7"], text, 0)
    assert (
        out
        == f"#7 CLOSED A; B\nauthor: ana; projects: Roadmap; additions: 1\nlabels: x; y\nmilestone: {'m' * 70}\n\nbody\n"
    )
    # no number (gh repo view): fields as gh names them
    assert views.view(["gh", "repo", "view"], "name:\tacme/w\ndescription:\td\n--\n# w\n", 0) == (
        "name: acme/w\ndescription: d\n\n# w\n"
    )


def test_comment_headers_keep_only_what_says_something() -> None:
    text = "author:\tana\nassociation:\tcontributor\nedited:\ttrue\nstatus:\tnone\n--\nfixed in #3\n--\n"
    assert (
        views.view(["gh", "issue", "view", "3", "--comments"], text, 0) == "ana (contributor, edited):\nfixed in #3\n"
    )


def test_a_comment_body_with_a_separator_line_is_not_guessed_at() -> None:
    text = "author:\tana\nassociation:\tmember\nedited:\tfalse\nstatus:\tnone\n--\nabove\n--\nbelow\n--\n"
    with pytest.raises(Unrecognized):
        views.view(["gh", "issue", "view", "3", "--comments"], text, 0)


def test_view_errors_print_raw() -> None:
    assert views.view(["gh", "pr", "view", "999"], raw("gh-pr-view/not-found"), 1) is None


# --- checks --------------------------------------------------------------------------------------
def test_failing_checks_whole_passing_ones_named_and_counted() -> None:
    out = checks.checks(["gh", "pr", "checks", "221"], raw("gh-pr-checks/failing"), 1)
    assert out is not None
    lines = out.splitlines()
    assert lines[0] == "2 failing, 1 skipped, 7 passing"
    assert "test (3.11)\tfail\t5m21s\thttps://localhost:8443/acme/widgets/actions/runs/9017/job/50119" in lines
    assert lines[-1] == "7 pass: CodeQL, analyze (python), build wheel, docs, lint, test (3.10), typecheck"
    assert "job/50117" not in out  # a passing check's link goes


def test_pending_checks_exit_8_stay_whole() -> None:
    text = "lint\tpass\t51s\thttps://x/1\nbuild\tpending\t0\thttps://x/2\n"
    out = checks.checks(["gh", "pr", "checks"], text, 8)
    assert out == "1 pending, 1 passing\nbuild\tpending\t0\thttps://x/2\n1 pass: lint\n"


def test_unknown_check_state_is_raw() -> None:
    with pytest.raises(Unrecognized):
        checks.checks(["gh", "pr", "checks"], "lint\tneutral\t1s\thttps://x\n", 0)
    with pytest.raises(Unrecognized):  # gh's message when there is nothing to check prints raw
        checks.checks(["gh", "pr", "checks"], "no checks reported on the 'main' branch\n", 1)


# --- run view ------------------------------------------------------------------------------------
def test_run_summary_counts_passed_steps_and_keeps_failures() -> None:
    out = runs.run_view(["gh", "run", "view", "9017"], raw("gh-run-view/failed-run"), 0)
    assert out is not None
    assert "Set up job" not in out
    assert out.count("  X Run pytest") == 2
    assert out.count("  \u2713 4 other steps passed") == 2
    assert "To see what failed, try: gh run view 9017 --log-failed" in out


def test_run_view_error_is_raw() -> None:
    assert runs.run_view(["gh", "run", "view", "1234"], raw("gh-run-view/not-found"), 1) is None


# --- run logs ------------------------------------------------------------------------------------
def test_log_failed_factors_prefixes_and_names_the_repeated_matrix_step() -> None:
    text = raw("gh-run-log/log-failed")
    out = runlog.run_log(["gh", "run", "view", "9017", "--log-failed"], text, 0)
    assert isinstance(out, Filtered)
    assert out.text.startswith("== test (3.11) / Run pytest (10:02:51-10:02:56) ==\n")
    assert (
        "== test (3.12) / Run pytest (10:02:54-10:02:59): the same 149 lines as test (3.11) / Run pytest ==" in out.text
    )
    assert "\tRun pytest\t" not in out.text and "4521Z" not in out.text
    for line in text.splitlines():
        body = line.split("\t", 2)[2].split(" ", 1)[-1]
        if body.startswith(("E ", "FAILED ", "##[error]")):
            assert body in out.text, body
    assert out.cut > 0


def test_steps_that_differ_are_not_merged() -> None:
    log = "a\tRun\t2026-01-01T00:00:00.0000000Z x\nb\tRun\t2026-01-01T00:00:01.0000000Z y\n"
    out = runlog.run_log(["gh", "run", "view", "1", "--log"], log, 0)
    assert isinstance(out, Filtered)
    assert out.text == "== a / Run (00:00:00) ==\nx\n== b / Run (00:00:01) ==\ny\n"


def test_a_log_without_job_step_prefixes_is_raw() -> None:
    with pytest.raises(Unrecognized):
        runlog.run_log(["gh", "run", "view", "1", "--log"], "plain text\nmore\n", 0)
    assert runlog.run_log(["gh", "run", "view", "1", "--log"], "run 1 is still in progress\n", 1) is None


# --- api -----------------------------------------------------------------------------------------
def test_api_keeps_every_value() -> None:
    text = raw("gh-api/repo")
    out = api.api(["gh", "api", "repos/acme/widgets"], text, 0)
    assert out is not None and len(out) < len(text)

    def scalars(v: object) -> list[str]:
        if isinstance(v, dict):
            return [s for x in v.values() for s in scalars(x)]
        if isinstance(v, list):
            return [s for x in v for s in scalars(x)]
        return [str(v).lower() if isinstance(v, bool) else str(v)]

    obj = json.loads(text)
    # the 36 `*_url` members that are `url` plus `/NAME` are said once, as a template over `url`
    group = next(ln for ln in out.splitlines() if ln.startswith("built from members: X_url = {url}/X for X in "))
    names = group.split(" for X in ", 1)[1].split(", ")
    assert len(names) == 36 and "forks" in names and "pulls" in names
    for n in names:
        assert obj.pop(f"{n}_url") == obj["url"] + "/" + n
    for s in scalars(obj):
        if s != "None":
            assert s in out, s


def test_api_prints_raw_when_compacting_does_not_help_or_it_is_not_json() -> None:
    assert api.api(["gh", "api", "x"], "[1,2,3]", 0) is None  # no rendering has fewer tokens
    # (gh-api/issues, GitHub's minified list, was the example here: one element a line now saves on it)
    assert api.api(["gh", "api", "x"], raw("gh-api/not-found"), 1) is None
    assert api.api(["gh", "api", "-i", "x"], "HTTP/2.0 200 OK\nServer: GitHub.com\n\n{}", 0) is None
    with pytest.raises(Unrecognized):  # --paginate concatenates pages: not one JSON document
        api.api(["gh", "api", "--paginate", "x"], '[{"a":1}][{"a":2}]', 0)


def test_run_view_one_annotation_of_several_jobs_is_printed_once_with_each_job() -> None:
    out = runs.run_view(["gh", "run", "view", "9017"], raw("gh-run-view/failed-run"), 0)
    assert out is not None
    lines = out.splitlines()
    i = lines.index("ANNOTATIONS")
    assert lines[i + 1 : i + 5] == [
        "X Process completed with exit code 1.",
        "test (3.11): .github#1",
        "test (3.12): .github#1",
        "ARTIFACTS",
    ]


def test_run_view_annotations_that_are_not_message_location_pairs_stay_as_printed() -> None:
    text = (
        "X main CI · 1\nTriggered via push about 1 hour ago\n\nJOBS\nX test in 1m (ID 2)\n\n"
        "ANNOTATIONS\nX assert 1 == 2\nfull diff:\ntest: tests/test_a.py#3\n\nX assert 1 == 2\nfull diff:\n"
        "test: tests/test_b.py#9\n\n"
    )
    out = runs.run_view(["gh", "run", "view", "1"], text, 1)
    assert out is not None and out.count("X assert 1 == 2") == 2 and out.count("full diff:") == 2
