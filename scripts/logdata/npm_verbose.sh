#!/bin/sh
# Capture tests/logdata/npm-install-verbose.log: `npm install --verbose` (2>&1) of a small
# project with a few dependencies (request, express, glob 7, rimraf 3: old versions, some deprecated),
# into an empty temp dir with an empty npm cache, so every package is really fetched.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/rtk-npm.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > package.json <<'JSON'
{
  "name": "vessel-tracker",
  "version": "0.3.0",
  "private": true,
  "dependencies": {
    "request": "2.88.2",
    "debug": "4.3.4",
    "express": "4.21.2",
    "glob": "7.2.3",
    "ms": "2.1.3",
    "rimraf": "3.0.2"
  }
}
JSON
rc=0; npm install --verbose --cache "$tmp/cache" > "$repo/tests/logdata/npm-install-verbose.log" 2>&1 || rc=$?
python3 "$here/record.py" npm-install-verbose --kind output --argv '["npm", "install", "--verbose"]' \
  --command "npm install --verbose --cache EMPTY (2>&1)" --exit $rc \
  --script scripts/logdata/npm_verbose.sh --tool "npm $(npm --version)" --tool "node $(node --version)"
