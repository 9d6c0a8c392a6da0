"""Reach: every registered filter has a rewrite rule that reaches it, and every rule a filter.

Issue 16: the hook must send an agent's command to every filter rtk has (npm test,
yarn, gcc, cmake --build, fd, node --test... once went nowhere), and no rule may point
at a tool rtk has no filter for, except the families still to come (``rules.FUTURE``).
These tests run against this build's real registry (no stand-in registries).
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest

from rtk import COMMANDS, filters
from rtk.dsl import builtins
from rtk.dsl.lookup import filter_name
from rtk.rewrite import engine
from rtk.rewrite.rules import FUTURE, RULES, Rule

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"

# One realistic command per command word in rtk.filters.FAMILIES.
FAMILY_SAMPLES = {
    "git": "git status", "curl": "curl -s https://example.com", "diff": "diff -u a.txt b.txt", "env": "env",
    "fd": "fd -e py src", "fdfind": "fdfind -e py", "find": "find . -name '*.py'", "grep": "grep -rn TODO src",
    "ls": "ls -la", "rg": "rg -n TODO", "tree": "tree -L 2", "wc": "wc -l src/app.py",
    "wget": "wget https://example.com/f.zip", "mypy": "mypy src", "pip": "pip install requests",
    "pip3": "pip3 list", "poetry": "poetry install", "py.test": "py.test -x", "pytest": "pytest -q",
    "python": "python -m pytest -x", "python3": "python3 -m mypy src", "ruff": "ruff check .",
    "uv": "uv sync", "c++": "c++ -c app.cc", "cargo": "cargo test", "cc": "cc -o hello hello.c",
    "clang": "clang -Wall -c shapes.c", "clang++": "clang++ -c app.cpp", "cmake": "cmake --build build",
    "ctest": "ctest --test-dir build", "g++": "g++ -std=c++17 -c main.cpp", "gcc": "gcc -Wall -c main.c",
    "go": "go test ./...", "golangci-lint": "golangci-lint run", "make": "make -j4", "biome": "biome check .",
    "bun": "bun test", "eslint": "eslint src", "jest": "jest", "mocha": "mocha test/", "next": "next build",
    "node": "node --test", "npm": "npm test", "npx": "npx tsc --noEmit", "oxlint": "oxlint src",
    "playwright": "playwright test", "pnpm": "pnpm test", "prettier": "prettier --check .",
    "prisma": "prisma generate", "tsc": "tsc --noEmit", "vite": "vite build", "vitest": "vitest run",
    "yarn": "yarn test", "gh": "gh pr diff 12", "aws": "aws s3 ls", "psql": "psql -c 'select 1'",
    "deno": "deno test", "jq": "jq .name package.json", "phpunit": "phpunit tests", "composer": "composer install", "rails": "rails test",
    "rake": "rake test", "rspec": "rspec spec", "ssh": "ssh host uptime", "just": "just test",
    "bundle": "bundle install", "rubocop": "rubocop -a", "php": "php -l index.php",
}  # fmt: skip

# Fixture directories whose command is not a raw tool command the hook sees.
FIXTURE_NOT_REWRITTEN = {
    "rtk-err": "rtk's own command (rtk err <cmd>): already rtk",
    "rtk-summary": "rtk's own command (rtk summary <cmd>): already rtk",
    "rtk-test": "rtk's own command (rtk test <cmd>): already rtk",
    "env/explicit": "env -i with a clean environment: how the capture ran; env options other than -u stay raw",
    "eslint/unix-errors": "an explicit -f/--format flag: the hook leaves format flags to the tool",
}  # fmt: skip

# TOML filters without a fixture directory of the same name: a command each serves.
TOML_SAMPLES = {
    "docker-compose": "docker compose up -d", "dotnet-test": "dotnet test", "msbuild": "msbuild App.sln",
    "docker-logs": "docker logs web", "docker-logs-follow": "docker logs -f web",
    "journalctl-follow": "journalctl -u nginx -f", "kubectl-logs-follow": "kubectl logs -f web-1",
    "tail-follow": "tail -f app.log", "dmesg-follow": "dmesg -w",
}  # fmt: skip


def _fixture_argvs() -> list[tuple[str, str, list[str]]]:
    out = []
    for toml in sorted(FIXTURES.glob("*/*.toml")):
        data = tomllib.loads(toml.read_text(encoding="utf-8"))
        argv = data.get("argv")
        if isinstance(argv, list) and argv:
            out.append((toml.parent.name, toml.stem, [str(a) for a in argv]))
    return out


FIXTURE_ARGVS = _fixture_argvs()


def _rewritten(command: str) -> str | None:
    return engine.rewrite(command)


def test_every_family_word_has_a_sample() -> None:
    assert set(filters.FAMILIES) == set(FAMILY_SAMPLES), set(filters.FAMILIES) ^ set(FAMILY_SAMPLES)


@pytest.mark.parametrize(("word", "command"), sorted(FAMILY_SAMPLES.items()))
def test_family_is_reachable(word: str, command: str) -> None:
    got = _rewritten(command)
    assert got is not None and got.startswith(("rtk ", f"{command.split()[0]} rtk")), (command, got)


@pytest.mark.parametrize(
    ("filter_id", "argv"),
    [(f if f in FIXTURE_NOT_REWRITTEN else f"{f}/{c}", a) for f, c, a in FIXTURE_ARGVS],
    ids=[f"{f}/{c}" for f, c, _ in FIXTURE_ARGVS],
)
def test_every_fixture_command_is_reachable(filter_id: str, argv: list[str]) -> None:
    """Each fixture is a real command a filter serves: the hook must send it there."""
    line = shlex.join(argv)
    got = _rewritten(line)
    if filter_id in FIXTURE_NOT_REWRITTEN:
        assert got is None, line
        return
    assert got is not None and got.replace("rtk ", "", 1) == line, (line, got, engine.classify(line).reason)


def test_every_filter_id_with_a_fixture_is_covered() -> None:
    ids = {f for f, _, _ in FIXTURE_ARGVS} | {f"{f}/{c}" for f, c, _ in FIXTURE_ARGVS}
    assert set(FIXTURE_NOT_REWRITTEN) <= ids
    assert len(ids) >= 100, len(ids)


def _toml_filters() -> list[str]:
    defs, _tests, _problems = builtins.load_all()
    return sorted(d["name"] for d in defs)


def _toml_sample(name: str) -> str | None:
    if name in TOML_SAMPLES:
        return TOML_SAMPLES[name]
    for f, _, argv in FIXTURE_ARGVS:
        if f == name:
            return shlex.join(argv)
    return None


@pytest.mark.parametrize("name", _toml_filters())
def test_every_toml_filter_is_reachable(name: str) -> None:
    sample = _toml_sample(name)
    assert sample is not None, f"TOML filter {name}: add a fixture or a TOML_SAMPLES entry"
    argv = shlex.split(sample)
    assert filter_name(argv) == name, (sample, filter_name(argv))
    assert _rewritten(sample) == "rtk " + sample, (sample, engine.classify(sample).reason)


# More commands served by a TOML filter through a rule's other tool words.
MORE_SAMPLES = ["./mvnw -B test", "./gradlew build"]


def _samples() -> list[str]:
    out = list(FAMILY_SAMPLES.values()) + list(TOML_SAMPLES.values()) + MORE_SAMPLES
    return out + [shlex.join(a) for f, _, a in FIXTURE_ARGVS if f not in FIXTURE_NOT_REWRITTEN]


def _served_by(rule_id: str, tool: str) -> list[str]:
    """Sample commands of ``tool`` that ``rule_id`` matches and that are rewritten in this build."""
    out = []
    for cmd in _samples():
        words = shlex.split(cmd)
        if not words or filters.tool_name(words[0]) != tool:
            continue
        m = engine.match(tool, words[1:])
        if m is not None and m[0].id == rule_id and _rewritten(cmd) is not None:
            out.append(cmd)
    return out


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_every_rule_points_at_a_filter(rule: Rule) -> None:
    """The reverse: no rule for a tool rtk has no filter for (families still to come excepted).

    Each tool of a rule is a registered family word, a FUTURE family, or a TOML filter
    shown to serve it by a real sample (a fixture's command or TOML_SAMPLES)."""
    for tool in rule.tools:
        if rule.kind == "command":
            assert rule.rtk.split()[1] in COMMANDS
        elif tool not in filters.FAMILIES and tool not in FUTURE:
            assert _served_by(rule.id, tool), f"{rule.id}: no filter serves {tool}"


def test_future_families_are_named_by_rules() -> None:
    tools = {t for r in RULES for t in r.tools}
    assert set(FUTURE) <= tools, set(FUTURE) - tools


# Interactive, REPL and watch forms: never rewritten, whatever is registered.
NEVER = [
    "sbt console", "sbt consoleQuick", "sbt", "node", "node app.js", "psql", "ssh host", "ssh -t host top",
    "yarn dev", "yarn start", "pnpm dev", "yarn create vite app", "npm init -y", "npm start", "vite", "vite dev",
    "vite preview", "mocha --watch", "node --test --watch", "jest --watch", "vitest --watch", "tsc --watch",
    "prisma studio", "playwright codegen", "docker run -it ubuntu bash", "docker exec -it web sh",
    "kubectl get pods -w", "git add -p", "git rebase -i HEAD~3", "gradle test --continuous", "rails console",
    "deno repl", "just --choose", "just --edit", "top", "python", "python3",
]  # fmt: skip
# Issue 15: "journalctl -f" and "tail -f app.log" left this list: follow modes now run live through
# rtk, folded as they stream (the *-follow TOML filters); test_follow_modes_stream_folded checks them.


@pytest.mark.parametrize(
    "command",
    ["journalctl -f", "tail -f app.log", "tail -F app.log", "docker logs -f web", "kubectl logs -f web-1",
     "dmesg -w", "docker compose logs -f api"],
)  # fmt: skip
def test_follow_modes_stream_folded(command: str) -> None:
    assert _rewritten(command) == "rtk " + command
    spec = filters.resolve(shlex.split(command))
    assert spec is not None and spec.stream is not None and not spec.live, (command, spec)


@pytest.mark.parametrize("command", NEVER)
def test_interactive_and_watch_forms_stay(command: str) -> None:
    assert _rewritten(command) is None, command


# Commands the docs show as deliberately not rewritten (docs/rewrite.md "Never rewritten").
DOCS_NOT_REACHED = {
    "docker run -it": "interactive", "gh --json": "machine-readable", "git add -p": "interactive",
    "tsc --watch": "watch", "psql": "interactive without -c", "env -S": "env options other than -u",
    "env -i": "env options other than -u", "env -u PATH git status": "PATH changed: Python API leaves it",
    "env PATH=... git status": "PATH changed: Python API leaves it", "head -n 99999999999999999999": "count too big",
    "tail -5 -n 3": "an error for tail", "python -I -c pass": "python -c is never rewritten",
    "uv run rtk pytest": "already rtk", "terraform planet": "not a terraform subcommand",
    "python -m rtk": "rtk itself", "python3 -m rtk": "rtk itself", "sbt console": "REPL", "ssh host": "interactive",
    "yarn dev": "dev server", "pnpm dev": "dev server", "npm start": "dev server", "vite dev": "dev server",
    "mocha --watch": "watch", "node app.js": "a server entry point (issue 15: scripts go through rtk run, servers stay)",
    "pip uninstall rtk-proxy": "pip uninstall may prompt: only install and list forms",
    "gh pr create": "prompts for title and body without --fill or --body",
}  # fmt: skip
_PLACEHOLDER = re.compile(
    r"\bFILE\b|\.\.\.|[<>\[\]*]|/\w+/|^\S+$|^\S+ \S+/|^poetry run$|^bundle exec$|^python -m( X)?$"
)


def _doc_commands() -> list[str]:
    found: set[str] = set()
    tools = {t for r in RULES for t in r.tools} | set(filters.FAMILIES)
    for doc in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        for span in re.findall(r"`([^`\n]+)`", doc.read_text(encoding="utf-8")):
            span = span.strip().removeprefix("rtk ")
            words = span.split()
            if len(words) < 2 or words[0] not in tools or _PLACEHOLDER.search(span) or span.startswith("python "):
                continue  # a bare tool name, a placeholder, or a script run with python
            found.add(span)
    return sorted(found)


@pytest.mark.parametrize("command", _doc_commands())
def test_every_documented_command_is_reachable(command: str) -> None:
    if command in DOCS_NOT_REACHED:
        assert _rewritten(command) is None, command
        return
    assert _rewritten(command) is not None, (command, engine.classify(command).reason)


# rtk discover (through rtk.history) used to list these as candidates for a new filter.
@pytest.mark.parametrize(
    "command",
    ["npm test", "npm install", "npm ci", "pnpm test", "yarn build", "gcc -c main.c", "cmake --build build",
     "fd -e py", "node --test", "vite build", "mocha", "oxlint src"],
)  # fmt: skip
def test_discover_does_not_list_handled_commands_as_candidates(command: str) -> None:
    from rtk.history import segments

    kinds = [s.role for s in segments.of(command)]
    assert kinds and "candidate" not in kinds, kinds
    assert kinds[0] in ("missed", "passthrough"), kinds


@pytest.mark.parametrize(
    ("command", "served"),
    [
        ("aws sts get-caller-identity --output json", False),  # machine-readable: as it is
        ("aws sts get-caller-identity --output=json", False),
        ("aws s3 ls --query 'Buckets[].Name'", False),  # a --query answers in JSON by default
        ("aws sts get-caller-identity --output table", True),  # human views the aws family unboxes
        ("aws ec2 describe-instances --output text --query 'Reservations[].Instances[].[InstanceId]'", True),
    ],
)
def test_aws_output_value_decides_native_or_served(command: str, served: bool) -> None:
    got = _rewritten(command)
    assert (got == "rtk " + command) if served else got is None, (command, got)


# Issue 15: a script run through uv goes through rtk run like `python3 x.py` (rtk uv run passed its output
# through unfolded); uv run of a tool keeps that tool's rule, servers, REPLs and inline code do not become rtk run.
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("uv run script.py", "rtk run uv run script.py"),
        ("uv run python script.py", "rtk run uv run python script.py"),
        ("uv run python3 -u scripts/import.py --batch 500", "rtk run uv run python3 -u scripts/import.py --batch 500"),
        ("uv run --with rich script.py", "rtk run uv run --with rich script.py"),
        ("uv run --directory app scripts/x.py", "rtk run uv run --directory app scripts/x.py"),
        ("uv run python -m pkg.tool", "rtk run uv run python -m pkg.tool"),
        ("uv run -m pkg.tool", "rtk run uv run -m pkg.tool"),
        ("uv run ./deploy.sh prod", "rtk run uv run ./deploy.sh prod"),
        ("uv run pytest", "uv run rtk pytest"),
        ("uv run pytest -x tests/a.py", "uv run rtk pytest -x tests/a.py"),
        ("uv run python -m pytest", "uv run rtk python -m pytest"),
        ("uv run -m pytest", "rtk uv run -m pytest"),
        ("uv run ruff check .", "uv run rtk ruff check ."),
        ("uv run mypy src", "uv run rtk mypy src"),
    ],
)
def test_uv_run_script_goes_through_rtk_run(command: str, expected: str) -> None:
    assert _rewritten(command) == expected
    if expected.startswith("rtk run "):
        assert engine.classify(command).reason == "script"


