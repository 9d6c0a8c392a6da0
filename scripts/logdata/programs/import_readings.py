"""Import a CSV of sensor readings into SQLite, printing progress (source of tests/logdata/progress-import.log).

usage: python3 import_readings.py CSV DB
Prints a progress line every 100 rows, a warning for each malformed row, and a summary.
"""

from __future__ import annotations

import csv
import sqlite3
import sys
import time


def main() -> int:
    src, dbpath = sys.argv[1], sys.argv[2]
    db = sqlite3.connect(dbpath)
    db.execute("CREATE TABLE IF NOT EXISTS readings (station TEXT, ts TEXT, temp REAL, humidity REAL)")
    with open(src, newline="", encoding="utf-8") as f:
        total = sum(1 for _ in f) - 1
    print(f"importing {total:,} rows from {src} into {dbpath}", flush=True)
    t0 = time.perf_counter()
    ok = skipped = 0
    with open(src, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        for n, row in enumerate(reader, 1):
            try:
                temp = float(row["temp_c"])
                hum = float(row["humidity"])
                if not -60 <= temp <= 60:
                    raise ValueError(f"temperature {temp} out of range")
                db.execute("INSERT INTO readings VALUES (?, ?, ?, ?)", (row["station"], row["ts"], temp, hum))
                ok += 1
            except (ValueError, KeyError) as e:
                skipped += 1
                print(f"WARNING: row {n + 1}: skipped ({e})", file=sys.stderr, flush=True)
            if n % 100 == 0:
                db.commit()
                rate = n / (time.perf_counter() - t0)
                print(f"[{n:>6}/{total}] {100 * n / total:5.1f}%  {rate:,.0f} rows/s", flush=True)
    db.commit()
    secs = time.perf_counter() - t0
    print(f"done: {ok:,} rows imported, {skipped} skipped, {secs:.2f}s", flush=True)
    return 1 if skipped else 0


if __name__ == "__main__":
    raise SystemExit(main())
