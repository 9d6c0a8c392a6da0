"""``rtk test <command...>``: run a test command, show only its failures and final counts."""

from __future__ import annotations


def main(args: list[str]) -> int:
    from rtk.commands._generic import main as run

    return run("test", args)
