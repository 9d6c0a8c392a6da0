#!/bin/sh
# Capture tests/logdata/patch-configure.log: `./configure && make` of GNU patch 2.7.6 from Debian's source archive
# (patch_2.7.6.orig.tar.xz, deb.debian.org), a GNU package rtk's fold was never tuned to (gnulib's checks, an older
# autoconf than sed's). Session "foldfacts2" wrote this scenario to test its rule (in a long group, a field of words
# where one answer fills most lines: the lines of the minority answer shown when they are few beside it; a small
# template whose every line names a different thing shown whole) on data it was not tuned to, and declared the
# facts (the first line, every check answered `no`, config.status's creating lines for Makefile and config.h,
# every warning or error, the last line) from scripts/logdata/candidates.py before rtk's fold ran on it.
# usage: scripts/logdata/patch_configure.sh   (as root; installs gcc make curl xz-utils with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v gcc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 && command -v curl >/dev/null 2>&1 \
  && command -v xz >/dev/null 2>&1 || apt-get install -y -q gcc make curl xz-utils >/dev/null
tmp=$(mktemp -d /tmp/rtk-patch.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
curl -sSf -o "$tmp/patch.tar.xz" http://deb.debian.org/debian/pool/main/p/patch/patch_2.7.6.orig.tar.xz
tar -xJf "$tmp/patch.tar.xz" -C "$tmp"
cd "$tmp/patch-2.7.6"
set +e
sh -c './configure && make' > "$tmp/out.log" 2>&1
code=$?
set -e
cp "$tmp/out.log" "$repo/tests/logdata/patch-configure.log"
python3 "$here/record.py" patch-configure --kind output --argv '["sh", "-c", "./configure && make"]' \
  --command "sh -c './configure && make' of patch-2.7.6 (Debian patch_2.7.6.orig.tar.xz, 2>&1)" --exit $code \
  --script scripts/logdata/patch_configure.sh --tool "$(gcc --version | head -1)" --tool "$(make --version | head -1)"
