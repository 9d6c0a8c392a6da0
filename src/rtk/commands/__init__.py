"""rtk's own commands, one module each; the table of them is ``rtk.COMMANDS``."""
