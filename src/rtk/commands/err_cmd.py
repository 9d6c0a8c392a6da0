"""``rtk err <command...>``: run a command, show only its errors and warnings with context."""

from __future__ import annotations


def main(args: list[str]) -> int:
    from rtk.commands._generic import main as run

    return run("err", args)
