"""Hermes Agent (Nous Research): a Python plugin in ``~/.hermes/plugins/rtk/`` that calls ``rtk rewrite``.

Confirmed from hermes-agent 0.19.0's own source (docs/agents.md): a user plugin is
a directory with ``plugin.yaml`` and an ``__init__.py`` whose ``register(ctx)`` is
called, and it loads only when its name is in ``plugins.enabled`` of
``$HERMES_HOME/config.yaml``. The plugin (hermes_plugin.py) rewrites ``terminal``
commands through a ``tool_request`` middleware when ``rtk rewrite`` exits 0 or 3.
Project plugins need ``HERMES_ENABLE_PROJECT_PLUGINS`` and still the user's config,
so only the global scope is offered.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agents._artifacts import Artifact, Options, Scope

BINARIES = ("hermes",)
NOTE = "start a new Hermes session to load the plugin (`hermes plugins list` shows it enabled)"
SCOPES = ("global",)
SCOPE_NOTE = "Hermes reads user plugins and plugins.enabled from ~/.hermes only; use --global"
PLUGIN = "rtk"


def config_dir() -> str:
    from rtk.agents._artifacts import env_dir

    return env_dir("HERMES_HOME", ".hermes")


def plugin_init(opts: Options) -> str:
    """The plugin's ``__init__.py``: hermes_plugin.py with the rtk launcher and rtk's version written in."""
    import json
    import shlex
    from importlib.resources import files

    from rtk import __version__

    src = files("rtk.agents").joinpath("hermes_plugin.py").read_text(encoding="utf-8")
    src = src.replace("__RTK_VERSION__", __version__)
    marker = 'RTK: list[str] = ["rtk"]'
    return src.replace(marker, f"RTK: list[str] = {json.dumps(shlex.split(opts.command))}")  # also a Python list


def plugin_yaml() -> str:
    from rtk import __version__

    return (
        f"# rtk plugin for Hermes Agent, written by rtk init (rtk {__version__}); rtk init --uninstall removes it.\n"
        f"name: {PLUGIN}\n"
        f'version: "{__version__}"\n'
        'description: "Rewrites terminal commands to their rtk form (git status -> rtk git status) via rtk rewrite."\n'
        "author: rtk\n"
        "kind: standalone\n"
    )


def artifacts(scope: Scope, opts: Options) -> list[Artifact]:
    import os

    from rtk.agents._artifacts import OwnedFile
    from rtk.agents._yaml_list import YamlListItem

    if not scope.is_global:
        return []
    d = config_dir()
    plugin = os.path.join(d, "plugins", PLUGIN)
    return [
        OwnedFile(os.path.join(plugin, "plugin.yaml"), plugin_yaml()),
        OwnedFile(os.path.join(plugin, "__init__.py"), plugin_init(opts), hook=True),
        YamlListItem(os.path.join(d, "config.yaml"), "plugins", "enabled", PLUGIN),
    ]
