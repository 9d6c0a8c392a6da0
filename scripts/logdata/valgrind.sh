#!/bin/sh
# Capture tests/logdata/valgrind-memcheck.log: valgrind memcheck (Debian valgrind) of a small C
# record indexer with real bugs (scripts/logdata/programs/leaky_index.c: uninitialised value,
# read past a block, use after free, leaks from several stacks), its stdout and valgrind's
# report interleaved as a terminal shows them (2>&1): 240 progress lines, error blocks, leak summary.
# usage: scripts/logdata/valgrind.sh   (installs valgrind with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v valgrind >/dev/null 2>&1 || apt-get install -y -q valgrind >/dev/null
tmp=$(mktemp -d /tmp/rtk-valgrind.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
gcc -g -O0 -o "$tmp/leaky_index" "$here/programs/leaky_index.c"
cd "$tmp"
rc=0
valgrind --leak-check=full --show-leak-kinds=all --track-origins=yes --error-exitcode=3 \
  ./leaky_index > "$tmp/out.log" 2>&1 || rc=$?
cp "$tmp/out.log" "$repo/tests/logdata/valgrind-memcheck.log"
python3 "$here/record.py" valgrind-memcheck --kind output \
  --argv '["valgrind", "--leak-check=full", "--show-leak-kinds=all", "--track-origins=yes", "./leaky_index"]' \
  --command "valgrind --leak-check=full --show-leak-kinds=all --track-origins=yes --error-exitcode=3 ./leaky_index (2>&1)" \
  --exit $rc --script scripts/logdata/valgrind.sh --tool "$(valgrind --version)" --tool "$(gcc --version | head -1)"
