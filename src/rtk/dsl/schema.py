"""Validation of TOML filter files: fields, types, regexes, anchoring, and each filter's first words.

``validate(doc, path)`` turns a parsed file into plain filter definitions (dicts
of str/int/bool/list/None, so they can be cached with ``marshal``), the inline
tests, and problems. Every problem names the file, the filter and the key. A
problem of level ``error`` drops that filter (or the whole file); a ``warning``
(an unknown key, say) leaves the filter in use.
"""

from __future__ import annotations

import re

from rtk.dsl.patterns import anchored, compile_error, first_words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 1

# field -> (kind, default). Kinds: str, bool, int (>= 1), listing (rows|paths), columns (ints >= 1), regex, regexes, replace, match_output.
FIELDS: dict[str, tuple[str, Any]] = {
    "description": ("str", ""),
    "match_command": ("regex", None),
    "strip_ansi": ("bool", False),
    "table_cells": ("bool", False),
    "table_common": ("bool", False),
    "replace": ("replace", []),
    "match_output": ("match_output", []),
    "strip_lines_matching": ("regexes", []),
    "keep_lines_matching": ("regexes", []),
    "truncate_lines_at": ("int", None),
    "fold_lines": ("int", None),
    "fold_stream": ("bool", False),
    "head_lines": ("int", None),
    "tail_lines": ("int", None),
    "listing": ("listing", None),
    "listing_key": ("columns", []),
    "max_lines": ("int", None),
    "on_empty": ("str", None),
    "filter_stderr": ("bool", False),
}
TEST_FIELDS = {"name": "str", "input": "str", "expected": "str", "exit_code": "int0"}
TOP_KEYS = ("schema_version", "filters", "tests")
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9.+-]*$")


class Problem:
    """One finding in a filter file."""

    __slots__ = ("filter", "level", "message")

    def __init__(self, level: str, message: str, filter: str = "") -> None:
        self.level = level  # "error" (filter or file dropped) or "warning"
        self.message = message
        self.filter = filter

    def __repr__(self) -> str:
        return f"Problem({self.level}, {self.message!r})"

    def as_tuple(self) -> tuple[str, str, str]:
        return (self.level, self.message, self.filter)


def _where(path: str, name: str, key: str) -> str:
    parts = [f"rtk: filters {path}"]
    if name:
        parts.append(f"filter {name}")
    if key:
        parts.append(key)
    return ": ".join(parts)


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


def _check_regex(value: Any, where: str, problems: list[Problem], name: str) -> bool:
    if not isinstance(value, str):
        problems.append(Problem("error", f"{where}: must be a regex string (got {value!r})", name))
        return False
    err = compile_error(value)
    if err is not None:
        problems.append(Problem("error", f"{where}: bad regex {value!r}: {err}", name))
        return False
    return True


def _check_field(key: str, kind: str, value: Any, where: str, problems: list[Problem], name: str) -> Any:
    """The validated value, or ``_BAD`` after recording an error."""
    if kind == "str":
        if not isinstance(value, str):
            problems.append(Problem("error", f"{where}: must be a string (got {value!r})", name))
            return _BAD
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            problems.append(Problem("error", f"{where}: must be true or false (got {value!r})", name))
            return _BAD
        return value
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            problems.append(Problem("error", f"{where}: must be a positive integer (got {value!r})", name))
            return _BAD
        return value
    if kind == "listing":
        if value not in ("rows", "paths"):
            problems.append(Problem("error", f'{where}: must be "rows" or "paths" (got {value!r})', name))
            return _BAD
        return value
    if kind == "columns":
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value
        ):
            problems.append(Problem("error", f"{where}: must be a list of column numbers >= 1 (got {value!r})", name))
            return _BAD
        return list(value)
    if kind == "regex":
        return value if _check_regex(value, where, problems, name) else _BAD
    if kind == "regexes":
        if not isinstance(value, list):
            problems.append(Problem("error", f"{where}: must be a list of regex strings (got {value!r})", name))
            return _BAD
        ok = all(_check_regex(v, f"{where}[{i}]", problems, name) for i, v in enumerate(value))
        return list(value) if ok else _BAD
    if kind in ("replace", "match_output"):
        return _check_rules(key, kind, value, where, problems, name)
    raise AssertionError(kind)  # pragma: no cover


def _check_rules(key: str, kind: str, value: Any, where: str, problems: list[Problem], name: str) -> Any:
    if not isinstance(value, list):
        problems.append(Problem("error", f"{where}: must be an array of tables (got {value!r})", name))
        return _BAD
    if kind == "replace":
        fields = {"pattern": "regex", "replacement": "str"}
        required = ("pattern", "replacement")
    else:
        fields = {"pattern": "regex", "message": "str", "unless": "regex"}
        required = ("pattern", "message")
    rules: list[list[Any]] = []
    ok = True
    for i, rule in enumerate(value):
        w = f"{where}[{i}]"
        if not isinstance(rule, dict):
            problems.append(Problem("error", f"{w}: must be a table like {{ pattern = ..., ... }}", name))
            ok = False
            continue
        for k in rule:
            if k not in fields:
                problems.append(Problem("warning", f"{w}: unknown key {k!r} ignored", name))
        for k in required:
            if k not in rule:
                problems.append(Problem("error", f"{w}: missing {k!r}", name))
                ok = False
        got: list[Any] = []
        for k, fkind in fields.items():
            if k not in rule:
                got.append(None)
                continue
            v = _check_field(k, fkind, rule[k], f"{w}.{k}", problems, name)
            if v is _BAD:
                ok = False
            got.append(v)
        rules.append(got)
    return rules if ok else _BAD


