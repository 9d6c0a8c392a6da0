#!/bin/sh
# Capture tests/logdata/journalctl-service.log: real `journalctl` output for a service that fails
# and is restarted until it gives up.
# This machine has no systemd as PID 1 (a `systemd --user` manager refused to start here), so
# there is no unit manager: in a private mount namespace (tmpfs over /run/systemd, /run/log and
# /var/log/journal, so nothing outside changes) the real systemd-journald runs, and a small
# supervisor loop (below, plain sh) starts the real Python program scripts/logdata/programs/
# ingest_service.py up to 5 times, each run's stdout and stderr going to the journal through
# `systemd-cat` (stderr at priority err). The supervisor logs its own decisions under its own
# identifier; nothing here pretends to be systemd. journalctl then reads the journal as an agent
# would (`journalctl -t ingest -t ingest-supervisor --no-pager`).
# usage: scripts/logdata/journal.sh   (as root)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/rtk-journal.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unshare -m --propagation private sh -eu -c '
  here=$1 out=$2
  for d in /run/systemd /run/log /var/log/journal; do mkdir -p "$d"; mount -t tmpfs tmpfs "$d"; done
  mkdir -p /run/systemd/journal
  /lib/systemd/systemd-journald & jd=$!
  sleep 1
  attempt=1
  while :; do
    rc=0
    systemd-cat -t ingest --stderr-priority=err python3 "$here/programs/ingest_service.py" "$attempt" || rc=$?
    if [ "$attempt" -ge 5 ]; then
      echo "ingest exited with status $rc on attempt $attempt of 5; giving up" | systemd-cat -t ingest-supervisor -p err
      break
    fi
    echo "ingest exited with status $rc; restarting in 1s (attempt $((attempt + 1)) of 5)" | systemd-cat -t ingest-supervisor -p warning
    attempt=$((attempt + 1))
    sleep 1
  done
  sleep 1
  journalctl -t ingest -t ingest-supervisor --no-pager > "$out" 2>&1
  kill $jd; wait $jd 2>/dev/null || true
' sh "$here" "$tmp/journal.txt"
cp "$tmp/journal.txt" "$repo/tests/logdata/journalctl-service.log"
python3 "$here/record.py" journalctl-service --kind output \
  --argv '["journalctl", "-t", "ingest", "-t", "ingest-supervisor", "--no-pager"]' \
  --command "journalctl -t ingest -t ingest-supervisor --no-pager (systemd-journald in a private mount namespace; no unit manager)" \
  --exit 0 --script scripts/logdata/journal.sh --tool "$(journalctl --version | head -1)"
