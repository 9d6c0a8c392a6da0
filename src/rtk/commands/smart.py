"""``rtk smart FILE``: a two-line description of a source file (language, size, purpose; definitions, imports)."""

from __future__ import annotations

import os
import re
import time

from rtk.commands._own import parse, track, write
from rtk.errors import RtkError
from rtk.text import plural
from rtk.tokens import estimate_shaped

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.commands._source import Lang

HELP = """\
usage: rtk smart FILE

Describe a source file in two lines, from its text alone (no model, no network):
  1. the language, line count and purpose (module docstring or first comment)
  2. what it defines (classes, functions, types) and what it imports
Names beyond the first dozen are counted ("+N more").

options:
  -h, --help   this help"""

_PLURALS = {"class": "classes", "def": "defs", "fn": "fns", "func": "funcs"}
_DEFS: dict[str, list[tuple[str, re.Pattern[str]]]] = {
    "Python": [("class", re.compile(r"^class\s+(\w+)")), ("def", re.compile(r"^(?:async\s+)?def\s+(\w+)"))],
    "JavaScript": [
        ("class", re.compile(r"^(?:export\s+)?(?:default\s+)?class\s+(\w+)")),
        ("function", re.compile(r"^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(\w+)")),
        (
            "function",
            re.compile(
                r"^(?:export\s+)?(?:const|let|var)\s+(\w+)\s*=\s*(?:async\s+)?(?:function|\([^)]*\)\s*=>|\w+\s*=>)"
            ),
        ),
    ],
    "TypeScript": [
        ("class", re.compile(r"^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+(\w+)")),
        ("interface", re.compile(r"^(?:export\s+)?interface\s+(\w+)")),
        ("type", re.compile(r"^(?:export\s+)?type\s+(\w+)\s*=")),
        ("function", re.compile(r"^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(\w+)")),
        (
            "function",
            re.compile(
                r"^(?:export\s+)?(?:const|let)\s+(\w+)\s*=\s*(?:async\s+)?(?:function|\([^)]*\)\s*(?::[^=]+)?=>)"
            ),
        ),
    ],
    "Go": [
        ("type", re.compile(r"^type\s+(\w+)\s+(?:struct|interface)")),
        ("func", re.compile(r"^func\s+(?:\([^)]*\)\s*)?(\w+)")),
    ],
    "Rust": [
        ("struct", re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?struct\s+(\w+)")),
        ("enum", re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?enum\s+(\w+)")),
        ("trait", re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?trait\s+(\w+)")),
        ("fn", re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:const\s+)?(?:unsafe\s+)?fn\s+(\w+)")),
    ],
    "C-family": [
        ("class", re.compile(r"^(?:public\s+|final\s+|abstract\s+)*(?:class|struct|interface|enum)\s+(\w+)")),
        (
            "function",
            re.compile(
                r"^(?!return\b|else\b|if\b|for\b|while\b)[\w:<>\*&\s]+?\b(\w+)\s*\([^;]*\)\s*(?:const\s*)?\{?\s*$"
            ),
        ),
    ],
    "Ruby": [("class", re.compile(r"^\s*(?:class|module)\s+([\w:]+)")), ("def", re.compile(r"^\s*def\s+([\w.?!]+)"))],
    "shell": [("function", re.compile(r"^(?:function\s+)?([\w-]+)\s*\(\)\s*\{?"))],
}
_IMPORTS: dict[str, re.Pattern[str]] = {
    "Python": re.compile(r"^(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))"),
    "JavaScript": re.compile(r"""(?:from\s+|require\(\s*|^import\s+)['"]([^'"]+)['"]"""),
    "TypeScript": re.compile(r"""(?:from\s+|require\(\s*|^import\s+)['"]([^'"]+)['"]"""),
    "Go": re.compile(r"""^\s*(?:import\s+)?(?:\w+\s+)?"([\w./-]+)"\s*$"""),
    "Rust": re.compile(r"^use\s+([\w:]+)"),
    "C-family": re.compile(r"""^#\s*include\s*[<"]([^>"]+)[>"]|^import\s+([\w.]+)"""),
    "Ruby": re.compile(r"""^\s*require(?:_relative)?\s+['"]([^'"]+)['"]"""),
    "shell": re.compile(r"^\s*(?:source|\.)\s+(\S+)"),
}


def _purpose(text: str, lang: Lang) -> str:
    lang_name = lang.name
    markers = sorted(
        [*lang.line, *(op for op, _ in lang.block), *(("///", "//!", "*") if "//" in lang.line else ())],
        key=len,
        reverse=True,
    )
    lines = text.split("\n")
    for ln in lines[:40]:
        s = ln.strip()
        if not s or s.startswith("#!") or s.startswith("# -*-"):
            continue
        if lang_name == "Python" and s[:3] in ('"""', "'''"):
            body = s[3:].split(s[:3])[0].strip()
            return body or (lines[lines.index(ln) + 1].strip() if lines.index(ln) + 1 < len(lines) else "")
        for marker in markers:
            if s.startswith(marker):
                body = s[len(marker) :].strip().rstrip("*/").strip()
                if body and not body.lower().startswith(("copyright", "license", "spdx", "@ts-", "eslint")):
                    return body
                break
        else:
            break
    return ""


def _names(items: list[str], limit: int = 12) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" +{len(items) - limit} more" if len(items) > limit else "")


def describe(path: str, data: bytes, whole: tuple[int, int] | None = None) -> tuple[str, str]:
    """The two lines; ``whole``: (bytes, lines) of the file when ``data`` is only its start (:data:`READ_MAX`)."""
    from rtk.commands import _source
    from rtk.commands.read import is_binary, kind_of

    size = len(data) if whole is None else whole[0]
    if is_binary(data):
        return f"{path}: {kind_of(data)}, {size} bytes", "binary: no text to describe"
    text = data.decode("utf-8", "replace")
    n = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    lines = f"{n} lines"
    if whole is not None:
        lines = f"{whole[1]} lines (described from its first {READ_MAX >> 20} MiB)"
        text = text[: text.rfind("\n") + 1]  # whole lines only
    lang = _source.language(path, text[:200])
    if lang is None:
        first = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")
        return f"{path}: text, {lines}", f"starts: {first[:120]}" if first else "empty"
    purpose = _purpose(text, lang)
    line1 = f"{path}: {lang.name} source, {lines}" + (f" - {purpose[:140]}" if purpose else "")
    code = _source.code_only(text, lang)
    defs: dict[str, dict[str, None]] = {}  # names in order, each once (a dict: no quadratic look-up)
    for ln in code:
        for kind, rx in _DEFS.get(lang.name, []):
            m = rx.match(ln)
            if m:
                defs.setdefault(kind, {})[m.group(1)] = None
                break
    seen: dict[str, None] = {}
    irx = _IMPORTS.get(lang.name)
    if irx is not None:
        for ln in text.split("\n"):
            m = irx.search(ln)
            if m:
                seen[next(g for g in m.groups() if g)] = None
    imports = list(seen)
    parts = [f"{plural(len(v), k, _PLURALS.get(k))}: {_names(list(v))}" for k, v in defs.items()]
    line2 = "defines " + ("; ".join(parts) if parts else "nothing named at top level")
    if imports:
        line2 += f" | imports {_names(imports)}"
    return line1, line2


READ_MAX = 2 << 20  # bytes of a file read to describe it; the lines of the rest are counted as they are read


def _read_start(path: str) -> tuple[bytes, tuple[int, int] | None]:
    """The file's bytes, or its first ``READ_MAX`` and (bytes, lines) of the whole, counted in bounded memory."""
    import sys

    try:
        f = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115  (closed below)
    except OSError as e:
        raise RtkError(f"smart: {path}: {e.strerror}") from None
    try:
        data = f.read(READ_MAX + 1)
        if len(data) <= READ_MAX:
            return data, None
        size, lines, last = len(data), data.count(b"\n"), data[-1:]
        while b := f.read(1 << 20):
            size += len(b)
            lines += b.count(b"\n")
            last = b[-1:]
        return data[:READ_MAX], (size, lines + (last != b"\n"))
    except OSError as e:
        raise RtkError(f"smart: {path}: {e.strerror}") from None
    finally:
        if f is not sys.stdin.buffer:
            f.close()


def main(args: list[str]) -> int:
    started = time.monotonic()
    a = parse("smart", args, {})
    if a.help:
        print(HELP)
        return 0
    if len(a.pos) != 1:
        raise RtkError("smart: give one file")
    path = a.pos[0]
    if os.path.isdir(path):
        raise RtkError(f"smart: {path}: Is a directory")
    data, whole = _read_start(path)
    line1, line2 = describe(path, data, whole)
    text = f"{line1}\n{line2}\n"
    write(text)
    out_tokens = estimate_shaped(text)
    from rtk.commands.read import is_binary

    if is_binary(data):  # bytes that never were text are no saving (as rtk read records them)
        track("smart", args, out_tokens, out_tokens, started, 0, mode="binary")
    else:
        raw_tokens = estimate_shaped(data.decode("utf-8", "replace"))
        if whole is not None:  # the rest of the file counted as its start: an estimate
            raw_tokens = raw_tokens * whole[0] // max(len(data), 1)
        track("smart", args, raw_tokens, out_tokens, started, 0, mode="description")
    return 0
