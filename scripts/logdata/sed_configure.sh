#!/bin/sh
# Capture tests/logdata/sed-configure.log: `./configure && make` of GNU sed 4.9 from Debian's source archive
# (sed_4.9.orig.tar.xz, deb.debian.org), another GNU package rtk's fold was never tuned to: its `checking ...`
# lines (mostly `yes`, some `no`, of every length), config.status, then make under automake's quiet rules
# (`  CC       sed/sed-compile.o`, `  GEN      ...`) and gnulib's. Session "foldfacts" wrote this scenario to test
# its rules (the last token of a short line keyed only when a word; rare answers in small groups and in listed
# fields of words) on data they were not tuned to, and declared its facts (the first line, every check answered
# `no`, config.status's creating lines for Makefile and config.h, every warning or error, the last line) from
# scripts/logdata/candidates.py before rtk's fold ran on it.
# usage: scripts/logdata/sed_configure.sh   (as root; installs gcc make curl xz-utils with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v gcc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 && command -v curl >/dev/null 2>&1 \
  && command -v xz >/dev/null 2>&1 || apt-get install -y -q gcc make curl xz-utils >/dev/null
tmp=$(mktemp -d /tmp/rtk-sed.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
curl -sSf -o "$tmp/sed.tar.xz" http://deb.debian.org/debian/pool/main/s/sed/sed_4.9.orig.tar.xz
tar -xJf "$tmp/sed.tar.xz" -C "$tmp"
cd "$tmp/sed-4.9"
set +e
sh -c './configure && make' > "$tmp/out.log" 2>&1
code=$?
set -e
cp "$tmp/out.log" "$repo/tests/logdata/sed-configure.log"
python3 "$here/record.py" sed-configure --kind output --argv '["sh", "-c", "./configure && make"]' \
  --command "sh -c './configure && make' of sed-4.9 (Debian sed_4.9.orig.tar.xz, 2>&1)" --exit $code \
  --script scripts/logdata/sed_configure.sh --tool "$(gcc --version | head -1)" --tool "$(make --version | head -1)"
