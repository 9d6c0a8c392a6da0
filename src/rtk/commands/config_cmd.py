"""``rtk config``: show the file rtk loaded and the effective values, or write a default file."""

from __future__ import annotations

import argparse
import os

from rtk import config, paths
from rtk.errors import RtkError


def main(args: list[str]) -> int:
    p = argparse.ArgumentParser(prog="rtk config", description="Show or create rtk's configuration.")
    p.add_argument(
        "--init",
        action="store_true",
        help="write a config file with every key at its default, live and commented (never overwrites)",
    )
    p.add_argument("--path", action="store_true", help="print only the config file path")
    ns = p.parse_args(args)
    path = paths.config_file()
    if ns.path:
        print(path)
        return 0
    if ns.init:
        if os.path.lexists(path):  # a symlink too, even one to nothing: never written through
            raise RtkError(f"{path} already exists; not overwriting it")
        try:
            paths.ensure_dir(os.path.dirname(path) or ".")
            with open(path, "x", encoding="utf-8") as f:
                f.write(config.default_file_text())
        except OSError as e:
            raise RtkError(f"cannot write {path}: {e.strerror or e}") from None
        print(f"wrote {path}")
        return 0
    config.reset()
    values = config.load(report=False)
    src = config.loaded_from()
    print(f"config file: {path}" + ("" if src else " (not present: defaults apply)"))
    for problem in config.problems():
        print(problem)
    defaults = config.defaults()
    section = None
    for key in sorted(values, key=lambda k: (list(config.SCHEMA).index(k.split(".")[0]), k)):
        sec, name = key.split(".", 1)
        if sec != section:
            print(f"\n[{sec}]")
            section = sec
        mark = "" if values[key] == defaults[key] else "   # set in config"
        print(f"{name} = {config.render_value(values[key])}{mark}")
    print(f"\ndata dir: {paths.data_dir()}")
    return 0
