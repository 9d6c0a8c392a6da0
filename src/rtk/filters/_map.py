"""Command word -> filter family module. Literals only: importing this costs nothing.

Each module named here exposes ``select(argv) -> Spec | None`` and ``COMMANDS``,
the command words it handles (a test checks that both sides agree). Keep the
sections sorted; each tool family adds its own lines in its own section.
"""

FAMILIES: dict[str, str] = {
    # files
    "ls": "rtk.filters.ls",
    # git
    "git": "rtk.filters.git",
}
