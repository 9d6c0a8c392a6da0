"""Filters for JS frameworks: ``next build``, ``vite build``, ``prisma generate/migrate/db push``.

Dev servers (``next dev``, ``vite``, ``vite preview``, ``prisma studio``) and watch
modes run live. Builds keep every error with its location; green builds become a
summary (routes, output files, counts).
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.js.common import has_flag, is_internal_frame, limit, wants_json
from rtk.filters.js.testreport import is_code_frame
from rtk.text import plural, split_lines

COMMANDS = ("next", "prisma", "vite")

_HELP = ("--help", "-h", "--version", "-v", "-V")


def select(argv: list[str]) -> Spec | None:
    tool = argv[0].rsplit("/", 1)[-1]
    args = argv[1:]
    words = [a for a in args if not a.startswith("-")]
    sub = words[0] if words else None
    if has_flag(args, *_HELP) or wants_json(args):
        return None
    if tool == "next":
        if sub in (None, "dev", "start"):
            return Spec("next", live=True)
        if sub == "build" and not has_flag(args, "--debug", "-d", "--profile"):
            return Spec("next", next_build, env={"NEXT_TELEMETRY_DISABLED": "1"})
        return None
    if tool == "vite":
        if sub in (None, "dev", "serve", "preview") or has_flag(args, "--watch", "-w", "--open"):
            return Spec("vite", live=True)
        if sub == "build" and not has_flag(args, "--debug", "-d", "--profile"):
            return Spec("vite", vite_build)
        return None
    if tool == "prisma":
        if sub in ("studio", "dev") or has_flag(args, "--watch"):
            return Spec("prisma", live=True)
        if sub in ("generate", "validate", "format") or (sub in ("migrate", "db") and len(words) > 1):
            return Spec("prisma", prisma, env={"CHECKPOINT_DISABLE": "1", "PRISMA_HIDE_UPDATE_MESSAGE": "1"})
        return None
    return None


def _drop_frames(lines: list[str], code_frames: bool = False) -> list[str]:
    """No internal stack frames, no code frames (unless asked to keep them), no blank runs."""
    out: list[str] = []
    for ln in lines:
        s = ln.strip()
        if s.startswith("at ") and (is_internal_frame(ln) or "(https://" in ln or "<unknown>" in ln):
            continue
        if is_code_frame(ln) and not code_frames:
            continue
        if not s or set(s) <= set("│|"):
            if out and out[-1]:
                out.append("")
            continue
        out.append(ln.rstrip())
    while out and not out[-1]:
        out.pop()
    return out


# ---------------------------------------------------------------------------
# next build
# ---------------------------------------------------------------------------

_NEXT_ROUTE_HEAD = re.compile(r"^Route \((app|pages)\)")
_NEXT_ROUTE = re.compile(r"^[┌├└│ ]\s*([○●ƒλ◐ƒ])\s+(\S+)")
_NEXT_COMPILED = re.compile(r"^✓ Compiled successfully(?: in (\S+))?")
_NEXT_LEGEND = re.compile(r"^[○●ƒλ◐]\s+\(")
_NEXT_PROGRESS = re.compile(
    r"^(?:[✓▲⚠ ]\s*)?(?:Next\.js \d|Creating an optimized|Running TypeScript|Finished TypeScript|Collecting page data|"
    r"Generating static pages|Finalizing page optimization|Collecting build traces|Linting and checking|Running next\.config|"
    r"We detected TypeScript|Skipping validation|Skipping linting|Checking validity of types|Environments:|- Environments:)"
)


def next_build(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    lines = split_lines(output)
    routes: list[str] = []
    compiled: str | None = None
    in_routes = False
    rest: list[str] = []
    warnings: list[str] = []
    for ln in lines:
        if _NEXT_ROUTE_HEAD.match(ln):
            in_routes = True
            continue
        if in_routes:
            m = _NEXT_ROUTE.match(ln)
            if m:
                routes.append(f"{m[1]} {m[2]}")
                continue
            if ln.startswith(("+ First Load JS", "  ", "├", "└", "│")) or not ln.strip():
                continue
            in_routes = False
        m = _NEXT_COMPILED.match(ln)
        if m:
            compiled = m[1] or ""
            continue
        if _NEXT_LEGEND.match(ln) or _NEXT_PROGRESS.match(ln.strip()) or not ln.strip():
            continue
        if ln.lstrip().startswith("⚠"):
            warnings.append(ln.strip())
            continue
        rest.append(ln)
    if exit_code == 0:
        if not routes or compiled is None:
            raise Unrecognized("no route table")
        kinds: dict[str, int] = {}
        for r in routes:
            kinds[r[0]] = kinds.get(r[0], 0) + 1
        names = {"○": "static", "●": "SSG", "ƒ": "dynamic", "λ": "dynamic", "◐": "partial prerender"}
        kind_text = ", ".join(f"{n} {names.get(k, k)}" for k, n in kinds.items())
        head = (
            "next build: ok"
            + (f", compiled in {compiled}" if compiled else "")
            + f"; {plural(len(routes), 'route')} ({kind_text})"
        )
        n = limit("list_max_items")
        shown = routes if len(routes) <= n + 1 else routes[:n]
        cut = len(routes) - len(shown)
        out = [head, "  " + ", ".join(shown) + (f", +{cut} more" if cut else ""), *warnings]
        if rest:
            out.extend(rest)
        return Filtered("\n".join(out), cut)
    body = _drop_frames(rest)
    if not body:
        raise Unrecognized("failed without an error message")
    return "\n".join([f"next build: failed (exit {exit_code})", *warnings, *body])


# ---------------------------------------------------------------------------
# vite build
# ---------------------------------------------------------------------------

_VITE_HEAD = re.compile(r"^vite v\S+ building")
_VITE_MODULES = re.compile(r"^✓ (\d+) modules? transformed")
_VITE_FILE = re.compile(r"^(\S+)\s+([\d.,]+ [kMG]?B)(?:\s+│\s+gzip:\s+([\d.,]+ [kMG]?B))?(?:\s+│\s+map:.*)?$")
_VITE_BUILT = re.compile(r"^✓ built in (\S+)")
_VITE_NOISE = ("transforming...", "rendering chunks...", "computing gzip size...")


def vite_build(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    lines = split_lines(output)
    modules: list[str] = []
    files: list[str] = []
    built: str | None = None
    rest: list[str] = []
    for ln in lines:
        m = _VITE_MODULES.match(ln)
        if m:
            modules.append(m[1])
            continue
        m = _VITE_BUILT.match(ln)
        if m:
            built = m[1]
            continue
        m = _VITE_FILE.match(ln)
        if m and "/" in m[1]:
            files.append(f"{m[1]} {m[2]}")
            continue
        if _VITE_HEAD.match(ln) or ln.strip() in _VITE_NOISE or not ln.strip():
            continue
        rest.append(ln)
    if exit_code == 0:
        if built is None:
            raise Unrecognized("no 'built in' line")
        head = f"vite build: {plural(sum(map(int, modules)), 'module')}, {plural(len(files), 'file')} in {built}"
        n = limit("list_max_items")
        shown = files if len(files) <= n + 1 else files[:n]
        cut = len(files) - len(shown)
        out = [head, *("  " + f for f in shown)]
        if cut:
            out.append(f"  +{cut} more files")
        out.extend(rest)  # warnings such as "(!) Some chunks are larger than 500 kB"
        return Filtered("\n".join(out), cut)
    body = [ln for ln in _drop_frames(rest, code_frames=True) if ln.strip() not in ("errors: [Getter/Setter]", "}")]
    body = [re.sub(r"\s+\{$", "", ln) if ln.lstrip().startswith("at ") else ln for ln in body]
    if not body:
        raise Unrecognized("failed without an error message")
    return "\n".join([f"vite build: failed (exit {exit_code})", *body])


# ---------------------------------------------------------------------------
# prisma
# ---------------------------------------------------------------------------

_PRISMA_NOISE = re.compile(
    r"^(?:Loaded Prisma config from .*|Prisma schema loaded from .*|Environment variables loaded from .*|"
    r"Prisma config detected, skipping environment variable loading\.?|[┌└│].*|"
    r"Start (?:by importing|using) .*|Tip: .*|Help us improve.*|.*pris\.ly/.*)$"
)


def prisma(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    words = [a for a in argv[1:] if not a.startswith("-")]
    sub = " ".join(words[:2]) if words and words[0] in ("migrate", "db") else (words[0] if words else "")
    keep: list[str] = []
    for ln in split_lines(output):
        s = ln.strip()
        if not s or _PRISMA_NOISE.match(s) or set(s) <= set("─-=*"):
            continue
        if s.startswith("at ") and is_internal_frame(ln):
            continue
        keep.append(ln.rstrip())
    if not keep:
        raise Unrecognized("nothing but banners")
    errors = [k for k in keep if k.lstrip().lower().startswith("error")]
    if exit_code != 0:
        if not errors:
            raise Unrecognized("failed without an error line")
        if len(errors) == len(keep):  # the error says it all; a header would cost more than the banners cut
            return "\n".join(keep)
        return "\n".join([f"prisma {sub}: failed (exit {exit_code})", *keep])
    if errors:
        raise Unrecognized("error lines on exit 0")
    return (
        "\n".join([f"prisma {sub}:", *("  " + k.strip() for k in keep)])
        if len(keep) > 1
        else f"prisma {sub}: {keep[0].strip()}"
    )
