"""rtk's own commands, one module each; the table of them is ``rtk.__main__.COMMANDS``."""
