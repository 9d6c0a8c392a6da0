#!/bin/sh
# Capture tests/logdata/hello-configure.log: `./configure && make` of GNU hello 2.10 from Debian's source archive
# (hello_2.10.orig.tar.gz, deb.debian.org), a project rtk's fold was never tuned to: ~200 `checking ...`
# lines, mostly `yes`, some `no` (headers, functions, gettext pieces this machine lacks), then
# config.status and the build (make's recursion, gcc lines). Session "foldgoals" wrote this scenario and declared its facts (every check answered
# `no`, the first line, the config.status lines, any warning, the last lines) before rtk's fold ran on it.
# usage: scripts/logdata/hello_configure.sh   (as root; installs gcc make curl with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v gcc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 && command -v curl >/dev/null 2>&1 \
  || apt-get install -y -q gcc make curl >/dev/null
tmp=$(mktemp -d /tmp/rtk-hello.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
curl -sSf -o "$tmp/hello.tar.gz" http://deb.debian.org/debian/pool/main/h/hello/hello_2.10.orig.tar.gz
tar -xzf "$tmp/hello.tar.gz" -C "$tmp"
cd "$tmp/hello-2.10"
set +e
sh -c './configure && make' > "$tmp/out.log" 2>&1
code=$?
set -e
cp "$tmp/out.log" "$repo/tests/logdata/hello-configure.log"
python3 "$here/record.py" hello-configure --kind output --argv '["sh", "-c", "./configure && make"]' \
  --command "sh -c './configure && make' of hello-2.10 (Debian hello_2.10.orig.tar.gz, 2>&1)" --exit $code \
  --script scripts/logdata/hello_configure.sh --tool "$(gcc --version | head -1)" --tool "$(make --version | head -1)"
