"""Defects found by folding real logs the fold had never seen (tests/logdata, session "unseen2"): one test each."""

from __future__ import annotations

from rtk.fold import data_kind, fold_lines, looks_like_log
from rtk.fold.mask import mask, tokens
from rtk.fold.miner import Miner


def _broker(n: int) -> str:
    """A daemon's own log line: epoch seconds and a colon, then the message (three kinds in turn)."""
    kinds = (
        "New connection from 127.0.0.1:{p} on port 1883.",
        "Sending CONNACK to c-{n} (0, 0)",
        "Client c-{n} disconnected.",
    )
    return f"{1795551994 + n // 40}: " + kinds[n % 3].format(n=n, p=40000 + n)


def test_a_log_stamped_with_epoch_seconds_and_a_colon_is_a_log_not_yaml() -> None:
    lines = [_broker(n) for n in range(300)]
    assert data_kind(lines) is None
    assert looks_like_log(lines)
    out, f = fold_lines(lines)
    assert f.folded > 250 and len(out) < 20
    # YAML stays YAML: keys are words (or short numbers), not 10-digit times
    yaml = [f"key{n}: value {n}" for n in range(50)] + [f"{2000 + n}: year {n}" for n in range(50)]
    assert data_kind(yaml) == "yaml"
    assert not looks_like_log(yaml)


def test_a_field_of_another_kind_makes_another_template() -> None:
    # strace: ``close(3) = 0`` and ``brk(0x55...) = 0x55...`` share only ``=``; a number and a hex address at the
    # same place are two kinds of field, so the lines are two kinds of line (drain3 keeps them apart too).
    m = Miner()
    close = m.add([mask(t) for t in tokens("close(3)                                = 0")])
    brk = m.add([mask(t) for t in tokens("brk(0x557de41a9000)                     = 0x557de41a9000")])
    assert close is not brk
    assert m.add([mask(t) for t in tokens("close(4)                                = 0")]) is close
    # fields of one kind still make one template
    a = m.add(["GET", "<path>", "<n>"])
    assert m.add(["GET", "<path>", "<n>"]) is a
