#!/bin/sh
# Capture tests/logdata/structlog-sync.log: the stdout of scripts/logdata/programs/inventory_sync.py, a
# Python worker logging JSON lines with structlog (string levels: debug/info/warning/error, the message
# under "event", an ISO timestamp, tracebacks as an "exception" string) while it syncs 420 items from its
# own HTTP server on 127.0.0.1; 3 items are missing (404), 4 have a stale checksum, one page fails (500)
# and one store write fails. It exits 1. structlog is installed from PyPI into a temporary directory.
# usage: scripts/logdata/structlog_sync.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/rtk-structlog.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip install -q --target "$tmp/lib" structlog
out="$repo/tests/logdata/structlog-sync.log"
ver=$(PYTHONPATH="$tmp/lib" python3 -c 'import importlib.metadata as m; print(m.version("structlog"))')
rc=0; PYTHONPATH="$tmp/lib" python3 "$here/programs/inventory_sync.py" 18391 "$tmp/store" > "$out" || rc=$?
python3 "$here/record.py" structlog-sync --kind log-file --argv '["cat", "logs/inventory-sync.log"]' \
  --command "python3 scripts/logdata/programs/inventory_sync.py 18391 STORE > LOGFILE" --exit $rc \
  --script scripts/logdata/structlog_sync.sh --tool "$(python3 --version)" --tool "structlog $ver"
