"""Claude Code spend from transcript usage: tokens and cost per period and model, priced part by part.

Prices are USD per million tokens for input, output, 5-minute cache writes, 1-hour cache
writes and cache reads. The built-in table holds Anthropic's list prices for the Claude
models rtk knows (first matching pattern wins); ``economics.prices`` in the config adds
entries that are tried first, each a string::

    "claude-sonnet-4*: input=3 output=15 cache_write=3.75 cache_write_1h=6 cache_read=0.30"

A missing ``cache_write`` is 1.25 x input, ``cache_write_1h`` 2 x input, ``cache_read``
0.1 x input (Anthropic's multipliers). Models no entry matches are reported unpriced,
never guessed.
"""

from __future__ import annotations

import datetime
import fnmatch

from rtk.errors import RtkError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from rtk.history import Usage

FIELDS = ("input", "output", "cache_write", "cache_write_1h", "cache_read")

# pattern, input, output (USD per million tokens); cache prices follow the standard multipliers.
_LIST_PRICES: list[tuple[str, float, float]] = [
    ("claude-opus-4-5*", 5.0, 25.0),
    ("claude-opus-4-6*", 5.0, 25.0),
    ("claude-opus-4*", 15.0, 75.0),
    ("claude-sonnet-4*", 3.0, 15.0),
    ("claude-3-7-sonnet*", 3.0, 15.0),
    ("claude-3-5-sonnet*", 3.0, 15.0),
    ("claude-haiku-4*", 1.0, 5.0),
    ("claude-3-5-haiku*", 0.8, 4.0),
    ("claude-3-haiku*", 0.25, 1.25),
    ("claude-3-opus*", 15.0, 75.0),
]


def _full(inp: float, out: float, **over: float) -> dict[str, float]:
    p = {"input": inp, "output": out, "cache_write": inp * 1.25, "cache_write_1h": inp * 2.0, "cache_read": inp * 0.1}
    p.update(over)
    return p


DEFAULT_PRICES: list[tuple[str, dict[str, float], str]] = [(pat, _full(i, o), "built-in") for pat, i, o in _LIST_PRICES]


def parse_price(entry: str) -> tuple[str, dict[str, float]]:
    """One ``economics.prices`` entry -> (pattern, prices); ValueError says what is wrong."""
    pat, sep, rest = entry.partition(":")
    pat = pat.strip()
    if not sep or not pat:
        raise ValueError("expected 'MODEL-PATTERN: input=N output=N ...'")
    vals: dict[str, float] = {}
    for item in rest.replace(",", " ").split():
        k, eq, v = item.partition("=")
        if not eq or k not in FIELDS:
            raise ValueError(f"unknown price field {item!r} (fields: {', '.join(FIELDS)})")
        try:
            f = float(v)
        except ValueError:
            raise ValueError(f"{k} must be a number (got {v!r})") from None
        if f < 0:
            raise ValueError(f"{k} must not be negative")
        vals[k] = f
    if "input" not in vals or "output" not in vals:
        raise ValueError("input= and output= are required")
    inp = vals.pop("input")
    return pat, _full(inp, vals.pop("output"), **vals)


def price_table() -> list[tuple[str, dict[str, float], str]]:
    """The config's entries (tried first), then the built-in ones."""
    from rtk import config

    table = []
    for entry in config.get("economics.prices"):
        try:
            pat, prices = parse_price(entry)
        except ValueError as e:
            raise RtkError(f"config economics.prices: {entry!r}: {e}") from None
        table.append((pat, prices, "config"))
    return table + DEFAULT_PRICES


def normalize_model(model: str) -> str:
    """``us.anthropic.claude-sonnet-4-5-20250929-v1:0`` / ``claude-opus-4-1@20250805`` -> the plain id."""
    m = model
    i = m.find("claude-")
    if i > 0:
        m = m[i:]
    for sep in ("@", ":"):
        m = m.split(sep, 1)[0]
    if m.endswith(("-v1", "-v2")):
        m = m[:-3]
    return m


def price_for(model: str, table: list[tuple[str, dict[str, float], str]]) -> tuple[str, dict[str, float], str] | None:
    name = normalize_model(model)
    for pat, prices, origin in table:
        if fnmatch.fnmatchcase(name, pat) or fnmatch.fnmatchcase(model, pat):
            return pat, prices, origin
    return None


def period_of(ts: str, period: str) -> str:
    """``daily`` 2026-11-22, ``weekly`` the Sunday starting the week, ``monthly`` 2026-11."""
    day = ts[:10]
    if period == "monthly":
        return day[:7]
    if period == "weekly":
        d = datetime.date.fromisoformat(day)
        return (d - datetime.timedelta(days=(d.weekday() + 1) % 7)).isoformat()
    return day


class Ledger:
    """Token usage summed per period and model; each request counted once."""

    def __init__(self, period: str) -> None:
        self.period = period
        self.rows: dict[tuple[str, str], list[int]] = {}  # (period, model) -> requests, input, output, cw5, cw1h, cr
        self.seen: set[int] = set()
        self.duplicates = 0

    def add(self, u: Usage) -> None:
        if not u.ts:
            return
        h = hash(u.key)
        if h in self.seen:
            self.duplicates += 1  # the same request in a resumed or copied session
            return
        self.seen.add(h)
        r = self.rows.setdefault((period_of(u.ts, self.period), u.model), [0, 0, 0, 0, 0, 0])
        r[0] += 1
        r[1] += u.input
        r[2] += u.output
        r[3] += u.cache_write_5m
        r[4] += u.cache_write_1h
        r[5] += u.cache_read

    def report(self, table: list[tuple[str, dict[str, float], str]]) -> dict[str, Any]:
        periods: dict[str, dict[str, Any]] = {}
        unpriced: set[str] = set()
        priced_by: dict[str, str] = {}
        for (p, model), (req, inp, out, cw5, cw1h, cr) in sorted(self.rows.items()):
            match = price_for(model, table)
            cost: float | None = None
            if match is None:
                unpriced.add(model)
            else:
                pat, pr, origin = match
                priced_by[model] = f"{pat} ({origin})"
                cost = (
                    inp * pr["input"] + out * pr["output"] + cw5 * pr["cache_write"] + cw1h * pr["cache_write_1h"]
                    + cr * pr["cache_read"]
                ) / 1e6  # fmt: skip
            per = periods.setdefault(p, {"period": p, "models": [], "cost": 0.0, "unpriced_tokens": 0})
            per["models"].append(
                {
                    "model": model,
                    "requests": req,
                    "input": inp,
                    "output": out,
                    "cache_write_5m": cw5,
                    "cache_write_1h": cw1h,
                    "cache_read": cr,
                    "cost": None if cost is None else round(cost, 4),
                }
            )
            if cost is None:
                per["unpriced_tokens"] += inp + out + cw5 + cw1h + cr
            else:
                per["cost"] += cost
        for per in periods.values():
            per["cost"] = round(per["cost"], 4)
            top = max(per["models"], key=lambda m: (m["requests"], m["model"]))
            per["main_model"] = top["model"]
        return {
            "periods": [periods[k] for k in sorted(periods)],
            "priced_by": priced_by,
            "unpriced_models": sorted(unpriced),
            "duplicate_requests_skipped": self.duplicates,
        }
