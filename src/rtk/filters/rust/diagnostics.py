"""rustc/cargo diagnostics read line by line: error blocks whole, warnings grouped by lint.

A rustc diagnostic starts with ``error[E0308]: ...``, ``error: ...`` or
``warning: ...`` at column 0 and ends with a blank line. Errors are printed as
soon as their block is complete (source excerpt, labels, notes and help kept;
gutter-only ``|`` lines dropped). Warnings are held, bounded, and listed at the
end grouped by lint name, one line each. Identical blocks (cargo repeats a
library's warnings for its test target) are shown once.
"""

from __future__ import annotations

from rtk.filters.diagnostics import ErrorLines, Limits, Warnings

# Cargo progress lines (status word right-aligned to 12 columns). "Finished" is read separately.
NOISE = (
    "   Compiling ", "    Checking ", "  Downloaded ", " Downloading ", "    Updating ", "     Locking ",
    "      Adding ", "    Blocking ", "    Building ", " Documenting ", "       Fresh ", "   Packaging ",
    "   Verifying ", "    Packaged ", "   Unpacking ", "    Removing ", "     Removed ", "    Updating ",
    "   Upgrading ", "     Waiting ",
)  # fmt: skip

# Lines rustc prints after the blocks: the explanations index.
_EXPLAIN = ("Some errors have detailed explanations", "For more information about")


def _lint(lines: list[str]) -> str:
    """The lint that produced a warning: ``unused_variables``, ``clippy::needless_return``..."""
    for ln in lines:
        s = ln.strip()
        if s.startswith("= note: `#[") and "(" in s:
            inner = s[s.index("(") + 1 :]
            return inner[: inner.index(")")] if ")" in inner else inner
        if s.startswith("= help: for further information visit") and "#" in s:
            return "clippy::" + s.rsplit("#", 1)[1]
    return ""


def _help(lines: list[str]) -> str:
    """The first help text of a block (a ``help:`` line or an inline ``^^^ help: ...`` label)."""
    for ln in lines[1:]:
        s = ln.strip()
        if s.startswith("= help: ") and "for further information" not in s:
            return s[8:]
        if ln.startswith("help: "):
            return ln[6:]
        if "| " in ln and " help: " in ln and "^" in ln:
            return ln.split(" help: ", 1)[1]
    return ""


def _location(lines: list[str]) -> str:
    for ln in lines[1:4]:
        s = ln.lstrip()
        if s.startswith("--> "):
            return s[4:]
    return ""


def _normalise(msg: str) -> str:
    """``unused variable: `x``` -> ``unused variable: `_```: the kind without the names."""
    parts = msg.split("`")
    return "`".join(p if i % 2 == 0 else "_" for i, p in enumerate(parts))


def is_head(line: str) -> bool:
    """A line that starts a diagnostic: ``error...:`` / ``warning...:`` at column 0."""
    if line.startswith("error"):
        return line[5:6] in (":", "[")
    if line.startswith("warning"):
        return line[7:8] in (":", "[")
    return False


class RustDiagnostics:
    """Collects rustc/cargo diagnostics from lines the caller hands over.

    ``feed`` returns the text to print now (a finished error block) or None; the
    caller routes only lines that belong to diagnostics here (``is_head`` lines
    and everything while ``open`` is true).
    """

    def __init__(self, limits: Limits, with_help: bool = False) -> None:
        self.limits = limits
        self.with_help = with_help
        self.block: list[str] | None = None
        self.block_extra = 0  # lines beyond the per-block cap (not kept: flat memory)
        self.errors = 0
        self.errors_shown = 0
        self.warnings = Warnings()
        self.hidden = ErrorLines()  # errors past build_max_errors: place, code and message, one line each
        self.seen: set[int] = set()
        self.cut = 0
        self._kind_lint: dict[str, str] = {}
        self._override_said = False

    @property
    def open(self) -> bool:
        return self.block is not None

    def start(self, line: str) -> str | None:
        """A head line; returns the text of a block it closes, if any."""
        out = self.close() if self.block is not None else None
        self.block = [line]
        self.block_extra = 0
        return out

    def add(self, line: str) -> str | None:
        """A line inside the open block; a blank line closes it."""
        assert self.block is not None
        if not line:
            return self.close()
        if line.startswith(_EXPLAIN):
            return self.close()
        cap = self.limits.error_lines
        if cap <= 0 or len(self.block) <= cap + 8:
            self.block.append(line)
        else:
            self.block_extra += 1
        return None

    def close(self) -> str | None:
        block, self.block = self.block, None
        if not block:
            return None
        key = hash(tuple(block))
        if key in self.seen:
            return None
        if len(self.seen) < 100_000:
            self.seen.add(key)
        if block[0].startswith("error"):
            return self._error(block)
        self._warning(block)
        return None

    def _error(self, block: list[str]) -> str | None:
        self.errors += 1
        if self.limits.max_errors > 0 and self.errors_shown >= self.limits.max_errors:
            loc = _location(block)
            self.hidden.add(loc.split(":", 1)[0], f"{loc}: {block[0]}" if loc else block[0])
            self.cut += len(block) - 1
            return None
        self.errors_shown += 1
        lines = []
        lint = ""
        for ln in block:
            s = ln.strip()
            if s == "|":
                continue  # gutter-only line
            if s.startswith("= help: for further information visit") and "#" in s:
                lint = "clippy::" + s.rsplit("#", 1)[1]
                continue  # the lint's documentation URL: its name is enough
            if s.startswith("= help: to override `-D warnings`"):
                if self._override_said:
                    continue  # the same advice for every lint: said once
                self._override_said = True
            lines.append(ln)
        if lint and lint.replace("_", "-") not in "\n".join(lines):
            lines[0] += f" [{lint}]"
        cap = self.limits.error_lines
        n = self.block_extra
        if cap > 0 and (n or len(lines) > cap + 1):
            keep = lines[:cap]
            n += len(lines) - len(keep)
            lines = [*keep, f"  ... {n} more lines of this error"]
        self.cut += n
        return "\n".join(lines)

    def _warning(self, block: list[str]) -> None:
        head = block[0]
        msg = head.split(":", 1)[1].strip() if ":" in head else head
        kind = _normalise(msg)
        lint = _lint(block) or self._kind_lint.get(kind, "")
        if lint:
            self._kind_lint.setdefault(kind, lint)
        loc = _location(block)
        item = f"{loc}: {msg}" if loc else msg
        if self.with_help:
            hint = _help(block)
            if hint:
                item += f" (help: {hint})"
        self.warnings.add(lint, item)

    def render_warnings(self) -> list[str]:
        if not self.warnings.total:
            return []
        lines = [f"warnings ({self.warnings.total}):", *self.warnings.render()]
        self.cut += self.warnings.omitted
        return lines

    def more_errors(self) -> list[str]:
        """The errors past ``build_max_errors``, one line each (``path:line:col: error[CODE]: message``)."""
        lines, cut = self.hidden.render()
        self.cut += cut
        return lines
