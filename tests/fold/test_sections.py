"""Short lists under a header line (issue 15, apt-get install -s): shown whole, never folded across sections."""

from __future__ import annotations

import pytest

from rtk.fold import Folder
from rtk.fold.folder import fold_lines


def _names(start: int, n: int) -> str:
    return "  " + " ".join(f"libpkg{start + i}-{(start + i) % 7}.0-dev" for i in range(n))


def _apt_like(upgraded: int) -> list[str]:
    """Sections of wrapped package lists, as apt prints them: every list line is one template."""
    lines = ["Reading package lists...", "The following NEW packages will be installed:"]
    lines += [_names(i * 5, 5) for i in range(40)]
    lines += ["Suggested packages:"] + [_names(500 + i * 5, 5) for i in range(20)]
    lines += ["The following packages will be upgraded:"] + [_names(900 + i * 5, 5) for i in range(upgraded)]
    lines.append(f"{upgraded * 5} upgraded, 200 newly installed, 0 to remove and 3 not upgraded.")
    lines += [f"Inst libpkg{i}-{i % 7}.0-dev (1.{i}-1 Debian:12/stable [amd64])" for i in range(200)]
    lines += [f"Conf libpkg{i}-{i % 7}.0-dev (1.{i}-1 Debian:12/stable [amd64])" for i in range(200)]
    return lines


def _live(lines: list[str], size: int) -> list[str]:
    f = Folder(hold=200)
    out: list[str] = []
    for i in range(0, len(lines), size):
        out += f.feed_lines(lines[i : i + size])
    return out + f.finish()


@pytest.mark.parametrize("feed", ["whole", "live", "live-7", "by-line"])
def test_a_short_list_under_a_header_is_shown_whole(feed: str) -> None:
    lines = _apt_like(2)
    if feed == "whole":
        out = fold_lines(lines)[0]
    elif feed == "by-line":
        f = Folder()
        out = [o for ln in lines for o in f.feed(ln)] + f.finish()
    else:
        out = _live(lines, 7 if feed == "live-7" else len(lines))
    up = lines.index("The following packages will be upgraded:")
    assert lines[up + 1] in out and lines[up + 2] in out  # before: the first folded into a range over all sections
    # the long lists still fold (their count and range end before the upgraded list)
    folds = [o for o in out if o.startswith("… ") and "libpkg" not in o.split("like:")[0]]
    assert any(f"(lines 4-{up - 1})" in o or "more like: <id> <id> <id> <id> <id>" in o for o in folds)
    assert len(out) < len(lines) // 3
    assert all(f"-{up + 1})" not in o and f"-{up + 2})" not in o for o in folds)


def test_a_long_list_under_a_header_folds() -> None:
    lines = _apt_like(12)  # 12 lines under the header: a list like the others, counted
    out = fold_lines(lines)[0]
    up = lines.index("The following packages will be upgraded:")
    shown = [ln for ln in lines[up + 1 : up + 13] if ln in out]
    assert len(shown) < 12
    assert "The following packages will be upgraded:" in out


def test_a_repeated_header_is_a_line_like_others() -> None:
    """A header printed over and over with the same short block (rustc's lint help) folds past its first few."""
    lines: list[str] = []
    for i in range(60):
        lines += [f"warning: unused variable `x{i}`", "   = help: add to `Cargo.toml` for the lint:"]
        lines += ["            [lints.rust]", "            unexpected_cfgs = { level = 1 }", f"compiled unit {i}"]
    out = fold_lines(lines)[0]
    # under its first 5 headers (as a rare template), then the head of its fold and the last lines
    assert out.count("            [lints.rust]") <= 5 + 2
    assert any("more like: [lints.rust]" in o for o in out)
    assert len(out) < len(lines) // 2


@pytest.mark.parametrize("size", [1, 3, 7, 1000])
def test_a_held_block_across_blocks_folds_as_line_by_line(size: int) -> None:
    """Lines held under a header across ``feed_lines`` calls: the same output and dropped lines as line by line."""
    lines = _apt_like(2) + _apt_like(9)[1:]

    def run(blocks: bool) -> list[str]:
        f = Folder()
        f.dropped = []
        out: list[str] = []
        if blocks:
            for i in range(0, len(lines), size):
                out += f.feed_lines(lines[i : i + size])
        else:
            for ln in lines:
                out += f.feed(ln)
        return [*out, *f.finish(), "--", *f.dropped]

    assert run(True) == run(False)


@pytest.mark.parametrize("hold", [None, 200])
def test_a_block_ended_by_the_output_is_shown_whole_in_order(hold: int | None) -> None:
    """A block still held when the output ends (it runs into the last lines) is shown, before them."""
    lines = [f"step {i} done in {i % 9} ms" for i in range(300)] + ["Removed packages:"]
    lines += [_names(i * 5, 5) for i in range(7)]
    f = Folder(hold=hold)
    out = f.feed_lines(lines) + f.finish()
    assert out[-8:] == lines[-8:]
