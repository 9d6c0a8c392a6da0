"""The three ways the fold is run (line by line, by block, live), shared by the fold rule tests."""

from __future__ import annotations

from rtk.fold.folder import Folder, fold_lines
from rtk.fold.live import FoldStream


def by_line(lines: list[str]) -> list[str]:
    f = Folder()
    out = [o for ln in lines for o in f.feed(ln)]
    return out + f.finish()


def by_block(lines: list[str]) -> list[str]:
    return fold_lines(lines)[0]


def live(lines: list[str], argv: tuple[str, ...] = ("cat", "x.log")) -> list[str]:
    fs = FoldStream(list(argv))
    out = [fs.feed_block(lines), fs.finish(0)]
    return "\n".join(o for o in out if o is not None).splitlines()


WAYS = [by_line, by_block, live]
