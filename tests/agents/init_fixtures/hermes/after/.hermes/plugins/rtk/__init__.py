"""rtk plugin for Hermes Agent, written by `rtk init` (rtk @VERSION@); `rtk init --uninstall` removes it.

Before each ``terminal`` tool call it asks ``rtk rewrite`` for the rtk form of the
command (git status -> rtk git status) and hands Hermes the new arguments through a
``tool_request`` middleware, which Hermes applies before its hooks, guardrails,
approval checks and the tool itself see them. A Hermes without middleware gets a
``pre_tool_call`` hook instead, which changes ``args["command"]`` in place. Any
failure (rtk missing, slow, crashing or refusing) leaves the command as it was.
Standard library only: it runs inside Hermes' own Python, not rtk's.
"""

from __future__ import annotations

import subprocess
from typing import Any

RTK: list[str] = ["@RTK@"]  # rtk init writes the absolute path of the rtk launcher here
TIMEOUT = 2.0  # seconds; past it the command runs unchanged
SHELL_TOOL = "terminal"


def rewrite(command: object) -> str | None:
    """The rtk form of ``command`` when ``rtk rewrite`` gives one (exit 0: allowed, 3: ask as usual), else None.

    Exit 1 (nothing to rewrite) and 2 (a deny rule matches: the host decides on the
    original) leave the command alone, as does any error.
    """
    if not isinstance(command, str) or not command.strip():
        return None
    try:
        p = subprocess.run(
            [*RTK, "rewrite", "--", command],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=TIMEOUT,
            check=False,
        )
        if p.returncode not in (0, 3):
            return None
        out = p.stdout.decode("utf-8")
    except Exception:
        return None
    out = out.removesuffix("\n")
    if not command.endswith("\r"):  # a CRLF line end; a CR the command ends with is part of it
        out = out.removesuffix("\r")
    return out if out and out != command else None


def tool_request(tool_name: object = None, args: object = None, **_context: object) -> dict[str, Any] | None:
    """Hermes ``tool_request`` middleware: ``{"args": ...}`` with the rtk form of a terminal command, else None."""
    try:
        if tool_name != SHELL_TOOL or not isinstance(args, dict):
            return None
        new = rewrite(args.get("command"))
        if new is None:
            return None
        return {"args": {**args, "command": new}, "source": "rtk", "reason": "rtk rewrite"}
    except Exception:
        return None


def pre_tool_call(tool_name: object = None, args: object = None, **_context: object) -> None:
    """Hermes ``pre_tool_call`` hook (Hermes without middleware): the rtk form put into ``args`` in place."""
    try:
        if tool_name != SHELL_TOOL or not isinstance(args, dict):
            return
        new = rewrite(args.get("command"))
        if new is not None:
            args["command"] = new
    except Exception:
        return


def register(ctx: Any) -> None:
    """Called by Hermes' plugin loader once the plugin is enabled (``plugins.enabled`` in config.yaml)."""
    add = getattr(ctx, "register_middleware", None)
    if callable(add):
        add("tool_request", tool_request)
    else:
        ctx.register_hook("pre_tool_call", pre_tool_call)
