"""Permission verdicts: Claude Code settings files, globs, precedence, compound lines, the cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from rwhelpers import all_registered  # noqa: F401  (autouse: every command has a filter)

from helpers import RTK_ROOT
from rtk.rewrite import engine, permissions
from rtk.rewrite.permissions import Permissions, matches


def settings(path: Path, allow: tuple[str, ...] = (), ask: tuple[str, ...] = (), deny: tuple[str, ...] = ()) -> Path:
    """A Claude Code settings file with Bash(...) rules (and a rule for another tool)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    perms = {k: [f"Bash({p})" for p in v] for k, v in (("allow", allow), ("ask", ask), ("deny", deny))}
    perms["allow"].append("Read(./**)")
    path.write_text(json.dumps({"permissions": perms}))
    return path


def decide(line: str, **rules: list[str]) -> engine.Decision:
    return engine.decide(line, permissions=Permissions(**rules))


@pytest.mark.parametrize(
    ("pattern", "command", "broad", "expected"),
    [
        ("*", "anything at all", False, True),
        ("git status", "git status", False, True),
        ("git status", "git status -s", False, False),
        ("git push:*", "git push", False, True),
        ("git push:*", "git push origin main", False, True),
        ("git push:*", "git push-all", False, False),
        ("git push:*", "git push-all", True, True),
        ("git *", "git log", False, True),
        ("git commit *", "git commit", False, True),
        ("git * main", "git push origin main", False, True),
        ("git * main", "git push origin dev", False, False),
        ("ls*", "lsof", False, True),
        ("ls *", "lsof", False, False),
        ("npm run test *", "npm run test --watch", False, True),
    ],
)
def test_pattern_matching(pattern: str, command: str, broad: bool, expected: bool) -> None:
    assert matches(pattern, command, broad=broad) is expected


def test_bash_entries_only() -> None:
    assert permissions.bash_pattern("Bash(git  status)") == "git status"
    assert permissions.bash_pattern("Bash") == "*"
    assert permissions.bash_pattern("Bash()") == "*"
    assert permissions.bash_pattern("Read(./src/**)") is None
    assert permissions.bash_pattern("WebFetch") is None


def test_default_is_ask_and_rewrite_is_printed() -> None:
    d = decide("git status")
    assert (d.rewritten, d.verdict, d.exit_code) == ("rtk git status", "ask", 3)


def test_allow_rule_allows() -> None:
    d = decide("git status", allow=("git status",))
    assert (d.verdict, d.exit_code) == ("allow", 0)


def test_deny_wins_over_allow_and_nothing_is_printed() -> None:
    d = decide("git push origin main", allow=["git *"], deny=("git push:*",))
    assert (d.rewritten, d.verdict, d.exit_code) == (None, "deny", 2)


def test_ask_wins_over_allow() -> None:
    d = decide("git push", allow=["git *"], ask=["git push:*"])
    assert (d.rewritten, d.verdict) == ("rtk git push", "ask")


def test_deny_on_a_segment_that_is_not_rewritten() -> None:
    d = decide("git status && rm -rf build", allow=["*"], deny=["rm -rf:*"])
    assert d.verdict == "deny"


def test_every_segment_must_be_allowed() -> None:
    assert decide("cd src && git status", allow=("git status",)).verdict == "ask"
    assert decide("cd src && git status", allow=["git status", "cd:*"]).verdict == "allow"


@pytest.mark.parametrize(
    "line",
    [
        "git status $(echo x)",
        "git log `cat ref`",
        "diff <(ls a) <(ls b)",
        "git status > out.txt && ls",
        "git log --grep=$'a\\tb'",
        "(cd x) && git status",
    ],
)
def test_never_auto_allowed(line: str) -> None:
    d = decide(line, allow=["*"])
    assert d.verdict in ("ask", "none"), d
    assert d.permission == "ask"


def test_whitespace_does_not_evade_deny() -> None:
    assert decide("git   push    origin", deny=("git push:*",)).verdict == "deny"
    assert decide("git\tpush", deny=("git push:*",)).verdict == "deny"


