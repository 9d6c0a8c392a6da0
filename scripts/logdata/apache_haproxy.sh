#!/bin/sh
# Capture tests/logdata/apache-access.log and haproxy.log: apache2 from Debian
# (mpm_event, a CGI endpoint that fails with 500, missing files 404, a forbidden dir 403, error log
# at LogLevel info) behind haproxy from Debian (logs to stdout, httplog; backend "app" has apache and
# a server that is down, so health checks mark it DOWN; backend "legacy" has no server up: 503).
# A fixed, seeded list of 1,000 requests is sent through haproxy by curl, 4 clients in parallel.
# usage: scripts/logdata/apache_haproxy.sh   (as root; installs apache2 and haproxy if missing)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
command -v apache2 >/dev/null 2>&1 || apt-get install -y -q apache2 >/dev/null
command -v haproxy >/dev/null 2>&1 || apt-get install -y -q haproxy >/dev/null
aport=18180; hport=18181
tmp=$(mktemp -d /tmp/rtk-apache.XXXXXX)
chmod 755 "$tmp"
cleanup() {
  [ -f "$tmp/haproxy.pid" ] && kill "$(cat "$tmp/haproxy.pid")" 2>/dev/null
  [ -f "$tmp/httpd.pid" ] && kill "$(cat "$tmp/httpd.pid")" 2>/dev/null
  sleep 1; rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/html/static" "$tmp/html/private" "$tmp/cgi" "$tmp/logs"
echo '<h1>fleet</h1>' > "$tmp/html/index.html"
echo 'secret' > "$tmp/html/private/keys.txt"
for f in app.js app.css; do head -c 3000 /dev/urandom > "$tmp/html/static/$f"; done
cat > "$tmp/cgi/report.py" <<'PY'
#!/usr/bin/python3
import os, sys
q = os.environ.get("QUERY_STRING", "")
if "year=1999" in q:
    raise ValueError(f"no data for query {q!r}")
print("Content-Type: text/plain\n\nreport ok")
PY
chmod -R a+rX "$tmp/html" "$tmp/cgi"; chmod 755 "$tmp/cgi/report.py"
m=/usr/lib/apache2/modules
cat > "$tmp/httpd.conf" <<CONF
ServerRoot $tmp
ServerName fleet.local
PidFile $tmp/httpd.pid
Listen 127.0.0.1:$aport
LoadModule mpm_event_module $m/mod_mpm_event.so
LoadModule authz_core_module $m/mod_authz_core.so
LoadModule mime_module $m/mod_mime.so
LoadModule dir_module $m/mod_dir.so
LoadModule alias_module $m/mod_alias.so
LoadModule cgid_module $m/mod_cgid.so
User www-data
Group www-data
ScriptSock $tmp/cgid.sock
TypesConfig /etc/mime.types
DocumentRoot $tmp/html
DirectoryIndex index.html
ErrorLog $tmp/logs/error.log
LogLevel info
LogFormat "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\"" combined
CustomLog $tmp/logs/access.log combined
ScriptAlias /cgi-bin/ $tmp/cgi/
<Directory $tmp/html>
  Require all granted
</Directory>
<Directory $tmp/html/private>
  Require all denied
</Directory>
<Directory $tmp/cgi>
  Require all granted
</Directory>
CONF
cat > "$tmp/haproxy.cfg" <<CONF
global
  log stdout format raw local0 info
  pidfile $tmp/haproxy.pid
defaults
  mode http
  log global
  option httplog
  timeout connect 1s
  timeout client 5s
  timeout server 5s
frontend web
  bind 127.0.0.1:$hport
  use_backend legacy if { path_beg /legacy/ }
  default_backend app
backend app
  balance roundrobin
  option httpchk GET /index.html
  default-server inter 500ms fall 2 rise 2
  server apache1 127.0.0.1:$aport check
  server apache2 127.0.0.1:18199 check
backend legacy
  server old1 127.0.0.1:18198 check inter 500ms
CONF
apache2 -f "$tmp/httpd.conf" -k start
haproxy -f "$tmp/haproxy.cfg" -db > "$tmp/haproxy.out" 2>&1 &
hpid=$!
sleep 2
python3 - "$hport" > "$tmp/urls" <<'PY'
import random, sys
port = sys.argv[1]
rnd = random.Random(6)
paths = (["/", "/index.html"] * 20 + ["/static/app.js", "/static/app.css"] * 15
         + [f"/cgi-bin/report.py?year={y}" for y in range(2015, 2025)])
rare = ["/cgi-bin/report.py?year=1999"] * 3 + ["/private/keys.txt"] * 2 + ["/legacy/ports"] * 3 + [
    "/wp-admin/", "/.git/config", "/static/old.js", "/favicon.ico"]
for _ in range(1000):
    p = rnd.choice(rare) if rnd.random() < 0.03 else rnd.choice(paths)
    print(f"http://127.0.0.1:{port}{p}")
PY
split -n l/4 "$tmp/urls" "$tmp/part."
pids=""
for part in "$tmp"/part.*; do
  (while read -r u; do curl -s -o /dev/null -A "fleetcheck/2.1" "$u"; done < "$part") &
  pids="$pids $!"
done
# shellcheck disable=SC2086
wait $pids   # the clients only (the committed capture waited for haproxy too: it ran ~10 min, health checks included)
kill -USR1 "$hpid" 2>/dev/null || true  # soft stop
apache2 -f "$tmp/httpd.conf" -k graceful-stop
sleep 2
cp "$tmp/logs/access.log" "$repo/tests/logdata/apache-access.log"
# the error log (92 lines at LogLevel info in the first run) is below the 300-line floor: not kept
cp "$tmp/haproxy.out" "$repo/tests/logdata/haproxy.log"
ver=$(apache2 -v | head -1); hver=$(haproxy -v | head -1); cver=$(curl --version | head -1)
python3 "$here/record.py" apache-access --kind log-file --argv '["cat", "/var/log/apache2/access.log"]' \
  --command "apache2 -k start; curl load through haproxy; apache2 -k graceful-stop" --exit 0 \
  --script scripts/logdata/apache_haproxy.sh --tool "$ver" --tool "$cver"
python3 "$here/record.py" haproxy --kind log-file --argv '["cat", "/var/log/haproxy.log"]' \
  --command "haproxy -f haproxy.cfg -db (stdout log); curl load; SIGUSR1" --exit 0 \
  --script scripts/logdata/apache_haproxy.sh --tool "$hver"
