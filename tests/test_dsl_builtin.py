"""Guards over the built-in TOML filters: count, index, anchoring, inline tests, never hiding errors."""

from __future__ import annotations

import re
from typing import Any

import pytest

from fixturelib import FIXTURES
from rtk import filters
from rtk.dsl import _builtin, _index, builtins, catalog, lookup

DEFS, TESTS, PROBLEMS = builtins.load_all()
BY_NAME = {d["name"]: d for d in DEFS}

# Commands other engineers own as Python filter families: no TOML filter may claim them.
PYTHON_OWNED = {
    "git", "ls", "tree", "find", "fd", "grep", "rg", "wc", "diff", "env", "curl", "wget", "pytest", "ruff", "mypy",
    "pip", "uv", "poetry", "cargo", "go", "golangci-lint", "make", "gcc", "g++", "cc", "clang", "cmake", "ctest",
    "npm", "npx", "pnpm", "yarn", "bun", "tsc", "eslint", "biome", "prettier", "oxlint", "vitest", "jest",
    "playwright", "node", "mocha", "next", "prisma", "vite",
}  # fmt: skip

# Lines a filter must never drop in its strip/keep stage.
FAILURE_LINES = [
    "error: something broke",
    "Error: cannot open file",
    "ERROR: build failed",
    "src/app.c:12:5: error: expected ';'",
    "fatal: not a repository",
    "warning: deprecated option",
    "WARNING: disk almost full",
    "Build FAILED.",
    "FAILURE: Build failed with an exception.",
    "[ERROR] Failed to execute goal",
    "E: Unable to locate package foo",
    "Traceback (most recent call last):",
    "Permission denied",
]


def test_builtin_files_are_valid() -> None:
    assert not [p.message for p in PROBLEMS], "\n".join(p.message for p in PROBLEMS)


def test_at_least_sixty_builtin_filters() -> None:
    assert len(DEFS) >= 60, len(DEFS)


def test_readme_states_the_number_of_builtin_filters() -> None:
    # The README's Filtered commands table said 61 built-in filters while 69 shipped.
    readme = (FIXTURES.parent.parent / "README.md").read_text(encoding="utf-8")
    stated = re.findall(r"\| Declarative \(TOML\) \| (\d+) built-in filters", readme)
    assert stated == [str(len(DEFS))], (stated, len(DEFS))


def test_generated_modules_are_up_to_date() -> None:
    for path, text in builtins.render_index().items():
        with open(path, encoding="utf-8") as f:
            assert f.read() == text, f"{path} is stale: run python scripts/build_dsl_index.py"


def test_every_builtin_is_keyed_by_exact_first_words() -> None:
    assert not _index.ANY and not _index.PREFIXES, "give every built-in match_command a literal first word"
    assert list(_index.MATCH) == [d["name"] for d in DEFS]
    assert list(_builtin.FILTERS) == [d["name"] for d in DEFS]


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_builtin_shape(name: str) -> None:
    d = BY_NAME[name]
    assert d["description"], f"{name}: describe what it keeps and drops"
    assert d["match_command"].startswith("^")
    words = {w for _, w in d["words"]}
    assert not words & PYTHON_OWNED, f"{name}: {words & PYTHON_OWNED} belong to a Python filter family"
    assert catalog.shadowing_family(d) is None
    tests = [t for t in TESTS if t["filter"] == name]
    assert tests, f"{name}: needs an inline test"
    assert (FIXTURES / name).is_dir() and list((FIXTURES / name).glob("*.raw")), f"{name}: needs fixtures"


@pytest.mark.parametrize("test", TESTS, ids=[f"{t['filter']}:{t['name'][:60]}" for t in TESTS])
def test_inline_test_passes(test: dict[str, Any]) -> None:
    ok, actual = catalog.run_test(BY_NAME[test["filter"]], test)
    assert ok, catalog.diff(test["expected"], actual)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_failure_lines_are_never_stripped(name: str) -> None:
    d = BY_NAME[name]
    strip = [re.compile(p) for p in d["strip_lines_matching"]]
    keep = [re.compile(p) for p in d["keep_lines_matching"]]
    for line in FAILURE_LINES:
        assert not any(p.search(line) for p in strip), f"{name} strips {line!r}"
        if keep:
            assert any(p.search(line) for p in keep), f"{name} keeps only matches and drops {line!r}"


