"""User configuration: defaults, the schema, loading ``config.toml`` and its fast cache.

The file is parsed with ``tomllib`` only when it exists and changed since the last
run; otherwise the validated values come from a ``marshal`` cache in the data dir,
which costs far less than importing ``tomllib``. A malformed file never stops rtk:
one error line names the file and the key, and the defaults apply.
"""

from __future__ import annotations

import marshal
import os
import sys

from rtk import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NOISE_DIRS = [
    ".git", "node_modules", "target", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", ".next", ".nuxt", "dist", "build", ".cache", ".turbo",
    ".vercel", ".gradle", ".idea", ".hg", ".svn", "vendor", ".terraform", ".eggs",
]  # fmt: skip

# section -> key -> (default, help). The type of the default is the key's type.
SCHEMA: dict[str, dict[str, tuple[Any, str]]] = {
    "tracking": {
        "enabled": (True, "record each run in the savings database"),
        "history_days": (90, "rows older than this many days are deleted"),
        "database_path": ("", "database file; empty means <data dir>/history.db (env RTK_DB_PATH wins)"),
    },
    "tee": {
        "enabled": (True, "keep the raw output of failed or shortened commands for recovery"),
        "mode": ("failures", '"failures": on failure or when the filter cut something; "always"; "never"'),
        "min_size": (500, "failed runs with less raw output than this (bytes) are not kept"),
        "keep_files": (100, "the most recent recovery files always kept, whatever their age and size"),
        "keep_hours": (24, "beyond keep_files: files older than this many hours are removed"),
        "max_total_mb": (200, "beyond keep_files: the oldest files are removed while all of them exceed this"),
        "max_file_size": (1048576, "an output up to this many bytes is kept as a plain file; a larger one compressed"),
        "max_file_mb": (16, "compressed MiB kept per recovery file (past it: head and tail, the lost lines named)"),
        "directory": ("", "recovery directory; empty means <data dir>/tee (env RTK_TEE_DIR wins)"),
    },
    "limits": {
        "git_list_tokens": (
            4000,
            "git status sections and the file lists of add/commit/pull/stash show: listed whole up to this many"
            " tokens; above it, counted by directory (exact counts)",
        ),
        "passthrough_max_lines": (200, "unrecognised output longer than this is shown head+tail"),
        "grep_budget": (
            6000,
            "grep/rg: tokens of matches shown in full; above it, exact counts per file and directory",
        ),
        "listing_budget": (
            4000,
            "ls/tree/find/fd/wc/du/lsof/last/systemctl status, pip/uv/poetry package lists, npm/pnpm ls: tokens"
            " of entries shown in full; above it, exact counts per directory (or name prefix, command)",
        ),
        "grep_max_line": (2000, "grep/rg: a line longer than this (minified code) is cut around the match"),
        "json_budget": (
            4000,
            "curl/wget/jq/rtk json: tokens of a JSON document shown whole; above it array items keep their"
            " scalar members (nested containers counted), and past that too arrays are cut at json_max_items",
        ),
        "json_max_items": (30, "curl/wget/jq/rtk json: array items shown when even the scalars exceed json_budget"),
        "json_max_string": (400, "curl/wget/rtk json: characters shown of a long string value"),
        "log_max_lines": (200, "rtk log: distinct lines shown (errors and warnings always shown)"),
        "buffer_max_bytes": (
            6291456,
            "output a whole-output filter may hold in memory (bytes); past it, or past buffer_max_lines,"
            " the output is folded as it streams (the live fold of rtk run; memory stays bounded)",
        ),
        "buffer_max_lines": (150000, "lines a whole-output filter may hold (0: no line limit)"),
        # every test runner (pytest, cargo test, nextest, go test, ctest, vitest, jest, rspec, minitest, rtk test...)
        "test_max_failures": (30, "failing tests shown in full (the rest by name and first line)"),
        "test_failure_lines": (40, "lines kept per failing test: assertion, diff, user-code frames"),
        # rust, go, c/c++ (cargo, go, golangci-lint, make, gcc/clang, cmake --build, ctest)
        "build_max_errors": (
            50,
            "cargo/make/gcc: error blocks shown in full (the rest one line each: place, code, message;"
            " past lint_budget tokens counted per file)",
        ),
        "build_error_lines": (60, "cargo/go/make/gcc: lines shown per error block"),
        "build_max_warnings": (60, "golangci-lint: findings listed (cargo/make/gcc warnings: lint_budget)"),
        # javascript / typescript and the generic runners
        "lint_max_per_rule": (50, "prettier: files listed (eslint/biome/oxlint: lint_budget)"),
        "list_max_items": (
            40,
            "npm outdated, bun install, next routes, vite outputs: rows listed (npm ls: listing_budget)",
        ),
        # python
        "lint_budget": (
            6000,
            "ruff/mypy: tokens of diagnostics listed in full; above it, the codes that do not fit are counted (exact);"
            " eslint/biome/oxlint: tokens of problems (above it counted per rule);"
            " cargo/make/gcc: tokens of warnings (above it counted per lint or -W flag) and of the one-line errors"
            " past build_max_errors (above it counted per file)",
        ),
    },
    "read": {
        "fold": (True, "rtk read folds a long log-like file (rtk read FILE --raw: the exact bytes)"),
        "fold_min_lines": (200, "rtk read: files (and tail windows) with at most this many lines are never folded"),
    },
    "filters": {
        "disabled": ([], "filter ids never applied (their commands run raw)"),
        "noise_dirs": (NOISE_DIRS, "directories hidden (and counted) by ls, tree and find"),
    },
    "hooks": {
        "exclude_commands": ([], 'commands never rewritten: "git rebase", or "^regex"'),
        "transparent_prefixes": ([], 'wrappers peeled before matching, e.g. "direnv exec ."'),
        "allow": ([], 'agents other than Claude Code: commands rtk hooks may approve, e.g. "git status", "git log:*"'),
        "ask": ([], "agents other than Claude Code: commands whose rewrite is never approved by the hook"),
        "deny": ([], "agents other than Claude Code: commands the hooks leave alone (the agent decides)"),
    },
    "display": {
        "max_width": (100, "width of tables and graphs in rtk gain"),
    },
    "economics": {
        "prices": (
            [],
            "rtk cc-economics: prices tried before the built-in table, USD per million tokens, e.g."
            ' "claude-sonnet-4*: input=3 output=15 cache_write=3.75 cache_write_1h=6 cache_read=0.30"',
        ),
    },
}