def test_env_prefix_and_wrappers_do_not_evade_deny() -> None:
    assert decide("FOO=1 git push", deny=("git push:*",)).verdict == "deny"
    assert decide("timeout 9 git push", deny=("git push:*",)).verdict == "deny"
    assert decide("/usr/bin/git push", deny=("git push:*",)).verdict == "deny"
    assert decide("uv run pytest", deny=["pytest:*"]).verdict == "deny"


def test_env_prefix_needs_its_own_allow() -> None:
    assert decide("PATH=/evil git status", allow=("git status",)).permission == "ask"


def test_deny_inside_substitutions_and_blocks() -> None:
    assert decide("ls $(rm -rf x)", deny=["rm:*"]).verdict == "deny"
    assert decide("git status && (cd x && rm -rf y)", deny=["rm:*"]).verdict == "deny"
    assert decide("if true; then rm x; fi; ls", deny=["rm:*"]).verdict == "deny"


def test_deny_on_the_rtk_form() -> None:
    assert decide("git status", deny=["rtk:*"]).verdict == "deny"


def test_unreadable_settings_never_allow(tmp_path: Path) -> None:
    bad = tmp_path / ".claude" / "settings.json"
    bad.parent.mkdir()
    bad.write_text("{not json")
    d = engine.decide("git status", cwd=str(tmp_path))
    assert d.verdict == "ask" and "unreadable" in d.reason


def test_settings_files_are_found_and_merged(tmp_path: Path, isolated_home: Path) -> None:
    project = tmp_path / "proj"
    settings(project / ".claude" / "settings.json", allow=("git status",))
    settings(project / ".claude" / "settings.local.json", deny=("git push:*",))
    settings(isolated_home / ".claude" / "settings.json", allow=("ls:*",))
    assert engine.decide("git status && ls -la", cwd=str(project)).verdict == "allow"
    assert engine.decide("git push", cwd=str(project)).verdict == "deny"
    assert engine.decide("git log", cwd=str(project)).verdict == "ask"


def test_claude_config_dir_and_project_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "cfg"
    settings(cfg / "settings.json", allow=("git status",))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(cfg))
    assert engine.decide("git status", cwd=str(tmp_path)).verdict == "allow"
    proj = tmp_path / "p"
    settings(proj / ".claude" / "settings.json", deny=("git status",))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(proj))
    assert engine.decide("git status", cwd=str(tmp_path)).verdict == "deny"


def test_other_agents_get_no_claude_rules(tmp_path: Path) -> None:
    settings(tmp_path / ".claude" / "settings.json", allow=("git status",))
    assert engine.decide("git status", cwd=str(tmp_path), agent=None).verdict == "ask"
    assert engine.decide("git status", cwd=str(tmp_path), agent="claude").verdict == "allow"


def test_cache_follows_file_changes(tmp_path: Path) -> None:
    f = settings(tmp_path / ".claude" / "settings.json", allow=("git status",))
    assert engine.decide("git status", cwd=str(tmp_path)).verdict == "allow"
    settings(f, deny=("git status",))
    os.utime(f, ns=(1, 1))  # a different mtime even on coarse clocks
    assert engine.decide("git status", cwd=str(tmp_path)).verdict == "deny"


PROBE = f"""
import sys
sys.path.insert(0, {RTK_ROOT!r})
from rtk.rewrite import engine
d = engine.decide("git status", cwd=sys.argv[1])
print(d.verdict, "json" in sys.modules)
"""


def test_json_is_imported_only_when_a_settings_file_changed(tmp_path: Path) -> None:
    settings(tmp_path / ".claude" / "settings.json", allow=("git status",))

    def run() -> str:
        p = subprocess.run(
            [sys.executable, "-I", "-S", "-c", PROBE, str(tmp_path)], capture_output=True, text=True, timeout=60
        )
        return p.stdout.strip()

    assert run() == "allow True"  # first run parses and writes the cache
    assert run() == "allow False"  # later runs read the marshal cache


