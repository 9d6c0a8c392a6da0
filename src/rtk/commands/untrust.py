"""``rtk untrust``: forget trusted project filter files (see ``rtk.commands.trust_cmd``)."""

from __future__ import annotations

from rtk.commands.trust_cmd import untrust_main


def main(args: list[str]) -> int:
    return untrust_main(args)
