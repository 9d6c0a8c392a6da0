#!/bin/sh
# Capture tests/logdata/strace-f.log: `strace -f` (Debian strace) of a small C spooler
# (scripts/logdata/programs/spool_workers.c) that forks three workers: one writes its 30 spool
# files, one cannot open its config (ENOENT) and exits 2, one is killed by SIGSEGV halfway.
# strace's trace (stderr) and the program's own lines interleaved, 2>&1, as a terminal shows them.
# usage: scripts/logdata/strace.sh   (installs strace with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v strace >/dev/null 2>&1 || apt-get install -y -q strace >/dev/null
tmp=$(mktemp -d /tmp/rtk-strace.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
gcc -O1 -o "$tmp/spool_workers" "$here/programs/spool_workers.c"
cd "$tmp"
rc=0
strace -f ./spool_workers spool > "$tmp/out.log" 2>&1 || rc=$?
cp "$tmp/out.log" "$repo/tests/logdata/strace-f.log"
python3 "$here/record.py" strace-f --kind output --argv '["strace", "-f", "./spool_workers", "spool"]' \
  --command "strace -f ./spool_workers spool (2>&1)" --exit $rc \
  --script scripts/logdata/strace.sh --tool "$(strace -V | head -1)" --tool "$(gcc --version | head -1)"
