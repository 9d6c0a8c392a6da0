#!/bin/sh
# Capture tests/logdata/node-jsonl.log: the stdout of scripts/logdata/programs/fleet_api.js, a Node
# HTTP service logging JSON lines with pino/bunyan numeric levels (30 info, 40 warn, 50 error,
# 60 fatal) under its own bounded client loop on 127.0.0.1; it ends with a fatal line and exit 1.
# usage: scripts/logdata/node_jsonl.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out="$repo/tests/logdata/node-jsonl.log"
rc=0; node "$here/programs/fleet_api.js" 18290 > "$out" || rc=$?
python3 "$here/record.py" node-jsonl --kind log-file --argv '["cat", "logs/fleet-api.log"]' \
  --command "node scripts/logdata/programs/fleet_api.js 18290 > LOGFILE" --exit $rc \
  --script scripts/logdata/node_jsonl.sh --tool "node $(node --version)"