class _Bad:
    pass


_BAD: Any = _Bad()


def validate_filter(name: str, body: Any, path: str) -> tuple[dict[str, Any] | None, list[Problem]]:
    """Check one ``[filters.NAME]`` table; the definition (None if rejected) and the problems."""
    problems: list[Problem] = []
    where0 = _where(path, name, "")
    if not isinstance(body, dict):
        return None, [Problem("error", f"{where0}: must be a table", name)]
    if not _NAME_RE.match(name):
        problems.append(Problem("warning", f"{where0}: name should be lower-case kebab-case", name))
    d: dict[str, Any] = {"name": name, "source": path}
    ok = True
    for key, value in body.items():
        spec = FIELDS.get(key)
        if spec is None:
            problems.append(Problem("warning", f"{_where(path, name, key)}: unknown key ignored", name))
            continue
        v = _check_field(key, spec[0], value, _where(path, name, key), problems, name)
        if v is _BAD:
            ok = False
        else:
            d[key] = v
    for key, (_, default) in FIELDS.items():
        d.setdefault(key, default)
    if "match_command" not in body:
        problems.append(Problem("error", f"{_where(path, name, 'match_command')}: required", name))
        ok = False
    elif isinstance(d.get("match_command"), str) and not anchored(d["match_command"]):
        problems.append(
            Problem(
                "error",
                f"{_where(path, name, 'match_command')}: every alternative must start with ^"
                f" (got {d['match_command']!r})",
                name,
            )
        )
        ok = False
    if body.get("strip_lines_matching") and body.get("keep_lines_matching"):
        problems.append(
            Problem("error", f"{where0}: strip_lines_matching and keep_lines_matching exclude each other", name)
        )
        ok = False
    if not ok:
        return None, problems
    d["words"] = first_words(d["match_command"])
    return d, problems


def _validate_test(fname: str, i: int, t: Any, path: str, problems: list[Problem]) -> dict[str, Any] | None:
    where = _where(path, fname, f"tests[{i}]")
    if not isinstance(t, dict):
        problems.append(Problem("error", f"{where}: must be a table", fname))
        return None
    out: dict[str, Any] = {"filter": fname, "name": f"test {i + 1}", "exit_code": 0, "source": path}
    ok = True
    for k, v in t.items():
        kind = TEST_FIELDS.get(k)
        if kind is None:
            problems.append(Problem("warning", f"{where}: unknown key {k!r} ignored", fname))
        elif (kind == "str" and not isinstance(v, str)) or (
            kind == "int0" and (not isinstance(v, int) or isinstance(v, bool))
        ):
            problems.append(Problem("error", f"{where}.{k}: wrong type (got {v!r})", fname))
            ok = False
        else:
            out[k] = v
    for k in ("input", "expected"):
        if k not in t:
            problems.append(Problem("error", f"{where}: missing {k!r}", fname))
            ok = False
    return out if ok else None


def validate(doc: Any, path: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Problem]]:
    """Check a parsed filter file: (filters in file order, inline tests, problems)."""
    problems: list[Problem] = []
    if not isinstance(doc, dict):
        return [], [], [Problem("error", f"{_where(path, '', '')}: not a table")]
    for k in doc:
        if k not in TOP_KEYS:
            problems.append(Problem("warning", f"{_where(path, '', k)}: unknown top-level key ignored"))
    version = doc.get("schema_version")
    if version != SCHEMA_VERSION:
        what = "missing" if version is None else f"is {version!r}"
        problems.append(
            Problem("error", f"{_where(path, '', 'schema_version')}: {what}, expected {SCHEMA_VERSION}; file skipped")
        )
        return [], [], problems
    body = doc.get("filters", {})
    if not isinstance(body, dict):
        problems.append(Problem("error", f"{_where(path, '', 'filters')}: must be a table of filters"))
        return [], [], problems
    defs: list[dict[str, Any]] = []
    for name, fbody in body.items():
        d, probs = validate_filter(name, fbody, path)
        problems += probs
        if d is not None:
            defs.append(d)
    tests: list[dict[str, Any]] = []
    tbody = doc.get("tests", {})
    if not isinstance(tbody, dict):
        problems.append(Problem("error", f"{_where(path, '', 'tests')}: must be tables [[tests.NAME]]"))
        tbody = {}
    for fname, items in tbody.items():
        if fname not in body:
            problems.append(Problem("warning", f"{_where(path, fname, 'tests')}: no filter of that name in this file"))
        if not isinstance(items, list):
            problems.append(Problem("error", f"{_where(path, fname, 'tests')}: use [[tests.{fname}]] tables", fname))
            continue
        for i, t in enumerate(items):
            got = _validate_test(fname, i, t, path, problems)
            if got is not None:
                tests.append(got)
    return defs, tests, problems


def parse_bytes(data: bytes, path: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Problem]]:
    """Parse and validate the bytes of one filter file."""
    import tomllib

    try:
        return validate(tomllib.loads(data.decode("utf-8")), path)
    except UnicodeDecodeError as e:
        return [], [], [Problem("error", f"{_where(path, '', '')}: not UTF-8 ({e.reason}); file skipped")]
    except RecursionError:
        why = "nested too deeply"
    except Exception as e:  # TOMLDecodeError, an integer too long to convert...: never stop a command
        why = str(e)
    return [], [], [Problem("error", f"{_where(path, '', '')}: not valid TOML ({why}); file skipped")]


def parse_file(path: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Problem]]:
    """Read, parse and validate one filter file."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return [], [], [Problem("error", f"{_where(path, '', '')}: cannot read ({e.strerror}); file skipped")]
    return parse_bytes(data, path)
