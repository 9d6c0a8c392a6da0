"""The cargo build family (build, check, clippy, doc, install) read line by line; test runs build on it too.

Progress lines are dropped, rustc diagnostics go through
:class:`~rtk.filters.rust.diagnostics.RustDiagnostics` (error blocks whole,
warnings grouped by lint), and a status line closes the run.
"""

from __future__ import annotations

from rtk.filterapi import LineFilter
from rtk.filters.diagnostics import Limits
from rtk.filters.rust.diagnostics import NOISE, RustDiagnostics, is_head
from rtk.text import plural


class CargoBuild(LineFilter):
    """cargo build / check / clippy / doc / install, and the build part of test runs."""

    def __init__(self, argv: list[str], label: str = "cargo build", quiet: bool = False, with_help: bool = False):
        super().__init__(argv)
        self.label = label
        self.quiet = quiet
        self.limits = Limits()
        self.diag = RustDiagnostics(self.limits, with_help)
        self.finished = False
        self.known = False
        self.results: list[str] = []  # "installed ...", "generated ..."
        self.fixes: list[str] = []  # cargo's "run `cargo fix ...` to apply N suggestions", once each
        # The stream fact guard reads only the lines ``feed`` reports: every line but cargo's own
        # progress lines outside a diagnostic (NOISE: a right-aligned verb, then a package or a
        # count; they name what is built, never a problem, location or test). A subclass with a
        # ``feed`` of its own takes lines this one never sees: the guard reads all of its lines.
        self.reports = type(self).feed is CargoBuild.feed

    def feed(self, line: str) -> str | None:
        if self.diag.block is None and line.startswith(NOISE):
            self.known = True
            return None  # vouched for: the fact guard does not read it
        if self.unvouched is not None:
            self.unvouched.append(line)
        return self._feed(line)

    def _feed(self, line: str) -> str | None:
        diag = self.diag
        if diag.block is None:
            if line.startswith(NOISE):
                self.known = True
                return None
            return self.line(line)
        if line.startswith(NOISE) or is_head(line) or self.ends_block(line):
            done = diag.close()
            more = self._feed(line)
            if done is None:
                return more
            return done if more is None else done + "\n" + more
        return diag.add(line)

    def ends_block(self, line: str) -> bool:
        """Lines that end an open diagnostic block even without the blank line."""
        return line.startswith(("    Finished ", "  Installing ", "   Installed ", "   Generated "))

    def line(self, line: str) -> str | None:
        """One line outside any diagnostic block."""
        if is_head(line):
            self.known = True
            if line.startswith("warning: `") and " generated " in line:
                # cargo's per-crate count: we count ourselves; the command that applies its fixes is kept
                run = line.find("(run `")
                if run >= 0:
                    fix = line[run + 1 :].removesuffix(")")
                    if fix not in self.fixes:
                        self.fixes.append(fix)
                return None
            if line.startswith("warning: build failed, waiting for other jobs"):
                return None
            if line.startswith(("error: could not compile ", "error: failed to compile ", "error: command `")):
                return line
            return self.diag.start(line)
        if line.startswith("    Finished "):
            self.finished = self.known = True
            return None
        if line.startswith(("   Installed ", "    Replaced ", "   Generated ")):
            self.known = True
            self.results.append(line.strip())
            return None
        if line.startswith(("  Installing ", "   Replacing ")):
            self.known = True
            return None
        if not line or line.startswith(("Some errors have detailed explanations", "For more information about")):
            return None
        return self.other(line)

    def other(self, line: str) -> str | None:
        """A line no rule knows: print it as it is."""
        return line

    def close_open(self) -> list[str]:
        out = []
        done = self.diag.close()
        if done is not None:
            out.append(done)
        out.extend(self.diag.more_errors())
        return out

    def finish(self, exit_code: int) -> str:
        out = self.close_open()
        if not self.known and not (self.quiet and exit_code == 0):
            return "\n".join(out)  # nothing recognised: what was printed is the raw output
        out.append(self.status(exit_code))
        out.extend(self.diag.render_warnings())
        out.extend(self.fixes)
        self.cut += self.diag.cut
        return "\n".join(out)

    def counts(self) -> str:
        parts = []
        if self.diag.errors:
            parts.append(plural(self.diag.errors, "error"))
        if self.diag.warnings.total:
            parts.append(plural(self.diag.warnings.total, "warning"))
        return ", ".join(parts)

    def status(self, exit_code: int) -> str:
        counts = self.counts()
        if exit_code == 0 and not self.diag.errors:
            head = f"{self.label}: ok" + (f" ({counts})" if counts else "")
            return "\n".join([head, *(f"  {r}" for r in self.results)])
        return f"{self.label}: FAILED (exit {exit_code})" + (f", {counts}" if counts else "")