@pytest.mark.parametrize("name", sorted(n for n, d in BY_NAME.items() if d["match_output"]))
def test_short_circuits_yield_to_failure_words(name: str) -> None:
    for pattern, _, unless in BY_NAME[name]["match_output"]:
        assert unless, f"{name}: match_output {pattern!r} needs an `unless` for failure words"
        for line in ("error: x", "Error: x", "ERROR x", "Build FAILED.", "fatal: x", "warning: x", "1 failed"):
            assert re.search(unless, line), f"{name}: unless {unless!r} lets {line!r} through"


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["docker", "ps", "-a"], "docker-ps"),
        (["docker", "ps", "--format", "{{.ID}}"], None),
        (["docker", "compose", "up", "-d"], "docker-compose"),
        (["docker", "compose", "up"], None),
        (["docker-compose", "down"], "docker-compose"),
        (["kubectl", "-n", "prod", "get", "pods"], "kubectl-get"),
        (["kubectl", "get", "pods", "-o", "json"], None),
        (["kubectl", "logs", "-f", "pod"], "kubectl-logs-follow"),  # issue 15: follow modes stream folded (was None)
        # Combined short flags still follow (they went to the whole-output filter, which printed nothing while live).
        (["docker", "logs", "-tf", "web"], "docker-logs-follow"),
        (["docker", "compose", "logs", "-ft"], "docker-logs-follow"),
        (["docker", "logs", "-t", "web"], "docker-logs"),
        (["dmesg", "-Tw"], "dmesg-follow"),
        (["dmesg", "-T"], "dmesg"),
        (["dmesg", "-TJ"], None),
        (["terraform", "plan"], "terraform-plan"),
        (["terraform", "planet"], None),
        (["terraform", "apply"], None),
        (["terraform", "apply", "-auto-approve"], "terraform-apply"),
        (["/usr/bin/df", "-h"], "df"),
        (["df", "-h", "/tmp"], None),
        (["ps", "-o", "pid"], None),
        (["ps", "aux"], "ps"),
        (["top"], None),
        (["top", "-b", "-n1"], "top"),
        (["mvn", "-q", "package"], None),
        (["./gradlew", "build"], "gradle"),
        (["apt-get", "install", "cowsay"], None),
        (["apt-get", "install", "-y", "cowsay"], "apt-install"),
        (["unzip", "a.zip"], None),
        (["unzip", "-o", "a.zip"], "unzip"),
        (["sbt"], None),
        (["sbt", "~compile"], None),
        (["ping", "example.com"], None),
        (["ping", "-c", "3", "example.com"], "ping"),
        (["top", "-b"], None),
        (["docker", "compose", "rm"], None),
        (["git", "status"], None),
        (["sometool"], None),
    ],
)
def test_lookup_picks_the_right_builtin(argv: list[str], name: str | None) -> None:
    assert lookup.filter_name(argv) == name
    assert lookup.has_filter(argv) is (name is not None)


def test_python_families_take_precedence() -> None:
    assert not set(_index.WORDS) & set(filters.FAMILIES)


def test_dmesg_folds_a_repeated_message_and_keeps_the_cut_for_a_boot_log() -> None:
    """Issue 15: plain dmesg goes through the fold when long; a boot log the fold cannot halve keeps head/tail."""
    from rtk.dsl import engine

    d = BY_NAME["dmesg"]
    boot = (FIXTURES / "dmesg" / "local.raw").read_text(encoding="utf-8")  # real: 347 lines, nearly all one-off
    res = engine.apply(d, boot)
    lines = boot.splitlines()
    assert res.text.split("\n")[:10] == lines[:10] and res.text.split("\n")[-40:] == lines[-40:]
    assert res.text == engine.apply({**d, "fold_lines": None}, boot).text  # exactly the cut, not the fold
    assert "lines omitted)" in res.text and "more like:" not in res.text
    # The start of the same boot log, then a flapping link for 300 lines: folded, each message counted once.
    up = "[{:>5}.{:06d}] e1000e 0000:00:19.0 eth0: NIC Link is Up 1000 Mbps Full Duplex, Flow Control: Rx/Tx"
    down = "[{:>5}.{:06d}] e1000e 0000:00:19.0 eth0: NIC Link is Down"
    flaps = [(up if i % 2 else down).format(5000 + i, 1000 * i) for i in range(300)]
    text = "\n".join([*lines[:60], *flaps, *lines[-5:]])
    out = engine.apply(d, text).text.split("\n")
    assert flaps[0] in out and flaps[1] in out and out[-5:] == lines[-5:]  # each message whole once, the end too
    folds = [ln for ln in out if ln.startswith("… ") and " more like: " in ln]
    assert any("NIC Link is Down" in ln and "(lines 62-359)" in ln for ln in folds), folds
    assert any("NIC Link is Up" in ln and "(lines 63-360)" in ln for ln in folds), folds
    assert not any("lines omitted" in ln for ln in out) and len(out) < 80


def test_docker_run_streams_live() -> None:
    # A foreground container runs for hours: its output was held whole until it exited.
    from rtk import filters

    spec = filters.resolve(["docker", "run", "--rm", "-p", "8080:80", "nginx"])
    assert spec is not None and spec.name == "docker-run"
    assert spec.stream is not None and spec.filter is None


def test_last_keeps_user_tty_and_from_apart() -> None:
    """last: packing padding put a local login's date where a host stands and split TTY `system boot`."""
    from rtk.dsl import engine

    d = {**BY_NAME["last"], "head_lines": None, "tail_lines": None}
    real = (FIXTURES / "last" / "shared-last_centos-7.7.raw").read_text(encoding="utf-8").splitlines()
    out = engine.apply(d, "\n".join(real)).text.split("\n")
    assert out[0] == "kbrazil\tttyS0\t\tFri Feb 28 13:49   still logged in"  # empty FROM: an empty cell
    assert out[1] == "reboot\tsystem boot\t3.10.0-1062.1.2.\tFri Feb 28 12:56 - 14:52  (01:56)"
    assert "kbrazil\tpts/0\tlocalhost\tTue Nov 12 07:19 - crash (22+14:21)" in out
    assert "kbrazil\tttyS0\t\tWed Feb  5 14:23 - crash (8+02:20)" in out  # the date's own two spaces stay
    assert out[-1] == "wtmp begins Thu Aug 15 10:57:06 2019"
    # another layout (`last -a`: FROM at the end; a name longer than 8 with -w) is left as printed
    alt = "kbrazil  pts/0        Tue Nov 12 07:19 - crash (22+14:21)     localhost"
    wide = "kbrazil-admin pts/0        localhost        Tue Nov 12 07:19 - crash (22+14:21)"
    assert engine.apply(d, f"{alt}\n{wide}").text.split("\n") == [alt, wide]
