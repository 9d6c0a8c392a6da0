"""Filters for pip (also ``pip3``, ``python -m pip``): ``install``, ``list`` (``--outdated``) and ``show``.

``install`` keeps what was installed, warnings and every error line (download
and progress lines go); ``list`` turns the padded table into ``name==version``
items; ``show`` drops empty fields and bounds long ones. The table and field
readers are shared with ``uv pip``.
"""

from __future__ import annotations

import re

from rtk import config
from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.argv import subcommand
from rtk.filters.python.launch import tool_args, tool_label
from rtk.text import split_lines
from rtk.tokens import estimate

COMMANDS = ("pip", "pip3")

_GLOBAL_WITH_VALUE = frozenset(
    (
        "--python", "--log", "--proxy", "--retries", "--timeout", "--exists-action", "--trusted-host", "--cert",
        "--client-cert", "--cache-dir", "--use-feature", "--use-deprecated", "--root-user-action",
        "--keyring-provider", "--resume-retries",
    )
)  # fmt: skip
_GLOBAL_FLAGS = frozenset(
    (
        "--isolated", "--require-virtualenv", "--no-input", "--no-cache-dir", "--disable-pip-version-check",
        "--no-color", "--no-python-version-warning", "--debug",
    )
)  # fmt: skip
_RAW = ("--help", "-h", "--verbose", "-v", "--quiet", "-q")


def split_sub(args: list[str]) -> tuple[str, list[str]] | None:
    """pip's global options, then the subcommand and its arguments; None if unsure."""
    return subcommand(args, _GLOBAL_WITH_VALUE, _GLOBAL_FLAGS)


def asks_raw(args: list[str], raw: tuple[str, ...] = _RAW) -> bool:
    for a in args:
        if a == "--":
            break
        if a in raw or a.split("=", 1)[0] in raw:
            return True
        if a.startswith("-") and not a.startswith("--") and any(c in "vq" for c in a[1:]) and a[1:].isalpha():
            return True  # -vv, -qq
    return False


def select(argv: list[str]) -> Spec | None:
    parts = split_sub(tool_args(argv))
    if parts is None:
        return None
    sub, args = parts
    if sub == "install" and not asks_raw(args, (*_RAW, "--report")):
        return Spec("pip-install", install)
    if sub == "list" and not asks_raw(args, (*_RAW, "--format")):
        return Spec("pip-list", package_list)
    if sub == "show" and not asks_raw(args):
        return Spec("pip-show", show)
    return None


# ---------------------------------------------------------------------------
# pip install
# ---------------------------------------------------------------------------

_NOISE = re.compile(
    r"^(?:Collecting |  Downloading |  Using cached |Downloading |Looking in (?:indexes|links): |Processing |"
    r"  Preparing metadata |  Installing build dependencies|  Getting requirements to build |Installing collected packages: |"
    r"  Attempting uninstall: |    Found existing installation: |    Uninstalling |      Successfully uninstalled |"
    r"Building wheels? for |  Building (?:wheel|editable) for |  Created wheel for |  Stored in directory: |Successfully built |"
    r"Obtaining |  Checking if build backend supports |  Installing backend dependencies|Ignoring |  Link requires a different|"
    r"\[notice\] |  Obtaining dependency information|Installing build dependencies|Preparing metadata)"
)
_PROGRESS = re.compile(r"^\s*[━─╸╺━\-]+ [\d.]+/[\d.]+ [kMG]?B")
_ADVICE = ("To fix this you could try to:", "1. loosen the range of package", "2. remove package versions to allow")


