"""``rtk json FILE``: a compact view of a JSON document (values kept), or its keys only."""

from __future__ import annotations

import os
import time

from rtk.commands._own import parse, pass_through_if_over, track, write
from rtk.errors import RtkError

HELP = """\
usage: rtk json [options] [FILE]          (no FILE, or -: standard input)

A compact view of a JSON document: containers on one line when they fit, every
value as written (numbers exactly, strings whole up to a limit), keys in order.
The document is shown whole up to limits.json_budget tokens; above it, array
items keep their scalar members (nested containers as "{…N keys}"), and if that
is still too long, arrays show their first limits.json_max_items items and name
the positions left out; strings longer than limits.json_max_string are cut with
"(+N chars)". A leading byte-order mark is accepted. A document larger than
limits.buffer_max_bytes, or with more than 300,000 values, is printed as it is
(not parsed, so not checked): memory stays bounded.

options:
  -d, --depth N     show containers below depth N as {…3 keys} / […5 items]
  --keys-only       only the structure: keys, nesting, array lengths (no values)
  -h, --help        this help

Invalid JSON is an error (exit 1) naming the line and column."""

OPTIONS = {"-d": ("depth", True), "--depth": ("depth", True), "--keys-only": ("keys_only", False)}


def main(args: list[str]) -> int:
    started = time.monotonic()
    a = parse("json", args, OPTIONS)
    if a.help:
        print(HELP)
        return 0
    if len(a.pos) > 1:
        raise RtkError("json: give one file (or - for standard input)")
    name = a.pos[0] if a.pos else "-"
    depth = a.number("json", "depth")
    from rtk import config, pipeline, tee, tokens
    from rtk.filters import jsonview as _jsonview
    from rtk.text import decode

    # Too large to hold (limits.buffer_max_bytes) or to parse (jsonview.MAX_VALUES): the document as it is.
    raw, copied = pass_through_if_over("json", name, int(config.get("limits.buffer_max_bytes")))
    if copied is not None:
        n = tokens.from_chars(copied)
        track("json", args, n, n, started, 0, 0, "raw")
        return 0
    raw_text = decode(raw)
    try:
        value = _jsonview.loads(raw_text)
    except _jsonview.TooLarge:
        write(raw)
        n = tokens.estimate_shaped(raw_text)
        track("json", args, n, n, started, 0, 0, "raw")
        return 0
    except ValueError as e:
        import json

        where = f" at line {e.lineno} column {e.colno}" if isinstance(e, json.JSONDecodeError) else ""
        msg = e.msg if isinstance(e, json.JSONDecodeError) else str(e)
        raise RtkError(f"json: {name}: not valid JSON{where}: {msg}") from None
    except RecursionError:  # the C decoder's depth limit: [[[[...]]]] a hundred thousand deep
        raise RtkError(f"json: {name}: JSON nested too deeply to read") from None
    try:
        if a.flag("keys_only"):
            text, cut = _jsonview.keys_only(value) + "\n", 0
        else:
            body, cut = _jsonview.compact(value, depth)
            text = body + "\n"
    except RecursionError:  # nested deeper than the views recurse: the document as it is (fail open)
        text, cut = raw_text if raw_text.endswith("\n") else raw_text + "\n", 0
    del value  # the parsed document is most of the memory: not held while the guards read the text

    def keep(argv: list[str], data: bytes) -> str | None:
        # A file is its own recovery copy; standard input is kept like any raw output.
        return os.path.abspath(name) if name != "-" else tee.write(argv, data)

    res = pipeline.finish(["json", *args], raw, raw_text, 0, text, cut, keep)
    if res.mode == "raw-guard":
        write(raw)  # the document itself, byte for byte
    else:
        write(res.text)
    track("json", args, res.raw_tokens, res.out_tokens, started, 0, res.cut, res.mode)
    return 0
