"""Google Antigravity: instructions only, a workspace rules file (``.agents/rules/rtk.md``).

No hook rewrites commands: the model is asked to prefix them with ``rtk`` itself.
Antigravity's native hook and plugin format is not confirmed in rtk's reference, and
its global rules share ``~/.gemini/GEMINI.md`` with Gemini CLI, so only the project
rules file is written.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agents._artifacts import Artifact, Options, Scope

BINARIES = ("antigravity",)
NOTE = "instructions only: a rules file asks the model to prefix commands with rtk; no hook rewrites them"
SCOPES = ("project",)
SCOPE_NOTE = "only the workspace rules directory .agents/rules/ is confirmed; run it without --global in the project"


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home(".antigravity")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """The rules file rtk owns in the project's .agents/rules/ (project only)."""
    from rtk.agents._artifacts import OwnedFile
    from rtk.agents.registry import rules_text

    if scope.is_global:
        return []
    md = "<!-- written by rtk init -->\n" + rules_text()
    return [OwnedFile(scope.at(".agents", "rules", "rtk.md"), md)]
