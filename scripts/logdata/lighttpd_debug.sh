#!/bin/sh
# Capture tests/logdata/lighttpd-debug.log: lighttpd's (Debian) error log with its request debugging on
# (debug.log-request-handling, debug.log-file-not-found, debug.log-condition-handling off) under a bounded local
# load on 127.0.0.1 lasting a few seconds: ~150 requests for static pages, each logging the same few handling
# lines with a second-resolution timestamp, among them missing files (404), a file it may not read (403) and a
# directory with listing off. Session "foldsave" wrote this scenario and its facts down before capturing it and
# before rtk's fold ran on it: the start line, every line saying a file was not found or access was denied,
# every line seen at most 3 times (candidates.py), the last line. It tests two rules of that session on data
# they were not tuned to: a fold line lists no values of a time field (a burst of seconds), and the live fold
# (rtk run, many windows of the same handling lines) prints one count line per template for its later windows.
# usage: scripts/logdata/lighttpd_debug.sh   (as root; installs lighttpd and curl with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v lighttpd >/dev/null 2>&1 || apt-get install -y -q lighttpd curl >/dev/null
port=18087
tmp=$(mktemp -d /tmp/rtk-lighttpd-debug.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -p "$tmp/www/docs" "$tmp/www/img" "$tmp/www/private" "$tmp/log"
for n in 1 2 3 4; do printf '<h1>doc %s</h1>\n' "$n" > "$tmp/www/docs/doc$n.html"; done
printf '<h1>home</h1>\n' > "$tmp/www/index.html"
head -c 2000 /dev/zero | tr '\0' 'p' > "$tmp/www/img/logo.png"
printf 'secret\n' > "$tmp/www/private/token.txt"; chmod 000 "$tmp/www/private/token.txt"
chown -R www-data "$tmp/log" 2>/dev/null || true
cat > "$tmp/lighttpd.conf" <<CONF
server.document-root = "$tmp/www"
server.bind = "127.0.0.1"
server.port = $port
server.username = "www-data"
server.groupname = "www-data"
server.errorlog = "$tmp/log/error.log"
index-file.names = ("index.html")
dir-listing.activate = "disable"
debug.log-request-handling = "enable"
debug.log-file-not-found = "enable"
mimetype.assign = (".html" => "text/html", ".png" => "image/png", ".txt" => "text/plain")
CONF
lighttpd -D -f "$tmp/lighttpd.conf" & pid=$!
sleep 1
c() { curl -s -o /dev/null -A "rtk-load/1.0" "$@" || true; }
u="http://127.0.0.1:$port"
i=1
while [ $i -le 40 ]; do
  c "$u/"
  c "$u/docs/doc$((i % 4 + 1)).html"
  c "$u/img/logo.png"
  [ $((i % 13)) -eq 0 ] && c "$u/docs/doc$((i / 13 + 6)).html"   # 404: doc7..doc9
  i=$((i+1))
done
c "$u/private/token.txt"   # 403: not readable
c "$u/private/"            # 403: no index, listing off
c "$u/favicon.ico"         # 404
i=41
while [ $i -le 60 ]; do c "$u/"; c "$u/docs/doc$((i % 4 + 1)).html"; i=$((i+1)); done
sleep 0.5
kill $pid; wait $pid 2>/dev/null || true; pid=""
cp "$tmp/log/error.log" "$repo/tests/logdata/lighttpd-debug.log"
python3 "$here/record.py" lighttpd-debug --kind log-file --argv '["cat", "/var/log/lighttpd/error.log"]' \
  --command "lighttpd -D -f lighttpd.conf (debug.log-request-handling, debug.log-file-not-found); curl workload; SIGTERM" \
  --exit 0 --script scripts/logdata/lighttpd_debug.sh --tool "$(lighttpd -v | head -1)" --tool "$(curl --version | head -1)"
