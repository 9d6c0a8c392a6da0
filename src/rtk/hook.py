"""``rtk hook <agent>``: answer an agent's pre-tool-use hook (JSON on stdin) with the rtk form of a command.

The hot path of every agent tool call, so it imports almost nothing: stdin is read
as bytes with a deadline (``select``), every leading BOM is stripped, the payload
is parsed with the C scanner (:mod:`rtk._fastjson`), and the agent's adapter
(``rtk.agents.<agent>``) checks the tool name before the rewrite engine is
imported. Whatever happens, the answer is the host's no-op (one JSON object or
nothing, as that host wants) and exit 0; the only exception is the opt-in block
mode of Windsurf and Kiro, whose one way to suggest ``rtk ...`` is exit 2.
"""

from __future__ import annotations

import os

from rtk.agents._adapt import OWN_RULES as OWN_RULES
from rtk.agents._adapt import Answer as Answer
from rtk.agents._adapt import Context as Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# hook name -> adapter module (rtk.agents.<module>) with ``handle(payload, ctx) -> Answer``
ADAPTERS: dict[str, str] = {
    "claude": "claude",
    "cline": "cline",
    "codex": "codex",
    "copilot": "copilot",
    "cursor": "cursor",
    "droid": "droid",
    "gemini": "gemini",
    "kiro": "kiro",
    "qwen": "qwen",
    "vibe": "vibe",
    "vscode": "copilot",
    "windsurf": "windsurf",
}
# The no-op answer of hosts that want JSON on every path (the others want nothing).
NOOP: dict[str, bytes] = {"cursor": b"{}\n", "gemini": b"{}\n", "cline": b'{"cancel":false}\n'}

MAX_STDIN = 8 * 1024 * 1024
STDIN_SECONDS = 3.0
BOM = "\ufeff"

HELP = """\
usage: rtk hook <agent> [--block | --suggest]   (reads the agent's hook JSON on stdin)
       rtk hook check [--agent NAME] <command>  (dry run: what the hook does with a command)

agents: claude, vscode, copilot, cursor, gemini, codex, qwen, droid, vibe, cline, windsurf, kiro
Prints the agent's answer: the tool input with `command` replaced by its rtk form, or
the agent's no-op. Always exits 0 (windsurf/kiro --block: exit 2 with a suggestion).
Installed by `rtk init`; see docs/agents.md. RTK_HOOK_DEBUG=1 prints errors on stderr."""

NOTHING: Answer = (None, "", 0)


def parse(raw: bytes) -> Any:
    """The payload, or None: undecodable, not JSON, or not one document."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = text.lstrip(" \t\r\n")
    while text.startswith(BOM):
        text = text[1:].lstrip(" \t\r\n")
    if not text:
        return None
    from rtk._fastjson import loads

    try:
        return loads(text)
    except (ValueError, RecursionError):
        return None


def run(agent: str, flags: list[str], raw: bytes) -> tuple[bytes, bytes, int]:
    """The hook's whole answer for one payload: (stdout, stderr, exit code). Never raises."""
    noop = (NOOP.get(agent, b""), b"", 0)
    try:
        name = ADAPTERS.get(agent)
        if name is None:
            return b"", f"rtk hook: unknown agent {agent!r} (see rtk hook --help)\n".encode(), 0
        payload = parse(raw)
        if not isinstance(payload, dict):
            return noop
        mod = __import__(f"rtk.agents.{name}", fromlist=["handle"])
        obj, err, code = mod.handle(payload, Context(agent, flags))
        if obj is None and not err:
            return noop
        from rtk._fastjson import dumps

        out = (dumps(obj) + "\n").encode("ascii") if obj is not None else b""
        return out, err.encode("utf-8", "replace"), code
    except BaseException:  # any failure: the command runs unchanged
        if os.environ.get("RTK_HOOK_DEBUG"):
            import traceback

            return noop[0], traceback.format_exc().encode("utf-8", "replace"), 0
        return noop


def read_stdin(limit: int = MAX_STDIN, seconds: float = STDIN_SECONDS) -> bytes:
    """Stdin as bytes; stops at EOF, at a complete JSON object, after ``seconds``, or past ``limit`` (b"")."""
    import select
    import time

    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            ready = select.select([0], [], [], left)[0]
            if not ready:
                break
            data = os.read(0, 65536)
        except (OSError, ValueError):
            break
        if not data:
            break
        chunks.append(data)
        size += len(data)
        if size > limit:
            return b""
        # A host that never closes stdin (seen on WSL): stop once the object is complete.
        if data.rstrip().endswith(b"}") and parse(b"".join(chunks)) is not None:
            break
    return b"".join(chunks)


def _write(fd: int, data: bytes) -> None:
    try:
        while data:
            data = data[os.write(fd, data) :]
    except OSError:
        pass


def main(args: list[str]) -> int:
    if not args or args[0] in ("-h", "--help"):
        _write(1, (HELP + "\n").encode())
        return 0
    agent, flags = args[0], args[1:]
    try:
        raw = read_stdin()
    except BaseException:
        raw = b""
    out, err, code = run(agent, flags, raw)
    _write(1, out)
    if err:
        _write(2, err)
    return code
