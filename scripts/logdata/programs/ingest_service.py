"""A manifest ingest service for scripts/logdata/journal.sh: works through its chunks, then fails.

Attempts 1-3 fail opening today's manifest (the file does not exist); attempts 4-5 fail
connecting to the manifest store (nothing listens on 127.0.0.1:6543). Both errors are real.
"""

import socket
import sys
import time

attempt = int(sys.argv[1]) if len(sys.argv) > 1 else 1
print(f"ingest: starting (attempt {attempt}), store 127.0.0.1:6543, 60 chunks", flush=True)
for i in range(1, 61):
    print(f"ingest: loaded manifest chunk {i}/60 ({i * 512} records, {i * 37 % 1000} ms)", flush=True)
    if i == 42:
        print(f"ingest: WARNING checksum mismatch in chunk {i}, re-reading it once", file=sys.stderr, flush=True)
    time.sleep(0.002)
if attempt <= 3:
    with open("/nonexistent/manifests/2026-11-24.json") as f:
        f.read()
else:
    socket.create_connection(("127.0.0.1", 6543), timeout=2)
