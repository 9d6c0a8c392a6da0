"""rtk's own commands (as opposed to wrapped tools): name -> (module, summary).

Literals only; ``rtk.__main__`` reads this table without importing any command.
Each module has ``main(args: list[str]) -> int``.
"""

COMMANDS: dict[str, tuple[str, str]] = {
    "config": ("rtk.commands.config_cmd", "show the effective configuration, or write a default file"),
    "gain": ("rtk.commands.gain", "token savings recorded so far"),
    "proxy": ("rtk.commands.proxy", "run a command raw (no filter) but track it"),
}
