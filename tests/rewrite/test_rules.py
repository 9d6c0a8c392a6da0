"""The rule table: complete against reference b.2, well-formed, and active only when served."""

from __future__ import annotations

import pytest

from rtk import filters
from rtk.__main__ import COMMANDS
from rtk.rewrite import engine
from rtk.rewrite.rules import BY_TOOL, GLOBAL_OPTS, RULES, Rule

CATEGORIES = {
    "Git", "GitHub", "GitLab", "Cargo", "PackageManager", "Files", "Build", "Tests", "Infra", "Network", "Python",
    "Go", "Ruby", "System",
}  # fmt: skip

# One command per row of reference table b.2 (the row number is the rule's `row`).
REFERENCE_ROWS = {
    1: "git status", 2: "gh pr list", 3: "glab mr list", 4: "cargo test", 5: "pnpm install", 6: "npm run build",
    7: "npx foo", 8: "cat README.md", 9: "grep x f", 10: "rg x", 11: "ast-grep -p x", 12: "ls", 13: "find .",
    14: "tree", 15: "diff a b", 16: "wc -l f", 17: "tsc", 18: "eslint .", 19: "prettier --check .",
    20: "next build", 21: "jest", 22: "vitest run", 23: "playwright test", 24: "ctest", 25: "prisma generate",
    26: "docker ps", 27: "kubectl get pods", 28: "oc get pods", 29: "curl http://x", 30: "wget http://x",
    31: "mypy .", 32: "ruff check .", 33: "sqlfluff lint", 34: "pytest", 35: "pip list", 36: "uv run foo",
    37: "go test ./...", 38: "golangci-lint run", 39: "sbt test", 40: "bundle install", 41: "rake test",
    42: "rspec", 43: "rubocop", 44: "php artisan migrate", 45: "php -l a.php", 46: "php run-tests.php",
    47: "phpunit", 48: "phpstan analyse", 49: "pest", 50: "paratest", 51: "ecs", 52: "pint", 53: "aws s3 ls",
    54: "psql -c x", 55: "bun test", 56: "bunx foo", 57: "deno test", 58: "./gradlew test", 59: "mvn test",
    60: "mvnd test", 61: "gt log", 62: "dotnet test", 63: "ansible-playbook x.yml", 64: "brew install x",
    65: "composer install", 66: "df -h", 67: "du -sh .", 68: "fail2ban-client status", 69: "gcloud x",
    70: "hadolint Dockerfile", 71: "helm list", 72: "iptables -L", 73: "make", 74: "markdownlint .",
    75: "mix compile", 76: "ping -c 1 x", 77: "pio run", 78: "poetry install", 79: "pre-commit run", 80: "ps aux",
    81: "pulumi up", 82: "quarto render", 83: "rsync a b", 84: "shellcheck x.sh", 85: "shopify theme push",
    86: "sops -d x", 87: "swift test", 88: "systemctl status x", 89: "terraform plan", 90: "tofu plan",
    91: "trunk build", 92: "uv sync", 93: "yamllint .", 94: "liquibase update",
}  # fmt: skip


# Rows added by issue 16 for families the reference table does not have.
ISSUE16_ROWS = {95: "jq .", 96: "ssh host ls"}


def test_every_reference_row_has_a_rule() -> None:
    rows = {r.row for r in RULES}
    assert rows == set(REFERENCE_ROWS) | set(ISSUE16_ROWS), sorted((set(REFERENCE_ROWS) | set(ISSUE16_ROWS)) ^ rows)


@pytest.mark.parametrize(("row", "command"), sorted({**REFERENCE_ROWS, **ISSUE16_ROWS}.items()))
def test_reference_row_command_matches_its_rule(row: int, command: str) -> None:
    words = command.split()
    m = engine.match(words[0].rsplit("/", 1)[-1], words[1:])
    assert m is not None, command
    assert m[0].row == row


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_rule_is_well_formed(rule: Rule) -> None:
    assert rule.category in CATEGORIES
    assert 0 < rule.savings <= 100 and all(0 < v <= 100 for v in rule.sub_savings.values())
    assert rule.status in ("rewrite", "passthrough", "never")
    assert set(rule.sub_status.values()) <= {"rewrite", "passthrough", "never"}
    assert rule.pipe in ("producer", "final", "both", "none")
    assert rule.kind in ("family", "command", "toml", "family|toml")
    assert rule.rtk.startswith("rtk ") and rule.tools
    if rule.subs is not None:
        assert set(rule.sub_savings) <= set(rule.subs), rule.id
        assert set(rule.sub_status) <= set(rule.subs), rule.id
    for key in rule.raw_flags:
        assert key == "" or rule.subs is None or key in rule.subs


def test_rule_ids_unique_and_index_complete() -> None:
    assert len({r.id for r in RULES}) == len(RULES)
    for r in RULES:
        for t in r.tools:
            assert r in BY_TOOL[t]
    assert set(GLOBAL_OPTS) >= {"git", "docker", "kubectl", "cargo"}


def _has_filter(argv: list[str]) -> bool:
    try:
        from rtk.dsl.lookup import has_filter  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return False
    return bool(has_filter(argv))


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_every_active_rule_target_is_registered(rule: Rule) -> None:
    """Rules for filters not built yet stay inactive; active ones point at something real."""
    for tool in rule.tools:
        for sub in rule.subs or ("",):
            argv = [tool, *sub.rstrip("*").split()]
            if not engine.active(rule, argv):
                continue
            if rule.kind == "command":
                assert rule.rtk.split()[1] in COMMANDS
            else:
                assert tool in filters.FAMILIES or (rule.alt and rule.alt in COMMANDS) or _has_filter(argv), argv


def test_base_build_activity() -> None:
    """In this build git and ls are served; a rule for a filter not built yet is not."""
    git = next(r for r in RULES if r.id == "git")
    assert engine.active(git, ["git", "status"]) == ("git" in filters.FAMILIES)
    for r in RULES:
        if r.kind != "command" and not any(t in filters.FAMILIES for t in r.tools):
            assert not any(engine.active(r, [t]) for t in r.tools) or _has_filter([r.tools[0]])
