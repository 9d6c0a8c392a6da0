#!/bin/sh
# Capture tests/logdata/gzip-configure.log: `./configure && make` of GNU gzip 1.12 from Debian's source archive
# (gzip_1.12.orig.tar.xz, deb.debian.org), another GNU package rtk's fold was never tuned to: its `checking ...`
# lines (mostly `yes`, some `no`), config.status, then make's recursion and gcc lines. Session "foldgoals2" wrote
# this scenario and declared its facts (the first line, every check answered `no`, config.status's creating lines
# for Makefile and config.h, every warning or error, the last line) before rtk's fold ran on it.
# usage: scripts/logdata/gzip_configure.sh   (as root; installs gcc make curl xz-utils with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v gcc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 && command -v curl >/dev/null 2>&1 \
  && command -v xz >/dev/null 2>&1 || apt-get install -y -q gcc make curl xz-utils >/dev/null
tmp=$(mktemp -d /tmp/rtk-gzip.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
curl -sSf -o "$tmp/gzip.tar.xz" http://deb.debian.org/debian/pool/main/g/gzip/gzip_1.12.orig.tar.xz
tar -xJf "$tmp/gzip.tar.xz" -C "$tmp"
cd "$tmp/gzip-1.12"
set +e
sh -c './configure && make' > "$tmp/out.log" 2>&1
code=$?
set -e
cp "$tmp/out.log" "$repo/tests/logdata/gzip-configure.log"
python3 "$here/record.py" gzip-configure --kind output --argv '["sh", "-c", "./configure && make"]' \
  --command "sh -c './configure && make' of gzip-1.12 (Debian gzip_1.12.orig.tar.xz, 2>&1)" --exit $code \
  --script scripts/logdata/gzip_configure.sh --tool "$(gcc --version | head -1)" --tool "$(make --version | head -1)"