def install(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``pip install``: installed packages, warnings and errors."""
    label = tool_label(argv, argv[0].rsplit("/", 1)[-1] if argv else "pip")
    installed: list[str] = []
    satisfied = 0
    kept: list[str] = []
    dropped = 0
    room = int(config.get("limits.listing_budget"))  # tokens of other lines (warnings, errors) kept
    for ln in split_lines(output):
        if not ln.strip() or _NOISE.match(ln) or _PROGRESS.match(ln) or ln.startswith(_ADVICE):
            continue
        if ln.startswith("Requirement already satisfied: "):
            satisfied += 1
            continue
        if ln.startswith("Successfully installed "):
            installed.extend(ln[len("Successfully installed ") :].split())
            continue
        room -= estimate(ln) + 1
        if room >= 0 or ln.startswith(("ERROR:", "error:")) or "×" in ln:
            kept.append(ln)
        else:
            dropped += 1
    errors = [k for k in kept if k.startswith(("ERROR:", "error:")) or "×" in k]
    if exit_code == 0 and not (installed or satisfied):
        raise Unrecognized("no evidence of an install")
    if exit_code != 0 and not kept:
        raise Unrecognized(f"exit {exit_code} without an error line")
    out = list(kept)
    if dropped:
        out.append(f"... +{dropped} more lines")
    if installed:
        from rtk.filters import names as namelist

        got, n = namelist.listed(f"installed ({len(installed)}): ", installed)
        out.extend(got)
        dropped += n
    # pip exits 0 after an install that broke other packages' requirements, with an ERROR line
    status = f"FAILED (exit {exit_code})" if exit_code else ("done, with errors above" if errors else "ok")
    tail = f"{label} install: {status}"
    if installed or satisfied:
        tail += f" - {len(installed)} installed, {satisfied} already satisfied"
    out.append(tail)
    return Filtered("\n".join(out) + "\n", dropped)


# ---------------------------------------------------------------------------
# pip list / uv pip list
# ---------------------------------------------------------------------------


def read_table(output: str) -> tuple[list[str], list[list[str]], list[str]]:
    """A pip-style table (header, dashes, rows) -> (column names, rows, lines outside the table)."""
    lines = split_lines(output)
    for i in range(1, len(lines)):
        dashes = lines[i]
        if dashes.startswith("-") and set(dashes) <= {"-", " "} and lines[i - 1].startswith(("Package", "Name")):
            spans: list[tuple[int, int]] = []
            for m in re.finditer(r"-+", dashes):
                spans.append((m.start(), m.end()))
            names = [
                lines[i - 1][a : (spans[k + 1][0] if k + 1 < len(spans) else None)].strip()
                for k, (a, _) in enumerate(spans)
            ]
            rows: list[list[str]] = []
            extra = lines[: i - 1]
            for row in lines[i + 1 :]:
                if not row.strip():
                    continue
                if row[:1] == " ":
                    raise Unrecognized(f"table row {row!r}")
                cells = [
                    row[a : (spans[k + 1][0] if k + 1 < len(spans) else None)].strip() for k, (a, _) in enumerate(spans)
                ]
                if not cells[0] or " " in cells[0]:
                    extra.append(row)  # a warning or notice after the table
                    continue
                rows.append(cells)
            return names, rows, extra
    raise Unrecognized("no package table")


def package_list(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``pip list`` / ``pip list --outdated``: the table as compact items."""
    if exit_code != 0:
        return None
    if not output.strip():
        return None
    names, rows, extra = read_table(output)
    idx = {n: k for k, n in enumerate(names)}
    if "Package" not in idx or "Version" not in idx:
        raise Unrecognized(f"columns {names}")
    items: list[str] = []
    for r in rows:
        item = f"{r[idx['Package']]}=={r[idx['Version']]}"
        if "Latest" in idx:
            item = f"{r[idx['Package']]} {r[idx['Version']]} -> {r[idx['Latest']]}"
            if "Type" in idx and r[idx["Type"]] not in ("wheel", ""):
                item += f" ({r[idx['Type']]})"
        for col in names:
            if col not in ("Package", "Version", "Latest", "Type") and r[idx[col]]:
                item += f" [{col.lower()}: {r[idx[col]]}]"
        items.append(item)
    from rtk.filters import names as namelist

    kind = "outdated packages" if "Latest" in idx else "packages"
    out = [*(e for e in extra if not e.startswith("[notice]")), f"{len(items)} {kind}:"]
    listing, cut = namelist.listed("", items)
    out.extend(listing)
    return Filtered("\n".join(out) + "\n", cut)


def _flush_empty(out: list[str], empty: list[str]) -> None:
    if empty:
        out.append("(empty: " + ", ".join(empty) + ")")
        empty.clear()


# ---------------------------------------------------------------------------
# pip show / uv pip show
# ---------------------------------------------------------------------------

_FIELD = re.compile(r"^([A-Z][A-Za-z-]*(?: [a-z]+)*): ?(.*)$")
_UV_ENV = re.compile(r"^Using (?:Python|CPython|PyPy) \S+ environment at: ")
FIELD_LINES = 3  # lines kept of a multi-line field (License text, Classifiers)
FILES_MAX = 20


def show(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``pip show``: every non-empty field, long values bounded."""
    out: list[str] = []
    cut = 0
    field = ""
    extra_lines = 0
    empty: list[str] = []
    for ln in split_lines(output):
        m = _FIELD.match(ln)
        if ln == "---":
            _flush_empty(out, empty)
            out.append(ln)
            field = ""
            continue
        if m and not ln.startswith(" "):
            if extra_lines > FIELD_LINES:
                out.append(f"  ... +{extra_lines - FIELD_LINES} more lines")
                cut += extra_lines - FIELD_LINES
            field, extra_lines = m.group(1), 0
            if m.group(2).strip() or field in ("Files", "Classifiers", "Entry-points"):
                out.append(ln)
            else:
                empty.append(field)
            continue
        if ln.startswith(("WARNING: ", "ERROR: ", "warning: ", "error: ")) or _UV_ENV.match(ln):
            out.append(ln)
            continue
        if not field:
            raise Unrecognized(f"pip show line {ln[:60]!r}")
        extra_lines += 1  # continuation of a multi-line field
        limit = FILES_MAX if field == "Files" else FIELD_LINES
        if extra_lines <= limit:
            out.append(ln)
    if extra_lines > (FILES_MAX if field == "Files" else FIELD_LINES):
        n = extra_lines - (FILES_MAX if field == "Files" else FIELD_LINES)
        out.append(f"  ... +{n} more lines")
        cut += n
    _flush_empty(out, empty)
    if exit_code == 0 and not any(o.startswith("Name: ") for o in out):
        raise Unrecognized("no package shown")
    if exit_code != 0 and not any(o.startswith(("WARNING: ", "ERROR: ", "warning: ", "error: ")) for o in out):
        raise Unrecognized(f"exit {exit_code} without a warning")
    return Filtered("\n".join(out) + "\n", cut)
