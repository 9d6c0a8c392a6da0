#!/bin/sh
# Capture tests/logdata/apt-get-install-s.log: `apt-get install -s libreoffice-writer` on this Debian
# machine (a simulation: nothing is installed), long output with wrapped package lists, one
# Inst and one Conf line per package, and apt's summary line.
# usage: scripts/logdata/apt_simulate.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out="$repo/tests/logdata/apt-get-install-s.log"
rc=0; apt-get install -s libreoffice-writer > "$out" 2>&1 || rc=$?
python3 "$here/record.py" apt-get-install-s --kind output --argv '["apt-get", "install", "-s", "libreoffice-writer"]' \
  --command "apt-get install -s libreoffice-writer (2>&1)" --exit $rc \
  --script scripts/logdata/apt_simulate.sh --tool "$(apt-get --version | head -1)"
