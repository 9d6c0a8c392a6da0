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


def _object(line: str) -> tuple[str, str, str] | None:
    """(date time, size, key) of a listed object: ``2026-11-24 07:20:36      4096 dir/key``."""
    stamp, rest = line[:19], line[19:].lstrip(" ")
    size, sep, key = rest.partition(" ")
    if len(stamp) != 19 or stamp[4] != "-" or stamp[13] != ":" or not size.isdigit() or not sep or not key:
        return None
    return stamp, size, key


def _listing(objects: list[tuple[str, str, str]]) -> str:
    """Every object with its size and time: keys grouped under their prefix, the usual time said once."""
    flat = "".join(f"{t} {n} {k}\n" for t, n, k in objects)
    if len(objects) < 4:
        return flat
    stamps: dict[str, int] = {}
    for t, _, _ in objects:
        stamps[t] = stamps.get(t, 0) + 1
    usual = max(stamps, key=lambda t: stamps[t])
    groups: dict[str, list[str]] = {}
    for t, n, k in objects:
        prefix, _, name = k.rpartition("/")
        if not name:  # a "folder/" marker object: listed under its parent
            prefix, _, name = k[:-1].rpartition("/")
            name += "/"
        groups.setdefault(prefix + "/" if prefix else "", []).append(f" {'' if t == usual else t + ' '}{n} {name}")
    out = [f"{len(objects)} objects as size name under their prefix, modified {usual} unless the line says:"]
    for prefix in sorted(groups, key=lambda p: p != ""):  # keys without a prefix first, before any header
        if prefix:
            out.append(prefix)
        out.extend(groups[prefix])
    grouped = "\n".join(out) + "\n"
    return grouped if len(grouped) < len(flat) else flat


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
    objects = [_object(line) for line in lines]
    if all(o is not None for o in objects):  # date time size key
        return _listing([o for o in objects if o is not None])
    rows = [line.split(None, 3) for line in lines]
    if all(len(r) == 3 and r[0][:2].isdigit() for r in rows):
        return None  # the bucket list: already compact
    if all(o is not None or line.lstrip().startswith("PRE ") for o, line in zip(objects, lines, strict=True)):
        listed = [f"{o[0]} {o[1]} {o[2]}" if o else line.lstrip() for o, line in zip(objects, lines, strict=True)]
        return "\n".join(listed) + "\n"  # PRE prefixes and sizes lose their padding
    if lines[0].startswith(("An error occurred (", "The user-provided path", "fatal error:")):
        return None
    raise Unrecognized("not an s3 listing or transfer log")