# -- issue 12: executing constructs nested in expansions, resolved forms, malformed settings ----------

NESTED_EXEC = [
    "git status ${x:-$(touch pwned)}",
    "git status ${x:-`touch pwned`}",
    "git status ${x:-<(touch pwned)}",
    "git status ${x[$(touch pwned)]}",
    'git status "${x:-$(touch pwned)}"',
    "git status \"${x:-'$(touch pwned)'}\"",
    "git status <<< ${x:-$(touch pwned)}",
    "git status ${x:-${y:-$(touch pwned)}}",
    "git status ${x@P}",
    "git status ${!name}",
    "git status ${(e)x}",
    'git status "${(e)PWD}"',
    "git status ${~x}",
    "git status $~x",
    "git status $[a[$(touch pwned)]]",
    "git status $(( a[$(touch pwned)] ))",
    "git status ${a[i]}",
]


@pytest.mark.parametrize("line", NESTED_EXEC)
def test_executing_construct_nested_in_an_expansion_is_never_allowed(line: str) -> None:
    d = decide(line, allow=["git:*"])
    assert d.verdict in ("ask", "none"), d
    assert d.permission == "ask", d
    assert d.exit_code != 0


def test_plain_expansion_is_still_allowed() -> None:
    assert decide("git status ${x:-a} $HOME", allow=["git:*"]).verdict == "allow"


@pytest.mark.parametrize(
    "line",
    [
        "git status ${x:-$(git push --force)}",
        "git status ${x:-`git push --force`}",
        'git status "${x:-$(git push --force)}"',
        "git status $(( a[$(git push --force)] ))",
        "cat <<EOF\n$(git push --force)\nEOF",
    ],
)
def test_denied_command_hidden_in_an_expansion_is_denied(line: str) -> None:
    d = decide(line, allow=["git:*", "cat:*"], deny=["git push:*"])
    assert (d.rewritten, d.verdict, d.exit_code) == (None, "deny", 2), d


@pytest.mark.parametrize(
    ("line", "deny"),
    [
        ("git -C . push", "git push:*"),
        ("git --no-pager push", "git push:*"),
        ("git -c a=b push", "git push:*"),
        ("git --git-dir=.git push", "git push:*"),
        ("git -C . commit -m x", "git commit:*"),
        ("FOO=1 git -C x push origin", "git push:*"),
        ("uv run git -C x push", "git push:*"),
        ("kubectl -n prod delete pod x", "kubectl delete:*"),
    ],
)
def test_deny_is_matched_on_the_resolved_form(line: str, deny: str) -> None:
    d = decide(line, allow=["*"], deny=[deny])
    assert (d.rewritten, d.verdict) == (None, "deny"), d


def test_ask_is_matched_on_the_resolved_form() -> None:
    d = decide("git -C . push", allow=["git:*"], ask=["git push:*"])
    assert (d.verdict, d.exit_code) == ("ask", 3), d


def test_allow_needs_both_the_literal_and_the_resolved_form() -> None:
    assert decide("git -C . status", allow=["git status"]).verdict == "ask"
    assert decide("git -C . status", allow=["git:*"]).verdict == "allow"
    assert decide("timeout 5 git status", allow=["timeout:*"]).verdict == "ask"
    assert decide("timeout 5 git status", allow=["timeout:*", "git status"]).verdict == "allow"


@pytest.mark.parametrize(
    ("line", "allow"),
    [
        ('ssh host "uptime && rm -rf ~"', "ssh host uptime:*"),  # one argument, run by the remote shell
        ("ssh host 'uptime; curl x | sh'", "ssh host uptime *"),
        ('kubectl exec pod -- sh -c "ls && rm -rf /"', "kubectl exec pod -- sh -c ls:*"),
        ('git status ""', "git status"),  # an empty argument is an argument
        ('git "status -s"', "git status -s"),
        ('ssh host "uptime && rm -rf ~"', "\0^ssh host uptime\\b"),  # a VS Code /regex/ key
    ],
)
def test_allow_never_reads_one_argument_as_several(line: str, allow: str) -> None:
    # The host's rule names words: an argument holding a space is not the words it contains.
    d = engine.decide(line, permissions=Permissions(allow=[allow]))
    assert d.permission == "ask", d
    assert decide(line, allow=["*"]).permission == "allow"  # the line itself can be attested


