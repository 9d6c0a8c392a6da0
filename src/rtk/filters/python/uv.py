"""Filters for uv: ``uv sync`` and ``uv pip install/sync/uninstall/list/show``, and ``uv run <tool>``.

``uv run X`` runs exactly what the user typed and hands the output to X's own
filter (pytest, mypy, ruff...), after setting aside uv's environment lines
("Resolved ...", "Installed ..."). Installs keep the package changes, warnings
and every error line, with one summary line.
"""

from __future__ import annotations

import re

from rtk.filterapi import Filtered, LineFilter, Spec, Unrecognized
from rtk.filters.argv import subcommand
from rtk.text import split_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filterapi import FilterFunc, StreamFactory

COMMANDS = ("uv",)

_GLOBAL_WITH_VALUE = frozenset(
    ("--directory", "--project", "--cache-dir", "--config-file", "--color", "--python", "-p", "--allow-insecure-host")
)
_GLOBAL_FLAGS = frozenset(
    (
        "--no-cache", "-n", "--offline", "--native-tls", "--no-progress", "--preview", "--no-preview",
        "--managed-python", "--no-managed-python", "--no-python-downloads", "--no-config", "--isolated",
    )
)  # fmt: skip
_RUN_WITH_VALUE = frozenset(
    (
        "--with", "--with-editable", "--with-requirements", "--python", "-p", "--package", "--extra", "--group",
        "--only-group", "--no-group", "--env-file", "--directory", "--project", "--index", "--default-index",
        "--index-url", "-i", "--extra-index-url", "--find-links", "-f", "--config-file", "--cache-dir",
        "--exclude-newer", "--resolution", "--prerelease", "--link-mode", "--refresh-package", "--reinstall-package",
        "--upgrade-package", "-P", "--no-binary-package", "--no-build-package", "--config-setting", "-C", "--color",
        "--index-strategy", "--keyring-provider", "--python-platform", "--no-extra", "--allow-insecure-host",
    )
)  # fmt: skip
_RUN_FLAGS = frozenset(
    (
        "--no-sync", "--frozen", "--locked", "--isolated", "--all-extras", "--no-dev", "--dev", "--only-dev",
        "--all-groups", "--no-default-groups", "--active", "--no-active", "--no-project", "--no-config", "--offline",
        "--refresh", "--reinstall", "--upgrade", "-U", "--no-cache", "-n", "--no-progress", "--native-tls",
        "--compile-bytecode", "--no-build-isolation", "--no-build", "--no-binary", "--no-editable", "--exact",
        "--inexact", "--no-env-file", "--preview", "--no-preview", "--managed-python", "--no-managed-python",
        "--no-python-downloads", "--all-packages", "--no-sources", "--no-install-project", "--no-install-workspace",
    )
)  # fmt: skip
_INSTALL_RAW = ("--help", "-h", "--quiet", "-q", "--verbose", "-v", "--output-format", "--format")


def _asks_raw(args: list[str], raw: tuple[str, ...]) -> bool:
    for a in args:
        if a == "--":
            break
        if a in raw or a.split("=", 1)[0] in raw or (a[:1] == "-" and a[1:2] != "-" and set(a[1:]) <= {"q", "v"}):
            return True
    return False


def select(argv: list[str]) -> Spec | None:
    parts = subcommand(argv[1:], _GLOBAL_WITH_VALUE, _GLOBAL_FLAGS)
    if parts is None:
        return None
    sub, args = parts
    if sub == "run":
        return _run_spec(argv, args)
    if sub == "sync" and not _asks_raw(args, _INSTALL_RAW):
        return Spec("uv-sync", install)
    if sub == "pip":
        pp = subcommand(args, _GLOBAL_WITH_VALUE, _GLOBAL_FLAGS)
        if pp is None:
            return None
        psub, pargs = pp
        if psub in ("install", "sync", "uninstall") and not _asks_raw(pargs, _INSTALL_RAW):
            return Spec("uv-pip-install", install)
        from rtk.filters.python import pip

        if psub == "list" and not _asks_raw(pargs, _INSTALL_RAW):
            return Spec("uv-pip-list", pip.package_list)
        if psub == "show" and not _asks_raw(pargs, ("--help", "-h", "--quiet", "-q", "--verbose", "-v")):
            return Spec("uv-pip-show", pip.show)
    return None


# ---------------------------------------------------------------------------
# uv's own lines
# ---------------------------------------------------------------------------

_UV_NOISE = re.compile(
    r"^(?:Using (?:CPython|Python|PyPy) |Creating virtual environment at: |Resolved \d+ packages? in |"
    r"Prepared \d+ packages? in |Installed \d+ packages? in |Uninstalled \d+ packages? in |Audited \d+ packages? in |"
    r"Checked \d+ packages? in |Downloading \S+ \(|\s*Downloaded \S+|\s*Building \S+ @ |\s*Built \S+ @ |\s*Built \S+==|"
    r"Bytecode compiled \d+ files? in |Activate with: |Removed virtual environment at: |Updated \S+ \(|"
    r"Updating \S+ \(|Installing Python|Installed Python)"
)
_CHANGE = re.compile(r"^ ([-+~]) (\S+?)(?:==| @ |@)(.+)$")
_UV_ERROR = ("error:", "  ×", "  ╰─▶", "  │", "  help:", "      ", "hint:", "  hint:", "Caused by:", "  Caused by:")


def is_uv_line(line: str) -> bool:
    """A line uv prints about the environment (not the command's own output)."""
    return bool(_UV_NOISE.match(line)) or bool(_CHANGE.match(line))


