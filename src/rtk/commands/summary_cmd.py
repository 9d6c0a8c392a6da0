"""``rtk summary <command...>``: run a command, show the exit code, the first error block and the last lines."""

from __future__ import annotations


def main(args: list[str]) -> int:
    from rtk.commands._generic import main as run

    return run("summary", args)
