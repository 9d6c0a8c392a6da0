"""rtk: run a command and print a compact version of its output for LLM agents."""

__version__ = "0.1.0"
