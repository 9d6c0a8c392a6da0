#!/bin/sh
# Capture tests/logdata/http-server.log: Python's http.server (python3 -m http.server, its log on stderr to a file)
# on 127.0.0.1 under a bounded local load of a few seconds: ~400 GETs of a few static files, among them missing
# files (404), a directory listing, a HEAD, a POST it does not support (501) and a bad request line (400).
# Session "foldsave" wrote this scenario and its facts down before capturing it and before rtk's fold ran on it:
# the first line, every 4xx/5xx line and the error message line before each, every line seen at most 3 times
# (candidates.py), the last line. It tests that session's rule that a fold line lists no values of a time field
# (the log's second-resolution times take few values in a burst) on data it was not tuned to.
# usage: scripts/logdata/http_server.sh   (needs python3 and curl)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
port=18088
tmp=$(mktemp -d /tmp/rtk-http-server.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/www/docs" "$tmp/www/data"
for n in 1 2 3 4 5; do printf '<h1>doc %s</h1>\n' "$n" > "$tmp/www/docs/doc$n.html"; done
printf '<h1>home</h1>\n' > "$tmp/www/index.html"
printf 'a,b\n1,2\n' > "$tmp/www/data/table.csv"
(cd "$tmp/www" && exec python3 -u -m http.server --bind 127.0.0.1 "$port" 2> "$tmp/http.log" >/dev/null) & pid=$!
sleep 1
c() { curl -s -o /dev/null -A "rtk-load/1.0" "$@" || true; }
u="http://127.0.0.1:$port"
i=1
while [ $i -le 130 ]; do
  c "$u/"
  c "$u/docs/doc$((i % 5 + 1)).html"
  c "$u/data/table.csv"
  [ $((i % 40)) -eq 0 ] && c "$u/docs/doc$((i / 40 + 6)).html"   # 404: doc7..doc9
  i=$((i+1))
done
c "$u/docs/"                    # a directory listing
c -I "$u/index.html"            # HEAD
c -X POST -d 'x=1' "$u/"        # 501: unsupported method
printf 'BREW /pot HTTP/1.1\r\n\r\n' | curl -s -o /dev/null telnet://127.0.0.1:$port --max-time 1 || true   # 501
printf 'nonsense\r\n\r\n' | curl -s -o /dev/null telnet://127.0.0.1:$port --max-time 1 || true             # 400
i=131
while [ $i -le 160 ]; do c "$u/"; c "$u/docs/doc$((i % 5 + 1)).html"; i=$((i+1)); done
sleep 0.5
kill $pid; wait $pid 2>/dev/null || true; pid=""
cp "$tmp/http.log" "$repo/tests/logdata/http-server.log"
python3 "$here/record.py" http-server --kind log-file --argv '["cat", "logs/http.log"]' \
  --command "python3 -m http.server --bind 127.0.0.1 (stderr to a file); curl workload; SIGTERM" \
  --exit 0 --script scripts/logdata/http_server.sh --tool "$(python3 --version)" --tool "$(curl --version | head -1)"