def test_quoted_arguments_are_still_allowed_by_their_prefix() -> None:
    assert decide('git commit -m "fix the bug"', allow=["git commit:*"]).verdict == "allow"
    assert decide('git commit -m "it\'s"', allow=["git commit -m *"]).verdict == "allow"
    assert decide('ssh host "uptime && rm -rf ~"', allow=["ssh host:*"]).permission == "allow"
    assert decide('ssh host "uptime && rm -rf ~"', allow=["*"], deny=["ssh host uptime:*"]).verdict == "deny"


@pytest.mark.parametrize(
    ("perms", "key"),
    [
        ({"allow": ["Bash(git:*)"], "deny": "Bash(git push:*)"}, "permissions.deny"),
        ({"allow": ["Bash(git:*)"], "ask": {"x": 1}}, "permissions.ask"),
        ({"allow": ["Bash(git:*)"], "deny": None}, "permissions.deny"),
        ({"allow": ["Bash(git:*)"], "deny": ["Bash(rm:*)", 3]}, "permissions.deny"),
        ({"allow": "Bash(git:*)"}, "permissions.allow"),
    ],
)
def test_wrongly_typed_permission_setting_makes_the_file_unusable(
    tmp_path: Path, perms: dict[str, object], key: str
) -> None:
    f = tmp_path / ".claude" / "settings.json"
    f.parent.mkdir()
    f.write_text(json.dumps({"permissions": perms}))
    d = engine.decide("git status", cwd=str(tmp_path))
    assert (d.verdict, d.permission, d.exit_code) == ("ask", "ask", 3), d
    assert key in d.reason and str(f) in d.reason


def test_deny_given_as_a_string_still_denies(tmp_path: Path) -> None:
    f = tmp_path / ".claude" / "settings.json"
    f.parent.mkdir()
    f.write_text(json.dumps({"permissions": {"allow": ["Bash(git:*)"], "deny": "Bash(git push:*)"}}))
    assert engine.decide("git push", cwd=str(tmp_path)).verdict == "deny"


