"""An inventory sync worker logging JSON lines with structlog (scripts/logdata/structlog_sync.sh captures it).

It serves a small catalogue over HTTP on 127.0.0.1, fetches every item page with urllib, checks each
item's bytes against the checksum the catalogue lists, writes them to a local store, and logs every step
as a structlog event (ISO timestamp, level name, event, fields). A few items are missing (404), a few
have a bad checksum (warning), one page makes the server fail (500) and one store write hits a
stale directory in the store (error with the exception). Usage: inventory_sync.py PORT STORE_DIR
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request

import structlog

ITEMS = 420
MISSING = {57, 133, 290}  # the catalogue lists them, the server has no page for them
BAD_SUM = {88, 211, 305, 377}  # the catalogue's checksum is stale
BROKEN = 250  # the server fails on this one
WAREHOUSES = ("ams-1", "ams-2", "rtm-1")


def body(sku: int) -> bytes:
    return json.dumps({"sku": f"SKU-{sku:05d}", "stock": (sku * 37) % 200, "name": f"part {sku}"}).encode()


def listed_sum(sku: int) -> str:
    data = body(sku) if sku not in BAD_SUM else body(sku) + b" "
    return hashlib.sha256(data).hexdigest()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        t0 = time.perf_counter()
        sku = int(self.path.rsplit("/", 1)[-1]) if self.path.startswith("/items/") else -1
        if sku == BROKEN:
            status, data = 500, b"internal error"
        elif sku < 0 or sku in MISSING:
            status, data = 404, b"not found"
        else:
            status, data = 200, body(sku)
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        log = structlog.get_logger("http")
        ms = round((time.perf_counter() - t0) * 1000, 3)
        if status >= 500:
            log.error("request failed", method="GET", path=self.path, status=status, duration_ms=ms)
        elif status >= 400:
            log.warning("request not found", method="GET", path=self.path, status=status, duration_ms=ms)
        else:
            log.info("request served", method="GET", path=self.path, status=status, duration_ms=ms)

    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> int:
    port, store = int(sys.argv[1]), sys.argv[2]
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        logger_factory=structlog.PrintLoggerFactory(sys.stdout),
    )
    log = structlog.get_logger("sync").bind(worker="sync-1")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    log.info("worker started", port=port, store=store, items=ITEMS, pid=os.getpid())
    os.makedirs(store, exist_ok=True)
    os.makedirs(os.path.join(store, "00400.json"), exist_ok=True)  # a stale directory where item 400 goes
    synced = failed = mismatched = 0
    written = 0
    for sku in range(1, ITEMS + 1):
        wh = WAREHOUSES[sku % len(WAREHOUSES)]
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/items/{sku}", timeout=5) as r:
                data = r.read()
        except urllib.error.HTTPError as e:
            failed += 1
            log.warning("item fetch failed", sku=f"SKU-{sku:05d}", status=e.code, warehouse=wh)
            continue
        got = hashlib.sha256(data).hexdigest()
        if got != listed_sum(sku):
            mismatched += 1
            log.warning("checksum mismatch", sku=f"SKU-{sku:05d}", expected=listed_sum(sku)[:16], got=got[:16])
            continue
        target = os.path.join(store, f"{sku:05d}.json")
        try:
            with open(target, "wb") as f:
                f.write(data)
        except OSError:
            failed += 1
            log.error("store write failed", sku=f"SKU-{sku:05d}", path=target, exc_info=True)
            continue
        synced += 1
        written += len(data)
        log.debug("item stored", sku=f"SKU-{sku:05d}", warehouse=wh, bytes=len(data))
        if sku % 100 == 0:
            log.info("progress", done=sku, total=ITEMS, synced=synced, bytes=written)
    server.shutdown()
    log.info("sync finished", synced=synced, failed=failed, mismatched=mismatched, bytes=written)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
