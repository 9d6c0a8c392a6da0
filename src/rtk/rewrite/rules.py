"""The rewrite rule table (data): which raw commands map to which rtk command.

Each :class:`Rule` says which tool words and subcommands it covers, the rtk form,
its category and estimated savings (percent of output tokens, the claim history
analysis reports), its status and how it may sit in a pipeline:

- ``status``: ``rewrite`` (rtk filters it), ``passthrough`` (rewritten so the run is
  tracked, but rtk does not shorten it: credited 0), ``never`` (left alone).
  ``sub_status`` overrides it per subcommand; ``raw_flags`` lists flags with which a
  command is left alone (interactive or machine-readable modes; ``--output=json`` names a flag
  with that value, written either way), unless one of ``views`` (flags with a value that
  asks for a human view: ``aws --query ... --output table``) is present; ``requires``
  lists flags of which one must be present (``psql`` without ``-c`` is a REPL);
  ``min_words`` is how many words that are not options (after the tool's
  ``GLOBAL_OPTS``) must follow (``ssh host`` alone is interactive, ``ssh host cmd`` is not).
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
reference section b.2 row by row (the ``row`` field), less the tools rtk has no filter
for; rules for filters still to come are listed in ``FUTURE`` (tests/rewrite/test_reach.py
checks both directions: every filter has a rule, every rule a filter or a ``FUTURE`` entry).
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
        "min_words",
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
        "views",
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
        min_words: int = 0,
        views: tuple[str, ...] = (),
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
        self.min_words = min_words
        self.views = views

    def __repr__(self) -> str:
        return f"Rule({self.id!r})"


R = Rule
_WATCH = ("--watch", "-w", "--watchAll")
# pnpm/yarn words that start a dev server, a watcher or an interactive session: left alone.
_PM_LIVE = dict.fromkeys(
    ("dev", "start", "serve", "watch", "preview", "storybook", "develop", "init", "create", "node", "repl",
     "login", "logout", "link", "publish", "patch", "upgrade-interactive", "dlx"),
    "never",
)  # fmt: skip
_PM_RAW = ("--json", "--parseable", "--watch", "--interactive")
_DOCKER_TTY = ("-i", "-t", "-it", "-ti", "--interactive", "--tty")

# gh subcommands rewritten (famgh): filtered forms, then forms only tracked (sub_status passthrough).
_GH_SUBS = ("pr list", "pr view", "pr checks", "pr diff", "issue list", "issue view", "run list", "run view",
            "repo view", "release list", "api", "pr status", "issue status", "release view")  # fmt: skip

RULES: list[Rule] = [
    # --- git and hosting -----------------------------------------------------------
    R(1, "git", ("git",),
      ("status", "log", "diff", "show", "add", "commit", "checkout", "push", "pull", "branch", "fetch", "stash show",
       "stash", "worktree"),
      "rtk git", "Git", 70, sub_savings={"diff": 80, "show": 80, "add": 59, "commit": 59},
      raw_flags={"add": ("-p", "--patch", "-i", "--interactive", "-e", "--edit"),
                 "commit": ("-p", "--patch", "--interactive"), "checkout": ("-p", "--patch"),
                 "stash": ("-p", "--patch")}),
    # --- gh (issue 16, famgh): the forms that print without asking; filtered ones credited, the rest tracked.
    # Not here, so never rewritten: prompts (`gh pr create` without --fill/--body, merge, checkout, auth, ...)
    # and watch modes (`gh run watch`, `gh pr checks --watch`).
    R(2, "gh", ("gh",), _GH_SUBS, "rtk gh", "GitHub", 40,
      sub_savings={"pr checks": 60, "run view": 60, "pr diff": 25, "pr list": 18, "issue list": 18,
                   "run list": 10, "release list": 20},
      sub_status={"pr status": "passthrough", "issue status": "passthrough", "release view": "passthrough"},
      raw_flags={"": ("--json", "--jq", "-q", "--template", "--web", "--watch"),
                 **{s: ("-t", "-w") for s in _GH_SUBS if s != "run list"}, "run list": ("-t",)}),
    R(2, "gh-create", ("gh",), ("pr create",), "rtk gh", "GitHub", 1, status="passthrough",
      requires=("--fill", "-f", "--fill-first", "--body", "-b", "--body-file", "-F"), raw_flags={"": ("--web", "-w")}),
    R(3, "glab", ("glab",), ("mr", "issue", "ci", "pipeline", "api", "release"), "rtk glab", "GitLab", 82,
      sub_savings={"mr": 87, "ci": 82, "issue": 80}, raw_flags={"": ("--output", "-F")}),
    # --- rust ------------------------------------------------------------------------
    R(4, "cargo", ("cargo",), ("build", "test", "clippy", "check", "doc", "fmt", "install", "nextest"), "rtk cargo",
      "Cargo", 80, sub_savings={"test": 90, "check": 80, "nextest": 90}, sub_status={"fmt": "passthrough"},
      raw_flags={"": ("--message-format",)}),
    # --- javascript / typescript -------------------------------------------------------
    # pnpm and yarn run a script or a local binary for any other word (`yarn build`, `pnpm lint`):
    # every form is theirs, except dev servers, watchers and interactive ones.
    R(5, "pnpm", ("pnpm",), None, "rtk pnpm", "PackageManager", 80, sub_status=_PM_LIVE,
      raw_flags={"": _PM_RAW}),
    R(5, "yarn", ("yarn",), None, "rtk yarn", "PackageManager", 80, sub_status=_PM_LIVE,
      raw_flags={"": _PM_RAW}),
    R(6, "npm", ("npm",),
      ("exec", "run", "run-script", "rum", "urn", "x", "test", "t", "tst", "install", "i", "ci", "clean-install",
       "ic", "install-clean", "isntall", "add", "ls", "list", "ll", "la", "outdated"),
      "rtk npm", "PackageManager", 70, raw_flags={"": _PM_RAW}),
    R(7, "npx", ("npx",), None, "rtk npx", "PackageManager", 70),
    R(17, "tsc", ("tsc",), None, "rtk tsc", "Build", 83, raw_flags={"": _WATCH}),
    R(18, "lint", ("eslint", "biome", "oxlint"), None, "rtk lint", "Build", 84, alt="lint",
      raw_flags={"": ("--format", "-f", "--reporter")}),
    R(19, "prettier", ("prettier",), None, "rtk prettier", "Build", 70),
    R(20, "next", ("next",), ("build",), "rtk next", "Build", 87),
    R(21, "jest", ("jest",), None, "rtk jest", "Tests", 99, raw_flags={"": ("--watch", "--watchAll", "--json")}),
    R(21, "mocha", ("mocha",), None, "rtk mocha", "Tests", 90, raw_flags={"": ("--watch", "-w")}),
    # node runs a script (or a REPL) unless --test: only the test runner is rtk's.
    R(21, "node-test", ("node",), None, "rtk node", "Tests", 90, requires=("--test",),
      raw_flags={"": ("--watch", "--watch-path")}),
    R(20, "vite", ("vite",), ("build",), "rtk vite", "Build", 80),
    R(22, "vitest", ("vitest",), None, "rtk vitest", "Tests", 99,
      sub_status={"watch": "never", "dev": "never", "bench": "never"}, raw_flags={"": ("--watch", "-w", "--ui")}),
    R(23, "playwright", ("playwright",), None, "rtk playwright", "Tests", 94,
      sub_status={"codegen": "never", "show-report": "never", "open": "never", "show-trace": "never"},
      raw_flags={"": ("--ui", "--debug", "--headed")}),
    R(25, "prisma", ("prisma",), None, "rtk prisma", "Build", 88, sub_status={"studio": "never"}),
    R(55, "bun", ("bun",), ("install", "add", "remove", "test", "build", "run", "pm ls", "pm", "x"), "rtk bun",
      "PackageManager", 75, sub_savings={"test": 90, "install": 70, "pm ls": 70},
      sub_status={"run": "passthrough", "pm": "passthrough", "build": "passthrough"}, raw_flags={"": ("--watch",)}),
    R(57, "deno", ("deno",), ("test", "lint", "check", "run", "task", "compile", "install"), "rtk deno", "Build",
      75, sub_savings={"test": 90, "lint": 40, "check": 50},
      sub_status={"run": "passthrough", "task": "passthrough", "install": "passthrough", "compile": "passthrough"},
      raw_flags={"": ("--watch",)}),
    # --- files, search, text --------------------------------------------------------------
    R(8, "read", ("cat", "head", "tail"), None, "rtk read", "Files", 60, kind="command"),
    R(9, "grep", ("grep",), None, "rtk grep", "Files", 75, pipe="both"),
    R(10, "rg", ("rg",), None, "rtk rg", "Files", 75, pipe="both", raw_flags={"": ("--json", "--files")}),
    R(12, "ls", ("ls",), None, "rtk ls", "Files", 65),
    R(13, "find", ("find",), None, "rtk find", "Files", 70, pipe="none"),
    R(13, "fd", ("fd", "fdfind"), None, "rtk fd", "Files", 70, pipe="none"),
    R(14, "tree", ("tree",), None, "rtk tree", "Files", 70),
    R(15, "diff", ("diff",), None, "rtk diff", "Files", 60),
    R(16, "wc", ("wc",), None, "rtk wc", "Files", 60),
    # `env` alone lists the environment (secrets masked); `env VAR=1 cmd` is a wrapper, peeled.
    R(16, "env", ("env",), None, "rtk env", "System", 60),
    # --- build and test tools -----------------------------------------------------------
    R(24, "ctest", ("ctest",), None, "rtk ctest", "Tests", 80),
    R(73, "cc", ("gcc", "g++", "cc", "c++", "clang", "clang++"), None, "rtk gcc", "Build", 60),
    R(73, "cmake", ("cmake",), ("--build",), "rtk cmake", "Build", 70),
    R(58, "gradle", ("gradlew", "gradle"),
      ("test", "build", "clean", "assemble*", "install*", "check", "lint*", "dependencies"), "rtk gradlew", "Build",
      75, sub_savings={"test": 90, "build": 80, "check": 80}, raw_flags={"": ("--continuous", "-t")}),
    R(59, "mvn", ("mvn", "mvnw"),
      ("clean", "compile", "test-compile", "test", "integration-test", "package", "install", "verify", "deploy"),
      "rtk mvn", "Build", 82),
    # `sbt` alone and `sbt console` are interactive; `sbt ~compile` watches (the TOML filter refuses `~`).
    R(39, "sbt", ("sbt",), None, "rtk sbt", "Build", 80, sub_savings={"test": 90, "testOnly": 90, "compile": 75},
      sub_status={"": "never", "console": "never", "consoleQuick": "never", "consoleProject": "never", "shell": "never"},
      kind="toml"),
    R(62, "dotnet", ("dotnet",), ("test",), "rtk dotnet", "Build", 70, kind="toml"),
    R(62, "dotnet-build", ("dotnet",), ("build", "publish", "pack"), "rtk dotnet", "Build", 70, kind="toml"),
    # --- containers, cloud, network, db -------------------------------------------------
    # docker run/exec print the program's own output (rtk drops only the client's --help pointer):
    # little to save; -i/-t forms need the terminal and stay (raw_flags, and the TOML filter refuses them).
    R(26, "docker", ("docker",),
      ("ps", "images", "logs", "run", "exec", "build", "compose ps", "compose logs", "compose build"), "rtk docker",
      "Infra", 85, sub_savings={"run": 5, "exec": 5, "build": 30},
      raw_flags={"run": _DOCKER_TTY, "exec": _DOCKER_TTY, "": ("--format",)}),
    R(27, "kubectl", ("kubectl",), ("get", "logs", "describe", "apply"), "rtk kubectl", "Infra", 85,
      raw_flags={"": ("-o", "--output", "-w", "--watch")}),
    R(53, "aws", ("aws",), None, "rtk aws", "Infra", 80,
      sub_savings={"sts": 80, "s3": 60, "ec2": 85, "ecs": 90, "rds": 80, "cloudformation": 90, "logs": 88,
                   "lambda": 90, "iam": 85, "dynamodb": 70, "s3api": 75, "eks": 87, "sqs": 78, "secretsmanager": 75},
      raw_flags={"": ("--output=json", "--output=yaml", "--output=yaml-stream", "--query")},
      views=("--output=table", "--output=text")),
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
    R(92, "uv-sync", ("uv",), ("sync", "pip install", "pip sync", "pip uninstall"), "rtk uv", "Python", 65),
    # --- go ---------------------------------------------------------------------------------
    R(37, "go", ("go",), ("test", "build", "vet"), "rtk go", "Go", 85, sub_savings={"test": 90, "build": 80, "vet": 75},
      raw_flags={"": ("-json",)}),
    R(38, "golangci-lint", ("golangci-lint",), ("run",), "rtk golangci-lint", "Go", 85),
    # --- ruby -----------------------------------------------------------------------------------
    # "": bare `bundle` (or with options only) is `bundle install`.
    R(40, "bundle", ("bundle",), ("install", "update", ""), "rtk bundle", "Ruby", 70,
      raw_flags={"": ("--version", "-v", "--help", "-h")}),
    R(41, "rake", ("rake", "rails"), ("test",), "rtk rake", "Ruby", 85, sub_savings={"test": 90}),
    R(42, "rspec", ("rspec",), None, "rtk rspec", "Tests", 65, raw_flags={"": ("--format", "-f")}),
    R(43, "rubocop", ("rubocop",), None, "rtk rubocop", "Build", 65, raw_flags={"": ("--format", "-f")}),
    # --- php ---------------------------------------------------------------------------------------
    R(45, "php-lint", ("php",), ("-l",), "rtk php", "Build", 60),
    R(47, "phpunit", ("phpunit",), None, "rtk phpunit", "Tests", 75),
    # --- TOML-backed ----------------------------------------------------------------------------------
    R(63, "ansible-playbook", ("ansible-playbook",), None, "rtk ansible-playbook", "Infra", 70, kind="toml"),
    R(65, "composer", ("composer",), ("install", "update", "require", "remove", "validate", "dump-autoload"),
      "rtk composer", "PackageManager", 65, sub_savings={"validate": 30, "dump-autoload": 20},
      raw_flags={"": ("--format", "-f")}),
    R(66, "df", ("df",), None, "rtk df", "System", 60, kind="toml"),
    R(67, "du", ("du",), None, "rtk du", "System", 60, kind="toml"),
    R(71, "helm", ("helm",), None, "rtk helm", "Infra", 65, kind="toml", raw_flags={"": ("-o", "--output")}),
    R(72, "iptables", ("iptables",), None, "rtk iptables", "Infra", 60, kind="toml"),
    R(73, "make", ("make",), None, "rtk make", "Build", 65),
    R(74, "markdownlint", ("markdownlint",), None, "rtk markdownlint", "Build", 65, kind="toml"),
    R(76, "ping", ("ping",), None, "rtk ping", "Network", 60, kind="toml", requires=("-c",)),
    R(78, "poetry", ("poetry",), ("install",), "rtk poetry", "PackageManager", 65),
    R(79, "pre-commit", ("pre-commit",), None, "rtk pre-commit", "Build", 65, kind="toml"),
    R(80, "ps", ("ps",), None, "rtk ps", "System", 60, kind="toml"),
    R(83, "rsync", ("rsync",), None, "rtk rsync", "Network", 65, kind="toml"),
    R(84, "shellcheck", ("shellcheck",), None, "rtk shellcheck", "Build", 65, kind="toml"),
    R(88, "systemctl", ("systemctl",), ("status",), "rtk systemctl", "System", 65, kind="toml"),
    R(89, "terraform", ("terraform",), ("plan",), "rtk terraform", "Infra", 70, kind="toml"),
    R(93, "yamllint", ("yamllint",), None, "rtk yamllint", "Build", 65, kind="toml"),
    # --- jq, just, ssh (issue 16) -------------------------------------------------------------
    # jq: data passes through (only huge single values are viewed); may end a pipeline (curl ... | jq .).
    R(95, "jq", ("jq",), None, "rtk jq", "Files", 10, pipe="both",
      raw_flags={"": ("-r", "-j", "-c", "--raw-output", "--join-output", "--compact-output", "--seq", "--stream")}),
    # just: recipe runs and --list are filtered; interactive forms (--choose, --edit) and those that print
    # the justfile or data (--dump, --json, --evaluate, --show...) stay native (the filter passes them too).
    R(96, "just", ("just",), None, "rtk just", "Build", 60,
      raw_flags={"": ("--choose", "--edit", "-e", "--json", "--dump", "--evaluate", "--show", "--summary",
                      "--variables", "--groups", "--usage", "--completions", "--man", "--changelog", "--init",
                      "--fmt")}),
    R(97, "ssh", ("ssh",), None, "rtk ssh", "Network", 40, min_words=2,
      raw_flags={"": ("-t", "-tt", "-N", "-f", "-L", "-R", "-D", "-W", "-O", "-G", "-V")}),
]  # fmt: skip

# A script run by an interpreter or directly (python3 x.py, node x.js, bash ./deploy.sh, ./run.sh):
# not in RULES (it is no tool's rule); the engine applies it where no tool rule serves the command
# (matching.script_form says which forms are scripts). ``rtk run`` streams it, folded when long.
SCRIPT = Rule(0, "script", ("python", "python3", "node", "bash", "sh", "zsh", "ruby", "perl"), None, "rtk run",
              "Scripts", 60, kind="command")  # fmt: skip

# tail -f/-F/--follow: not rtk read's (which reproduces tail windows): the tail-follow TOML filter runs it
# live, folded as it streams. The engine applies it to the tail forms the read rule declines.
TAIL_FOLLOW = Rule(8, "tail-follow", ("tail",), None, "rtk tail", "Files", 60, kind="toml")

# Rules whose filter family other work of issue 16 adds: tool word -> the family to come.
# Their rules stay inactive until that family registers the word (engine.active). Only glab is
# left: it is not packaged here and no real output of it could be obtained (issue 16).
FUTURE: dict[str, str] = {"glab": "GitLab CLI"}

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
    "deno": frozenset(("-L", "--log-level")),
    "uv": frozenset(("--directory", "--project", "--cache-dir", "--config-file", "--color")),
    "terraform": frozenset(("-chdir",)),
    "helm": frozenset(("-n", "--namespace", "--kube-context", "--kubeconfig")),
    "sbt": frozenset(()),
    "yarn": frozenset(("--cwd",)),
    "ssh": frozenset(("-b", "-B", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o",
                      "-P", "-p", "-Q", "-R", "-S", "-W", "-w")),
}  # fmt: skip
# Options that may come before a flag subcommand (``php -d display_errors=1 -l f.php``), for
# matching a rule only: value-taking options (also glued, ``-dX=1``), then flags without a value.
# Never used to strip a command for permission checks (``-d auto_prepend_file=...`` changes what runs).
SUB_FLAG_OPTS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "php": (frozenset(("-c", "-d", "-z")), frozenset(("-n", "-e", "-H", "-q"))),
}
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
