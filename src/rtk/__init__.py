"""rtk: run a command and print a compact version of its output for LLM agents.

``COMMANDS`` is here so that the dispatcher (``rtk.__main__``) and the rewrite
engine both read it without importing each other, at no import cost.
"""

__version__ = "0.1.0"

# rtk's own commands (as opposed to wrapped tools): name -> (module, summary).
# Each module has ``main(args: list[str]) -> int`` and is imported only when run.
COMMANDS: dict[str, tuple[str, str]] = {
    "bypass": ("rtk.commands.proxy", "run a command raw (no filter) but track it (the upstream name of proxy)"),
    "cc-economics": (
        "rtk.commands.cc_economics",
        "Claude Code tokens and cost per day and model, beside rtk's savings",
    ),
    "config": ("rtk.commands.config_cmd", "show the effective configuration, or write a default file"),
    "deps": ("rtk.commands.deps", "summarise dependency manifests (Cargo.toml, package.json, pyproject.toml...)"),
    "discover": ("rtk.commands.discover", "commands past agent sessions ran raw that rtk would have shortened"),
    "doctor": ("rtk.commands.doctor", "check each agent's rtk hook: registered, runs, answers a sample call"),
    "err": ("rtk.commands.err_cmd", "run a command, show only its errors and warnings with context"),
    "filters": ("rtk.commands.filters_cmd", "the TOML filters: list, show NAME, validate [FILE]"),
    "gain": ("rtk.commands.gain", "token savings recorded so far"),
    "hook": ("rtk.hook", "answer a coding agent's pre-tool hook (JSON on stdin): rtk hook claude|codex|..."),
    "init": (
        "rtk.commands.init_cmd",
        "set rtk up for coding agents: --agent NAME, --global, --dry-run, --show, --uninstall",
    ),
    "json": ("rtk.commands.json_cmd", "a compact view of a JSON file: --depth N, --keys-only"),
    "learn": ("rtk.commands.learn", "failed-then-corrected commands in past sessions, as rules for the agent"),
    "log": ("rtk.commands.log", "a log file with repeated lines counted once, errors and warnings summarised"),
    "pipe": ("rtk.commands.pipe", "filter standard input with a filter: cmd 2>&1 | rtk pipe [-f cargo-test]"),
    "proxy": ("rtk.commands.proxy", "run a command raw (no filter) but track it"),
    "recall": (
        "rtk.commands.recall",
        "list the raw outputs rtk kept, print one back by id: --full, --lines A-B, --grep PATTERN",
    ),
    "read": (
        "rtk.commands.read",
        "print files like cat/head/tail (exact bytes; long logs folded unless --raw); --level minimal|aggressive",
    ),
    "rewrite": ("rtk.rewrite.cli", "print the rtk form of a command line (for agent hooks)"),
    "run": ("rtk.commands.run_cmd", 'run a shell line (-c "...") or a command and filter its output, exact exit code'),
    "session": ("rtk.commands.session_cmd", "recent agent sessions: commands, how many went through rtk, tokens saved"),
    "smart": ("rtk.commands.smart", "a two-line description of a source file"),
    "summary": ("rtk.commands.summary_cmd", "run a command, show the exit code, first error block and last lines"),
    "test": ("rtk.commands.test_cmd", "run a test command, show only its failures and final counts"),
    "trust": ("rtk.commands.trust_cmd", "let this project's .rtk/filters apply (records their SHA-256)"),
    "untrust": ("rtk.commands.untrust", "stop trusting project filter files"),
    "verify": ("rtk.commands.verify", "run the inline tests of every TOML filter"),
}
