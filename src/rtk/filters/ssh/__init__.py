"""The ssh family: non-interactive remote commands, folded only when their output is long."""
