#!/bin/sh
# Capture tests/logdata/apache-dav.log: apache2's access log (combined format) after a bounded local load on
# 127.0.0.1: a seeded list of ~420 requests, mostly GETs of a few static pages by a reader, among them a
# publishing client's PUT uploads and DELETEs into a WebDAV directory (mod_dav_fs), a monitor's HEAD probes and
# a few missing pages (404), at seeded places. Session "foldgoals2" wrote this scenario and declared its facts
# (the first line, every request whose method is not GET, every 4xx/5xx line, the last line) before rtk's fold
# ran on it.
# usage: scripts/logdata/apache_dav.sh   (as root; installs apache2 and curl with apt-get if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v apache2 >/dev/null 2>&1 || apt-get install -y -q apache2 >/dev/null
command -v curl >/dev/null 2>&1 || apt-get install -y -q curl >/dev/null
port=18183
tmp=$(mktemp -d /tmp/rtk-apache-dav.XXXXXX)
chmod 755 "$tmp"
cleanup() { [ -f "$tmp/httpd.pid" ] && kill "$(cat "$tmp/httpd.pid")" 2>/dev/null; sleep 1; rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -p "$tmp/html/guide" "$tmp/html/upload" "$tmp/logs" "$tmp/dav"
echo '<h1>guide</h1>' > "$tmp/html/index.html"
for p in start config deploy faq; do echo "<h1>$p</h1>" > "$tmp/html/guide/$p.html"; done
head -c 4000 /dev/urandom > "$tmp/html/guide/style.css"
echo 'old notes' > "$tmp/html/upload/notes-2025.txt"
echo 'old draft' > "$tmp/html/upload/draft.txt"
chmod -R a+rX "$tmp/html"; chown -R www-data "$tmp/html/upload" "$tmp/dav"
m=/usr/lib/apache2/modules
cat > "$tmp/httpd.conf" <<CONF
ServerRoot $tmp
ServerName guide.local
PidFile $tmp/httpd.pid
Listen 127.0.0.1:$port
LoadModule mpm_event_module $m/mod_mpm_event.so
LoadModule authz_core_module $m/mod_authz_core.so
LoadModule mime_module $m/mod_mime.so
LoadModule dir_module $m/mod_dir.so
LoadModule dav_module $m/mod_dav.so
LoadModule dav_fs_module $m/mod_dav_fs.so
User www-data
Group www-data
TypesConfig /etc/mime.types
DocumentRoot $tmp/html
DirectoryIndex index.html
DavLockDB $tmp/dav/lock
ErrorLog $tmp/logs/error.log
LogFormat "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\"" combined
CustomLog $tmp/logs/access.log combined
<Directory $tmp/html>
  Require all granted
</Directory>
<Directory $tmp/html/upload>
  Dav On
</Directory>
CONF
apache2 -f "$tmp/httpd.conf" -k start
sleep 1
python3 - "$port" > "$tmp/reqs" <<'PY'
import random, sys
port = sys.argv[1]
rnd = random.Random(15)
pages = ["/", "/guide/start.html", "/guide/config.html", "/guide/deploy.html", "/guide/faq.html", "/guide/style.css"]
odd = {  # seeded places of the other requests
    "HEAD /": 4, "PUT /upload/release-notes.txt": 1, "PUT /upload/changelog.txt": 1, "PUT /upload/draft.txt": 1,
    "DELETE /upload/notes-2025.txt": 1, "DELETE /upload/draft.txt": 1, "GET /guide/old.html": 2,
}
reqs = ["GET " + rnd.choice(pages) for _ in range(410)]
spots = sorted(rnd.sample(range(20, 400), sum(odd.values())))
kinds = [k for k, n in odd.items() for _ in range(n)]
rnd.shuffle(kinds)
for spot, kind in zip(spots, kinds):
    reqs.insert(spot, kind)
# a file is deleted only after it was put (draft.txt): order the two draft requests
if reqs.index("DELETE /upload/draft.txt") < reqs.index("PUT /upload/draft.txt"):
    a, b = reqs.index("DELETE /upload/draft.txt"), reqs.index("PUT /upload/draft.txt")
    reqs[a], reqs[b] = reqs[b], reqs[a]
for r in reqs:
    method, path = r.split(" ", 1)
    print(method, f"http://127.0.0.1:{port}{path}")
PY
while read -r method url; do
  case $method in
    GET) curl -s -o /dev/null -A "guide-reader/3.0" "$url" ;;
    HEAD) curl -s -o /dev/null -I -A "uptime-probe/2.2" "$url" ;;
    PUT) curl -s -o /dev/null -T /etc/hostname -A "publish-sync/0.9" "$url" ;;
    DELETE) curl -s -o /dev/null -X DELETE -A "publish-sync/0.9" "$url" ;;
  esac
done < "$tmp/reqs"
apache2 -f "$tmp/httpd.conf" -k graceful-stop
sleep 1
cp "$tmp/logs/access.log" "$repo/tests/logdata/apache-dav.log"
python3 "$here/record.py" apache-dav --kind log-file --argv '["cat", "/var/log/apache2/access.log"]' \
  --command "apache2 -k start (mod_dav on /upload); curl load on 127.0.0.1; apache2 -k graceful-stop" --exit 0 \
  --script scripts/logdata/apache_dav.sh --tool "$(apache2 -v | head -1)" --tool "$(curl --version | head -1)"
