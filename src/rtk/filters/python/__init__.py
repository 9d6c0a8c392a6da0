"""The Python family: pytest, ruff, mypy, pip, uv, poetry, and ``python -m <tool>``."""
