#!/bin/sh
# Capture tests/logdata/go-panic.log: the output (stdout and stderr) of `go run .` on
# scripts/logdata/programs/gopanic: 330 log lines, two warnings, then a real runtime panic
# (index out of range) with its goroutine trace; go run reports exit status 2 and exits 1.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/rtk-go.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp "$here/programs/gopanic/main.go" "$here/programs/gopanic/go.mod" "$tmp/"
cd "$tmp"
go build -o /dev/null . # compile first so the capture holds only the run
rc=0; GOFLAGS=-mod=mod go run . > "$repo/tests/logdata/go-panic.log" 2>&1 || rc=$?
python3 "$here/record.py" go-panic --kind output --argv '["go", "run", "."]' \
  --command "go run . (2>&1)" --exit $rc --script scripts/logdata/go_panic.sh --tool "$(go version)"
