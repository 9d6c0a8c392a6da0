"""Kilo Code: instructions only, a rules file (``.kilocode/rules/rtk.md``; global ``~/.kilocode/rules/rtk.md``).

No hook rewrites commands: the model is asked to prefix them with ``rtk`` itself.
Kilo Code now runs on the OpenCode server and ``@kilocode/plugin`` exists, but that
OpenCode plugins work there unchanged is unconfirmed, so no plugin is installed.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agents._artifacts import Artifact, Options, Scope

BINARIES = ("kilo", "kilocode")
NOTE = "instructions only: a rules file asks the model to prefix commands with rtk; no hook rewrites them"
SCOPES = ("global", "project")
SCOPE_NOTE = ""


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home(".kilocode")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """The rules file rtk owns, in Kilo Code's rules directory."""
    import os

    from rtk.agents._artifacts import OwnedFile
    from rtk.agents.registry import rules_text

    d = config_dir() if scope.is_global else scope.at(".kilocode")
    md = "<!-- written by rtk init -->\n" + rules_text()
    return [OwnedFile(os.path.join(d, "rules", "rtk.md"), md)]
