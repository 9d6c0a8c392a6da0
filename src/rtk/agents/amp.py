"""Amp: instructions only, a marked section of the project's ``AGENTS.md``.

No hook rewrites commands: the model is asked to prefix them with ``rtk`` itself.
Amp's plugin API (``tool.call``) is experimental, needs ``PLUGINS=all``, documents no
way to modify a call's input, and its shell input field is unconfirmed, so no plugin
is installed.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agents._artifacts import Artifact, Options, Scope

BINARIES = ("amp",)
NOTE = "instructions only: the AGENTS.md section asks the model to prefix commands with rtk; no hook rewrites them"
SCOPES = ("project",)
SCOPE_NOTE = "only the project's AGENTS.md is confirmed; run it without --global in the project"


def config_dir() -> str:
    from rtk.agents._artifacts import home

    return home(".config", "amp")


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    """A marked section in the project's AGENTS.md: the same text as Codex's project section (one block for both)."""
    from rtk.agents._artifacts import Section
    from rtk.agents.registry import agents_md

    if scope.is_global:
        return []
    return [Section(scope.at("AGENTS.md"), agents_md())]
