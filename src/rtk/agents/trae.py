"""Trae: instructions only, a marked section of the project rules file ``.trae/rules/project_rules.md``.

No hook rewrites commands: the model is asked to prefix them with ``rtk`` itself.
Trae's hook files (``.trae/hooks.json``) exist, but their payload and answer
format is not confirmed in rtk's reference, so no hook is installed.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agents._artifacts import Artifact, Options, Scope

BINARIES = ("trae",)
NOTE = "instructions only: the project rules ask the model to prefix commands with rtk; no hook rewrites them"
SCOPES = ("project",)
SCOPE_NOTE = "only the project rules file .trae/rules/project_rules.md is confirmed; run it without --global"


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home(".trae")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """A marked section in .trae/rules/project_rules.md (the user's own rules there are kept)."""
    from rtk.agents._artifacts import Section
    from rtk.agents.registry import rules_text

    if scope.is_global:
        return []
    return [Section(scope.at(".trae", "rules", "project_rules.md"), rules_text())]