@pytest.mark.parametrize(
    "command",
    ["uv run python", "uv run python -c 'print(1)'", "uv run python -i x.py", "uv run python -m http.server",
     "uv run -m http.server", "uv run manage.py runserver", "uv run app.py", "uv run script.py > out.txt",
     "cat rows.csv | uv run script.py"],
)  # fmt: skip
def test_uv_run_of_a_repl_server_or_redirect_is_not_a_script_run(command: str) -> None:
    got = _rewritten(command)
    assert got is None or not got.startswith("rtk run "), got


@pytest.mark.parametrize(
    ("command", "served"),
    [
        ("php -l a.php", True),
        ("php -d display_errors=1 -l a.php", True),  # issue 16: an ini setting before -l went unrewritten
        ("php -ddisplay_errors=1 -l a.php", True),
        ("php -c php.ini -n -l a.php", True),
        ("php -n -l a.php", True),
        ("php -d display_errors=1 script.php -l", False),  # a script run: -l is the script's argument
        ("php -r 'echo 1;' -l", False),
        ("php artisan migrate", False),
        ("bundle", True),  # issue 16: bare bundle is bundle install
        ("bundle --local", True),
        ("bundle exec rake", False),  # rewritten as the tool it runs, not as bundle
        ("bundle --version", False),
    ],
)
def test_php_lint_after_options_and_bare_bundle(command: str, served: bool) -> None:
    got = _rewritten(command)
    if served:
        assert got == "rtk " + command, (command, got)
    else:
        assert got is None or not got.startswith(("rtk php", "rtk bundle")), (command, got)
