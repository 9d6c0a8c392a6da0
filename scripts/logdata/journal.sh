#!/bin/sh
# Capture tests/logdata/journalctl-unit.log: `journalctl --user -u ingest.service` of a real systemd
# unit that fails and is restarted by systemd until its start limit is hit.
# This machine has no systemd as PID 1, so in a private mount namespace (unshare -m; a tmpfs over
# /run/systemd and /run/log, so nothing outside changes) it starts the real systemd-journald and a
# real `systemd --user` manager for the unprivileged user postgres, and runs the unit there.
# usage: scripts/logdata/journal.sh   (as root)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
user=${RTK_LOG_USER:-postgres}
tmp=$(mktemp -d /tmp/rtk-journal.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -p "$tmp/home/.config/systemd/user" "$tmp/run"
cat > "$tmp/home/.config/systemd/user/ingest.service" <<UNIT
[Unit]
Description=Nightly manifest ingest
StartLimitIntervalSec=60
StartLimitBurst=5

[Service]
Type=simple
ExecStart=/usr/bin/python3 $tmp/home/ingest.py
Restart=on-failure
RestartSec=1
UNIT
cat > "$tmp/home/ingest.py" <<'PY'
import os, sys, time
print("ingest: connecting to manifest store at 127.0.0.1:6543", flush=True)
for i in range(1, 9):
    print(f"ingest: loaded manifest chunk {i}/8 ({i * 512} records)", flush=True)
    time.sleep(0.05)
print("ingest: WARNING checksum mismatch in chunk 8, retrying once", file=sys.stderr, flush=True)
try:
    open("/nonexistent/manifests/2026-11-24.json")
except OSError as e:
    print(f"ingest: ERROR cannot open today's manifest: {e}", file=sys.stderr, flush=True)
    raise
PY
chown -R "$user" "$tmp/home" "$tmp/run"
chmod 700 "$tmp/run"
unshare -m --propagation private sh -eu -c '
  tmp=$1 user=$2 out=$3
  mount -t tmpfs tmpfs /run/systemd
  mount -t tmpfs tmpfs /run/log
  mkdir -p /run/systemd/system /run/systemd/journal
  /lib/systemd/systemd-journald & jd=$!
  sleep 1
  runuser -u "$user" -- env HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" /lib/systemd/systemd --user >/dev/null 2>&1 & sd=$!
  sleep 2
  uctl() { runuser -u "$user" -- env HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" systemctl --user "$@"; }
  uctl start ingest.service || true
  sleep 12
  uctl status ingest.service --no-pager >/dev/null 2>&1 || true
  runuser -u "$user" -- env HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/run" journalctl --user -u ingest.service --no-pager > "$out" 2>&1 || true
  [ -s "$out" ] || journalctl --no-pager _SYSTEMD_USER_UNIT=ingest.service + USER_UNIT=ingest.service > "$out" 2>&1 || true
  kill $sd; sleep 1; kill $jd; wait $jd 2>/dev/null || true
' sh "$tmp" "$user" "$tmp/journal.txt"
cp "$tmp/journal.txt" "$repo/tests/logdata/journalctl-unit.log"
python3 "$here/record.py" journalctl-unit --kind output --argv '["journalctl", "--user", "-u", "ingest.service"]' \
  --command "journalctl --user -u ingest.service --no-pager (systemd-journald and systemd --user in a private mount namespace)" \
  --exit 0 --script scripts/logdata/journal.sh --tool "$(journalctl --version | head -1)"
