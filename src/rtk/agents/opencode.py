"""OpenCode: an in-process TypeScript plugin (``tool.execute.before``) that calls ``rtk rewrite``.

The plugin (templates/opencode.ts) mutates ``output.args.command`` in place when
``rtk rewrite`` exits 0 or 3, and swallows every error (a throw blocks the tool).
OpenCode checks its own ``permission.bash`` patterns afterwards, on the new command.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agents._artifacts import Artifact, Options, Scope

BINARIES = ("opencode",)
NOTE = "restart OpenCode to load the plugin"


def config_dir() -> str:
    import os

    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "opencode")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    import os

    from rtk.agents._artifacts import OwnedFile
    from rtk.agents.registry import plugin_source

    d = config_dir() if scope.is_global else scope.at(".opencode")
    return [OwnedFile(os.path.join(d, "plugins", "rtk.ts"), plugin_source("opencode.ts", opts), hook=True)]