_CACHE_VERSION = 3  # 2: negative integers rejected; 3: huge integers and NUL bytes rejected
_CACHE_SIZE_MAX = 8 << 20  # bytes: a larger file is no cache rtk wrote
MAX_FILE_BYTES = 1 << 20  # a config file larger than this is not read
MAX_INT = 1 << 53  # larger integers are rejected (C-level sizes and time arithmetic overflow)
_values: dict[str, Any] | None = None
_loaded_from: str | None = None
_problems: list[str] = []


def defaults() -> dict[str, Any]:
    """Flat ``section.key`` -> default value."""
    return {f"{s}.{k}": v[0] for s, keys in SCHEMA.items() for k, v in keys.items()}


def _type_name(v: Any) -> str:
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, int):
        return f"an integer (0 or more), at most {MAX_INT}"
    if isinstance(v, list):
        return "a list of strings, without NUL characters"
    return "a string without NUL characters"


def _valid(default: Any, value: Any) -> bool:
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):  # counts, sizes and limits: a negative one would slice from the end
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_INT
    if isinstance(default, list):  # a NUL byte in a path or pattern raises ValueError far from here
        return isinstance(value, list) and all(isinstance(x, str) and "\0" not in x for x in value)
    return isinstance(value, str) and "\0" not in value


def validate(doc: dict[str, Any], path: str) -> tuple[dict[str, Any], list[str]]:
    """Check a parsed document against :data:`SCHEMA`.

    Returns the effective flat values (defaults where the file is wrong) and one
    message per problem, each naming the file and the key.
    """
    values = defaults()
    problems: list[str] = []
    for section, body in doc.items():
        if section not in SCHEMA:
            problems.append(f"rtk: config {path}: unknown section [{section}] ignored")
            continue
        if not isinstance(body, dict):
            problems.append(f"rtk: config {path}: [{section}] must be a table; using defaults")
            continue
        for key, value in body.items():
            spec = SCHEMA[section].get(key)
            if spec is None:
                problems.append(f"rtk: config {path}: unknown key {section}.{key} ignored")
                continue
            if not _valid(spec[0], value):
                problems.append(
                    f"rtk: config {path}: {section}.{key} must be {_type_name(spec[0])}"
                    f" (got {_show(value)}); using the default"
                )
                continue
            values[f"{section}.{key}"] = value
    mode = values["tee.mode"]
    if mode not in ("failures", "always", "never"):
        problems.append(f'rtk: config {path}: tee.mode must be "failures", "always" or "never" (got {mode!r})')
        values["tee.mode"] = "failures"
    for e in values["hooks.exclude_commands"]:
        if e.startswith("^"):
            problems += _exclude_regex_problem(e, path)
    return values, problems


def _exclude_regex_problem(expr: str, path: str) -> list[str]:
    """What is wrong with a ``^regex`` of ``hooks.exclude_commands`` (the hook searches it in bounded time only)."""
    import re

    from rtk.rewrite import saferegex

    try:
        re.compile(expr)
    except (re.error, RecursionError, OverflowError) as e:
        return [f"rtk: config {path}: hooks.exclude_commands: {expr} is not a regular expression ({e}); ignored"]
    cost, why = saferegex.check(expr)
    if cost is not None:
        return []
    return [
        f"rtk: config {path}: hooks.exclude_commands: {expr} cannot be searched in bounded time ({why});"
        " every command is left as written while it is there"
    ]


