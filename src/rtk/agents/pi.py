"""Pi (pi-coding-agent): an in-process TypeScript extension (``tool_call``) that calls ``rtk rewrite``.

The extension (templates/pi.ts) changes ``event.input.command`` in place when
``rtk rewrite`` exits 0 or 3, and swallows every error (a throw blocks the call).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agents._artifacts import Artifact, Options, Scope

BINARIES = ("pi",)
NOTE = "run /reload in Pi (or restart it) to load the extension"


def config_dir() -> str:
    from rtk.agents._artifacts import env_dir

    return env_dir("PI_CODING_AGENT_DIR", ".pi", "agent")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    import os

    from rtk.agents._artifacts import OwnedFile
    from rtk.agents.registry import plugin_source

    d = config_dir() if scope.is_global else scope.at(".pi")
    return [OwnedFile(os.path.join(d, "extensions", "rtk.ts"), plugin_source("pi.ts", opts), hook=True)]
