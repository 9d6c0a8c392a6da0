#!/bin/sh
# Capture tests/logdata/lighttpd-access.log: lighttpd's (Debian) access log on 127.0.0.1 under a bounded
# local load: static pages and assets, a directory with listing off (403), a file it may not read (403),
# missing files (404), a wrong method (501/405), a HEAD, a range request (206), a conditional GET (304),
# a long URL and a bad Host header (400). The error log of the same run is too short to keep (see README).
# usage: scripts/logdata/lighttpd.sh   (as root; installs lighttpd and curl with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v lighttpd >/dev/null 2>&1 || apt-get install -y -q lighttpd curl >/dev/null
port=18086
tmp=$(mktemp -d /tmp/rtk-lighttpd.XXXXXX)
pid=""
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -p "$tmp/www/docs" "$tmp/www/assets" "$tmp/www/private" "$tmp/log"
for n in 1 2 3 4 5 6; do printf '<h1>page %s</h1>\n' "$n" > "$tmp/www/docs/page$n.html"; done
printf '<h1>home</h1>\n' > "$tmp/www/index.html"
head -c 40000 /dev/zero | tr '\0' 'a' > "$tmp/www/assets/app.js"
printf 'body{margin:0}\n' > "$tmp/www/assets/site.css"
printf 'secret\n' > "$tmp/www/private/key.txt"; chmod 000 "$tmp/www/private/key.txt"
chown -R www-data "$tmp/log" 2>/dev/null || true
cat > "$tmp/lighttpd.conf" <<CONF
server.document-root = "$tmp/www"
server.bind = "127.0.0.1"
server.port = $port
server.username = "www-data"
server.groupname = "www-data"
server.errorlog = "$tmp/log/error.log"
server.modules = ("mod_accesslog")
accesslog.filename = "$tmp/log/access.log"
index-file.names = ("index.html")
dir-listing.activate = "disable"
mimetype.assign = (".html" => "text/html", ".js" => "text/javascript", ".css" => "text/css", ".txt" => "text/plain")
CONF
lighttpd -D -f "$tmp/lighttpd.conf" & pid=$!
sleep 1
c() { curl -s -o /dev/null -A "rtk-load/1.0" "$@" || true; }
u="http://127.0.0.1:$port"
i=1
while [ $i -le 60 ]; do
  c "$u/"
  c "$u/docs/page$((i % 6 + 1)).html"
  c "$u/assets/app.js"
  c "$u/assets/site.css"
  [ $((i % 10)) -eq 0 ] && c "$u/docs/page$((i / 10 + 6)).html"   # 404 for pages 7..11
  [ $((i % 7)) -eq 0 ] && c -H 'If-Modified-Since: Sun, 01 Jan 2040 00:00:00 GMT' "$u/assets/site.css"
  i=$((i+1))
done
c "$u/private/"
c "$u/private/key.txt"
c -I "$u/docs/page1.html"
c -r 0-1023 "$u/assets/app.js"
c -X DELETE "$u/docs/page1.html"
c -X PROPFIND "$u/docs/"
c -H 'Host: bad host name' "$u/"
c "$u/.env"
c "$u/docs/$(head -c 300 /dev/zero | tr '\0' 'x').html"
i=61
while [ $i -le 90 ]; do c "$u/"; c "$u/docs/page$((i % 6 + 1)).html"; c "$u/assets/app.js"; i=$((i+1)); done
sleep 0.5
kill $pid; wait $pid 2>/dev/null || true; pid=""
cp "$tmp/log/access.log" "$repo/tests/logdata/lighttpd-access.log"
wc -l "$tmp/log/error.log" >&2
python3 "$here/record.py" lighttpd-access --kind log-file --argv '["tail", "-n", "1000", "/var/log/lighttpd/access.log"]' \
  --command "lighttpd -D -f lighttpd.conf (mod_accesslog); curl workload; SIGTERM" --exit 0 \
  --script scripts/logdata/lighttpd.sh --tool "$(lighttpd -v | head -1)" --tool "$(curl --version | head -1)"