def _show(value: Any) -> str:
    """A short repr of a rejected value (a huge one is not echoed whole)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of about {round(value.bit_length() * 0.30103)} digits"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _parse(path: str) -> tuple[dict[str, Any], list[str]]:
    """Read, parse and validate ``path``; any failure gives the defaults and one message."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        return defaults(), [f"rtk: config {path}: cannot read ({e.strerror}); using defaults"]
    if len(data) > MAX_FILE_BYTES:
        return defaults(), [f"rtk: config {path}: larger than {MAX_FILE_BYTES} bytes; using defaults"]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return defaults(), [f"rtk: config {path}: not UTF-8 (byte {e.start}: {e.reason}); using defaults"]
    import tomllib

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        why = f"not valid TOML ({e})"
    except RecursionError:
        why = "not valid TOML (nested too deeply)"
    except ValueError as e:  # e.g. an integer with more digits than Python converts
        why = f"not valid TOML ({e})"
    except Exception as e:  # fail open: nothing in a config file may stop a command
        why = f"cannot be parsed ({type(e).__name__}: {e})"
    else:
        try:
            return validate(doc, path)
        except Exception as e:  # pragma: no cover - validate only inspects parsed values
            why = f"cannot be checked ({type(e).__name__}: {e})"
    return defaults(), [f"rtk: config {path}: {why}; using defaults"]


def _cached(got: Any, key: tuple[Any, ...]) -> tuple[dict[str, Any], list[str]] | None:
    """The values and problems of a cache entry written for ``key``; None unless it is exactly that."""
    if type(got) is not tuple or len(got) != 3 or got[0] != key:
        return None
    values, problems = got[1], got[2]
    if type(values) is not dict or type(problems) is not list or not all(type(p) is str for p in problems):
        return None
    want = defaults()
    if values.keys() != want.keys() or not all(_valid(d, values[k]) for k, d in want.items()):
        return None  # a damaged or foreign cache: parse the file again
    if values["tee.mode"] not in ("failures", "always", "never"):
        return None
    return values, problems


def _cache_path() -> str:
    return os.path.join(paths.data_dir(), "config.cache")


def load(*, report: bool = True) -> dict[str, Any]:
    """Load (once per process) and return the effective flat configuration."""
    global _values, _loaded_from, _problems
    if _values is not None:
        return _values
    path = paths.config_file()
    try:
        st = os.stat(path)
    except (OSError, ValueError):  # missing, or a path with a NUL byte
        _values, _loaded_from, _problems = defaults(), None, []
        return _values
    key = (_CACHE_VERSION, path, st.st_mtime_ns, st.st_size, st.st_ino)
    if st.st_mode & 0o170000 != 0o100000:  # a directory, a FIFO (open would block)...
        values, problems = defaults(), [f"rtk: config {path}: not a regular file; using defaults"]
        _values, _loaded_from, _problems = values, path, problems
        if report:
            print(problems[0], file=sys.stderr)
        return values
    cache = _cache_path()
    try:
        raw = paths.read_regular(cache, _CACHE_SIZE_MAX)  # a FIFO planted there would block every command
        hit = _cached(marshal.loads(raw), key) if raw is not None else None
        if hit is not None:
            _values, _loaded_from, _problems = hit[0], path, hit[1]
            return _values
    except Exception:  # unreadable, truncated or foreign cache: parse the file
        pass
    values, problems = _parse(path)
    _values, _loaded_from, _problems = values, path, problems
    if report:
        for p in problems:
            print(p, file=sys.stderr)
    try:
        paths.ensure_dir(paths.data_dir())
        paths.replace_with(cache, marshal.dumps((key, values, problems)))  # never through a planted symlink
    except (OSError, ValueError):
        pass
    return values


def get(key: str) -> Any:
    """One effective value, e.g. ``get("tee.keep_files")``."""
    return load()[key]


def loaded_from() -> str | None:
    """The config file the values came from, or None when only defaults apply."""
    load()
    return _loaded_from


def problems() -> list[str]:
    """Problems found in the config file (empty when it is fine or absent)."""
    load()
    return list(_problems)


def reset() -> None:
    """Forget the loaded values (tests, and after ``rtk config --init``)."""
    global _values, _loaded_from, _problems
    _values, _loaded_from, _problems = None, None, []


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_str(x) for x in v) + "]"
    return _toml_str(v)


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def default_file_text() -> str:
    """A config file holding every key, live, at its default, each under a comment saying what it does."""
    out = [
        "# rtk configuration (written by `rtk config --init`).",
        "# Every `key = value` line below is live and holds rtk's default: edit a value and it applies.",
        "# Lines starting with # are comments. Delete the keys you do not change, so that the defaults",
        "# of a newer rtk apply to them.",
        "",
    ]
    for section, keys in SCHEMA.items():
        out.append(f"[{section}]")
        for key, (default, help_) in keys.items():
            out.append(f"# {help_}")
            out.append(f"{key} = {_toml_value(default)}")
        out.append("")
    return "\n".join(out)


def render_value(v: Any) -> str:
    """A value as it would be written in TOML."""
    return _toml_value(v)