def test_project_settings_found_from_a_subdirectory(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    settings(project / ".claude" / "settings.json", allow=("git:*",))
    settings(project / ".claude" / "settings.local.json", deny=("git push:*",))
    sub = project / "src" / "pkg"
    sub.mkdir(parents=True)
    assert engine.decide("git push", cwd=str(sub)).verdict == "deny"
    assert engine.decide("git status", cwd=str(sub)).verdict == "allow"
    assert permissions.project_root(str(sub)) == str(project)
    assert permissions.project_root(str(tmp_path)) == str(tmp_path)  # nothing above: cwd itself


_WORD = st.text(alphabet=st.sampled_from("ab -&;'\"\t"), max_size=6)
_PLAIN = st.text(alphabet=st.sampled_from("ab-"), min_size=1, max_size=3)


@hsettings(max_examples=int(os.environ.get("RTK_FUZZ_EXAMPLES", "60")), deadline=None, derandomize=True, database=None)
@given(words=st.lists(_WORD, min_size=1, max_size=5), prefix=st.lists(_PLAIN, min_size=1, max_size=3))
def test_a_prefix_allow_holds_only_for_those_exact_arguments(words: list[str], prefix: list[str]) -> None:
    # A prefix rule names arguments (as Codex's execpolicy does): `ssh host uptime:*` allows argv
    # ssh host uptime ..., never ssh host "uptime && rm -rf ~".
    import shlex

    line = shlex.join(["tool", *words])
    d = engine.decide(line, permissions=Permissions(allow=[" ".join(["tool", *prefix]) + ":*"]))
    if d.permission == "allow":
        assert words[: len(prefix)] == prefix, line


def test_an_empty_bash_rule_allows_nothing_but_still_denies(tmp_path: Path) -> None:
    """Claude Code reads ``Bash()`` as no rule for Bash commands (its rule needs text in the parentheses):
    rtk must not read it as ``Bash`` (every command) in an allow list. In deny or ask it stays broad."""
    s = settings(tmp_path / "s.json")
    s.write_text(json.dumps({"permissions": {"allow": ["Bash()", "Bash(  )"]}}))
    perms = permissions._parse([str(s)])
    assert not perms.allow
    assert engine.decide("git push --force", permissions=perms).verdict != "allow"
    s.write_text(json.dumps({"permissions": {"allow": ["Bash(git:*)"], "deny": ["Bash()"]}}))
    assert engine.decide("git status", permissions=permissions._parse([str(s)])).verdict == "deny"


def test_a_cache_from_before_empty_rules_approved_nothing_is_not_used(tmp_path: Path) -> None:
    """The parsed rules are cached: one written when ``Bash()`` still meant every command must be re-read."""
    import marshal

    from rtk import paths

    s = settings(tmp_path / "s.json")
    s.write_text(json.dumps({"permissions": {"allow": ["Bash()"]}}))
    key = ((str(s), 1, 2),)
    Path(paths.data_dir()).mkdir(parents=True, exist_ok=True)
    with open(os.path.join(paths.data_dir(), "old.cache"), "wb") as f:
        marshal.dump((4, key, ["*"], [], [], ""), f)
    assert not permissions.cached("old.cache", key, permissions._parse).allow


@pytest.mark.parametrize(
    ("line", "rule"),
    [
        ("find . -exec git push \\;", "git push"),
        ("find . -name '*.tmp' -execdir rm {} +", "rm"),
        ("find . -ok rm {} \\;", "rm"),
        ("find . -okdir rm -f {} \\;", "rm"),
        ("nice find . -name x -exec ls {} \\; -exec /bin/rm {} \\;", "rm"),
        ("find . -exec env rm {} \\;", "rm"),
        ("fd -e tmp -x rm", "rm"),
        ("fd --exec-batch git push", "git push"),
        ("if true; then find . -exec rm {} \\; ; fi", "rm"),
    ],
)
def test_deny_and_ask_rules_see_the_command_find_runs_per_file(line: str, rule: str) -> None:
    # `find:*` allowed and `rm:*` denied auto-allowed `find . -exec rm {} ;`: the deny never saw the rm.
    allow = ["find:*", "fd:*", "nice:*"]
    assert decide(line, allow=allow, deny=[f"{rule}:*"]).verdict == "deny"
    assert decide(line, allow=allow, ask=[f"{rule}:*"]).verdict in ("ask", "none")  # none: nothing rewritten
    assert decide(line, allow=allow).verdict != "deny"  # the rule is what refuses


def test_find_without_a_denied_command_is_still_allowed() -> None:
    assert decide("find . -exec echo {} \\;", allow=["find:*"], deny=["rm:*"]).verdict == "allow"
    assert decide("find . -name x -print", allow=["find:*"], deny=["rm:*"]).verdict == "allow"
    assert decide("find . -name rm", allow=["find:*"], deny=["rm:*"]).verdict == "allow"


@pytest.mark.parametrize(
    "line",
    ["rtk git push", "rtk proxy git push", "rtk -v --ultra-compact git push -f", "rtk run -c 'git status; git push'", "rtk run -c 'echo $(git push)'",
     "RTK_X=1 rtk summary git push", "nice rtk err git push"],
)  # fmt: skip
def test_deny_rules_see_the_command_an_rtk_line_runs(line: str) -> None:
    assert decide(line, allow=["rtk:*"], deny=["git push:*"]).verdict == "deny"
    assert decide(line, allow=["rtk:*"]).verdict != "deny"


def test_rtk_own_commands_are_not_read_as_a_user_command() -> None:
    assert decide("rtk gain", allow=["rtk:*"], deny=["gain:*"]).verdict != "deny"
    assert decide("rtk read push.log", allow=["rtk:*"], deny=["read:*"]).verdict != "deny"
