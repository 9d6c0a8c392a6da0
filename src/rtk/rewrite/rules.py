"""The rewrite rule table (data): which raw commands map to which rtk command.

Each :class:`Rule` says which tool words and subcommands it covers, the rtk form,
its category and estimated savings (percent of output tokens, the claim history
analysis reports), its status and how it may sit in a pipeline:

- ``status``: ``rewrite`` (rtk filters it), ``passthrough`` (rewritten so the run is
  tracked, but rtk does not shorten it: credited 0), ``never`` (left alone).
  ``sub_status`` overrides it per subcommand; ``raw_flags`` lists flags with which a
  command is left alone (interactive or machine-readable modes); ``requires``
  lists flags of which one must be present (``psql`` without ``-c`` is a REPL).
- ``pipe``: ``producer`` (may feed display-only consumers such as ``head``),
  ``final`` (may be the last stage of a pipeline), ``both``, or ``none``.
- ``kind``: where the rtk side lives. ``family``: a filter family registered in
  ``rtk.filters.FAMILIES`` under the tool word; ``command``: one of rtk's own
  commands (``rtk.COMMANDS``, e.g. ``read``); ``toml``: a TOML filter
  (``rtk.dsl.lookup.has_filter``); ``family|toml``: either.
- ``alt``: another rtk command that accepts the whole raw command after it
  (``eslint .`` -> ``rtk lint eslint .``) when the tool word itself is not registered.

A rule is active only when its target is registered, so rules for filters that are
not built yet stay inactive (see ``rtk.rewrite.engine.active``). The table covers
reference section b.2 row by row (the ``row`` field).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


class Rule:
    """One row of the table (see the module docstring)."""

    __slots__ = (
        "alt",
        "category",
        "id",
        "kind",
        "pipe",
        "raw_flags",
        "requires",
        "row",
        "rtk",
        "savings",
        "status",
        "sub_savings",
        "sub_status",
        "subs",
        "tools",
    )

    def __init__(
        self,
        row: int,
        id: str,
        tools: tuple[str, ...],
        subs: tuple[str, ...] | None,
        rtk: str,
        category: str,
        savings: int,
        *,
        sub_savings: dict[str, int] | None = None,
        status: str = "rewrite",
        sub_status: dict[str, str] | None = None,
        pipe: str = "producer",
        kind: str = "family",
        raw_flags: dict[str, tuple[str, ...]] | None = None,
        requires: tuple[str, ...] = (),
        alt: str = "",
    ) -> None:
        self.row = row
        self.id = id
        self.tools = tools
        self.subs = subs
        self.rtk = rtk
        self.category = category
        self.savings = savings
        self.sub_savings = sub_savings or {}
        self.status = status
        self.sub_status = sub_status or {}
        self.pipe = pipe
        self.kind = kind
        self.raw_flags = raw_flags or {}
        self.requires = requires
        self.alt = alt

    def __repr__(self) -> str:
        return f"Rule({self.id!r})"


R = Rule
_WATCH = ("--watch", "-w", "--watchAll")
_DOCKER_TTY = ("-i", "-t", "-it", "-ti", "--interactive", "--tty")

RULES: list[Rule] = [
    # --- git and hosting -----------------------------------------------------------
    R(1, "git", ("git",),
      ("status", "log", "diff", "show", "add", "commit", "checkout", "push", "pull", "branch", "fetch", "stash",
       "worktree"),
      "rtk git", "Git", 70, sub_savings={"diff": 80, "show": 80, "add": 59, "commit": 59},
      raw_flags={"add": ("-p", "--patch", "-i", "--interactive", "-e", "--edit"),
                 "commit": ("-p", "--patch", "--interactive"), "checkout": ("-p", "--patch"),
                 "stash": ("-p", "--patch")}),
    R(1, "yadm", ("yadm",),
      ("status", "log", "diff", "show", "add", "commit", "checkout", "push", "pull", "branch", "fetch", "stash"),
      "rtk yadm", "Git", 70, sub_savings={"diff": 80, "show": 80, "add": 59, "commit": 59},
      raw_flags={"add": ("-p", "--patch", "-i", "--interactive"), "commit": ("-p", "--patch", "--interactive")}),
    R(2, "gh", ("gh",), ("pr", "issue", "run", "repo", "api", "release"), "rtk gh", "GitHub", 82,
      sub_savings={"pr": 87, "run": 82, "issue": 80},
      raw_flags={"": ("--json", "--jq", "--template"), "api": ("-q", "-t")}),
    R(3, "glab", ("glab",), ("mr", "issue", "ci", "pipeline", "api", "release"), "rtk glab", "GitLab", 82,
      sub_savings={"mr": 87, "ci": 82, "issue": 80}, raw_flags={"": ("--output", "-F")}),
    R(61, "gt", ("gt",), None, "rtk gt", "Git", 70),
    # --- rust ------------------------------------------------------------------------
    R(4, "cargo", ("cargo",), ("build", "test", "clippy", "check", "fmt", "install", "nextest"), "rtk cargo",
      "Cargo", 80, sub_savings={"test": 90, "check": 80, "nextest": 90}, sub_status={"fmt": "passthrough"},
      raw_flags={"": ("--message-format",)}),
    # --- javascript / typescript -------------------------------------------------------
    R(5, "pnpm", ("pnpm",), ("exec", "i", "install", "list", "ls", "outdated", "run", "run-script"), "rtk pnpm",
      "PackageManager", 80),
    R(6, "npm", ("npm",), ("exec", "run", "run-script", "rum", "urn", "x"), "rtk npm", "PackageManager", 70),
    R(7, "npx", ("npx",), None, "rtk npx", "PackageManager", 70),
    R(17, "tsc", ("tsc",), None, "rtk tsc", "Build", 83, raw_flags={"": _WATCH}),
    R(18, "lint", ("eslint", "biome", "lint"), None, "rtk lint", "Build", 84, alt="lint",
      raw_flags={"": ("--format", "-f", "--reporter")}),
    R(19, "prettier", ("prettier",), None, "rtk prettier", "Build", 70),
    R(20, "next", ("next",), ("build",), "rtk next", "Build", 87),
    R(21, "jest", ("jest",), None, "rtk jest", "Tests", 99, raw_flags={"": ("--watch", "--watchAll", "--json")}),
    R(22, "vitest", ("vitest",), None, "rtk vitest", "Tests", 99,
      sub_status={"watch": "never", "dev": "never", "bench": "never"}, raw_flags={"": ("--watch", "-w", "--ui")}),
    R(23, "playwright", ("playwright",), None, "rtk playwright", "Tests", 94,
      sub_status={"codegen": "never", "show-report": "never", "open": "never", "show-trace": "never"},
      raw_flags={"": ("--ui", "--debug", "--headed")}),
    R(25, "prisma", ("prisma",), None, "rtk prisma", "Build", 88, sub_status={"studio": "never"}),
    R(55, "bun", ("bun",), ("install", "add", "remove", "test", "build", "run", "pm ls", "pm", "x"), "rtk bun",
      "PackageManager", 75, sub_savings={"test": 90, "install": 70, "pm ls": 70},
      sub_status={"run": "passthrough", "pm": "passthrough", "build": "passthrough"}, raw_flags={"": ("--watch",)}),
    R(56, "bunx", ("bunx",), None, "rtk bunx", "PackageManager", 70),
    R(57, "deno", ("deno",), ("test", "lint", "check", "run", "task", "compile", "install"), "rtk deno", "Build",
      75, sub_savings={"test": 90, "lint": 40, "check": 50},
      sub_status={"run": "passthrough", "task": "passthrough", "install": "passthrough", "compile": "passthrough"},
      raw_flags={"": ("--watch",)}),
    # --- files, search, text --------------------------------------------------------------
    R(8, "read", ("cat", "head", "tail"), None, "rtk read", "Files", 60, kind="command"),
    R(9, "grep", ("grep",), None, "rtk grep", "Files", 75, pipe="both"),
    R(10, "rg", ("rg",), None, "rtk rg", "Files", 75, pipe="both", raw_flags={"": ("--json", "--files")}),
    R(11, "ast-grep", ("ast-grep", "sg"), None, "rtk ast-grep", "Files", 85, raw_flags={"": ("--json",)},
      sub_status={"new": "never", "lsp": "never", "test": "never"}),
    R(12, "ls", ("ls",), None, "rtk ls", "Files", 65),
    R(13, "find", ("find",), None, "rtk find", "Files", 70, pipe="none"),
    R(14, "tree", ("tree",), None, "rtk tree", "Files", 70),
    R(15, "diff", ("diff",), None, "rtk diff", "Files", 60),
    R(16, "wc", ("wc",), None, "rtk wc", "Files", 60),
    # --- build and test tools -----------------------------------------------------------
    R(24, "ctest", ("ctest",), None, "rtk ctest", "Tests", 80),
    R(58, "gradle", ("gradlew", "gradle", "gradlew.bat"),
      ("test", "build", "clean", "assemble*", "install*", "check", "lint*", "dependencies"), "rtk gradlew", "Build",
      75, sub_savings={"test": 90, "build": 80, "check": 80}, raw_flags={"": ("--continuous", "-t")}),
    R(59, "mvn", ("mvn", "mvnw", "mvnw.cmd"),
      ("clean", "compile", "test-compile", "test", "integration-test", "package", "install", "verify", "deploy"),
      "rtk mvn", "Build", 82),
    R(60, "mvnd", ("mvnd",), None, "rtk mvnd", "Build", 82),
    R(39, "sbt", ("sbt",), ("testOnly", "testQuick", "test", "compile", "run", "clean", "assembly", "package"),
      "rtk sbt", "Build", 80, sub_savings={"test": 90, "testOnly": 90, "compile": 75}),
    R(62, "dotnet", ("dotnet",), ("test", "restore", "format"), "rtk dotnet", "Build", 70),
    R(62, "dotnet-build", ("dotnet",), ("build",), "rtk dotnet", "Build", 70, kind="family|toml"),
    # --- containers, cloud, network, db -------------------------------------------------
    R(26, "docker", ("docker",),
      ("ps", "images", "logs", "run", "exec", "build", "compose ps", "compose logs", "compose build"), "rtk docker",
      "Infra", 85, raw_flags={"run": _DOCKER_TTY, "exec": _DOCKER_TTY, "": ("--format",)}),
    R(27, "kubectl", ("kubectl",), ("get", "logs", "describe", "apply"), "rtk kubectl", "Infra", 85,
      raw_flags={"": ("-o", "--output", "-w", "--watch")}),
    R(28, "oc", ("oc",), ("get", "logs", "describe", "apply", "status", "adm"), "rtk oc", "Infra", 85,
      raw_flags={"": ("-o", "--output", "-w", "--watch")}),
    R(53, "aws", ("aws",), None, "rtk aws", "Infra", 80,
      sub_savings={"sts": 80, "s3": 60, "ec2": 85, "ecs": 90, "rds": 80, "cloudformation": 90, "logs": 88,
                   "lambda": 90, "iam": 85, "dynamodb": 70, "s3api": 75, "eks": 87, "sqs": 78, "secretsmanager": 75},
      raw_flags={"": ("--output", "--query")}),
    R(54, "psql", ("psql",), None, "rtk psql", "Infra", 75, requires=("-c", "--command", "-f", "--file", "-l", "--list")),
    R(29, "curl", ("curl",), None, "rtk curl", "Network", 70),
    R(30, "wget", ("wget",), None, "rtk wget", "Network", 65),
    # --- python ---------------------------------------------------------------------------
    R(31, "mypy", ("mypy",), None, "rtk mypy", "Build", 80),
    R(32, "ruff", ("ruff",), ("check", "format"), "rtk ruff", "Python", 80, sub_savings={"check": 80, "format": 75},
      raw_flags={"": ("--watch",)}),
    R(33, "sqlfluff", ("sqlfluff",), ("lint",), "rtk sqlfluff", "Python", 75),
    R(34, "pytest", ("pytest", "py.test"), None, "rtk pytest", "Python", 90),
    R(35, "pip", ("pip", "pip3"), ("list", "outdated", "install", "show"), "rtk pip", "Python", 75,
      sub_savings={"list": 75, "outdated": 80}),
    R(35, "uv-pip", ("uv",), ("pip list", "pip outdated", "pip show"), "rtk uv", "Python", 75,
      sub_savings={"pip outdated": 80}),
    R(36, "uv-run", ("uv",), ("run",), "rtk uv", "Python", 70),
    R(92, "uv-sync", ("uv",), ("sync", "pip install"), "rtk uv", "Python", 65, kind="toml"),
    # --- go ---------------------------------------------------------------------------------
    R(37, "go", ("go",), ("test", "build", "vet"), "rtk go", "Go", 85, sub_savings={"test": 90, "build": 80, "vet": 75},
      raw_flags={"": ("-json",)}),
    R(38, "golangci-lint", ("golangci-lint", "golangci"), ("run",), "rtk golangci-lint", "Go", 85),
    # --- ruby -----------------------------------------------------------------------------------
    R(40, "bundle", ("bundle",), ("install", "update"), "rtk bundle", "Ruby", 70, kind="toml"),
    R(41, "rake", ("rake", "rails"), ("test",), "rtk rake", "Ruby", 85, sub_savings={"test": 90}),
    R(42, "rspec", ("rspec",), None, "rtk rspec", "Tests", 65, raw_flags={"": ("--format", "-f")}),
    R(43, "rubocop", ("rubocop",), None, "rtk rubocop", "Build", 65, raw_flags={"": ("--format", "-f")}),
    # --- php ---------------------------------------------------------------------------------------
    R(44, "php-artisan", ("php",), ("artisan",), "rtk php", "Build", 70),
    R(45, "php-lint", ("php",), ("-l",), "rtk php", "Build", 60),
    R(46, "phpt", ("php",), ("run-tests.php",), "rtk phpt", "Tests", 99),
    R(47, "phpunit", ("phpunit",), None, "rtk phpunit", "Tests", 75),
    R(48, "phpstan", ("phpstan",), ("analyse", "analyze"), "rtk phpstan", "Build", 65),
    R(49, "pest", ("pest",), None, "rtk pest", "Tests", 80),
    R(50, "paratest", ("paratest",), None, "rtk paratest", "Tests", 80),
    R(51, "ecs", ("ecs",), None, "rtk ecs", "Build", 70),
    R(52, "pint", ("pint",), None, "rtk pint", "Build", 70),
    # --- data and remote shells (issue 16: jq, ssh) ---------------------------------------------------
    # jq: data passes through (only huge single values are viewed); may end a pipeline (curl ... | jq .).
    R(95, "jq", ("jq",), None, "rtk jq", "Files", 10, pipe="both",
      raw_flags={"": ("-r", "-j", "-c", "--raw-output", "--join-output", "--compact-output", "--seq", "--stream")}),
    # ssh: only HOST COMMAND forms (select() leaves interactive and -t/-N/-f/-W forms raw); folded when long.
    R(96, "ssh", ("ssh",), None, "rtk ssh", "Network", 30, raw_flags={"": ("-t", "-tt", "-N", "-f", "-W")}),
    # --- TOML-backed ----------------------------------------------------------------------------------
    R(63, "ansible-playbook", ("ansible-playbook",), None, "rtk ansible-playbook", "Infra", 70, kind="toml"),
    R(64, "brew", ("brew",), ("install", "upgrade"), "rtk brew", "PackageManager", 65, kind="toml"),
    R(65, "composer", ("composer",), ("install", "update", "require"), "rtk composer", "PackageManager", 65,
      kind="toml"),
    R(66, "df", ("df",), None, "rtk df", "System", 60, kind="toml"),
    R(67, "du", ("du",), None, "rtk du", "System", 60, kind="toml"),
    R(68, "fail2ban-client", ("fail2ban-client",), None, "rtk fail2ban-client", "Infra", 60, kind="toml"),
    R(69, "gcloud", ("gcloud",), None, "rtk gcloud", "Infra", 65, kind="toml", raw_flags={"": ("--format",)}),
    R(70, "hadolint", ("hadolint",), None, "rtk hadolint", "Build", 65, kind="toml"),
    R(71, "helm", ("helm",), None, "rtk helm", "Infra", 65, kind="toml", raw_flags={"": ("-o", "--output")}),
    R(72, "iptables", ("iptables",), None, "rtk iptables", "Infra", 60, kind="toml"),
    R(73, "make", ("make",), None, "rtk make", "Build", 65, kind="toml"),
    R(74, "markdownlint", ("markdownlint",), None, "rtk markdownlint", "Build", 65, kind="toml"),
    R(75, "mix", ("mix",), ("compile", "format"), "rtk mix", "Build", 65, kind="toml"),
    R(76, "ping", ("ping",), None, "rtk ping", "Network", 60, kind="toml", requires=("-c",)),
    R(77, "pio", ("pio",), ("run",), "rtk pio", "Build", 65, kind="toml"),
    R(78, "poetry", ("poetry",), ("install", "lock", "update"), "rtk poetry", "PackageManager", 65, kind="toml"),
    R(79, "pre-commit", ("pre-commit",), None, "rtk pre-commit", "Build", 65, kind="toml"),
    R(80, "ps", ("ps",), None, "rtk ps", "System", 60, kind="toml"),
    R(81, "pulumi", ("pulumi",), ("preview", "up", "destroy", "refresh", "stack"), "rtk pulumi", "Infra", 45,
      sub_savings={"up": 66, "destroy": 72, "refresh": 35, "preview": 25, "stack": 29}, kind="toml"),
    R(82, "quarto", ("quarto",), ("render",), "rtk quarto", "Build", 65, kind="toml"),
    R(83, "rsync", ("rsync",), None, "rtk rsync", "Network", 65, kind="toml"),
    R(84, "shellcheck", ("shellcheck",), None, "rtk shellcheck", "Build", 65, kind="toml"),
    R(85, "shopify", ("shopify",), ("theme push", "theme pull"), "rtk shopify", "Build", 65, kind="toml"),
    R(86, "sops", ("sops",), None, "rtk sops", "Infra", 60, kind="toml"),
    R(87, "swift", ("swift",), ("build", "test"), "rtk swift", "Build", 65, sub_savings={"test": 90},
      kind="family|toml"),
    R(88, "systemctl", ("systemctl",), ("status",), "rtk systemctl", "System", 65, kind="toml"),
    R(89, "terraform", ("terraform",), ("plan",), "rtk terraform", "Infra", 70, kind="toml"),
    R(90, "tofu", ("tofu",), ("fmt", "init", "plan", "validate"), "rtk tofu", "Infra", 70, kind="toml"),
    R(91, "trunk", ("trunk",), ("build",), "rtk trunk", "Build", 65, kind="toml"),
    R(93, "yamllint", ("yamllint",), None, "rtk yamllint", "Build", 65, kind="toml"),
    R(94, "liquibase", ("liquibase",), None, "rtk liquibase", "Infra", 65, kind="toml"),
]  # fmt: skip

# Options that take a value and may come before the subcommand, per tool.
GLOBAL_OPTS: dict[str, frozenset[str]] = {
    "git": frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env")),
    "yadm": frozenset(("-Y", "--yadm-dir", "--yadm-data", "--yadm-repo", "--yadm-config", "--yadm-encrypt")),
    "cargo": frozenset(("--color", "--config", "-Z", "-C")),
    "pnpm": frozenset(("-C", "--dir", "--filter", "-F", "--workspace-dir", "--reporter", "--loglevel")),
    "npm": frozenset(("-w", "--workspace", "--prefix", "--loglevel")),
    "docker": frozenset(
        ("-c", "--context", "-H", "--host", "--config", "-l", "--log-level", "-f", "--file", "-p",
         "--project-name", "--profile", "--env-file", "--project-directory", "--tlscacert", "--tlscert", "--tlskey")
    ),
    "kubectl": frozenset(
        ("-n", "--namespace", "--context", "--cluster", "--kubeconfig", "--user", "-s", "--server", "--as",
         "--request-timeout")
    ),
    "oc": frozenset(("-n", "--namespace", "--context", "--cluster", "--kubeconfig", "--user", "-s", "--server")),
    "aws": frozenset(("--region", "--profile", "--endpoint-url", "--cli-read-timeout", "--cli-connect-timeout",
                      "--ca-bundle", "--color")),
    "gh": frozenset(("-R", "--repo")),
    "glab": frozenset(("-R", "--repo")),
    "go": frozenset(("-C",)),
    "mvn": frozenset(("-f", "--file", "-s", "--settings", "-P", "--activate-profiles", "-pl", "--projects", "-T",
                      "--threads", "-rf", "--resume-from", "-gs", "--global-settings", "-l", "--log-file")),
    "gradle": frozenset(("-p", "--project-dir", "-b", "--build-file", "-c", "--settings-file", "-x",
                         "--exclude-task", "-g", "--gradle-user-home", "-I", "--init-script")),
    "dotnet": frozenset(()),
    "bun": frozenset(("--cwd", "-c", "--config")),
    "deno": frozenset(()),
    "uv": frozenset(("--directory", "--project", "--cache-dir", "--config-file", "--color")),
    "terraform": frozenset(("-chdir",)),
    "helm": frozenset(("-n", "--namespace", "--kube-context", "--kubeconfig")),
    "sbt": frozenset(()),
}  # fmt: skip
GLOBAL_OPTS["mvnw"] = GLOBAL_OPTS["mvnw.cmd"] = GLOBAL_OPTS["mvnd"] = GLOBAL_OPTS["mvn"]
GLOBAL_OPTS["gradlew"] = GLOBAL_OPTS["gradlew.bat"] = GLOBAL_OPTS["gradle"]

# Commands never rewritten (reference b.3): the first word, or first two words.
IGNORED_PREFIXES = frozenset(
    (
        "cd", "echo", "printf", "export", "source", ".", "mkdir", "rm", "mv", "cp", "chmod", "chown", "touch",
        "which", "type", "test", "[", "[[", "true", "false", ":", "sleep", "wait", "kill", "set", "unset", "sort",
        "uniq", "tr", "cut", "awk", "sed", "pwd", "bash", "sh", "zsh", "then", "else", "do", "for", "while", "if",
        "case", "fi", "done", "esac", "rtk", "alias", "unalias", "read", "local", "declare", "shift", "return",
        "exit", "trap", "eval", "history", "pushd", "popd", "ulimit", "umask", "hash", "jobs", "fg", "bg", "disown",
        "clear", "reset", "sudo", "doas", "su",
    )
)  # fmt: skip
IGNORED_PAIRS = frozenset((("python", "-c"), ("python3", "-c"), ("node", "-e"), ("ruby", "-e"), ("perl", "-e")))

# head/tail line counts rtk read reproduces exactly: ASCII digits, 1 to 2**63 - 1. Larger
# counts are errors for some heads and tails (GNU: over 2**64 - 1); 0 and suffixes (1K) are left alone.
MAX_LINE_COUNT = 2**63 - 1


def line_count(text: str) -> int:
    """The count in ``head -n TEXT`` when rtk read reproduces it exactly, else 0."""
    if not text or not text.isascii() or not text.isdigit():
        return 0
    n = int(text)
    return n if n <= MAX_LINE_COUNT else 0


# Pipeline consumers that only display text.
DISPLAY_ONLY = frozenset(("head", "tail", "less", "more", "cat"))


def index(rules: Iterable[Rule]) -> dict[str, list[Rule]]:
    """tool word -> the rules covering it, in table order."""
    out: dict[str, list[Rule]] = {}
    for r in rules:
        for t in r.tools:
            out.setdefault(t, []).append(r)
    return out


BY_TOOL = index(RULES)
