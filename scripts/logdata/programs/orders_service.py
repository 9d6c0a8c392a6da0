"""A small order-processing worker that logs with `logging` (source of tests/logdata/python-service.log).

It processes a seeded queue of orders for real: prices them against a catalogue, reserves
stock in SQLite, retries a flaky payment call, and logs tracebacks when an order breaks.
usage: python3 orders_service.py LOGFILE
"""

from __future__ import annotations

import logging
import random
import sqlite3
import sys
import time

log = logging.getLogger("orders.worker")
pay_log = logging.getLogger("orders.payment")
CATALOGUE = {f"SKU-{i:04d}": round(2.5 + i * 0.75, 2) for i in range(1, 60)}


class PaymentError(RuntimeError):
    pass


def price(items: dict[str, int]) -> float:
    return sum(CATALOGUE[sku] * qty for sku, qty in items.items())


def charge(order_id: int, amount: float, rnd: random.Random) -> str:
    for attempt in range(1, 4):
        if rnd.random() < 0.93:
            return f"ch_{order_id:06d}{attempt}"
        pay_log.warning("payment gateway timeout for order %d (attempt %d/3), retrying", order_id, attempt)
    raise PaymentError(f"payment for order {order_id} failed after 3 attempts")


def reserve(db: sqlite3.Connection, items: dict[str, int]) -> None:
    for sku, qty in items.items():
        (left,) = db.execute("SELECT qty FROM stock WHERE sku = ?", (sku,)).fetchone()
        if left < qty:
            raise ValueError(f"stock for {sku} would go negative ({left} < {qty})")
        db.execute("UPDATE stock SET qty = qty - ? WHERE sku = ?", (qty, sku))


def process(db: sqlite3.Connection, order_id: int, items: dict[str, int], rnd: random.Random) -> None:
    t0 = time.perf_counter()
    try:
        total = price(items)
    except KeyError as e:
        raise LookupError(f"order {order_id} names an unknown product") from e
    reserve(db, items)
    try:
        ref = charge(order_id, total, rnd)
    except PaymentError:
        db.rollback()
        raise
    db.commit()
    ms = (time.perf_counter() - t0) * 1000
    log.info(
        "order %d processed: %d items, total %.2f EUR, charge %s, %.1f ms",
        order_id,
        sum(items.values()),
        total,
        ref,
        ms,
    )


def main() -> int:
    logging.basicConfig(
        filename=sys.argv[1],
        level=logging.INFO,
        format="%(asctime)s %(levelname)-7s [%(name)s] %(message)s",
    )
    rnd = random.Random(1500)
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE stock (sku TEXT PRIMARY KEY, qty INTEGER)")
    db.executemany("INSERT INTO stock VALUES (?, ?)", [(s, rnd.randint(40, 400)) for s in CATALOGUE])
    db.commit()
    log.info("worker starting: %d products in catalogue, queue=orders-eu", len(CATALOGUE))
    done = failed = 0
    for order_id in range(10001, 10341):
        skus = list(CATALOGUE)
        items = {rnd.choice(skus): rnd.randint(1, 9) for _ in range(rnd.randint(1, 4))}
        if order_id in (10077, 10288):
            items["SKU-9999"] = 1  # a product removed from the catalogue
        try:
            process(db, order_id, items, rnd)
            done += 1
        except Exception:
            failed += 1
            log.exception("order %d failed", order_id)
        if order_id % 100 == 0:
            log.info("heartbeat: %d done, %d failed", done, failed)
    log.info("worker stopping: %d orders processed, %d failed", done, failed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
