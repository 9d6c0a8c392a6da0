#!/bin/sh
# Capture tests/logdata/gunicorn.log: gunicorn (PyPI) serving scripts/logdata/programs/fleet_wsgi.py on
# 127.0.0.1 with 2 workers, access and error log in one file, under a bounded load of 360 requests
# (health checks, list and item reads, 404s, two requests whose handler raises, one that outlives
# --timeout so the worker is killed and replaced), then SIGTERM.
# usage: scripts/logdata/gunicorn.sh   (installs gunicorn into a throwaway venv with pip)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
port=18081
tmp=$(mktemp -d /tmp/rtk-gunicorn.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install -q gunicorn
cp "$here/programs/fleet_wsgi.py" "$tmp/"
cd "$tmp"
"$tmp/venv/bin/gunicorn" --bind 127.0.0.1:$port --workers 2 --timeout 2 --log-level info \
  --access-logfile "$tmp/gunicorn.log" --error-logfile "$tmp/gunicorn.log" fleet_wsgi:app & pid=$!
sleep 2
python3 - $port <<'PY'
import sys, urllib.error, urllib.request
port = sys.argv[1]
def get(path, timeout=10):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout).read()
    except urllib.error.HTTPError:
        pass
    except Exception as e:  # the killed worker's request
        print("client:", path, type(e).__name__)
for i in range(360):
    if i == 120 or i == 250:
        get("/api/vessels/boom")
    elif i == 200:
        get("/api/vessels/slow")
    elif i % 3 == 0:
        get("/health")
    elif i % 17 == 0:
        get(f"/api/vessels/{100 + i}")
    elif i % 29 == 0:
        get("/admin/login")
    elif i % 5 == 0:
        get("/api/vessels")
    else:
        get(f"/api/vessels/{1 + i % 39}")
PY
sleep 1
kill $pid; wait $pid 2>/dev/null || true; pid=""
cp "$tmp/gunicorn.log" "$repo/tests/logdata/gunicorn.log"
python3 "$here/record.py" gunicorn --kind log-file --argv '["cat", "logs/gunicorn.log"]' \
  --command "gunicorn --workers 2 --timeout 2 --access-logfile F --error-logfile F fleet_wsgi:app; 360 requests; SIGTERM" \
  --exit 0 --script scripts/logdata/gunicorn.sh --tool "$("$tmp/venv/bin/gunicorn" --version)"