def install(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``uv sync`` / ``uv pip install``: package changes, warnings, errors, one summary line."""
    changes: dict[str, list[str]] = {"+": [], "-": [], "~": []}
    resolved = checked = ""
    kept: list[str] = []
    for ln in split_lines(output):
        if not ln.strip():
            continue
        c = _CHANGE.match(ln)
        if c:
            sign, name, rest = c.groups()
            changes[sign].append(f"{name}=={rest}" if not rest.startswith(("file:", "/", ".")) else f"{name} @ {rest}")
            continue
        m = re.match(r"^(Resolved|Audited|Checked) (\d+) packages?", ln)
        if m:
            if m.group(1) == "Resolved":
                resolved = m.group(2)
            else:
                checked = m.group(2)
            continue
        if _UV_NOISE.match(ln):
            continue
        if ln.startswith(("warning:", *_UV_ERROR)) or ln.startswith("  "):
            kept.append(ln)
            continue
        raise Unrecognized(f"uv line {ln[:60]!r}")
    if exit_code == 0 and any(k.startswith(("error:", "  ×")) for k in kept):
        raise Unrecognized("exit 0 with an error")
    if exit_code == 0 and not (resolved or checked or any(changes.values())):
        raise Unrecognized("no evidence of what was installed")
    if exit_code != 0 and not kept:
        raise Unrecognized(f"exit {exit_code} without an error line")
    from rtk.filters import names

    out = list(kept)
    cut = 0
    for sign, title in (("+", "installed"), ("-", "removed"), ("~", "reinstalled")):
        items = changes[sign]
        if items:
            got, n = names.listed(f"{title} ({len(items)}): ", items)
            out.extend(got)
            cut += n
    words = [w for w in argv[1:3] if not w.startswith("-")]
    label = "uv " + " ".join(words[:2]) if words else "uv"
    status = "ok" if exit_code == 0 else f"FAILED (exit {exit_code})"
    facts = []
    if resolved:
        facts.append(f"{resolved} resolved")
    if checked and not any(changes.values()):
        facts.append(f"{checked} already in place")
    if exit_code == 0 and not any(changes.values()):
        facts.append("nothing changed")
    out.append(f"{label}: {status}" + (f" ({', '.join(facts)})" if facts else ""))
    return Filtered("\n".join(out) + "\n", cut)


# ---------------------------------------------------------------------------
# uv run <tool>: the tool's own filter, uv's environment lines set aside
# ---------------------------------------------------------------------------


def _inner_argv(args: list[str]) -> list[str] | None:
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            return args[i + 1 :] or None
        if a in ("-m", "--module"):
            return ["python", "-m", *args[i + 1 :]] if i + 1 < len(args) else None
        if a in _RUN_WITH_VALUE:
            i += 2
        elif a in _RUN_FLAGS or a in _GLOBAL_FLAGS or a.split("=", 1)[0] in _RUN_WITH_VALUE:
            i += 1
        elif a.startswith("-"):
            return None  # an option we do not know: we cannot tell where the command starts
        else:
            return args[i:]
    return None


def _run_spec(argv: list[str], args: list[str]) -> Spec | None:
    inner = _inner_argv(args)
    if not inner or inner[0] == "uv":
        return None
    from rtk import filters

    spec = filters.lookup(inner)
    if spec is None:
        return None
    run_argv = None
    if spec.run_argv:
        if argv[len(argv) - len(inner) :] != inner:
            return None  # `uv run -m mod`: the tool's own argv cannot be put back in place
        run_argv = argv[: len(argv) - len(inner)] + spec.run_argv
    if spec.live:
        return Spec(spec.name, live=True, run_argv=run_argv, env=spec.env)
    if spec.stream is not None:
        return Spec(
            spec.name,
            stream=_stream_factory(spec.stream, inner),
            run_argv=run_argv,
            env=spec.env,
            merge_stderr=spec.merge_stderr,
        )
    assert spec.filter is not None
    return Spec(
        spec.name, _filter_func(spec.filter, inner), run_argv=run_argv, env=spec.env, merge_stderr=spec.merge_stderr
    )


def _filter_func(func: FilterFunc, inner: list[str]) -> FilterFunc:
    def run(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
        lines = split_lines(output)
        i = 0
        warnings: list[str] = []
        while i < len(lines) and (is_uv_line(lines[i]) or lines[i].startswith("warning: ")):
            if lines[i].startswith("warning: "):
                warnings.append(lines[i])
            i += 1
        rest = "".join(ln + "\n" for ln in lines[i:])
        res = func(inner, rest, exit_code)
        if res is None or not warnings:
            return res
        head = "\n".join(warnings) + "\n"
        if isinstance(res, Filtered):
            return Filtered(head + res.text, res.cut)
        return head + res

    return run


def _stream_factory(factory: StreamFactory, inner: list[str]) -> StreamFactory:
    def make(argv: list[str]) -> LineFilter:
        return _UvRun(argv, factory(inner))

    return make


class _UvRun(LineFilter):
    """Drops uv's environment lines at the start, then hands every line to the tool's filter."""

    def __init__(self, argv: list[str], inner: LineFilter) -> None:
        super().__init__(argv)
        self.inner = inner
        self.preamble = True

    def feed(self, line: str) -> str | None:
        if self.preamble:
            if line.startswith("warning: "):
                return line
            if is_uv_line(line):
                return None
            self.preamble = False
        return self.inner.feed(line)

    def finish(self, exit_code: int) -> str:
        text = self.inner.finish(exit_code)
        self.cut = self.inner.cut
        return text
