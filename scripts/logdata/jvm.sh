#!/bin/sh
# Capture tests/logdata/jvm-ingest.log: the log (stderr, java.util.logging one-line format) of a
# real run of scripts/logdata/programs/Ingest.java on OpenJDK from Debian: stack trace chains
# with "Caused by:" and an uncaught exception at the end (exit 1).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v javac >/dev/null 2>&1 || apt-get install -y -q openjdk-17-jdk-headless >/dev/null
tmp=$(mktemp -d /tmp/rtk-jvm.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
javac -d "$tmp" "$here/programs/Ingest.java"
rc=0
java -Djava.util.logging.SimpleFormatter.format='%1$tF %1$tT.%1$tL %4$-7s [%3$s] %5$s%6$s%n' \
  -cp "$tmp" Ingest 2> "$repo/tests/logdata/jvm-ingest.log" || rc=$?
python3 "$here/record.py" jvm-ingest --kind log-file --argv '["cat", "logs/ingest.log"]' \
  --command "java -Djava.util.logging.SimpleFormatter.format=... -cp CLASSES Ingest 2> ingest.log" --exit $rc \
  --script scripts/logdata/jvm.sh --tool "$(java -version 2>&1 | sed -n 2p)"
