"""Filters used only by the tests, registered under the command word ``rtktest``.

``rtktest <behaviour> ...`` picks the behaviour from argv[1]; the stand-in tool
that produces the output is a script the test writes (see helpers.stub_tool).
"""

from __future__ import annotations

from rtk.filterapi import Filtered, LineFilter, Spec, Unrecognized

COMMANDS = ("rtktest",)


def _shorten(argv: list[str], output: str, exit_code: int) -> str:
    return f"{len(output.splitlines())} lines, exit {exit_code}\n"


def _raise(argv: list[str], output: str, exit_code: int) -> str:
    raise ValueError("boom")


def _unrecognized(argv: list[str], output: str, exit_code: int) -> str:
    raise Unrecognized("not what I expected")


def _cut(argv: list[str], output: str, exit_code: int) -> Filtered:
    lines = output.splitlines()
    return Filtered("\n".join(lines[:2]) + f"\n+{len(lines) - 2} more\n", len(lines) - 2)


def _bigger(argv: list[str], output: str, exit_code: int) -> str:
    return output + output


def _echo(argv: list[str], output: str, exit_code: int) -> str:
    """Every line except `#` padding lines (so the result is smaller than the raw output)."""
    return "".join(f"{ln}\n" for ln in output.split("\n") if ln and not ln.startswith("#"))


class KeepErrors(LineFilter):
    """Streaming: keep lines containing ERROR, count the rest."""

    def __init__(self, argv: list[str]) -> None:
        super().__init__(argv)
        self.dropped = 0

    def feed(self, line: str) -> str | None:
        if "ERROR" in line:
            return line
        self.dropped += 1
        return None

    def finish(self, exit_code: int) -> str:
        return f"{self.dropped} other lines, exit {exit_code}"


class RaisesMidStream(KeepErrors):
    def feed(self, line: str) -> str | None:
        if "CRASH" in line:
            raise RuntimeError("stream boom")
        return super().feed(line)


class VouchesForProgress(KeepErrors):
    """Streaming, reporting to the fact guard: vouches for ``progress N`` lines, reports every other line."""

    reports = True

    def feed(self, line: str) -> str | None:
        if line.startswith("progress "):
            self.dropped += 1
            return None
        if self.unvouched is not None:
            self.unvouched.append(line)
        return super().feed(line)


FUNCS = {"shorten": _shorten, "raise": _raise, "unrec": _unrecognized, "cut": _cut, "bigger": _bigger, "echo": _echo}


def select(argv: list[str]) -> Spec | None:
    mode = argv[1] if len(argv) > 1 else ""
    if mode in FUNCS:
        return Spec(f"test-{mode}", FUNCS[mode])
    if mode == "stream":
        return Spec("test-stream", stream=KeepErrors)
    if mode == "stream-vouch":
        return Spec("test-stream-vouch", stream=VouchesForProgress)
    if mode == "stream-crash":
        return Spec("test-stream-crash", stream=RaisesMidStream)
    if mode == "nomerge":
        return Spec("test-nomerge", _echo, merge_stderr=False)
    if mode == "live":
        return Spec("test-live", live=True)
    return None
