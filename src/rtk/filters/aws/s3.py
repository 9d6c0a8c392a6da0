"""Filter for ``aws s3`` (ls, cp, sync...): transfer progress dropped, every listed object and result kept."""

from __future__ import annotations

from rtk.filterapi import Filtered, Unrecognized

_VERBS = ("upload: ", "download: ", "copy: ", "move: ", "delete: ")


def _progress(line: str) -> bool:
    return line.startswith("Completed ") and "remaining" in line


def _transfers(lines: list[str]) -> list[str]:
    """``upload: A to B`` lines sharing one source and destination root become one header + the paths."""
    parsed: list[tuple[str, str, str]] = []
    for line in lines:
        verb, _, rest = line.partition(": ")
        src, sep, dst = rest.rpartition(" to ")
        if not sep or not dst.endswith(src.rsplit("/", 1)[-1]):
            return lines
        parsed.append((verb, src, dst))
    verbs = {p[0] for p in parsed}
    if len(verbs) != 1 or len(parsed) < 3:
        return lines
    src_root = _common_dir([p[1] for p in parsed])
    dst_root = _common_dir([p[2] for p in parsed])
    rel = [p[1][len(src_root) :] for p in parsed]
    if any(p[2][len(dst_root) :] != r for p, r in zip(parsed, rel, strict=True)):
        return lines
    head = f"{verbs.pop()}: {len(parsed)} files to {dst_root}, each at its path under {src_root or './'}:"
    return [head, *sorted(p[1] for p in parsed)]


def _common_dir(paths: list[str]) -> str:
    first = paths[0]
    cut = len(first)
    for p in paths[1:]:
        n = 0
        while n < min(cut, len(p)) and p[n] == first[n]:
            n += 1
        cut = n
    return first[:cut].rsplit("/", 1)[0] + "/" if "/" in first[:cut] else ""


def s3(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """Progress lines go; transfers are grouped under their roots; listings keep every object."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip() and not _progress(line.strip())]
    if not lines:
        return "" if output.strip() else None
    moved = [line for line in lines if line.startswith(_VERBS)]
    if moved and len(moved) == len(lines):
        return "\n".join(_transfers(lines)) + "\n"
    if moved:
        return "\n".join(lines) + "\n"  # transfers mixed with errors: each line as printed, progress gone
    rows = [line.split(None, 3) for line in lines]
    if all(len(r) == 4 and r[0][:2].isdigit() for r in rows):  # date time size key
        return "\n".join(f"{r[0]} {r[1]} {r[2]} {r[3]}" for r in rows) + "\n"  # key names whole
    if all((len(r) >= 3 and r[0][:2].isdigit()) or (r and r[0] == "PRE") for r in rows):
        return None  # bucket list or PRE prefixes: already compact
    if lines[0].startswith(("An error occurred (", "The user-provided path", "fatal error:")):
        return None
    raise Unrecognized("not an s3 listing or transfer log")
