#!/bin/sh
# Capture tests/logdata/python-service.log: the log file written by a real run of
# scripts/logdata/programs/orders_service.py (Python logging, tracebacks with chained causes).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out="$repo/tests/logdata/python-service.log"
rm -f "$out"
rc=0; python3 "$here/programs/orders_service.py" "$out" || rc=$?
python3 "$here/record.py" python-service --kind log-file --argv '["cat", "logs/orders-worker.log"]' \
  --command "python3 scripts/logdata/programs/orders_service.py LOGFILE" --exit $rc \
  --script scripts/logdata/python_service.sh --tool "$(python3 --version)"
