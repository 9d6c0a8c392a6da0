#!/bin/sh
# Capture tests/logdata/autotools-check.log: `autoreconf -fi && ./configure && make && make check` of a small
# C library (scripts/logdata/programs/autotools_demo: a ring buffer with a resize bug) with Debian's
# autoconf/automake/gcc: configure's checks (some headers and libraries missing, one AC_MSG_WARN), the
# build, then the automake test harness with one failing test (resize), one skipped (peek, exit 77).
# The output of the whole chain (stdout and stderr) is the capture; make check exits 2.
# usage: scripts/logdata/autotools_check.sh   (as root; installs autoconf automake gcc make with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v automake >/dev/null 2>&1 || apt-get install -y -q autoconf automake gcc make >/dev/null
tmp=$(mktemp -d /tmp/rtk-autotools.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp -r "$here/programs/autotools_demo/." "$tmp/"
cd "$tmp"
set +e
sh -c 'autoreconf -fi && ./configure && make && make check' > "$tmp/out.log" 2>&1
code=$?
set -e
cp "$tmp/out.log" "$repo/tests/logdata/autotools-check.log"
python3 "$here/record.py" autotools-check --kind output \
  --argv '["sh", "-c", "autoreconf -fi && ./configure && make && make check"]' \
  --command "sh -c 'autoreconf -fi && ./configure && make && make check' (2>&1)" --exit $code \
  --script scripts/logdata/autotools_check.sh --tool "$(autoconf --version | head -1)" \
  --tool "$(automake --version | head -1)" --tool "$(gcc --version | head -1)" --tool "$(make --version | head -1)"
