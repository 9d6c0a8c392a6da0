"""Filters for cargo: build, check, clippy, doc, install, test, nextest run, fmt --check.

Every filter streams: progress lines (``Compiling``, ``Checking``...) are dropped
as they come, error blocks are printed whole as soon as they are complete,
warnings are grouped by lint and listed at the end with the summary. Lines the
filter does not know are printed as they are. Flags that ask for another output
(``--message-format=json``, ``-v``, ``--nocapture``...) run cargo unfiltered.
"""

from __future__ import annotations

from rtk.filterapi import Filtered, Spec, Unrecognized
from rtk.filters.argv import first_word
from rtk.filters.rust.build import CargoBuild
from rtk.text import plural, split_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

COMMANDS = ("cargo",)

_GLOBAL_WITH_VALUE = frozenset(("-C", "--config", "-Z", "--color", "--manifest-path"))
_GLOBAL_FLAGS = frozenset(("--locked", "--offline", "--frozen", "-q", "--quiet"))
_ALIASES = {"b": "build", "c": "check", "t": "test", "d": "doc"}
_BUILD_LIKE = {"build": "cargo build", "check": "cargo check", "clippy": "cargo clippy", "doc": "cargo doc"}

# Flags (before `--`) that ask cargo for an output this filter does not read.
_RAW_FLAGS = ("--message-format", "-v", "-vv", "-vvv", "--verbose", "--help", "-h", "--build-plan", "--unit-graph")
# Test-harness flags (after `--`) that change what the harness prints.
_RAW_HARNESS = ("--nocapture", "--no-capture", "--show-output", "--list", "--format", "-Z", "--logfile", "--help")
_RAW_NEXTEST = (
    "--message-format", "--no-capture", "--nocapture", "--success-output", "--failure-output", "--status-level",
    "--final-status-level", "-v", "--verbose", "--help", "-h", "--list",
)  # fmt: skip


def _split(argv: list[str]) -> tuple[str, list[str]] | None:
    """``cargo [+tc] [global flags] sub args`` -> (sub, args); None when there is no plain subcommand."""
    i = first_word(argv, _GLOBAL_WITH_VALUE, _GLOBAL_FLAGS, start=1, also=lambda a: a.startswith("+"))
    if i is None or i >= len(argv):
        return None
    return _ALIASES.get(argv[i], argv[i]), argv[i + 1 :]


def _raw_flag(args: list[str], flags: tuple[str, ...]) -> bool:
    return any(a == f or a.startswith(f + "=") for a in args for f in flags)


def _before_dashdash(args: list[str]) -> tuple[list[str], list[str]]:
    if "--" in args:
        k = args.index("--")
        return args[:k], args[k + 1 :]
    return args, []


def select(argv: list[str]) -> Spec | None:
    parts = _split(argv)
    if parts is None:
        return None
    sub, args = parts
    own, harness = _before_dashdash(args)
    quiet = "-q" in argv or "--quiet" in argv
    if sub == "nextest":
        if not own or own[0] != "run" or _raw_flag(own[1:], _RAW_NEXTEST):
            return None
        return Spec("cargo-nextest", stream=lambda a: _tests().Nextest(a))
    if _raw_flag(own, _RAW_FLAGS):
        return None
    if sub in _BUILD_LIKE:
        label = _BUILD_LIKE[sub]
        if sub == "doc" and "--open" in own:
            return None  # opens a browser: leave it alone
        return Spec(f"cargo-{sub}", stream=lambda a: CargoBuild(a, label, quiet, with_help=sub == "clippy"))
    if sub == "install":
        if "--list" in own:
            return None
        return Spec("cargo-install", stream=lambda a: CargoBuild(a, "cargo install", quiet))
    if sub == "test":
        if _raw_flag(harness, _RAW_HARNESS):
            return None
        return Spec("cargo-test", stream=lambda a: _tests().CargoTest(a, quiet))
    if sub == "fmt":
        checks = "--check" in own or "--check" in harness
        if (
            not checks
            or _raw_flag(own, ("--message-format", "--all-features"))
            or any(a.startswith(("--emit", "-l", "--files-with-diff", "--print-config")) for a in harness)
        ):
            return None
        return Spec("cargo-fmt", fmt_check)
    return None


def _tests() -> ModuleType:
    """The test-runner filters live in their own module (imported only for test runs)."""
    from rtk.filters.rust import testrun as _cargotest

    return _cargotest


def fmt_check(argv: list[str], output: str, exit_code: int) -> str | Filtered | None:
    """``cargo fmt --check``: which files need formatting and where, the diff left in the recovery file."""
    files: dict[str, list[str]] = {}
    diff_lines = 0
    other: list[str] = []
    for ln in split_lines(output):
        if ln.startswith("Diff in ") and ln.endswith(":"):
            path, _, line_no = ln[8:-1].rpartition(":")
            if not path or not line_no.isdigit():
                raise Unrecognized(f"diff header {ln!r}")
            files.setdefault(path, []).append(line_no)
        elif files and (ln[:1] in ("+", "-", " ") or not ln):
            diff_lines += 1
        else:
            other.append(ln)
    if exit_code == 0 and not files and not other:
        return "cargo fmt: all files formatted\n"
    if not files:
        raise Unrecognized("no 'Diff in' sections")
    out = [*other, f"cargo fmt --check: {plural(len(files), 'file')} not formatted (run cargo fmt)"]
    for path, at in files.items():
        out.append(f"  {path}: {plural(len(at), 'hunk')} at line {', '.join(at)}")
    out.append(f"  ({diff_lines} diff lines not shown)")
    return Filtered("\n".join(out) + "\n", diff_lines)
