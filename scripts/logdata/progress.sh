#!/bin/sh
# Capture tests/logdata/progress-import.log: the output (2>&1) of a real data import,
# scripts/logdata/programs/import_readings.py, over a seeded CSV of 40,000 sensor readings with
# a few malformed rows: 400 progress lines, the warnings, a summary; exit 1 as rows were skipped.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/rtk-import.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/readings.csv" <<'PY'
import random, sys
rnd = random.Random(400)
bad = {5123: "n/a", 17777: "", 29001: "999.0", 38250: "21,4"}
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write("station,ts,temp_c,humidity\n")
    for i in range(1, 40001):
        temp = bad.get(i, f"{rnd.gauss(12, 6):.1f}")
        f.write(f"ST{rnd.randint(1, 40):03d},2026-03-{1 + i // 1440:02d}T{i // 60 % 24:02d}:{i % 60:02d},\"{temp}\",{rnd.uniform(20, 95):.0f}\n")
PY
cd "$tmp"
rc=0; python3 "$here/programs/import_readings.py" readings.csv readings.db > "$repo/tests/logdata/progress-import.log" 2>&1 || rc=$?
python3 "$here/record.py" progress-import --kind output --argv '["python3", "scripts/import_readings.py", "readings.csv", "readings.db"]' \
  --command "python3 import_readings.py readings.csv readings.db (2>&1)" --exit $rc \
  --script scripts/logdata/progress.sh --tool "$(python3 --version)"
