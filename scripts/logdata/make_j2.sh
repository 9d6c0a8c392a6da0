#!/bin/sh
# Capture tests/logdata/make-j2-gcc.log: `make -j2` of a real C code base on this machine, mypyc's
# runtime library (site-packages/mypyc/lib-rt, the C sources mypy ships), compiled object by object
# with gcc -Wall -Wextra -Wpedantic -Wconversion against the Python headers: long output that no
# rtk filter knows (warnings with their caret lines and notes), ending in the archive step.
# usage: scripts/logdata/make_j2.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
src=$(python3 -c 'import mypyc, os; print(os.path.join(os.path.dirname(mypyc.__file__), "lib-rt"))')
inc=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
tmp=$(mktemp -d /tmp/rtk-make.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp -r "$src" "$tmp/lib-rt"
cd "$tmp/lib-rt"
objs=$(ls *.c | sed 's/\.c$/.o/' | tr '\n' ' ')
cat > Makefile <<MK
CC = gcc
CFLAGS = -O1 -fPIC -Wall -Wextra -Wpedantic -Wconversion -I. -I$inc
OBJS = $objs
all: libmypycrt.a
libmypycrt.a: \$(OBJS)
	ar rcs \$@ \$(OBJS)
%.o: %.c
	\$(CC) \$(CFLAGS) -c -o \$@ \$<
MK
rc=0; make -j2 > "$tmp/out.log" 2>&1 || rc=$?
cp "$tmp/out.log" "$repo/tests/logdata/make-j2-gcc.log"
python3 "$here/record.py" make-j2-gcc --kind output --argv '["make", "-j2"]' \
  --command "make -j2 (2>&1) over mypyc/lib-rt/*.c, gcc -Wall -Wextra -Wpedantic -Wconversion" --exit $rc \
  --script scripts/logdata/make_j2.sh --tool "$(gcc --version | head -1)" --tool "$(make --version | head -1)"
