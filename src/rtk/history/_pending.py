"""Calls waiting for their results, handed out in the order the agent made them.

A result arrives some lines after its call (parallel calls finish in any order).
Calls are released from the front as soon as they are done, so memory holds only
the calls still open; past :data:`MAX_OPEN` open calls the oldest is released as
it is (its result never came, or came very late).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from rtk.history import Call

MAX_OPEN = 2000


class Pending:
    def __init__(self) -> None:
        self.calls: dict[str, Call] = {}  # insertion order = call order
        self.seq = 0

    def add(self, key: str, call: Call) -> None:
        self.seq += 1
        call.seq = self.seq
        if key in self.calls:  # a duplicated id: keep both, the older one under a fresh key
            self.calls[f"{key}#{self.seq}"] = self.calls.pop(key)
        self.calls[key] = call

    def get(self, key: str) -> Call | None:
        return self.calls.get(key)

    def ready(self) -> Iterator[Call]:
        """Release the done calls at the front (and the oldest beyond the cap)."""
        calls = self.calls
        while calls:
            key = next(iter(calls))
            call = calls[key]
            if not call.done and len(calls) <= MAX_OPEN:
                return
            del calls[key]
            yield call

    def rest(self) -> Iterator[Call]:
        """Everything left, in call order (end of file)."""
        calls = list(self.calls.values())
        self.calls.clear()
        yield from calls
